"""Rendering validate's result (SPEC 10): JSON, text, and the job summary.

Pure: a :class:`~.models.ValidationResult` in, a string out.
"""

from __future__ import annotations

from typing import Any

from ...markdown import SUMMARY_LIMIT, CommentLink, clip_utf8, escape_cell, link, table_within
from ...workflow_commands import json_line
from .models import Finding, Severity, ValidationResult, Verdict


def finding_dict(finding: Finding) -> dict[str, Any]:
    """One finding as a JSON object: ``severity, code, message``, then where it applies
    (``comment, line, step, port``; unset keys omitted)."""
    return finding.model_dump(mode="json", exclude_none=True)


def validation_dict(result: ValidationResult) -> dict[str, Any]:
    """The result as a JSON object: ``status, errors, warnings, findings`` (then ``message``
    for a fetch failure)."""
    return result.model_dump(mode="json", exclude_none=True)


def validation_json(result: ValidationResult) -> str:
    """One compact JSON line (workflow-command sequences escaped, see
    :func:`~frame_spine.workflow_commands.json_line`)."""
    return json_line(validation_dict(result))


def where(finding: Finding) -> str:
    """Where a finding applies, e.g. ``"plan:36 step s2 port review"`` (``"-"`` if nowhere)."""
    parts = []
    if finding.comment is not None:
        parts.append(
            finding.comment if finding.line is None else f"{finding.comment}:{finding.line}"
        )
    elif finding.line is not None:
        parts.append(f"line {finding.line}")
    if finding.step is not None:
        parts.append(f"step {finding.step}")
    if finding.port is not None:
        parts.append(f"port {finding.port}")
    return " ".join(parts) or "-"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def validation_text(result: ValidationResult) -> str:
    """The text format: one line per finding (``severity code where: message``), then a
    count line (``invalid: 8 errors, 1 warning, 0 notices``); for a fetch failure,
    ``status:`` and ``message:`` lines. Ends with a newline."""
    if not isinstance(result.status, Verdict):
        return f"status: {result.status}\nmessage: {result.message or ''}\n"
    lines = [
        f"{finding.severity.value} {finding.code} {where(finding)}: {finding.message}"
        for finding in result.findings
    ]
    notices = sum(finding.severity is Severity.NOTICE for finding in result.findings)
    lines.append(
        f"{result.status}: {_count(result.errors, 'error')}, "
        f"{_count(result.warnings, 'warning')}, {_count(notices, 'notice')}"
    )
    return "\n".join(lines) + "\n"


_SEVERITY_ICONS = {"error": "❌ error", "warning": "⚠️ warning", "notice": "💬 notice"}


def validation_summary(
    result: ValidationResult,
    *,
    repository: str | None,
    plan: CommentLink | None,
    sibling: CommentLink | None,
    rest: str = "the `result` output has all",
    limit: int = SUMMARY_LIMIT,
) -> str:
    """Render the job summary of validate mode (SPEC 10): the outcome, links to the comments,
    and a table of findings (severity, code, where, message), under ``limit`` bytes.

    Findings that do not fit are left out with a visible note saying how many and, in
    ``rest``, where they all are.
    """
    if isinstance(result.status, Verdict):
        headline = (
            f"### frame-spine validate: `{result.status}` ({result.errors} errors, "
            f"{result.warnings} warnings)\n\n"
        )
    else:
        headline = f"### frame-spine validate: `{escape_cell(result.status)}`\n\n"
    facts = [
        ("Repository", escape_cell(repository) if repository else "—"),
        ("Plan comment", link(plan)),
        ("Sibling comment", link(sibling)),
    ]
    if result.message:
        facts.append(("Message", escape_cell(result.message)))
    head = headline + "| | |\n|---|---|\n" + "".join(f"| {k} | {v} |\n" for k, v in facts)
    if not result.findings:
        return clip_utf8(head, limit)
    table = "\n| Severity | Code | Where | Message |\n|---|---|---|---|\n"
    rows = (
        f"| {_SEVERITY_ICONS[finding.severity.value]} | {escape_cell(finding.code)} | "
        f"{escape_cell(where(finding))} | {escape_cell(finding.message)} |\n"
        for finding in result.findings
    )
    note = "{left} more findings are not shown here; " + rest + "."
    return table_within(head + table, rows, len(result.findings), note, limit)
