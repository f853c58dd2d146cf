"""Validate in the action (SPEC 8, 10): the step's outputs, job summary and annotations.

An edge: inputs through :class:`~frame_spine.step.context.StepContext` -> fetch and validate
(:mod:`.online`) -> a :class:`~frame_spine.step.report.StepReport`.
"""

from __future__ import annotations

from ...core.status import Failure
from ...step.context import StepContext, link_of
from ...step.emitted import utf8_size
from ...step.report import OUTPUT_LIMIT, Annotation, StepReport, outputs_of, step_exit_code
from ...workflow_commands import json_line
from .models import Severity, ValidationResult, parse_target
from .online import OnlineValidation, validate_online
from .render import validation_dict, validation_summary, where


def report(step: StepContext) -> StepReport:
    """Validate a plan for the action (SPEC 10, 8): inputs -> fetch (or discover) ->
    validate -> the report (outputs, summary, one annotation per finding). Never raises."""
    target = parse_target(step.resolved_inputs())
    if isinstance(target, Failure):
        outcome = OnlineValidation(ValidationResult.of_failure(target))
        repository = None
    else:
        outcome = validate_online(target, step.fetcher(target))
        repository = target.repository
    settings = step.settings
    result = outcome.result
    shown = validation_dict(result)
    result_text = json_line(shown)
    findings_omitted = utf8_size(result_text) > OUTPUT_LIMIT
    if findings_omitted:  # SPEC 8: the bulky list leaves, a count says so
        shown["findings_omitted"] = len(shown.pop("findings"))
        result_text = json_line(shown)
    outputs = outputs_of(
        result.status,
        result.exit_code,
        result.message,
        result_text,
        error_count=str(result.errors),
        warning_count=str(result.warnings),
    )
    annotations = [
        Annotation(
            finding.severity.value,
            f"frame-spine validate: {finding.code}",
            f"{where(finding)}: {finding.message}",
        )
        for finding in result.findings
    ]
    if result.message is not None:
        annotations.append(
            Annotation("error", f"frame-spine validate: {result.status}", result.message)
        )
    exit_code = step_exit_code(
        settings.fail_on, failed=result.exit_code != 0, not_ok=bool(result.warnings)
    )
    notices = sum(finding.severity is Severity.NOTICE for finding in result.findings)
    return StepReport(
        outputs=outputs,
        summary=validation_summary(
            result,
            repository=repository,
            plan=link_of(outcome.plan),
            sibling=link_of(outcome.sibling),
            rest=(
                "`frame-spine validate --format json` prints all"
                if findings_omitted
                else "the `result` output has all"
            ),
        ),
        log_line=(
            f"frame-spine validate: status {result.status} ({result.errors} errors, "
            f"{result.warnings} warnings, {notices} notices)"
        ),
        exit_code=exit_code,
        job_summary=settings.job_summary,
        annotations=annotations,
        full_list=step.full_list(
            "finding",
            () if findings_omitted else ("the `result` output",),
            "frame-spine validate --format json",
        ),
    )
