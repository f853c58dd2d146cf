"""How a message of the GitHub edge shows a value it did not write (a URL, a path, a header):
cut to a length, with ``...`` (pure)."""

from __future__ import annotations

#: The longest value a message shows, in characters.
LONGEST = 120


def cut(text: str, limit: int = LONGEST) -> str:
    """``text`` cut to ``limit`` characters, the last three ``...`` when it was longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(text: str) -> str:
    """``text`` cut to 120 characters (:func:`cut`), quoted as a Python literal."""
    return repr(cut(text))
