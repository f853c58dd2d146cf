"""Inline lists ``[a, b]`` (SPEC 3), as the spine and slice blocks write them."""

from __future__ import annotations


def parse_inline_list(value: str) -> tuple[str, ...] | None:
    """The trimmed items of an inline list (SPEC 3), or ``None`` when ``value`` is none."""
    if len(value) < 2 or value[0] != "[" or value[-1] != "]":
        return None
    inner = value[1:-1]
    if "[" in inner or "]" in inner:
        return None
    if not inner.strip():
        return ()
    items = tuple([item.strip() for item in inner.split(",")])
    return None if "" in items else items
