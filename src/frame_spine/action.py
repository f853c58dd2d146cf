"""The GitHub Action entrypoint (SPEC 8): inputs -> fetch -> lookup -> step outputs.

An edge. Inputs arrive as ``INPUT_<NAME>`` variables with hyphens kept (``INPUT_STEP-ID``) and
are read with actions-toolkit, then validated here. Every declared output is written to the
``GITHUB_OUTPUT`` file (random heredoc delimiters, by actions-toolkit) for every status; the
job summary goes to ``GITHUB_STEP_SUMMARY``; one annotation is written per non-ok status.
Nothing taken from a comment reaches stdout except inside an escaped annotation.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from actions_toolkit import core
from actions_toolkit.command import issue_command
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .github_api import PUBLIC_API_URL, ApiSettings, CommentFetcher
from .models import LookupRequest, LookupResult, Status, error_result, first_error_message
from .online import OnlineLookup, OnlineTarget, lookup_online, validate_online_inputs
from .render import result_json
from .summary import CommentLink, lookup_summary

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
)
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")


class StepSettings(BaseModel):
    """The inputs that shape the step rather than the lookup (SPEC 8).

    Attributes:
        mode: ``lookup`` (``validate`` and ``audit`` are not available yet).
        fail_on: ``error`` (fail on exit-1 statuses), ``not-ok`` (also on ``stale-spine``) or
            ``never``.
        job_summary: whether to write the job summary (YAML 1.2 booleans).
        slice_file: a workspace-relative path for the slice, or ``None``.
    """

    model_config = ConfigDict(frozen=True)

    mode: Literal["lookup"]
    fail_on: Literal["error", "not-ok", "never"]
    job_summary: bool
    slice_file: str | None

    @field_validator("mode", mode="before")
    @classmethod
    def _check_mode(cls, value: Any) -> str:
        text = str(value or "lookup")
        if text in ("validate", "audit"):
            raise ValueError(f"mode {text!r} is not available in this version of the action")
        if text != "lookup":
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

    @field_validator("slice_file", mode="before")
    @classmethod
    def _check_slice_file(cls, value: Any) -> str | None:
        text = str(value or "")
        if not text:
            return None
        path = PurePosixPath(text)
        if path.is_absolute() or ".." in path.parts or "\\" in text or "\0" in text:
            raise ValueError(
                f"slice-file {text!r} must be a relative path inside the workspace "
                "(no leading / and no ..)"
            )
        return str(path)


@dataclass(frozen=True, slots=True)
class StepOutcome:
    """What one run of the action decided: the lookup, the settings and the slice path."""

    lookup: OnlineLookup
    settings: StepSettings | None
    target: OnlineTarget | None
    request: LookupRequest | None
    slice_path: str | None


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
        )
    except ValidationError as exc:
        return error_result(first_error_message(exc))


def _write_slice(workspace: str, relative: str, text: str) -> str | LookupResult:
    root = Path(workspace).resolve()
    target = (root / relative).resolve()
    if root != target and root not in target.parents:
        return error_result(f"slice-file {relative!r} resolves outside the workspace")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        return error_result(f"cannot write slice-file {relative!r}: {exc.strerror or exc}")
    return target.relative_to(root).as_posix()


def run_step(inputs: Mapping[str, str], environ: Mapping[str, str]) -> StepOutcome:
    """Validate the inputs, fetch and look up (SPEC 6, 8); no output is written here.

    Args:
        inputs: every input of action.yml by its kebab-case name (see :func:`read_inputs`).
        environ: the runner's environment (``GITHUB_REPOSITORY``, ``GITHUB_API_URL``,
            ``GITHUB_WORKSPACE``).

    Returns:
        The :class:`StepOutcome`. Never raises.
    """
    settings = _settings(inputs)
    if isinstance(settings, LookupResult):
        return StepOutcome(OnlineLookup(settings), None, None, None, None)
    validated = validate_online_inputs(
        repository=inputs["repository"] or environ.get("GITHUB_REPOSITORY", ""),
        plan_comment_id=inputs["plan-comment-id"],
        slices_comment_id=inputs["slices-comment-id"],
        api_url=inputs["api-url"] or environ.get("GITHUB_API_URL") or PUBLIC_API_URL,
        step_id=inputs["step-id"],
        generated_at=inputs["generated-at"],
        spine_digest=inputs["spine-digest"],
        issue_number=inputs["issue-number"],
        timeout=inputs["timeout"] or "10",
        max_wait=inputs["max-wait"] or "60",
    )
    if isinstance(validated, LookupResult):
        return StepOutcome(OnlineLookup(validated), settings, None, None, None)
    target, request = validated
    api = ApiSettings(
        repository=target.repository,
        api_url=target.api_url,
        token=inputs["token"] or None,
        timeout=target.timeout,
        max_wait=target.max_wait,
    )
    outcome = lookup_online(target, request, CommentFetcher(api))
    slice_path: str | None = None
    result = outcome.result
    if settings.slice_file is not None and result.slice is not None:
        workspace = environ.get("GITHUB_WORKSPACE") or os.getcwd()
        written = _write_slice(workspace, settings.slice_file, result.slice)
        if isinstance(written, LookupResult):
            outcome = OnlineLookup(written, outcome.plan, outcome.sibling)
        else:
            slice_path = written
    return StepOutcome(outcome, settings, target, request, slice_path)


def output_values(outcome: StepOutcome) -> dict[str, str]:
    """Return every declared output's value (``""`` when not applicable) (SPEC 8)."""
    result = outcome.lookup.result
    request = outcome.request
    dispatched = result.generated_at or result.dispatched_generated_at
    if dispatched is None and request is not None:
        dispatched = (
            result.current_generated_at
            if request.generated_at == "current"
            else request.generated_at
        )
    values = {
        "status": result.status.value,
        "exit-code": str(result.exit_code),
        "message": result.message or "",
        "slice": result.slice or "",
        "slice-path": outcome.slice_path or "",
        "step-id": result.step_id or (request.step_id if request else ""),
        "generated-at": dispatched or "",
        "current-generated-at": result.current_generated_at or "",
        "sibling-generated-at": result.sibling_generated_at or "",
        "spine-digest": result.spine_digest or "",
        "result": result_json(result),
    }
    assert tuple(values) == OUTPUT_NAMES
    return values


