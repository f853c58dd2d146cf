"""The GitHub Action entrypoint (SPEC 8): ``INPUT_*`` in, outputs, job summary and log out.

An edge, glue only. Inputs arrive as ``INPUT_<NAME>`` variables with hyphens kept
(``INPUT_STEP-ID``) and are read with actions-toolkit; the step settings (``mode``,
``fail-on``, ``job-summary``, the file inputs) are checked here, then the mode's ``report``
module (:func:`frame_spine.modes.report_module`) decides a
:class:`~frame_spine.step.report.StepReport` within the limits every mode shares
(:func:`~frame_spine.step.report.within_limits`), and
:class:`~frame_spine.step.writer.StepWriter` writes it. Every text emitted passes one
:class:`~frame_spine.step.emitted.EmittedText` filter (token redaction, valid UTF-8). Nothing
taken from a comment reaches stdout except inside an escaped annotation.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from actions_toolkit import core

from . import declared, interrupts
from .core.shown import redacting
from .core.status import Failure, error
from .github.request_log import RequestListener
from .inputs import StepSettings, parse_inputs
from .modes import report_module
from .step.context import StepContext
from .step.emitted import EmittedText
from .step.report import StepReport, failure_report, within_limits
from .step.writer import FilteredText, StepWriter, debug_enabled


def read_inputs() -> dict[str, str]:
    """Read every input of action.yml with actions-toolkit (``INPUT_<NAME>``, trimmed)."""
    return {input.name: core.get_input(input.name) for input in declared.INPUTS}


def _failure_report(failure: Failure) -> StepReport:
    return within_limits(failure_report(failure))


def run_step(
    inputs: Mapping[str, str],
    environ: Mapping[str, str],
    *,
    emitted: EmittedText | None = None,
    on_request: RequestListener | None = None,
) -> StepReport:
    """Check the step settings, then run the mode (SPEC 6, 8, 10, 11).

    Only the workspace files (``slice-file``, ``report-file``) are written here; everything
    else is returned, within the limits of :func:`~frame_spine.step.report.within_limits`.
    """
    emitted = emitted if emitted is not None else EmittedText.for_environment(environ)
    with redacting(emitted):
        settings = parse_inputs(StepSettings, inputs)
        if isinstance(settings, Failure):
            return _failure_report(settings)
        step = StepContext(inputs, environ, settings, emitted, on_request)
        return within_limits(report_module(settings.mode).report(step))


def main() -> int:
    """Run the action (the container's entrypoint); returns the step's exit code.

    Refuses to run (exit 1, fixed text only) when ``GITHUB_OUTPUT`` is not set: outputs are
    never printed as ``::set-output`` commands. Every text written, stderr included, passes
    the run's :class:`~frame_spine.step.emitted.EmittedText` filter; with ``RUNNER_DEBUG=1``
    each request is logged as a ``::debug::`` line as it happens. SIGINT or SIGTERM (a
    cancelled job) ends the process at once, exit 130 or 143, never half-way through a
    write (SPEC 6 "Interrupts", :mod:`frame_spine.interrupts`).
    """
    with interrupts.handled():
        return _run()


def _run() -> int:
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
        report = _failure_report(error(f"internal error: {exc.__class__.__name__}"))
    return writer.write(report)


if __name__ == "__main__":
    sys.exit(main())
