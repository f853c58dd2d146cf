"""The GitHub Action entrypoint (SPEC 8, 10, 11): inputs -> fetch -> lookup/validate/audit ->
outputs.

An edge. Inputs arrive as ``INPUT_<NAME>`` variables with hyphens kept (``INPUT_STEP-ID``) and
are read with actions-toolkit, then validated here. :func:`run_step` decides a
:class:`~frame_spine.step_report.StepReport` (every declared output for every status, the job
summary, one log line, annotations) within the limits of
:func:`~frame_spine.step_report.within_limits`; the only files it writes are ``slice-file``
and ``report-file`` (:mod:`frame_spine.workspace_files`). :func:`main` writes the report with
:class:`~frame_spine.step_writer.StepWriter`. Every text emitted passes one
:class:`~frame_spine.emitted_text.EmittedText` filter (token redaction, valid UTF-8), applied
where the text is written. Nothing taken from a comment reaches stdout except inside an
escaped annotation.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Literal

from actions_toolkit import core
from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator

from .comments import FetchedComment
from .emitted_text import EmittedText, utf8_size
from .github_api import PUBLIC_API_URL, CommentFetcher
from .models import LookupResult, Status, error_result, first_error_message
from .online import OnlineLookup, lookup_online
from .online_inputs import ApiTarget, validate_online_inputs
from .render import json_line, result_dict
from .request_log import RequestListener
from .step_report import OUTPUT_LIMIT, Annotation, StepReport, within_limits
from .step_writer import FilteredText, StepWriter, debug_enabled
from .summary import (
    CommentLink,
    audit_summary,
    escape_cell,
    lookup_summary,
    validation_summary,
)
from .workspace_files import WriteRefused, write_in_workspace

#: Every output of action.yml, in its order; each is set for every status.
OUTPUT_NAMES = (
    "status",
    "exit-code",
    "message",
    "slice",
    "slice-path",
    "step-id",
    "generated-at",
    "current-generated-at",
    "sibling-generated-at",
    "spine-digest",
    "result",
    "error-count",
    "warning-count",
    "report-path",
    "count-no-spine",
    "count-invalid",
    "count-sibling-missing",
    "count-sibling-unstamped",
    "count-stale-sibling",
    "count-fresh",
)
#: Every input of action.yml.
INPUT_NAMES = (
    "mode",
    "token",
    "repository",
    "api-url",
    "issue-number",
    "plan-comment-id",
    "slices-comment-id",
    "step-id",
    "generated-at",
    "spine-digest",
    "slice-file",
    "fail-on",
    "job-summary",
    "timeout",
    "max-wait",
    "issue-state",
    "since",
    "report-file",
)
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")


class StepSettings(BaseModel):
    """The inputs that shape the step rather than the lookup (SPEC 8).

    Attributes:
        mode: ``lookup`` or ``validate`` (``audit`` is not available yet).
        fail_on: ``error`` (fail on exit-1 statuses; in validate mode on any error finding),
            ``not-ok`` (also on ``stale-spine``; in validate mode on warnings) or ``never``.
        job_summary: whether to write the job summary (YAML 1.2 booleans).
        slice_file: a workspace-relative path for the slice, or ``None``.
        report_file: a workspace-relative path for the audit's JSON report, or ``None``.
    """

    model_config = ConfigDict(frozen=True)

    mode: Literal["lookup", "validate", "audit"]
    fail_on: Literal["error", "not-ok", "never"]
    job_summary: bool
    slice_file: str | None
    report_file: str | None = None

    @field_validator("mode", mode="before")
    @classmethod
    def _check_mode(cls, value: Any) -> str:
        text = str(value or "lookup")
        if text not in ("lookup", "validate", "audit"):
            raise ValueError(f"mode {text!r} is not one of lookup, validate, audit")
        return text

    @field_validator("fail_on", mode="before")
    @classmethod
    def _check_fail_on(cls, value: Any) -> str:
        text = str(value or "error")
        if text not in ("error", "not-ok", "never"):
            raise ValueError(f"fail-on {text!r} is not one of error, not-ok, never")
        return text

    @field_validator("job_summary", mode="before")
    @classmethod
    def _check_job_summary(cls, value: Any) -> bool:
        text = str(value or "true")
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ValueError(f"job-summary {text!r} is not true or false")

    @field_validator("slice_file", "report_file", mode="before")
    @classmethod
    def _check_workspace_path(cls, value: Any, info: ValidationInfo) -> str | None:
        name = (info.field_name or "").replace("_", "-")
        text = str(value or "")
        if not text:
            return None
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{name} is not a UTF-8 path") from None
        path = PurePosixPath(text)
        if path.is_absolute() or ".." in path.parts or "\\" in text or "\0" in text:
            raise ValueError(
                f"{name} {text!r} must be a relative path inside the workspace "
                "(no leading / and no ..)"
            )
        return str(path)


@dataclass(frozen=True, slots=True)
class _Step:
    """One run: its inputs and settings, and the edges the modes share (fetching, files)."""

    inputs: Mapping[str, str]
    environ: Mapping[str, str]
    settings: StepSettings
    emitted: EmittedText
    on_request: RequestListener | None

    def fetcher(self, target: ApiTarget) -> CommentFetcher:
        """A fetcher for ``target`` with the ``token`` input and the debug listener."""
        return CommentFetcher.for_target(target, self.inputs["token"], on_request=self.on_request)

    def write(self, relative: str, text: str, input_name: str) -> str | WriteRefused:
        """Write a file in the workspace (SPEC 8); see :func:`write_in_workspace`."""
        workspace = self.environ.get("GITHUB_WORKSPACE") or os.getcwd()
        return write_in_workspace(
            workspace, relative, text, input_name=input_name, emitted=self.emitted
        )

    def full_list(self, noun: str, places: Sequence[str], command: str) -> str:
        """Where every ``noun`` behind the annotations is, for the notice on annotations
        left out (SPEC 8).

        Args:
            noun: what is listed (``finding``, ``plan``).
            places: the outputs or files that list every one (empty when the list was too
                large for ``result``); the job summary, when written, lists as many as fit.
            command: the command line that prints every one.
        """
        summary = "the job summary lists them as far as its size limit allows"
        if places:
            where = " and ".join(places)
            text = f"{where} {'list' if len(places) > 1 else 'lists'} every {noun}"
            return text + (f"; {summary}" if self.settings.job_summary else "")
        text = f"there are too many for the `result` output; `{command}` prints every {noun}"
        return (f"{summary}; " if self.settings.job_summary else "") + text


def read_inputs() -> dict[str, str]:
    """Read every input of action.yml with actions-toolkit (``INPUT_<NAME>``, trimmed)."""
    return {name: core.get_input(name) for name in INPUT_NAMES}


def _settings(inputs: Mapping[str, str]) -> StepSettings | LookupResult:
    try:
        return StepSettings(
            mode=inputs["mode"],
            fail_on=inputs["fail-on"],
            job_summary=inputs["job-summary"],
            slice_file=inputs["slice-file"],
            report_file=inputs["report-file"],
        )
    except ValidationError as exc:
        return error_result(first_error_message(exc))


def _api_url(inputs: Mapping[str, str], environ: Mapping[str, str]) -> str:
    """``api-url``, else the runner's ``GITHUB_API_URL``, else the public API (SPEC 8)."""
    return inputs["api-url"] or environ.get("GITHUB_API_URL") or PUBLIC_API_URL


