"""Contract timestamps (SPEC 3, 5): parsed into instants, which compare."""

from __future__ import annotations

import re
from datetime import datetime

_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z", re.ASCII
)

#: An instant: (whole seconds since 0001-01-01T00:00:00Z, nanoseconds in that second).
Instant = tuple[int, int]

_EPOCH_ORDINAL = datetime(1, 1, 1).toordinal()


def parse_instant(text: str) -> Instant | None:
    """The :data:`Instant` of a contract timestamp (SPEC 3), or ``None`` when ``text`` is none."""
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    try:
        moment = datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    nanoseconds = int((match.group(7) or "0").ljust(9, "0"))
    days = moment.toordinal() - _EPOCH_ORDINAL
    return (days * 86400 + hour * 3600 + minute * 60 + second, nanoseconds)


def is_timestamp(text: str) -> bool:
    """Whether ``text`` is a contract timestamp."""
    return parse_instant(text) is not None
