"""Slice addressing (SPEC 4): which step a ``frame-slice`` block is for.

Pure: a slice payload in, a step id out.
"""

from __future__ import annotations

import re

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