def _repository(inputs: Mapping[str, str], environ: Mapping[str, str]) -> str:
    """``repository``, else the runner's ``GITHUB_REPOSITORY`` (SPEC 8)."""
    return inputs["repository"] or environ.get("GITHUB_REPOSITORY", "")


def step_exit_code(fail_on: str, *, failed: bool, not_ok: bool) -> int:
    """The step's exit code under ``fail-on`` (SPEC 8): 1 fails the step.

    Args:
        fail_on: ``error``, ``not-ok`` or ``never``.
        failed: the result's own exit code is 1 (an exit-1 status, an invalid plan, audit
            findings, a fetch failure).
        not_ok: the result is short of perfect all the same (``stale-spine``; warnings).
    """
    if fail_on == "never":
        return 0
    if fail_on == "not-ok":
        return 1 if failed or not_ok else 0
    return 1 if failed else 0


def _link(comment: FetchedComment | None) -> CommentLink | None:
    return CommentLink(comment.id, comment.html_url) if comment is not None else None


def _blank_outputs() -> dict[str, str]:
    return dict.fromkeys(OUTPUT_NAMES, "")


def _lookup_report(step: _Step) -> StepReport:
    inputs, environ, settings = step.inputs, step.environ, step.settings
    validated = validate_online_inputs(
        repository=_repository(inputs, environ),
        plan_comment_id=inputs["plan-comment-id"],
        slices_comment_id=inputs["slices-comment-id"],
        api_url=_api_url(inputs, environ),
        step_id=inputs["step-id"],
        generated_at=inputs["generated-at"],
        spine_digest=inputs["spine-digest"],
        issue_number=inputs["issue-number"],
        timeout=inputs["timeout"] or "10",
        max_wait=inputs["max-wait"] or "60",
    )
    if isinstance(validated, LookupResult):
        return lookup_report(OnlineLookup(validated), settings)
    target, request = validated
    outcome = lookup_online(target, request, step.fetcher(target))
    result = outcome.result
    slice_path: str | None = None
    failure: str | None = None
    if result.slice is not None:
        if settings.slice_file is not None:
            written = step.write(settings.slice_file, result.slice, "slice-file")
            if isinstance(written, WriteRefused):
                failure = written.message
            else:
                slice_path = written
        elif utf8_size(result.slice) > OUTPUT_LIMIT:
            failure = (
                f"the slice of step {request.step_id} is {utf8_size(result.slice):,} bytes, over "
                f"the {OUTPUT_LIMIT:,}-byte limit of a step output: set slice-file to receive "
                "it as a file"
            )
    if failure is not None:  # the other outputs (slice, timestamps, digest) stay set
        failed = result.model_copy(update={"status": Status.ERROR, "message": failure})
        outcome = OnlineLookup(failed, outcome.plan, outcome.sibling)
    dispatched = (
        result.current_generated_at if request.generated_at == "current" else request.generated_at
    )
    return lookup_report(
        outcome,
        settings,
        repository=target.repository,
        plan_comment_id=target.plan_comment_id,
        step_id=request.step_id,
        dispatched_generated_at=dispatched,
        slice_path=slice_path,
    )


