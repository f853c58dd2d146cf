"""How a message shows a value it did not write (a URL, a path, a header, a plan's value):
cut to a length, with ``...`` (pure; core, the GitHub edge and the programs it runs use it)."""

from __future__ import annotations

#: The longest value a message shows, in characters.
LONGEST = 120


def cut(text: str, limit: int = LONGEST) -> str:
    """``text`` cut to ``limit`` characters, the last three ``...`` when it was longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(text: str) -> str:
    """``text`` cut to 120 characters (:func:`cut`), quoted as a Python literal."""
    return repr(cut(text))
