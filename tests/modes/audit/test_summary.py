"""audit's job summary head, exactly: the counts, what a no-spine plan means (only when there
is one: its Errors column is validate's, yet it counts as clean), and the requests made in
ordinary text."""

from __future__ import annotations

from frame_spine.modes.audit.models import AuditedPlan, AuditReport, AuditState, AuditStatus
from frame_spine.modes.audit.render import audit_summary

MINUS = "\u2796"  # the no-spine icon, heavy minus sign
STATES = ("no-spine", "invalid", "sibling-missing", "sibling-unstamped", "stale-sibling", "fresh")


def plan(issue: int, state: AuditState, errors: int) -> AuditedPlan:
    return AuditedPlan(
        issue=issue,
        plan_comment_id=100 + issue,
        plan_url=None,
        sibling_comment_id=None,
        state=state,
        generated_at=None,
        sibling_generated_at=None,
        duplicate_plans=False,
        errors=errors,
        warnings=0,
    )


def report(*plans: AuditedPlan) -> AuditReport:
    counts = {state: sum(p.state.value == state for p in plans) for state in STATES}
    return AuditReport(
        status=AuditStatus.CLEAN, repository="o/r", requests=3, plans=plans, counts=counts
    )


def test_a_no_spine_plan_with_an_error_is_explained_as_clean() -> None:
    summary = audit_summary(report(plan(1, AuditState.FRESH, 0), plan(2, AuditState.NO_SPINE, 1)))
    head, table = summary.split("\n| Issue |", 1)
    assert head == (
        "### ✅ frame-spine audit: `clean` (exit code 0): 2 plans in o/r\n\n"
        "❌ invalid 0 · ❌ sibling-missing 0 · ⚠️ stale-sibling 0 · ⚠️ sibling-unstamped 0 · "
        f"✅ fresh 1 · {MINUS} no-spine 1\n\n"
        f"{MINUS} no-spine plans have no spine that could drift (a brief or goal-contract plan, "
        "spine-omitted, a legacy prose plan), so they count as clean; their Errors column is "
        "validate's (a legacy prose plan has the error missing-spine).\n\n"
        "3 requests to the GitHub API.\n"
    )
    assert "<sub>" not in summary
    assert table.splitlines()[-1] == f"| #2 | 102 | {MINUS} no-spine | — | — | no | 1 | 0 |"


def test_without_a_no_spine_plan_there_is_no_note() -> None:
    summary = audit_summary(report(plan(1, AuditState.FRESH, 0)))
    assert "no-spine plans have" not in summary
    assert f"· {MINUS} no-spine 0\n\n3 requests to the GitHub API.\n" in summary