def lookup_report(
    outcome: OnlineLookup,
    settings: StepSettings | None,
    *,
    repository: str | None = None,
    plan_comment_id: int | None = None,
    step_id: str | None = None,
    dispatched_generated_at: str | None = None,
    slice_path: str | None = None,
) -> StepReport:
    """Turn a lookup's outcome into outputs, summary, log line, annotation and exit code.

    A slice over :data:`OUTPUT_LIMIT` bytes is left out of the ``slice`` output (empty) and
    of ``result`` (``"slice_omitted": true``, also when only the JSON-escaped ``result`` is
    too large); it is then whole only in ``slice-file`` (``slice_path``), which a notice
    annotation names. Without ``slice-file`` such a slice is an ``error`` decided by the
    caller, so no ``ok`` ever comes without its slice.
    """
    result = outcome.result
    slice_text = result.slice or ""
    slice_fits = utf8_size(slice_text) <= OUTPUT_LIMIT
    shown = result_dict(result)
    result_text = json_line(shown)
    if "slice" in shown and (not slice_fits or utf8_size(result_text) > OUTPUT_LIMIT):
        del shown["slice"]
        shown["slice_omitted"] = True
        result_text = json_line(shown)
    outputs = _blank_outputs()
    outputs.update(
        {
            "status": result.status.value,
            "exit-code": str(result.exit_code),
            "message": result.message or "",
            "slice": slice_text if slice_fits else "",
            "slice-path": slice_path or "",
            "step-id": result.step_id or step_id or "",
            "generated-at": result.generated_at
            or result.dispatched_generated_at
            or dispatched_generated_at
            or "",
            "current-generated-at": result.current_generated_at or "",
            "sibling-generated-at": result.sibling_generated_at or "",
            "spine-digest": result.spine_digest or "",
            "result": result_text,
        }
    )
    annotations = []
    if result.status is not Status.OK:
        command = "warning" if result.status is Status.STALE_SPINE else "error"
        annotations.append(
            Annotation(
                command,
                f"frame-spine lookup: {result.status.value}",
                result.message or result.status.value,
            )
        )
    if not slice_fits and slice_path is not None:
        annotations.append(
            Annotation(
                "notice",
                "frame-spine lookup: slice in slice-file only",
                f"the slice is {utf8_size(slice_text):,} bytes, over the {OUTPUT_LIMIT:,}-byte "
                f"limit of a step output: the slice output is empty; the whole slice is in "
                f"{slice_path}",
            )
        )
    in_file = f"in {escape_cell(slice_path)}" if slice_path else None
    if slice_fits:
        slice_note = "in the `slice` output" + (f" and {in_file}" if in_file else "")
    else:
        slice_note = f"{in_file} only" if in_file else "in no output"
    fail_on = settings.fail_on if settings is not None else "error"
    exit_code = step_exit_code(
        fail_on, failed=result.exit_code != 0, not_ok=result.status is not Status.OK
    )
    return StepReport(
        outputs=outputs,
        summary=lookup_summary(
            result,
            repository=repository,
            plan=_link(outcome.plan),
            sibling=_link(outcome.sibling),
            dispatched_generated_at=dispatched_generated_at,
            step_id=step_id,
            whole_slice=slice_note,
        ),
        log_line=(
            f"frame-spine lookup: status {result.status.value} (exit code {result.exit_code}) "
            f"for step {step_id or '-'} of plan comment {plan_comment_id or '-'}"
        ),
        exit_code=exit_code,
        job_summary=settings.job_summary if settings is not None else True,
        annotations=annotations,
    )


