"""Rendering audit reports (SPEC 11): JSON, a text table, and the job summary.

Pure: an :class:`~.models.AuditReport` in, a string out.
"""

from __future__ import annotations

from typing import Any

from ...markdown import SUMMARY_LIMIT, CommentLink, clip_utf8, escape_cell, link, table_within
from ...workflow_commands import json_line
from .models import AuditReport, AuditState


def audit_dict(report: AuditReport) -> dict[str, Any]:
    """The report as a JSON object: ``status, repository, requests, plans, counts`` (then
    ``message`` for a fetch failure); each plan with every key of SPEC 11 (``null`` when
    not known)."""
    shown = report.model_dump(mode="json")
    if shown["message"] is None:
        del shown["message"]
    return shown


def audit_json(report: AuditReport) -> str:
    """One compact JSON line (workflow-command sequences escaped, see
    :func:`~frame_spine.workflow_commands.json_line`)."""
    return json_line(audit_dict(report))


def audit_text(report: AuditReport) -> str:
    """A table, one row per plan, then a count line; for a fetch failure, ``status:`` and
    ``message:`` lines. Ends with a newline."""
    if report.message is not None:
        return f"status: {report.status}\nmessage: {report.message}\n"
    header = (
        "issue",
        "plan comment",
        "state",
        "generated_at",
        "sibling stamp",
        "dup",
        "err",
        "warn",
    )
    rows = [
        (
            f"#{plan.issue}",
            str(plan.plan_comment_id),
            plan.state.value,
            plan.generated_at or "-",
            (plan.sibling_generated_at or "-")[:30],
            "yes" if plan.duplicate_plans else "no",
            str(plan.errors),
            str(plan.warnings),
        )
        for plan in report.plans
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    counts = ", ".join(f"{state.value} {report.counts.get(state.value, 0)}" for state in AuditState)
    lines.append(
        f"{report.status}: {len(report.plans)} plans in {report.repository} ({counts}); "
        f"{report.requests} requests"
    )
    return "\n".join(lines) + "\n"


def audit_summary(
    report: AuditReport, *, rest: str = "the report has all", limit: int = SUMMARY_LIMIT
) -> str:
    """Render the job summary of audit mode (SPEC 11): the outcome, the counts per state,
    and one table row per plan (linked), under ``limit`` bytes.

    Rows that do not fit are left out with a visible note saying how many and, in ``rest``,
    where they all are.
    """
    if report.message is not None:
        return clip_utf8(
            f"### frame-spine audit: `{escape_cell(report.status)}`\n\n"
            f"| | |\n|---|---|\n| Repository | {escape_cell(report.repository)} |\n"
            f"| Message | {escape_cell(report.message)} |\n",
            limit,
        )
    counts = " · ".join(
        f"{state.value} {report.counts.get(state.value, 0)}" for state in AuditState
    )
    head = (
        f"### frame-spine audit: `{report.status}` ({len(report.plans)} plans in "
        f"{escape_cell(report.repository)})\n\n{counts} · {report.requests} requests\n"
    )
    if not report.plans:
        return clip_utf8(head, limit)
    table = (
        "\n| Issue | Plan comment | State | Spine generated_at | Sibling stamp | Duplicates "
        "| Errors | Warnings |\n|---|---|---|---|---|---|---|---|\n"
    )
    icons = {"fresh": "✅", "no-spine": "💤"}
    rows = (
        f"| #{plan.issue} | {link(CommentLink(plan.plan_comment_id, plan.plan_url))} | "
        f"{icons.get(plan.state.value, '⚠️')} {plan.state.value} | "
        f"{escape_cell(plan.generated_at or '—')} | "
        f"{escape_cell(plan.sibling_generated_at or '—')} | "
        f"{'yes' if plan.duplicate_plans else 'no'} | {plan.errors} | {plan.warnings} |\n"
        for plan in report.plans
    )
    note = "{left} more plans are not shown here; " + rest + "."
    return table_within(head + table, rows, len(report.plans), note, limit)
