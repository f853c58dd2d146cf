"""How a message shows what it did not write (SPEC 8 "Values quoted in messages") and names
a setting (SPEC 9). Pure, but for two hooks the entry points set: the run's token redaction
(redacted before cut: a cut first could leave a token's prefix) and how settings are named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

#: The longest value a message shows, in characters.
LONGEST = 120

_redact: Callable[[str], str] = str


@contextmanager
def redacting(redact: Callable[[str], str]) -> Iterator[None]:
    """Within the block, :func:`cut` applies the run's token redaction (the CLI's and the
    action's, SPEC 6); the one before is back after it."""
    global _redact
    saved, _redact = _redact, redact
    try:
        yield
    finally:
        _redact = saved


def cut(text: str, limit: int = LONGEST) -> str:
    """``text`` redacted, then cut to ``limit`` characters (ending ``...`` when longer)."""
    text = _redact(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(text: str) -> str:
    """``text`` cut (:func:`cut`), quoted as a Python literal."""
    return repr(cut(text))


def printable(text: str, limit: int = LONGEST) -> str:
    """``text`` on one line, unprintable characters escaped (no broken or forged line), cut."""
    return cut("".join(char if char.isprintable() else ascii(char)[1:-1] for char in text), limit)


_knobs: Mapping[str, str] = {}


@contextmanager
def naming(knobs: Mapping[str, str]) -> Iterator[None]:
    """Within the block, messages name settings as ``knobs`` maps input names (SPEC 9)."""
    global _knobs
    saved, _knobs = _knobs, knobs
    try:
        yield
    finally:
        _knobs = saved


def name_as(name: str, shown: str) -> None:
    """Within the current :func:`naming` block, name ``name`` as ``shown``."""
    global _knobs
    _knobs = {**_knobs, name: shown}


def knob(name: str) -> str:
    """The setting ``name`` (an action input) as the caller set it (``--state``)."""
    return _knobs.get(name, name)


def listed(items: Sequence[str]) -> str:
    """How a message lists items: ``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
