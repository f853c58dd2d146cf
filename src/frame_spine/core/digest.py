"""The spine digest (SPEC 7)."""

from __future__ import annotations

import hashlib
import re

from .utf8 import valid_utf8

_GENERATED_AT_LINE = re.compile(r"generated_at\s*:", re.IGNORECASE | re.ASCII)
_DIGEST = re.compile(r"(?:sha256:)?([0-9a-fA-F]{64})", re.ASCII)

DIGEST_PREFIX = "sha256:"


def spine_digest(payload: str) -> str:
    """The digest of a spine payload (SPEC 7): ``sha256:`` and 64 lowercase hex digits."""
    text = payload.replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip(" \t") for line in text.split("\n") if not _GENERATED_AT_LINE.match(line)]
    while lines and not lines[-1]:
        lines.pop()
    canonical = "\n".join(lines) + "\n"
    try:
        data = canonical.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: as the wire reads them, U+FFFD (SPEC 6)
        data = valid_utf8(canonical).encode("utf-8")
    return DIGEST_PREFIX + hashlib.sha256(data).hexdigest()


def normalise_digest(value: str) -> str | None:
    """A dispatched digest as ``sha256:<64 lowercase hex>`` (SPEC 7), or ``None`` if malformed."""
    match = _DIGEST.fullmatch(value)
    return None if match is None else DIGEST_PREFIX + match.group(1).lower()
