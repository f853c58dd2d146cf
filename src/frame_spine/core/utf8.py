"""The size of a text once emitted as UTF-8 (SPEC 8's byte limits)."""

from __future__ import annotations


def utf8_size(text: str) -> int:
    """Bytes of ``text`` as UTF-8 (a lone surrogate counts as U+FFFD: 3 bytes)."""
    return len(text.encode("utf-8", "surrogatepass"))
