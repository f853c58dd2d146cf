"""Rendering results as JSON and text (SPEC 5 "Result object" and "Text format").

Pure: a :class:`~frame_spine.models.LookupResult` in, a string out.
"""

from __future__ import annotations

import json
from typing import Any

from .models import LookupResult, Status

# Fixed keys after ``status``, per status (SPEC 5). Keys that are unset are skipped, which
# gives the two stale-spine layouts: check 4 sets dispatched_generated_at, check 6 sets
# sibling_generated_at.
_FIXED_KEYS: dict[Status, tuple[str, ...]] = {
    Status.OK: ("step_id", "generated_at", "slice"),
    Status.STALE_SPINE: (
        "dispatched_generated_at",
        "current_generated_at",
        "sibling_generated_at",
    ),
    Status.SIBLING_UNSTAMPED: ("slice_comment_id", "current_generated_at"),
    Status.MISSING_SLICE: ("step_id",),
    Status.DUPLICATE_SLICE_ID: ("step_id", "count"),
}
# Keys that follow the fixed ones, in this order, whenever they are set: SPEC 5 puts
# ``spine_digest`` right after the fixed keys of ok and stale-spine, and ``message`` right
# after the fixed keys of every other status.
_DIGEST_FIRST = (
    "spine_digest",
    "generated_at_elided",
    "message",
    "current_generated_at",
    "sibling_generated_at",
)
_MESSAGE_FIRST = (
    "message",
    "spine_digest",
    "generated_at_elided",
    "current_generated_at",
    "sibling_generated_at",
)


def result_dict(result: LookupResult) -> dict[str, Any]:
    """Return the result's JSON object with SPEC 5's key order (unset keys omitted).

    Returns:
        An insertion-ordered ``dict``: ``status``, the status's fixed keys, then
        ``spine_digest``, ``generated_at_elided``, ``message`` and the remaining known
        timestamps.
    """
    ordered: dict[str, Any] = {"status": result.status.value}
    trailing = _DIGEST_FIRST if result.status in (Status.OK, Status.STALE_SPINE) else _MESSAGE_FIRST
    for key in (*_FIXED_KEYS.get(result.status, ()), *trailing):
        if key in ordered:
            continue
        value = getattr(result, key)
        if value is not None:
            ordered[key] = value
    return ordered


def json_line(value: Any) -> str:
    """Serialise ``value`` as one compact JSON line (UTF-8 text, non-ASCII not escaped).

    ``::`` and ``##[`` inside strings are written with a ``\\u`` escape, so the line can never
    be read as a GitHub Actions workflow command (SPEC 8 security); every JSON parser reads
    back exactly the same values. Other characters are written as they are (SPEC 5:
    non-ASCII is not escaped).
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if "::" in text:
        text = text.replace("::", ":\\u003a")
    if "##[" in text:
        text = text.replace("##[", "#\\u0023[")
    return text


def result_json(result: LookupResult) -> str:
    """Render a result as one compact JSON line (SPEC 5), without a trailing newline."""
    return json_line(result_dict(result))


def result_text(result: LookupResult) -> str:
    """Render a result in the text format of SPEC 5, ending with a newline.

    ``ok``: ``status: ok``, ``step_id: sN``, ``slice: |`` and each slice line indented by two
    spaces. Any other status: one ``key: value`` line per fixed key,
    then ``message: ...``. Additive keys (``spine_digest``, ...) are not printed.
    """
    lines = [f"status: {result.status.value}"]
    if result.status is Status.OK:
        lines.append(f"step_id: {result.step_id}")
        lines.append("slice: |")
        lines.extend(f"  {line}" for line in (result.slice or "").split("\n"))
    else:
        for key in _FIXED_KEYS.get(result.status, ()):
            value = getattr(result, key)
            if value is not None:
                lines.append(f"{key}: {value}")
        if result.message is not None:
            lines.append(f"message: {result.message}")
    return "\n".join(lines) + "\n"
