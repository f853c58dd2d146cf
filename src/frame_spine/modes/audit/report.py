"""Audit in the action (SPEC 8, 11): inputs, listings and classification (:mod:`.online`),
``report-file``, the step's report."""

from __future__ import annotations

from ...core.status import Failure, Status
from ...inputs import parse_inputs
from ...markdown import escape_cell, plural
from ...step.context import StepContext
from ...step.report import Annotation, StepReport
from ...step.workspace import WriteRefused
from .. import result_output
from .models import QUIET_STATES, AuditReport, AuditState, AuditTarget
from .online import audit_online
from .render import audit_dict, audit_json, audit_summary


def report(step: StepContext) -> StepReport:
    """Audit a repository for the action (SPEC 11, 8), writing ``report-file`` when set."""
    target = parse_inputs(AuditTarget, step.resolved_inputs())
    if isinstance(target, Failure):
        audit = AuditReport.of_failure(target, repository=step.repository())
    else:
        audit = audit_online(target, step.fetcher(target))
    report_path = ""
    if step.settings.report_file is not None:
        written = step.write(step.settings.report_file, audit_json(audit) + "\n", "report-file")
        if isinstance(written, WriteRefused):  # the counts and plans stay set
            audit = audit.model_copy(update={"status": Status.ERROR, "message": written.message})
        else:
            report_path = written
    shown = audit_dict(audit)
    result_text = result_output(shown, "plans")
    counts: dict[str, str] = {}
    if audit.counts or audit.message is None:
        counts = {f"count-{state}": str(audit.counts.get(state.value, 0)) for state in AuditState}
    annotations = [
        Annotation(
            "warning",
            f"frame-spine audit: {plan.state.value}",
            f"issue #{plan.issue}, plan comment {plan.plan_comment_id}: {plan.state.value} "
            f"({plural(plan.errors, 'error')}, {plural(plan.warnings, 'warning')})",
        )
        for plan in audit.plans
        if plan.state not in QUIET_STATES
    ]
    if audit.message is not None:
        annotations.append(Annotation("error", f"frame-spine audit: {audit.status}", audit.message))
    places = [] if "plans_omitted" in shown else ["the `result` output"]
    if report_path:
        places.append(f"the report {escape_cell(report_path)}")
    rest, full_list = step.lists("plan", places, "frame-spine audit --format json")
    return step.report_of(
        audit,
        result_text,
        summary=audit_summary(audit, rest=rest),
        log_line=(
            f"frame-spine audit: status {audit.status}, {plural(len(audit.plans), 'plan')}, "
            f"{plural(audit.requests, 'request')}"
        ),
        not_ok=any(plan.warnings for plan in audit.plans),
        annotations=annotations,
        full_list=full_list,
        report_path=report_path,
        **counts,
    )