def _validate_report(step: _Step) -> StepReport:
    # Imported here: lookup runs do not pay for validate mode.
    from .online_inputs import validate_target_inputs
    from .render_findings import validation_dict, where
    from .validate import Severity
    from .validate_online import OnlineValidation, failed_result, validate_online

    inputs, environ, settings = step.inputs, step.environ, step.settings
    target = validate_target_inputs(
        repository=_repository(inputs, environ),
        api_url=_api_url(inputs, environ),
        plan_comment_id=inputs["plan-comment-id"],
        slices_comment_id=inputs["slices-comment-id"],
        issue_number=inputs["issue-number"],
        timeout=inputs["timeout"] or "10",
        max_wait=inputs["max-wait"] or "60",
    )
    if isinstance(target, LookupResult):
        outcome = OnlineValidation(failed_result(target))
        repository = None
    else:
        outcome = validate_online(target, step.fetcher(target))
        repository = target.repository
    result = outcome.result
    shown = validation_dict(result)
    result_text = json_line(shown)
    findings_omitted = utf8_size(result_text) > OUTPUT_LIMIT
    if findings_omitted:  # SPEC 8: the bulky list leaves, a count says so
        shown["findings_omitted"] = len(shown.pop("findings"))
        result_text = json_line(shown)
    outputs = _blank_outputs()
    outputs.update(
        {
            "status": result.status,
            "exit-code": str(result.exit_code),
            "message": result.message or "",
            "result": result_text,
            "error-count": str(result.errors),
            "warning-count": str(result.warnings),
        }
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
            plan=_link(outcome.plan),
            sibling=_link(outcome.sibling),
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


def _audit_report(step: _Step) -> StepReport:
    # Imported here: lookup runs do not pay for audit mode.
    from .audit import QUIET_STATES, AuditReport, AuditState
    from .audit_online import audit_online
    from .online_inputs import validate_audit_inputs
    from .render_audit import audit_dict, audit_json

    inputs, environ, settings = step.inputs, step.environ, step.settings
    repository = _repository(inputs, environ)
    target = validate_audit_inputs(
        repository=repository,
        api_url=_api_url(inputs, environ),
        state=inputs["issue-state"],
        since=inputs["since"],
        timeout=inputs["timeout"] or "10",
        max_wait=inputs["max-wait"] or "60",
    )
    if isinstance(target, LookupResult):
        report = AuditReport(
            status=target.status.value, repository=repository, requests=0, message=target.message
        )
    else:
        report = audit_online(target, step.fetcher(target))
    full = audit_json(report)
    report_path = ""
    if settings.report_file is not None:
        written = step.write(settings.report_file, full + "\n", "report-file")
        if isinstance(written, WriteRefused):  # the counts and plans stay set
            report = report.model_copy(update={"status": "error", "message": written.message})
            full = audit_json(report)
        else:
            report_path = written
    result_text = full
    plans_omitted = utf8_size(full) > OUTPUT_LIMIT
    if plans_omitted:
        shown = audit_dict(report)
        shown["plans_omitted"] = len(shown.pop("plans"))
        result_text = json_line(shown)
    outputs = _blank_outputs()
    outputs.update(
        {
            "status": report.status,
            "exit-code": str(report.exit_code),
            "message": report.message or "",
            "result": result_text,
            "report-path": report_path,
        }
    )
    if report.counts or report.message is None:
        for state in AuditState:
            outputs[f"count-{state.value}"] = str(report.counts.get(state.value, 0))
    annotations = [
        Annotation(
            "warning",
            f"frame-spine audit: {plan.state.value}",
            f"issue #{plan.issue}, plan comment {plan.plan_comment_id}: {plan.state.value} "
            f"({plan.errors} errors, {plan.warnings} warnings)",
        )
        for plan in report.plans
        if plan.state not in QUIET_STATES
    ]
    if report.message is not None:
        annotations.append(
            Annotation("error", f"frame-spine audit: {report.status}", report.message)
        )
    exit_code = step_exit_code(
        settings.fail_on,
        failed=report.exit_code != 0,
        not_ok=any(plan.warnings for plan in report.plans),
    )
    places = [] if plans_omitted else ["the `result` output"]
    if report_path:
        places.append(f"the report {escape_cell(report_path)}")
    if report_path:
        rest = f"the report {escape_cell(report_path)} has all"
    elif not plans_omitted:
        rest = "the `result` output has all"
    else:
        rest = "`frame-spine audit --format json` prints all"
    return StepReport(
        outputs=outputs,
        summary=audit_summary(report, rest=rest),
        log_line=(
            f"frame-spine audit: status {report.status}, {len(report.plans)} plans, "
            f"{report.requests} requests"
        ),
        exit_code=exit_code,
        job_summary=settings.job_summary,
        annotations=annotations,
        full_list=step.full_list("plan", places, "frame-spine audit --format json"),
    )


def run_step(
    inputs: Mapping[str, str],
    environ: Mapping[str, str],
    *,
    emitted: EmittedText | None = None,
    on_request: RequestListener | None = None,
) -> StepReport:
    """Validate the inputs, then look up, validate or audit (SPEC 6, 8, 10, 11).

    Only the workspace files (``slice-file``, ``report-file``) are written here; everything
    else is returned, within the limits of :func:`frame_spine.step_report.within_limits`.

    Args:
        inputs: every input of action.yml by its kebab-case name (see :func:`read_inputs`).
        environ: the runner's environment (``GITHUB_REPOSITORY``, ``GITHUB_API_URL``,
            ``GITHUB_WORKSPACE``, the token variables).
        emitted: the filter files pass; by default the one of ``environ``.
        on_request: called once per request (debug logging).

    Returns:
        The :class:`StepReport`. Never raises.
    """
    settings = _settings(inputs)
    if isinstance(settings, LookupResult):
        return within_limits(lookup_report(OnlineLookup(settings), None))
    step = _Step(
        inputs,
        environ,
        settings,
        emitted if emitted is not None else EmittedText.for_environment(environ),
        on_request,
    )
    if settings.mode == "validate":
        return within_limits(_validate_report(step))
    if settings.mode == "audit":
        return within_limits(_audit_report(step))
    return within_limits(_lookup_report(step))


def main() -> int:
    """Run the action (the container's entrypoint); returns the step's exit code.

    Refuses to run (exit 1, fixed text only) when ``GITHUB_OUTPUT`` is not set: outputs are
    never printed as ``::set-output`` commands. Every text written, stderr included, passes
    the run's :class:`EmittedText` filter; with ``RUNNER_DEBUG=1`` each request is logged as
    a ``::debug::`` line as it happens.
    """
    environ = os.environ
    emitted = EmittedText.for_environment(environ)
    sys.stderr = FilteredText(sys.stderr, emitted)
    writer = StepWriter(environ, emitted)
    if not environ.get("GITHUB_OUTPUT"):
        writer.line(
            "::error title=frame-spine::GITHUB_OUTPUT is not set: this entrypoint runs as a "
            "GitHub Actions step and writes its outputs to that file only"
        )
        return 1
    listener = writer.debug if debug_enabled(environ) else None
    try:
        report = run_step(read_inputs(), environ, emitted=emitted, on_request=listener)
    except Exception as exc:  # the last resort: the exception's name, never its text
        failure = error_result(f"internal error: {exc.__class__.__name__}")
        report = within_limits(lookup_report(OnlineLookup(failure), None))
    return writer.write(report)


if __name__ == "__main__":
    sys.exit(main())
