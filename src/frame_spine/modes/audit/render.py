"""Audit reports rendered (SPEC 11): JSON, a text table, and the job summary."""

from __future__ import annotations

from typing import Any

from ...core.shown import knob
from ...markdown import (
    SUMMARY_LIMIT,
    CommentLink,
    clip_utf8,
    escape_cell,
    link,
    plural,
    summary_head,
    table_within,
)
from ...workflow_commands import json_line
from .models import AuditReport, AuditState


def audit_dict(report: AuditReport) -> dict[str, Any]:
    """The report as a JSON object (``since`` and ``message`` only when set)."""
    return report.shown("since", "message")


def audit_json(report: AuditReport) -> str:
    """One compact JSON line."""
    return json_line(audit_dict(report))


_HEADER = ("issue", "plan comment", "state", "generated_at", "sibling stamp", "dup", "err", "warn")


def audit_text(report: AuditReport) -> str:
    """A table, one row per plan, then a count line; for a fetch failure, ``status:`` and
    ``message:`` lines."""
    if report.message is not None:
        return f"status: {report.status}\nmessage: {report.message}\n"
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
    widths = [max(len(row[i]) for row in [_HEADER, *rows]) for i in range(len(_HEADER))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [_HEADER, *rows]
    ]
    counts = ", ".join(f"{state.value} {report.counts.get(state.value, 0)}" for state in AuditState)
    passed = ""
    if report.untrusted_plan_comments:
        passed = f"; {plural(report.untrusted_plan_comments, 'untrusted plan comment')} passed over"
    since = f" updated since {report.since}" if report.since is not None else ""
    lines.append(
        f"{report.status}: {plural(len(report.plans), 'plan')}{since} in {report.repository} "
        f"({counts}){passed}; {plural(report.requests, 'request')}"
    )
    return "\n".join(lines) + "\n"


#: The states in the order the summary lists them (findings first, the worst first), with
#: their icons: ❌ a lookup of the plan would fail, ⚠️ it would report a stale or unstamped
#: sibling, ✅ fresh, a heavy minus sign no spine.
_SHOWN_STATES = {
    AuditState.UNTRUSTED_EDIT: "❌",
    AuditState.HIDDEN: "❌",
    AuditState.UNDETERMINED: "⚠️",
    AuditState.INVALID: "❌",
    AuditState.SIBLING_MISSING: "❌",
    AuditState.STALE_SIBLING: "⚠️",
    AuditState.SIBLING_UNSTAMPED: "⚠️",
    AuditState.FRESH: "✅",
    AuditState.NO_SPINE: "\u2796",  # heavy minus sign
}
_STATE_RANK = {state: rank for rank, state in enumerate(_SHOWN_STATES)}
_UNUSABLE = (AuditState.UNTRUSTED_EDIT, AuditState.HIDDEN, AuditState.UNDETERMINED)


def audit_summary(
    report: AuditReport, *, rest: str = "the report has all", limit: int = SUMMARY_LIMIT
) -> str:
    """The job summary of audit mode (SPEC 11), under ``limit`` bytes: the worst states first;
    rows that do not fit are counted in a note that says, in ``rest``, where they all are."""
    icon = "✅" if report.exit_code == 0 else "❌"
    if report.message is not None:
        facts = [("Repository", escape_cell(report.repository))]
        head = summary_head(
            "audit", report.status, report.exit_code, icon, message=report.message, facts=facts
        )
        return clip_utf8(head, limit)
    counts = " · ".join(  # the states of revision 4 only when some plan is in one
        f"{shown} {state.value} {report.counts.get(state.value, 0)}"
        for state, shown in _SHOWN_STATES.items()
        if report.counts.get(state.value) or state not in _UNUSABLE
    )
    detail = f"{plural(len(report.plans), 'plan')} in {escape_cell(report.repository)}"
    if report.since is not None:
        detail += f", comments updated since {escape_cell(report.since)}"
    head = summary_head("audit", report.status, report.exit_code, icon, detail=detail)
    head += f"{counts}\n\n"
    if report.counts.get(AuditState.NO_SPINE.value, 0):
        head += (
            f"{_SHOWN_STATES[AuditState.NO_SPINE]} no-spine plans have no spine that could drift "
            "(a brief or goal-contract plan, spine-omitted, a legacy prose plan), so they count "
            "as clean; their Errors column is validate's (a legacy prose plan has the error "
            "missing-spine).\n\n"
        )
    if passed := report.untrusted_plan_comments:
        who = f"{'an author' if passed == 1 else 'authors'} outside {knob('trusted-authors')}"
        head += f"{plural(passed, 'plan-like comment')} by {who} passed over (never classified)\n\n"
    head += f"{plural(report.requests, 'request')} to the GitHub API.\n"
    if not report.plans:
        return clip_utf8(head, limit)
    table = (
        "\n| Issue | Plan comment | State | Spine generated_at | Sibling stamp | Duplicates "
        "| Errors | Warnings |\n|:--|:--|:--|:--|:--|:--|--:|--:|\n"
    )
    ordered = sorted(report.plans, key=lambda plan: (_STATE_RANK[plan.state], plan.issue))
    rows = (
        f"| #{plan.issue} | {link(CommentLink(plan.plan_comment_id, plan.plan_url))} | "
        f"{_SHOWN_STATES[plan.state]} {plan.state.value} | "
        f"{escape_cell(plan.generated_at or '—')} | "
        f"{escape_cell(plan.sibling_generated_at or '—')} | "
        f"{'yes' if plan.duplicate_plans else 'no'} | {plan.errors} | {plan.warnings} |\n"
        for plan in ordered
    )
    note = "{left} not shown here; " + rest + "."
    return table_within(head + table, rows, len(report.plans), note, limit, noun="more plan")
