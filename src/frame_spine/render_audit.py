"""Rendering audit reports (SPEC 11) as JSON and as a text table.

Pure: an :class:`~frame_spine.audit.AuditReport` in, a string out.
"""

from __future__ import annotations

from typing import Any

from .audit import AuditReport, AuditState
from .render import json_line

_PLAN_KEYS = (
    "issue",
    "plan_comment_id",
    "plan_url",
    "sibling_comment_id",
    "state",
    "generated_at",
    "sibling_generated_at",
    "duplicate_plans",
    "errors",
    "warnings",
)


def audit_dict(report: AuditReport) -> dict[str, Any]:
    """The report as a JSON object: ``status, repository, requests, plans, counts`` (then
    ``message`` for a fetch failure); each plan with every key of SPEC 11 (``null`` when
    not known)."""
    shown: dict[str, Any] = {
        "status": report.status,
        "repository": report.repository,
        "requests": report.requests,
        "plans": [
            {key: getattr(plan, key) for key in _PLAN_KEYS} | {"state": plan.state.value}
            for plan in report.plans
        ],
        "counts": report.counts,
    }
    if report.message is not None:
        shown["message"] = report.message
    return shown


def audit_json(report: AuditReport) -> str:
    """One compact JSON line (workflow-command sequences escaped, see ``render.json_line``)."""
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
