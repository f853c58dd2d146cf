"""Text as it is emitted, UTF-8: its size (SPEC 8's byte limits), lone surrogates replaced.
Pure."""

from __future__ import annotations

import re


def utf8_size(text: str) -> int:
    """The number of bytes ``text`` takes once emitted as UTF-8 (a lone surrogate counts as
    its replacement U+FFFD: 3 bytes)."""
    return len(text.encode("utf-8", "surrogatepass"))


_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_utf8(text: str) -> str:
    """``text`` with every lone surrogate (what JSON's ``\\ud800`` decodes to) as U+FFFD: the
    one rule that makes every output valid UTF-8 (SPEC 6)."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text
