"""Timestamps of the contract: parsing and comparison as instants (SPEC 3, 5).

Pure: no I/O. A timestamp is ``YYYY-MM-DDTHH:MM:SS[.fraction]Z`` with 1-9 fraction digits,
upper-case ``T`` and ``Z``, naming a real calendar instant (no leap seconds).
"""

from __future__ import annotations

import re
from datetime import datetime

_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z",
    re.ASCII,
)

#: An instant: (whole seconds since 0001-01-01T00:00:00Z, nanoseconds in that second).
Instant = tuple[int, int]

_EPOCH_ORDINAL = datetime(1, 1, 1).toordinal()


def parse_instant(text: str) -> Instant | None:
    """Parse a contract timestamp into an :data:`Instant`.

    Args:
        text: the timestamp exactly as written (no surrounding whitespace allowed).

    Returns:
        ``(seconds, nanoseconds)`` for a valid timestamp, or ``None`` when ``text`` is not one
        (wrong shape, lower-case ``t``/``z``, more than 9 fraction digits, 30 February, ...).
        Never raises.

    Implements SPEC 3 (``generated_at``) and SPEC 5 ("timestamps compare as instants").
    """
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    try:
        moment = datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    fraction = match.group(7) or ""
    nanoseconds = int(fraction.ljust(9, "0")) if fraction else 0
    days = moment.toordinal() - _EPOCH_ORDINAL
    return (days * 86400 + hour * 3600 + minute * 60 + second, nanoseconds)


def is_timestamp(text: str) -> bool:
    """Return whether ``text`` is a valid contract timestamp (see :func:`parse_instant`)."""
    return parse_instant(text) is not None
