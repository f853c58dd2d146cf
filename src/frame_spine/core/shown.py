"""How a message shows what it did not write (SPEC 8 "Values quoted in messages") and names
a setting (SPEC 9).

Pure, but for two hooks the entry points set: the run's token redaction
(:func:`redact_with`: a value is redacted before it is cut, as a cut first could leave a
token's prefix), and how settings are named (:func:`naming`: flags on the command line).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

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


_knobs: Mapping[str, str] = {}


@contextmanager
def naming(knobs: Mapping[str, str]) -> Iterator[None]:
    """Within the block, messages name each setting as ``knobs`` maps its input name (the
    command line: its flags); outside it, by the action's input name (SPEC 9)."""
    global _knobs
    saved, _knobs = _knobs, knobs
    try:
        yield
    finally:
        _knobs = saved


def name_as(name: str, shown: str) -> None:
    """Within the current :func:`naming` block, name ``name`` as ``shown`` (the command line's
    API URL when it came from ``GITHUB_API_URL``)."""
    global _knobs
    _knobs = {**_knobs, name: shown}


def knob(name: str) -> str:
    """The setting ``name`` (an action input) as the caller set it: ``--state`` for
    ``issue-state`` on the command line."""
    return _knobs.get(name, name)
