"""The GitHub Action entrypoint (SPEC 8, 10): inputs -> fetch -> lookup/validate -> outputs.

An edge. Inputs arrive as ``INPUT_<NAME>`` variables with hyphens kept (``INPUT_STEP-ID``) and
are read with actions-toolkit, then validated here. Every declared output is written to the
``GITHUB_OUTPUT`` file (random heredoc delimiters, by actions-toolkit) for every status; the
job summary goes to ``GITHUB_STEP_SUMMARY``; annotations are escaped workflow commands.
Nothing taken from a comment reaches stdout except inside an escaped annotation.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from actions_toolkit import core
from actions_toolkit.command import issue_command
from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator

from .comments import FetchedComment
from .github_api import PUBLIC_API_URL, CommentFetcher
from .models import LookupResult, Status, error_result, first_error_message
from .online import OnlineLookup, lookup_online
from .online_inputs import validate_online_inputs
from .render import result_json
from .summary import CommentLink, audit_summary, lookup_summary, validation_summary

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
class Annotation:
    """One annotation: ``command`` is ``error``, ``warning`` or ``notice``."""

    command: str
    title: str
    message: str


@dataclass(frozen=True, slots=True)
class StepReport:
    """Everything one run writes, decided before anything is written.

    Attributes:
        outputs: every declared output (``""`` when not applicable).
        summary: the job summary Markdown. log_line: the one fixed line for stdout.
        annotations: escaped when written. exit_code: the step's exit code under fail-on.
        job_summary: whether to write the summary.
    """

    outputs: dict[str, str]
    summary: str
    log_line: str
    exit_code: int
    job_summary: bool = True
    annotations: list[Annotation] = field(default_factory=list)


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


def _write_in_workspace(workspace: str, relative: str, text: str, name: str) -> str | LookupResult:
    """Write ``text`` to ``relative`` under the workspace (``name`` is the input, for
    messages); returns the workspace-relative path written, or an ``error`` result when the
    path resolves outside the workspace (a symlink) or cannot be written."""
    root = Path(workspace).resolve()
    target = (root / relative).resolve()
    if root != target and root not in target.parents:
        return error_result(f"{name} {relative!r} resolves outside the workspace")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        return error_result(f"cannot write {name} {relative!r}: {exc.strerror or exc}")
    return target.relative_to(root).as_posix()


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


def _lookup_report(
    inputs: Mapping[str, str], environ: Mapping[str, str], settings: StepSettings
) -> StepReport:
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
    fetcher = CommentFetcher.for_target(target, inputs["token"])
    outcome = lookup_online(target, request, fetcher)
    slice_path: str | None = None
    if settings.slice_file is not None and outcome.result.slice is not None:
        workspace = environ.get("GITHUB_WORKSPACE") or os.getcwd()
        written = _write_in_workspace(
            workspace, settings.slice_file, outcome.result.slice, "slice-file"
        )
        if isinstance(written, LookupResult):
            outcome = OnlineLookup(written, outcome.plan, outcome.sibling)
        else:
            slice_path = written
    dispatched = (
        outcome.result.current_generated_at
        if request.generated_at == "current"
        else request.generated_at
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
    """Turn a lookup's outcome into outputs, summary, log line, annotation and exit code."""
    result = outcome.result
    outputs = _blank_outputs()
    outputs.update(
        {
            "status": result.status.value,
            "exit-code": str(result.exit_code),
            "message": result.message or "",
            "slice": result.slice or "",
            "slice-path": slice_path or "",
            "step-id": result.step_id or step_id or "",
            "generated-at": result.generated_at
            or result.dispatched_generated_at
            or dispatched_generated_at
            or "",
            "current-generated-at": result.current_generated_at or "",
            "sibling-generated-at": result.sibling_generated_at or "",
            "spine-digest": result.spine_digest or "",
            "result": result_json(result),
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
        ),
        log_line=(
            f"frame-spine lookup: status {result.status.value} (exit code {result.exit_code}) "
            f"for step {step_id or '-'} of plan comment {plan_comment_id or '-'}"
        ),
        exit_code=exit_code,
        job_summary=settings.job_summary if settings is not None else True,
        annotations=annotations,
    )


def _validate_report(
    inputs: Mapping[str, str], environ: Mapping[str, str], settings: StepSettings
) -> StepReport:
    # Imported here: lookup runs do not pay for validate mode.
    from .online_inputs import validate_target_inputs
    from .render_findings import validation_json, where
    from .validate import Severity
    from .validate_online import OnlineValidation, failed_result, validate_online

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
        fetcher = CommentFetcher.for_target(target, inputs["token"])
        outcome = validate_online(target, fetcher)
        repository = target.repository
    result = outcome.result
    outputs = _blank_outputs()
    outputs.update(
        {
            "status": result.status,
            "exit-code": str(result.exit_code),
            "message": result.message or "",
            "result": validation_json(result),
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
            result, repository=repository, plan=_link(outcome.plan), sibling=_link(outcome.sibling)
        ),
        log_line=(
            f"frame-spine validate: status {result.status} ({result.errors} errors, "
            f"{result.warnings} warnings, {notices} notices)"
        ),
        exit_code=exit_code,
        job_summary=settings.job_summary,
        annotations=annotations,
    )


#: The ``result`` output carries the whole JSON report up to this size; beyond it, the plans
#: are left out of the output (``report-file`` has them all).
RESULT_OUTPUT_LIMIT = 512 * 1024
#: Plans with findings that get an annotation of their own; the rest are counted in one.
ANNOTATED_PLANS = 10


