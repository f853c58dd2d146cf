"""How a message shows a value it did not write (SPEC 8 "Values quoted in messages").

Pure, but for one hook: the entry points install the run's token redaction
(:func:`redact_with`), so that a value is redacted before it is cut (a cut first could leave
a token's prefix that no longer matches the token).
"""

from __future__ import annotations

from collections.abc import Callable

#: The longest value a message shows, in characters.
LONGEST = 120

_redact: Callable[[str], str] = str


def redact_with(redact: Callable[[str], str]) -> None:
    """Install the run's token redaction (the CLI's and the action's, SPEC 6)."""
    global _redact
    _redact = redact


def cut(text: str, limit: int = LONGEST) -> str:
    """``text`` redacted, then cut to ``limit`` characters, the last three ``...`` when it
    was longer."""
    text = _redact(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(text: str) -> str:
    """``text`` cut (:func:`cut`), quoted as a Python literal."""
    return repr(cut(text))


def printable(text: str, limit: int = LONGEST) -> str:
    """``text`` on one line of printable characters, others as ``\\xNN``/``\\uNNNN`` escapes
    (a value from a server or a comment must not break or forge a line), then :func:`cut`."""
    return cut("".join(char if char.isprintable() else ascii(char)[1:-1] for char in text), limit)
