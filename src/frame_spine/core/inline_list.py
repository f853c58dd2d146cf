"""Inline lists ``[a, b]`` (SPEC 3), as the spine and slice blocks write them.

Pure.
"""

from __future__ import annotations


def parse_inline_list(value: str) -> tuple[str, ...] | None:
    """Parse an inline list ``[a, b]`` (SPEC 3).

    Args:
        value: the text after the key's colon, stripped.

    Returns:
        The trimmed items (``()`` for ``[]``), or ``None`` when ``value`` is not an inline
        list or has an empty item (``[a,,b]``, ``[a,]``) or a nested bracket.
    """
    if len(value) < 2 or value[0] != "[" or value[-1] != "]":
        return None
    inner = value[1:-1]
    if "[" in inner or "]" in inner:
        return None
    if not inner.strip():
        return ()
    items = tuple([item.strip() for item in inner.split(",")])
    if "" in items:
        return None
    return items
