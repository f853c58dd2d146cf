"""What a ``frame-slice`` block says: its step id (SPEC 4), ports, coverage and ``ac-refs``
(SPEC 10), each read from its first column-0 line of that key."""

from __future__ import annotations

import re

from .inline_list import parse_inline_list

_STEP_ID_LINE = re.compile(r"^step_id:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_ID_LINE = re.compile(r"^id:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_PROVIDES_LINE = re.compile(r"^(?:provides|ports):(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_AC_REFS_LINE = re.compile(r"^ac[-_]refs:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_COVERAGE_LINE = re.compile(r"^coverage:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_EXPLORATORY = re.compile(r"exploratory[ \t]*[-\u2013\u2014][ \t]*(\S.*)")


def slice_step_id(payload: str) -> str | None:
    """The lower-cased step id a slice is addressed by (SPEC 4), or ``None``."""
    match = _STEP_ID_LINE.search(payload) or _ID_LINE.search(payload)
    if match is None:
        return None
    return match.group(1).strip(" \t").lower() or None


def exploratory_reason(value: str) -> str | None:
    """The reason of a ``exploratory <dash> <reason>`` coverage value (SPEC 10), or ``None``."""
    match = _EXPLORATORY.fullmatch(value.strip(" \t"))
    return None if match is None else match.group(1).strip(" \t")


def _inline_list(line: re.Pattern[str], payload: str) -> tuple[str, ...] | None:
    match = line.search(payload)
    return None if match is None else parse_inline_list(match.group(1).strip(" \t"))


def slice_ports(payload: str) -> tuple[str, ...] | None:
    """The ``provides:``/``ports:`` inline list of a slice, or ``None`` (none, or no list)."""
    return _inline_list(_PROVIDES_LINE, payload)


def slice_exploratory(payload: str) -> str | None:
    """The reason of a slice's ``coverage: exploratory - <reason>`` line, or ``None``."""
    match = _COVERAGE_LINE.search(payload)
    return None if match is None else exploratory_reason(match.group(1))


def slice_ac_refs(payload: str) -> tuple[str, ...] | None:
    """The ``ac-refs:``/``ac_refs:`` inline list of a slice, items as written, or ``None``."""
    return _inline_list(_AC_REFS_LINE, payload)
