"""Validate in the action (SPEC 8, 10, 14): inputs, fetch and validate (:mod:`.online`), the
step's report."""

from __future__ import annotations

from ...core.status import Failure
from ...core.utf8 import utf8_size
from ...inputs import parse_inputs
from ...markdown import plural
from ...step.context import StepContext, link_of
from ...step.report import OUTPUT_LIMIT, Annotation, StepReport
from ...validation.dispatch import Dispatch, DispatchRequest, as_outputs
from ...validation.findings import where
from ...validation.models import Severity, ValidationResult, parse_target
from ...workflow_commands import json_line
from .. import Online, result_output
from .online import validate_online
from .render import validation_dict, validation_summary


def _validated(step: StepContext) -> tuple[Online[ValidationResult], str | None]:
    """Inputs -> fetch (or discover) -> validate -> the matrix; and the repository (``None``
    when the inputs were refused)."""
    target = parse_target(step.resolved_inputs())
    if isinstance(target, Failure):
        return Online(ValidationResult.of_failure(target)), None
    request = parse_inputs(DispatchRequest, step.inputs)
    if isinstance(request, Failure):
        return Online(ValidationResult.of_failure(request)), None
    return validate_online(target, step.fetcher(target), request.completed_steps), target.repository


def _matrix_outputs(dispatch: Dispatch) -> tuple[dict[str, str], list[Annotation]]:
    """The ``steps``, ``waves`` and ``ready`` outputs (SPEC 14), each empty (never clipped,
    broken JSON) with a warning when over the output limit."""
    outputs: dict[str, str] = {}
    warnings: list[Annotation] = []
    for name, value in as_outputs(dispatch).items():
        text = json_line(value)
        if (size := utf8_size(text)) > OUTPUT_LIMIT:
            warnings.append(
                Annotation(
                    "warning",
                    f"frame-spine validate: {name} output omitted",
                    f"the {name} output would be {size:,} bytes, over the {OUTPUT_LIMIT:,}-byte "
                    "limit of a step output: it is empty; a matrix holds at most 256 jobs, so "
                    "dispatch a plan this large in ready batches (completed-steps), or read "
                    "`frame-spine validate --format json`",
                )
            )
            text = ""
        outputs[name] = text
    return outputs, warnings


def report(step: StepContext) -> StepReport:
    """Validate a plan for the action (SPEC 10, 8, 14)."""
    outcome, repository = _validated(step)
    result = outcome.result
    shown = validation_dict(result)
    result_text = result_output(shown, "findings", "dispatch")
    dispatch = result.dispatch or Dispatch()
    matrix, too_large = _matrix_outputs(dispatch)
    first = dispatch.steps[0] if dispatch.steps else None  # a valid plan's spine (SPEC 8)
    annotations = too_large + [
        Annotation(
            finding.severity.value,
            f"frame-spine validate: {finding.code}",
            f"{where(finding)}: {finding.message}",
        )
        for finding in result.findings
    ]
    if result.message is not None:
        title = f"frame-spine validate: {result.status}"
        annotations.append(Annotation("error", title, result.message))
    notices = sum(finding.severity is Severity.NOTICE for finding in result.findings)
    places = () if "findings_omitted" in shown else ("the `result` output",)
    rest, full_list = step.lists("finding", places, "frame-spine validate --format json")
    plan, sibling = link_of(outcome.plan), link_of(outcome.sibling)
    return step.report_of(
        result,
        result_text,
        summary=validation_summary(
            result, repository=repository, plan=plan, sibling=sibling, rest=rest
        ),
        log_line=(
            f"frame-spine validate: status {result.status} ({plural(result.errors, 'error')}, "
            f"{plural(result.warnings, 'warning')}, {plural(notices, 'notice')})"
        ),
        not_ok=bool(result.warnings),
        annotations=annotations,
        full_list=full_list,
        current_generated_at="" if first is None else first.generated_at,
        spine_digest="" if first is None else first.spine_digest,
        error_count=str(result.errors),
        warning_count=str(result.warnings),
        **matrix,
    )
