"""Writing a step's report where the runner reads it (SPEC 8): the one place text leaves the
action, apart from workspace files (:mod:`frame_spine.step.workspace`).

An edge. Outputs go to the ``GITHUB_OUTPUT`` file (actions-toolkit: random heredoc
delimiters), the job summary to ``GITHUB_STEP_SUMMARY``, and the log line, annotations and
debug lines to stdout as UTF-8, workflow commands escaped by actions-toolkit. Every text passes
the run's :class:`~frame_spine.step.emitted.EmittedText` filter right before it is written
(token redaction, valid UTF-8). Debug lines (``::debug::``, one per request, SPEC 8 "Debug
logging") are written as requests happen, from any thread.
"""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Mapping
from typing import BinaryIO, TextIO

from actions_toolkit import core
from actions_toolkit.command import Command

from .. import interrupts
from ..github.request_log import RequestRecord, request_log_line
from .emitted import EmittedText
from .report import StepReport


def debug_enabled(environ: Mapping[str, str]) -> bool:
    """Whether the runner's debug logging is on (``RUNNER_DEBUG=1``, SPEC 8)."""
    return environ.get("RUNNER_DEBUG") == "1"


class FilteredText(io.TextIOBase):
    """A text stream whose every write passes the run's filter first (the action puts one
    in front of stderr, where a library's warning could land).

    Args:
        stream: the stream written to. emitted: the run's output filter.
    """

    def __init__(self, stream: TextIO, emitted: EmittedText) -> None:
        super().__init__()
        self._stream = stream
        self._emitted = emitted

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._stream.write(self._emitted(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()


class StepWriter:
    """Writes one run's report and debug lines.

    Args:
        environ: the runner's environment (``GITHUB_OUTPUT``, ``GITHUB_STEP_SUMMARY``).
        emitted: the run's output filter; every text written passes it.
        stdout: where log lines go (bytes); the process's stdout by default.
    """

    def __init__(
        self, environ: Mapping[str, str], emitted: EmittedText, stdout: BinaryIO | None = None
    ) -> None:
        self._environ = environ
        self._emitted = emitted
        self._stdout = stdout if stdout is not None else sys.stdout.buffer
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        """Write one line to stdout (filtered, UTF-8, flushed at once)."""
        data = (self._emitted(text) + "\n").encode("utf-8")
        with interrupts.deferred(), self._lock:
            interrupts.write_whole(self._stdout, data)

    def command(self, name: str, message: str, title: str | None = None) -> None:
        """Write a workflow command (``::error title=...::message``), escaped by
        actions-toolkit, then filtered as a whole (the token's escaped forms included)."""
        properties = {"title": title} if title is not None else {}
        self.line(str(Command(name, properties, message)))

    def debug(self, record: RequestRecord) -> None:
        """A :data:`~frame_spine.github.request_log.RequestListener`: one ``::debug::`` line per
        request (method, path, status, milliseconds, rate limit left, request id)."""
        self.command("debug", request_log_line(record))

    def write(self, report: StepReport) -> int:
        """Write the outputs, the job summary (when asked), the log line and the
        annotations; returns the step's exit code.

        Returns 1 after one fixed ``::error`` line when the ``GITHUB_OUTPUT`` file cannot be
        written; a summary that cannot be written gets a fixed ``::warning`` line and the
        run goes on. A signal arriving meanwhile takes effect once all is written
        (:func:`frame_spine.interrupts.deferred`).
        """
        with interrupts.deferred():
            return self._write(report)

    def _write(self, report: StepReport) -> int:
        try:
            for name, value in report.outputs.items():
                core.set_output(name, self._emitted(value))
        except Exception:  # a missing or unwritable GITHUB_OUTPUT file: fixed text only
            self.line(
                "::error title=frame-spine::cannot write the step outputs to the GITHUB_OUTPUT file"
            )
            return 1
        summary_file = self._environ.get("GITHUB_STEP_SUMMARY")
        if summary_file and report.job_summary:
            try:
                with open(summary_file, "a", encoding="utf-8") as handle:
                    handle.write(self._emitted(report.summary))
            except OSError:
                self.line(
                    "::warning title=frame-spine::cannot write the job summary to the "
                    "GITHUB_STEP_SUMMARY file"
                )
        self.line(report.log_line)
        for annotation in report.annotations:
            self.command(annotation.command, annotation.message, annotation.title)
        return report.exit_code
