"""Text as it is emitted, UTF-8: its size (SPEC 8's byte limits), lone surrogates replaced."""

from __future__ import annotations

import re


def utf8_size(text: str) -> int:
    """Bytes of ``text`` as UTF-8 (a lone surrogate counts as U+FFFD: 3 bytes)."""
    return len(text.encode("utf-8", "surrogatepass"))


_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_utf8(text: str) -> str:
    """``text`` with every lone surrogate as U+FFFD, so every output is valid UTF-8 (SPEC 6)."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text
