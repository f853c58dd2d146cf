"""Slice addressing (SPEC 4): which step a ``frame-slice`` block is for.

Pure: a slice payload in, a step id out.
"""

from __future__ import annotations

import re

from .inline_list import parse_inline_list

_STEP_ID_LINE = re.compile(r"^step_id:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_ID_LINE = re.compile(r"^id:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)


def slice_step_id(payload: str) -> str | None:
    """Return the step id a slice block is addressed by (SPEC 4).

    The value of the payload's first column-0 ``step_id:`` line or, only when there is no
    such line, of its first column-0 ``id:`` line; trimmed and lower-cased. Indented keys do
    not count.

    Args:
        payload: a slice block's payload (LF line ends).

    Returns:
        The lower-cased step id, or ``None`` when the block has no (non-empty) id.
    """
    match = _STEP_ID_LINE.search(payload) or _ID_LINE.search(payload)
    if match is None:
        return None
    value = match.group(1).strip(" \t").lower()
    return value or None


_PROVIDES_LINE = re.compile(r"^(?:provides|ports):(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_AC_REFS_LINE = re.compile(r"^ac[-_]refs:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_COVERAGE_LINE = re.compile(r"^coverage:(.*)$", re.MULTILINE | re.IGNORECASE | re.ASCII)
_EXPLORATORY = re.compile(r"exploratory[ \t]*[-\u2013\u2014][ \t]*(\S.*)")


def exploratory_reason(value: str) -> str | None:
    """Return the reason of a ``exploratory <dash> <reason>`` coverage value (SPEC 10).

    ``<dash>`` is a hyphen-minus, an en dash (U+2013) or an em dash (U+2014); the reason must
    not be empty. ``None`` otherwise.
    """
    match = _EXPLORATORY.fullmatch(value.strip(" \t"))
    return None if match is None else match.group(1).strip(" \t")


def slice_ports(payload: str) -> tuple[str, ...] | None:
    """Return the ports a slice says it provides: its column-0 ``provides:`` or ``ports:``
    inline list (SPEC 10), or ``None`` when it has no such line or the value is not an inline
    list."""
    match = _PROVIDES_LINE.search(payload)
    if match is None:
        return None
    return parse_inline_list(match.group(1).strip(" \t"))


def slice_exploratory(payload: str) -> str | None:
    """Return the reason of a slice's column-0 ``coverage: exploratory - <reason>`` line, or
    ``None`` when the slice has no such line (SPEC 10)."""
    match = _COVERAGE_LINE.search(payload)
    return None if match is None else exploratory_reason(match.group(1))


def slice_ac_refs(payload: str) -> tuple[str, ...] | None:
    """Return the acceptance criteria a slice lists: its first column-0 ``ac-refs:`` or
    ``ac_refs:`` inline list (SPEC 10 ``uncovered-ac``), items as written, or ``None`` when it
    has no such line or the value is not an inline list."""
    match = _AC_REFS_LINE.search(payload)
    if match is None:
        return None
    return parse_inline_list(match.group(1).strip(" \t"))
