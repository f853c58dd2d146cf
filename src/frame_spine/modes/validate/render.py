"""Validate's result rendered (SPEC 10): JSON, text, and the job summary."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic_core import PydanticSerializationError

from ...markdown import (
    SUMMARY_LIMIT,
    CommentLink,
    clip_utf8,
    comment_rows,
    escape_cell,
    plural,
    summary_head,
)
from ...validation.dispatch import Dispatch
from ...validation.findings import where, with_findings_table
from ...validation.models import Severity, ValidationResult, Verdict
from ...workflow_commands import json_line, protected_json_line


def validation_dict(result: ValidationResult) -> dict[str, Any]:
    """The result as a JSON object (unset keys omitted)."""
    return result.model_dump(mode="json", exclude_none=True)


def validation_json(result: ValidationResult) -> str:
    """One compact JSON line (as :func:`~frame_spine.workflow_commands.json_line` writes it)."""
    # pydantic writes what json_line(validation_dict(...)) writes without building the dicts
    # (a 10,000-step matrix), but refuses a lone surrogate, which json_line writes as is.
    try:
        return protected_json_line(result.model_dump_json(exclude_none=True))
    except PydanticSerializationError:
        return json_line(validation_dict(result))


def validation_text(result: ValidationResult) -> str:
    """The text format: one line per finding, then a count line; for a fetch failure,
    ``status:`` and ``message:`` lines."""
    if not isinstance(result.status, Verdict):
        return f"status: {result.status}\nmessage: {result.message or ''}\n"
    lines = [
        f"{finding.severity.value} {finding.code} {where(finding)}: {finding.message}"
        for finding in result.findings
    ]
    notices = sum(finding.severity is Severity.NOTICE for finding in result.findings)
    lines.append(
        f"{result.status}: {plural(result.errors, 'error')}, "
        f"{plural(result.warnings, 'warning')}, {plural(notices, 'notice')}"
    )
    return "\n".join(lines) + "\n"


#: The most waves the summary lists one by one (the ``waves`` output has them all).
WAVES_SHOWN = 20

#: The most step ids the summary lists in one wave.
IDS_SHOWN = 30


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(escape_cell(step) for step in ids[:IDS_SHOWN])
    return shown + (f" and {len(ids) - IDS_SHOWN:,} more" if len(ids) > IDS_SHOWN else "")


def dispatch_lines(dispatch: Dispatch) -> str:
    """The dispatch matrix in a few lines for the summary (SPEC 14), empty without steps."""
    if not dispatch.steps:
        return ""
    lines = [
        f"\n**Dispatch matrix**: {plural(len(dispatch.steps), 'step')} in "
        f"{plural(len(dispatch.waves), 'wave')} (the `steps`, `waves` and `ready` outputs)\n"
    ]
    for number, wave in enumerate(dispatch.waves[:WAVES_SHOWN], start=1):
        lines.append(f"- wave {number}: {_ids(wave)}\n")
    if len(dispatch.waves) > WAVES_SHOWN:
        lines.append(f"- and {plural(len(dispatch.waves) - WAVES_SHOWN, 'more wave')}\n")
    ready = [entry.step_id for entry in dispatch.ready]
    lines.append(f"- ready now: {_ids(ready) if ready else 'none'}\n")
    return "".join(lines)


def validation_summary(
    result: ValidationResult,
    *,
    repository: str | None,
    plan: CommentLink | None,
    sibling: CommentLink | None,
    rest: str = "the `result` output has all",
    limit: int = SUMMARY_LIMIT,
) -> str:
    """The job summary of validate mode (SPEC 10, 14), under ``limit`` bytes: findings that
    do not fit are counted in a note that says, in ``rest``, where they all are."""
    detail = ""
    if isinstance(result.status, Verdict):
        detail = f"{plural(result.errors, 'error')}, {plural(result.warnings, 'warning')}"
    head = summary_head(
        "validate",
        result.status,
        result.exit_code,
        "✅" if result.exit_code == 0 else "❌",
        detail=detail,
        message=result.message,
        facts=comment_rows(repository, plan, sibling),
    )
    if result.dispatch is not None:
        head = clip_utf8(head + dispatch_lines(result.dispatch), limit // 2)
    if not result.findings:
        return clip_utf8(head, limit)
    return with_findings_table(head + "\n", result.findings, rest, limit)
