"""Lookup in the action (SPEC 8): inputs, fetch and look up (:mod:`.online`), ``slice-file``,
the step's report."""

from __future__ import annotations

from ...core.shown import cut
from ...core.status import Failure, Status
from ...core.utf8 import utf8_size
from ...markdown import CommentLink, escape_cell
from ...step.context import StepContext, link_of
from ...step.report import OUTPUT_LIMIT, Annotation, StepReport
from ...step.workspace import WriteRefused
from .. import Online, result_output
from .models import LookupRequest, LookupResult, OnlineTarget, parse_online_inputs
from .online import lookup_online
from .render import lookup_summary, result_dict


def report(step: StepContext) -> StepReport:
    """Look up one step for the action (SPEC 5, 6, 8), writing ``slice-file`` when set."""
    validated = parse_online_inputs(step.resolved_inputs())
    if isinstance(validated, Failure):
        return lookup_report(step, Online(LookupResult.of_failure(validated)))
    target, request = validated
    outcome = lookup_online(target, request, step.fetcher(target))
    result = outcome.result
    slice_path: str | None = None
    failure: str | None = None
    if result.slice is not None:
        if step.settings.slice_file is not None:
            written = step.write(step.settings.slice_file, result.slice, "slice-file")
            if isinstance(written, WriteRefused):
                failure = written.message
            else:
                slice_path = written
        elif (size := utf8_size(result.slice)) > OUTPUT_LIMIT:
            failure = (
                f"the slice of step {cut(request.step_id)} is {size:,} bytes, over the "
                f"{OUTPUT_LIMIT:,}-byte limit of a step output: set slice-file to receive it as "
                "a file"
            )
    if failure is not None:  # the other outputs (slice, timestamps, digest) stay set
        failed = result.model_copy(update={"status": Status.ERROR, "message": failure})
        outcome = Online(failed, outcome.plan, outcome.sibling)
    return lookup_report(step, outcome, target, request, slice_path)


def _annotations(
    result: LookupResult, slice_fits: bool, slice_path: str | None
) -> list[Annotation]:
    """An error (``stale-spine``: a warning) for every status but ``ok``; a notice when the slice
    is only in ``slice-file``."""
    annotations = []
    if result.status is not Status.OK:
        command = "warning" if result.status is Status.STALE_SPINE else "error"
        title = f"frame-spine lookup: {result.status.value}"
        annotations.append(Annotation(command, title, result.message or result.status.value))
    if not slice_fits and slice_path is not None:
        annotations.append(
            Annotation(
                "notice",
                "frame-spine lookup: slice in slice-file only",
                f"the slice is {utf8_size(result.slice or ''):,} bytes, over the "
                f"{OUTPUT_LIMIT:,}-byte limit of a step output: the slice output is empty; "
                f"the whole slice is in {slice_path}",
            )
        )
    return annotations


def _given(comment_id: int | str | None) -> CommentLink | None:
    """A comment id given but not read, shown unlinked in the summary."""
    return CommentLink(comment_id, None) if isinstance(comment_id, int) else None


def lookup_report(
    step: StepContext,
    outcome: Online[LookupResult],
    target: OnlineTarget | None = None,
    request: LookupRequest | None = None,
    slice_path: str | None = None,
) -> StepReport:
    """A lookup's outcome as the step's report (SPEC 8); ``target`` and ``request`` ``None``: the
    inputs were refused, and the log line names the step and plan comment as given. A slice over
    :data:`OUTPUT_LIMIT` bytes is only in ``slice-file`` (a notice names it; without the file
    the caller made it an error)."""
    result = outcome.result
    repository = target.repository if target else None
    plan_comment_id = target.plan_comment_id if target else step.inputs.get("plan-comment-id")
    sibling_comment_id = target.slices_comment_id if target else None
    step_id = request.step_id if request else None
    dispatched_generated_at = request.generated_at if request else None
    if dispatched_generated_at == "current":
        dispatched_generated_at = result.current_generated_at
    generated_at = result.generated_at or result.dispatched_generated_at or dispatched_generated_at
    slice_text = result.slice or ""
    slice_fits = utf8_size(slice_text) <= OUTPUT_LIMIT
    in_file = f"in {escape_cell(slice_path)}" if slice_path else None
    if slice_fits:
        slice_note = "in the `slice` output" + (f" and {in_file}" if in_file else "")
    else:
        slice_note = f"{in_file} only" if in_file else "in no output"
    return step.report_of(
        result,
        result_output(result_dict(result), "slice"),
        summary=lookup_summary(
            result,
            repository=repository,
            plan=link_of(outcome.plan) or _given(plan_comment_id),
            sibling=link_of(outcome.sibling) or _given(sibling_comment_id),
            dispatched_generated_at=dispatched_generated_at,
            step_id=step_id,
            whole_slice=slice_note,
        ),
        log_line=(
            f"frame-spine lookup: status {result.status.value} (exit code {result.exit_code}) "
            f"for step {cut(step_id or step.inputs.get('step-id') or '-')} of plan comment "
            f"{cut(str(plan_comment_id or '-'))}"
        ),
        annotations=_annotations(result, slice_fits, slice_path),
        slice=slice_text if slice_fits else "",
        slice_path=slice_path or "",
        step_id=result.step_id or step_id or "",
        generated_at=generated_at or "",
        current_generated_at=result.current_generated_at or "",
        sibling_generated_at=result.sibling_generated_at or "",
        spine_digest=result.spine_digest or "",
    )
