"""Audit in the action (SPEC 8, 11): inputs, listings and classification (:mod:`.online`),
``report-file``, the step's report."""

from __future__ import annotations

from ...core.status import Failure, Status
from ...core.utf8 import utf8_size
from ...inputs import parse_inputs
from ...markdown import escape_cell, plural
from ...step.context import StepContext
from ...step.report import OUTPUT_LIMIT, Annotation, StepReport, outputs_of, step_exit_code
from ...step.workspace import WriteRefused
from ...workflow_commands import json_line
from .models import QUIET_STATES, AuditReport, AuditState, AuditTarget
from .online import audit_online
from .render import audit_dict, audit_json, audit_summary


def report(step: StepContext) -> StepReport:
    """Audit a repository for the action (SPEC 11, 8)."""
    target = parse_inputs(AuditTarget, step.resolved_inputs())
    if isinstance(target, Failure):
        audit = AuditReport.of_failure(target, repository=step.repository())
    else:
        audit = audit_online(target, step.fetcher(target))
    return _step_report(step, audit)


def _step_report(step: StepContext, report: AuditReport) -> StepReport:
    """The audit as the step's report (``report-file`` written)."""
    settings = step.settings
    full = audit_json(report)
    report_path = ""
    if settings.report_file is not None:
        written = step.write(settings.report_file, full + "\n", "report-file")
        if isinstance(written, WriteRefused):  # the counts and plans stay set
            report = report.model_copy(update={"status": Status.ERROR, "message": written.message})
            full = audit_json(report)
        else:
            report_path = written
    result_text = full
    plans_omitted = utf8_size(full) > OUTPUT_LIMIT
    if plans_omitted:
        shown = audit_dict(report)
        shown["plans_omitted"] = len(shown.pop("plans"))
        result_text = json_line(shown)
    outputs = outputs_of(
        report.status, report.exit_code, report.message, result_text, report_path=report_path
    )
    if report.counts or report.message is None:
        for state in AuditState:
            outputs[f"count-{state.value}"] = str(report.counts.get(state.value, 0))
    annotations = [
        Annotation(
            "warning",
            f"frame-spine audit: {plan.state.value}",
            f"issue #{plan.issue}, plan comment {plan.plan_comment_id}: {plan.state.value} "
            f"({plural(plan.errors, 'error')}, {plural(plan.warnings, 'warning')})",
        )
        for plan in report.plans
        if plan.state not in QUIET_STATES
    ]
    if report.message is not None:
        title = f"frame-spine audit: {report.status}"
        annotations.append(Annotation("error", title, report.message))
    not_ok = any(plan.warnings for plan in report.plans)
    exit_code = step_exit_code(settings.fail_on, failed=report.exit_code != 0, not_ok=not_ok)
    places = [] if plans_omitted else ["the `result` output"]
    if report_path:
        places.append(f"the report {escape_cell(report_path)}")
        rest = f"the report {escape_cell(report_path)} has all"
    elif not plans_omitted:
        rest = "the `result` output has all"
    else:
        rest = "`frame-spine audit --format json` prints all"
    return StepReport(
        outputs=outputs,
        summary=audit_summary(report, rest=rest),
        log_line=(
            f"frame-spine audit: status {report.status}, {plural(len(report.plans), 'plan')}, "
            f"{plural(report.requests, 'request')}"
        ),
        exit_code=exit_code,
        job_summary=settings.job_summary,
        annotations=annotations,
        full_list=step.full_list("plan", places, "frame-spine audit --format json"),
    )
