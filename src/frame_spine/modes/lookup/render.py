"""A lookup rendered (SPEC 5 "Result object" and "Text format"; SPEC 8 job summary)."""

from __future__ import annotations

from typing import Any

from ...core.shown import cut, listed
from ...core.status import Status
from ...core.utf8 import utf8_size
from ...markdown import (
    SUMMARY_LIMIT,
    CommentLink,
    clip_utf8,
    code_fence,
    comment_rows,
    escape_cell,
    plural,
    summary_head,
)
from ...workflow_commands import json_line
from .models import LookupResult

# Fixed keys after ``status``, per status (SPEC 5); unset ones are skipped (stale-spine's two).
_FIXED_KEYS: dict[Status, tuple[str, ...]] = {
    Status.OK: ("step_id", "generated_at", "slice"),
    Status.STALE_SPINE: ("dispatched_generated_at", "current_generated_at", "sibling_generated_at"),
    Status.SIBLING_UNSTAMPED: ("slice_comment_id", "current_generated_at"),
    Status.MISSING_SLICE: ("step_id",),
    Status.DUPLICATE_SLICE_ID: ("step_id", "count"),
}
_ICONS = {Status.OK: "✅", Status.STALE_SPINE: "⚠️"}
# The keys after the fixed ones, when set (SPEC 5, 6.1): the digest's before the message's for
# ``ok`` and ``stale-spine``, after them for the other statuses; the timestamps last.
_DIGEST = ("spine_digest", "generated_at_elided")
_MESSAGE = ("message", "author", "author_association", "editor")
_TIMESTAMPS = ("current_generated_at", "sibling_generated_at")


def result_dict(result: LookupResult) -> dict[str, Any]:
    """The result's JSON object in SPEC 5's key order (unset keys omitted)."""
    digest_first = result.status in (Status.OK, Status.STALE_SPINE)
    trailing = (*_DIGEST, *_MESSAGE) if digest_first else (*_MESSAGE, *_DIGEST)
    keys = (*_FIXED_KEYS.get(result.status, ()), *trailing, *_TIMESTAMPS)
    values = {key: getattr(result, key) for key in keys}  # a repeated key keeps its first place
    set_values = {key: value for key, value in values.items() if value is not None}
    return {"status": result.status.value, **set_values}


def result_json(result: LookupResult) -> str:
    """The result as one compact JSON line (SPEC 5)."""
    return json_line(result_dict(result))


def result_text(result: LookupResult) -> str:
    """The result in SPEC 5's text format (additive keys not printed)."""
    lines = [f"status: {result.status.value}"]
    if result.status is Status.OK:
        lines += [f"step_id: {result.step_id}", "slice: |"]
        lines.extend(f"  {line}" for line in (result.slice or "").split("\n"))
    else:
        fixed = ((key, getattr(result, key)) for key in _FIXED_KEYS.get(result.status, ()))
        lines.extend(f"{key}: {value}" for key, value in fixed if value is not None)
        if result.message is not None:
            lines.append(f"message: {result.message}")
    return "\n".join(lines) + "\n"


def _timestamp_rows(
    result: LookupResult, dispatched_generated_at: str | None
) -> list[tuple[str, str]]:
    """One ``generated_at`` row when the known timestamps agree, else one row each (a value
    that is not the spine's marked)."""
    dispatched = result.dispatched_generated_at or dispatched_generated_at
    known = [
        ("dispatched", "Dispatched generated_at", dispatched),
        ("spine", "Spine generated_at", result.current_generated_at),
        ("sibling", "Sibling stamp", result.sibling_generated_at),
    ]
    present = [(who, label, value) for who, label, value in known if value]
    values = {value for _who, _label, value in present}
    if len(present) > 1 and len(values) == 1:
        names = [who for who, _label, _value in present]
        return [("generated_at", f"{escape_cell(values.pop())} ({listed(names)} agree)")]
    spine, mark = result.current_generated_at, " ⚠️ not the spine's"
    return [
        (label, escape_cell(value) + (mark if spine and who != "spine" and value != spine else ""))
        for who, label, value in present
    ]


def lookup_summary(
    result: LookupResult,
    *,
    repository: str | None,
    plan: CommentLink | None,
    sibling: CommentLink | None,
    dispatched_generated_at: str | None,
    step_id: str | None = None,
    whole_slice: str = "in the `slice` output (and in `slice-file` when set)",
    limit: int = SUMMARY_LIMIT,
) -> str:
    """The job summary of one lookup (SPEC 8), at most ``limit`` bytes: status, message, a
    table of details, and the slice (cut with a note saying how much is shown and where the
    whole slice is: ``whole_slice``)."""
    status = result.status
    shown_step = result.step_id or step_id
    rows = comment_rows(repository, plan, sibling)
    rows.append(("Step", escape_cell(cut(shown_step)) if shown_step else "—"))
    rows.extend(_timestamp_rows(result, dispatched_generated_at))
    if result.spine_digest:
        rows.append(("Spine digest", f"`{escape_cell(result.spine_digest)}`"))
    if result.generated_at_elided:
        rows.append(("Freshness", "generated_at differs, spine digest matches (elided)"))
    if result.count is not None:
        rows.append(("Slice blocks for the step", str(result.count)))
    icon = _ICONS.get(status, "❌")
    head = summary_head(
        "lookup", status.value, status.exit_code, icon, message=result.message, facts=rows
    )
    if result.slice is None:
        return clip_utf8(head, limit)

    text = result.slice
    fence = code_fence(text)
    total = utf8_size(text)
    lines = text.count("\n") + 1
    opening = (
        f"\n<details><summary>Slice {escape_cell(result.step_id or '')} "
        f"({plural(lines, 'line')}, {plural(total, 'byte')})</summary>\n\n{fence}text\n"
    )
    closing = f"\n{fence}\n\n</details>\n"
    room = limit - utf8_size(head + opening + closing)
    if total <= room:
        return head + opening + text + closing

    def note(shown: int) -> str:
        return (
            "\n> [!WARNING]\n> The slice is truncated in this summary: "
            f"{shown} of {total} bytes are shown. The whole slice is {whole_slice}.\n"
        )

    room -= utf8_size(note(total)) + 40
    shown = clip_utf8(text, room)
    return head + opening + shown + closing + note(utf8_size(shown))