def _audit_report(
    inputs: Mapping[str, str], environ: Mapping[str, str], settings: StepSettings
) -> StepReport:
    # Imported here: lookup runs do not pay for audit mode.
    from .audit import QUIET_STATES, AuditReport, AuditState
    from .audit_online import audit_online
    from .online_inputs import validate_audit_inputs
    from .render import json_line
    from .render_audit import audit_dict, audit_json

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
        fetcher = CommentFetcher.for_target(target, inputs["token"])
        report = audit_online(target, fetcher)
    full = audit_json(report)
    report_path = ""
    if settings.report_file is not None:
        workspace = environ.get("GITHUB_WORKSPACE") or os.getcwd()
        written = _write_in_workspace(workspace, settings.report_file, full + "\n", "report-file")
        if isinstance(written, LookupResult):
            report = AuditReport(
                status=written.status.value,
                repository=report.repository,
                requests=report.requests,
                message=written.message,
            )
            full = audit_json(report)
        else:
            report_path = written
    result = full
    if len(full.encode("utf-8")) > RESULT_OUTPUT_LIMIT:
        shown = audit_dict(report)
        shown["plans_omitted"] = len(shown.pop("plans"))
        result = json_line(shown)
    outputs = _blank_outputs()
    outputs.update(
        {
            "status": report.status,
            "exit-code": str(report.exit_code),
            "message": report.message or "",
            "result": result,
            "report-path": report_path,
        }
    )
    if report.message is None:
        for state in AuditState:
            outputs[f"count-{state.value}"] = str(report.counts.get(state.value, 0))
    drifted = [plan for plan in report.plans if plan.state not in QUIET_STATES]
    annotations = [
        Annotation(
            "warning",
            f"frame-spine audit: {plan.state.value}",
            f"issue #{plan.issue}, plan comment {plan.plan_comment_id}: {plan.state.value} "
            f"({plan.errors} errors, {plan.warnings} warnings)",
        )
        for plan in drifted[:ANNOTATED_PLANS]
    ]
    if len(drifted) > ANNOTATED_PLANS:
        annotations.append(
            Annotation(
                "warning",
                "frame-spine audit",
                f"{len(drifted) - ANNOTATED_PLANS} more plans with findings: see the job "
                "summary and the report",
            )
        )
    if report.message is not None:
        annotations.append(
            Annotation("error", f"frame-spine audit: {report.status}", report.message)
        )
    exit_code = step_exit_code(
        settings.fail_on,
        failed=report.exit_code != 0,
        not_ok=any(plan.warnings for plan in report.plans),
    )
    return StepReport(
        outputs=outputs,
        summary=audit_summary(report),
        log_line=(
            f"frame-spine audit: status {report.status}, {len(report.plans)} plans, "
            f"{report.requests} requests"
        ),
        exit_code=exit_code,
        job_summary=settings.job_summary,
        annotations=annotations,
    )


def run_step(inputs: Mapping[str, str], environ: Mapping[str, str]) -> StepReport:
    """Validate the inputs, then look up or validate (SPEC 6, 8, 10); nothing is written here.

    Args:
        inputs: every input of action.yml by its kebab-case name (see :func:`read_inputs`).
        environ: the runner's environment (``GITHUB_REPOSITORY``, ``GITHUB_API_URL``,
            ``GITHUB_WORKSPACE``).

    Returns:
        The :class:`StepReport`. Never raises.
    """
    settings = _settings(inputs)
    if isinstance(settings, LookupResult):
        return lookup_report(OnlineLookup(settings), None)
    if settings.mode == "validate":
        return _validate_report(inputs, environ, settings)
    if settings.mode == "audit":
        return _audit_report(inputs, environ, settings)
    return _lookup_report(inputs, environ, settings)


def main() -> int:
    """Run the action (the container's entrypoint); returns the step's exit code.

    Refuses to run (exit 1, fixed text only) when ``GITHUB_OUTPUT`` is not set: outputs are
    never printed as ``::set-output`` commands.
    """
    environ = os.environ
    if not environ.get("GITHUB_OUTPUT"):
        sys.stdout.write(
            "::error title=frame-spine::GITHUB_OUTPUT is not set: this entrypoint runs as a "
            "GitHub Actions step and writes its outputs to that file only\n"
        )
        return 1
    try:
        report = run_step(read_inputs(), environ)
    except Exception as exc:  # never a traceback: report it as an error status
        failure = error_result(f"internal error: {exc.__class__.__name__}")
        report = lookup_report(OnlineLookup(failure), None)
    try:
        for name, value in report.outputs.items():
            core.set_output(name, value)
    except Exception:  # a missing or unwritable GITHUB_OUTPUT file: fixed text only
        sys.stdout.write(
            "::error title=frame-spine::cannot write the step outputs to the GITHUB_OUTPUT file\n"
        )
        return 1
    summary_file = environ.get("GITHUB_STEP_SUMMARY")
    if summary_file and report.job_summary:
        try:
            with open(summary_file, "a", encoding="utf-8") as handle:
                handle.write(report.summary)
        except OSError:
            sys.stdout.write(
                "::warning title=frame-spine::cannot write the job summary to the "
                "GITHUB_STEP_SUMMARY file\n"
            )
    sys.stdout.write(report.log_line + "\n")
    for annotation in report.annotations:
        issue_command(annotation.command, {"title": annotation.title}, annotation.message)
    sys.stdout.flush()
    return report.exit_code


if __name__ == "__main__":
    sys.exit(main())