def step_exit_code(status: Status, fail_on: str) -> int:
    """The step's exit code under ``fail-on`` (SPEC 8): 1 fails the step, 0 passes it."""
    if fail_on == "never":
        return 0
    if fail_on == "not-ok":
        return 0 if status is Status.OK else 1
    return status.exit_code


def _summary(outcome: StepOutcome) -> str:
    lookup = outcome.lookup
    request = outcome.request
    return lookup_summary(
        lookup.result,
        repository=outcome.target.repository if outcome.target else None,
        plan=CommentLink(lookup.plan.id, lookup.plan.html_url) if lookup.plan else None,
        sibling=CommentLink(lookup.sibling.id, lookup.sibling.html_url) if lookup.sibling else None,
        dispatched_generated_at=request.generated_at if request else None,
    )


def _annotate(result: LookupResult) -> None:
    if result.status is Status.OK:
        return
    command = "warning" if result.status is Status.STALE_SPINE else "error"
    title = f"frame-spine lookup: {result.status.value}"
    issue_command(command, {"title": title}, result.message or result.status.value)


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
        outcome = run_step(read_inputs(), environ)
    except Exception as exc:  # never a traceback: report it as an error status
        result = error_result(f"internal error: {exc.__class__.__name__}")
        outcome = StepOutcome(OnlineLookup(result), None, None, None, None)
    result = outcome.lookup.result
    for name, value in output_values(outcome).items():
        core.set_output(name, value)
    summary_file = environ.get("GITHUB_STEP_SUMMARY")
    if summary_file and (outcome.settings is None or outcome.settings.job_summary):
        with open(summary_file, "a", encoding="utf-8") as handle:
            handle.write(_summary(outcome))
    step = outcome.request.step_id if outcome.request else "-"
    plan = outcome.target.plan_comment_id if outcome.target else "-"
    sys.stdout.write(
        f"frame-spine lookup: status {result.status.value} (exit code {result.exit_code}) "
        f"for step {step} of plan comment {plan}\n"
    )
    _annotate(result)
    sys.stdout.flush()
    fail_on = outcome.settings.fail_on if outcome.settings else "error"
    return step_exit_code(result.status, fail_on)


if __name__ == "__main__":
    sys.exit(main())
