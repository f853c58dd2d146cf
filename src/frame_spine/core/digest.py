"""The spine digest (SPEC 7): hash elision of transport-only ``generated_at`` churn.

Pure: a spine payload in, ``"sha256:<64 hex>"`` out.
"""

from __future__ import annotations

import hashlib
import re

from .utf8 import valid_utf8

_GENERATED_AT_LINE = re.compile(r"generated_at\s*:", re.IGNORECASE | re.ASCII)
_DIGEST = re.compile(r"(?:sha256:)?([0-9a-fA-F]{64})", re.ASCII)

DIGEST_PREFIX = "sha256:"


def spine_digest(payload: str) -> str:
    """Compute the digest of a spine payload (SPEC 7).

    The payload is LF-normalised; every column-0 line matching ``generated_at\\s*:``
    (case-insensitive) is removed; trailing spaces and tabs are stripped from every line;
    trailing empty lines are dropped; the text ends with exactly one ``\\n``; the digest is
    the lowercase hex SHA-256 of its UTF-8 bytes.

    Args:
        payload: the spine block's payload.

    Returns:
        ``"sha256:"`` followed by 64 lowercase hex digits. Never raises.
    """
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
    """Normalise a dispatched digest (SPEC 7: accepted with or without ``sha256:``).

    Args:
        value: the digest input, surrounding whitespace already removed.

    Returns:
        ``"sha256:<64 lowercase hex>"``, or ``None`` when ``value`` is malformed.
    """
    match = _DIGEST.fullmatch(value)
    if match is None:
        return None
    return DIGEST_PREFIX + match.group(1).lower()
