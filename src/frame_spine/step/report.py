"""What one run of the action writes, and the limits it must respect (SPEC 8).

Pure. A mode builds a :class:`StepReport` (every output, the job summary, one log line, its
annotations); :func:`within_limits` then applies the rules every mode shares:

- Output limits: GitHub keeps an output value of at most 1 MiB (1 MB as its documentation
  words it) and 50 MB of outputs per workflow run. No value is over :data:`OUTPUT_LIMIT`
  bytes: modes leave bulky lists out of ``result`` with a ``*_omitted`` key themselves (they
  know which lists are bulky); as a last line of defence a ``result`` still too large is
  replaced by ``{"status": ..., "result_omitted": true}`` and any other value is cut with a
  visible note. Every output of a step together stays under about 2 MB.
- Annotations: GitHub shows at most :data:`ANNOTATIONS_PER_KIND` errors, warnings and
  notices per step. The first ones of each kind are kept, in their order; when any is left
  out, one notice (which counts as one of the notices) says how many and where the full
  list is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..core.status import Failure
from ..core.utf8 import utf8_size
from ..markdown import clip_utf8, plural, summary_head
from ..workflow_commands import json_line

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
    "count-hidden",
    "count-untrusted-edit",
    "count-undetermined",
    "count-no-spine",
    "count-invalid",
    "count-sibling-missing",
    "count-sibling-unstamped",
    "count-stale-sibling",
    "count-fresh",
    "markdown",
    "steps",
    "waves",
    "ready",
)


#: The most UTF-8 bytes of one output value (under GitHub's 1 MiB, and under 1 MB).
OUTPUT_LIMIT = 1_000_000
#: GitHub shows at most this many annotations of each kind (error, warning, notice) per step.
ANNOTATIONS_PER_KIND = 10
_KINDS = ("error", "warning", "notice")


@dataclass(frozen=True, slots=True)
class Annotation:
    """One annotation: ``command`` is ``error``, ``warning`` or ``notice``; ``title`` and
    ``message`` are escaped when written."""

    command: str
    title: str
    message: str


class Outcome(Protocol):
    """What a step's report reads of a mode's result (every mode's result has these)."""

    @property
    def status(self) -> str: ...
    @property
    def exit_code(self) -> int: ...
    @property
    def message(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class StepReport:
    """Everything one run writes, decided before anything is written.

    Attributes:
        outputs: every declared output (``""`` when not applicable).
        summary: the job summary Markdown. log_line: the one fixed line for stdout.
        exit_code: the step's exit code under fail-on.
        job_summary: whether to write the summary.
        annotations: escaped when written.
        full_list: where the full list behind the annotations is, as a clause for the
            notice that counts annotations left out (e.g. ``"the `result` output lists every
            finding"``).
    """

    outputs: dict[str, str]
    summary: str
    log_line: str
    exit_code: int
    job_summary: bool = True
    annotations: list[Annotation] = field(default_factory=list)
    full_list: str = "the job summary lists them"


def cap_annotations(
    annotations: Sequence[Annotation], full_list: str = "the job summary lists them"
) -> list[Annotation]:
    """Keep at most :data:`ANNOTATIONS_PER_KIND` annotations of each kind (SPEC 8)."""
    counts = Counter(annotation.command for annotation in annotations)
    if all(number <= ANNOTATIONS_PER_KIND for number in counts.values()):
        return list(annotations)
    room = {"notice": ANNOTATIONS_PER_KIND - 1}  # the notice on those left out is one of them
    kept: list[Annotation] = []
    seen: Counter[str] = Counter()
    for annotation in annotations:
        seen[annotation.command] += 1
        if seen[annotation.command] <= room.get(annotation.command, ANNOTATIONS_PER_KIND):
            kept.append(annotation)
    left = counts - Counter(annotation.command for annotation in kept)
    detail = ", ".join(plural(left[kind], kind) for kind in _KINDS if left[kind])
    kept.append(
        Annotation(
            "notice",
            "frame-spine: annotations left out",
            f"{plural(sum(left.values()), 'more annotation')} not shown ({detail}): GitHub "
            f"shows at most {ANNOTATIONS_PER_KIND} of each kind per step; {full_list}",
        )
    )
    return kept


def _clip(value: str, limit: int) -> str:
    note = f"\n[cut: {utf8_size(value):,} bytes are over the {limit:,}-byte limit of a step output]"
    return clip_utf8(value, limit - utf8_size(note)) + note


def bounded_outputs(outputs: Mapping[str, str], limit: int = OUTPUT_LIMIT) -> dict[str, str]:
    """Every output value within ``limit`` UTF-8 bytes (the last line of defence, SPEC 8).

    A ``result`` over the limit (a mode should have left its bulky lists out) becomes
    ``{"status": <status output>, "result_omitted": true}``; any other value over the limit
    is cut at a character boundary and ends with a note saying so. Values within the limit
    are returned as they are.
    """
    bounded = dict(outputs)
    for name, value in outputs.items():
        if len(value) * 4 <= limit or utf8_size(value) <= limit:
            continue
        if name == "result":
            bounded[name] = json_line({"status": outputs.get("status", ""), "result_omitted": True})
        else:
            bounded[name] = _clip(value, limit)
    return bounded


def within_limits(report: StepReport) -> StepReport:
    """The report with :func:`bounded_outputs` and :func:`cap_annotations` applied."""
    return replace(
        report,
        outputs=bounded_outputs(report.outputs),
        annotations=cap_annotations(report.annotations, report.full_list),
    )


def outputs_of(
    status: str, exit_code: int, message: str | None, result: str, **more: str
) -> dict[str, str]:
    """Every output of action.yml (SPEC 8: every status sets every declared output): the
    four every mode sets, then ``more`` (keyword names with ``_`` for ``-``:
    ``error_count`` sets ``error-count``), the rest empty."""
    shared = {"status": status, "exit-code": str(exit_code), "message": message or ""}
    named = {name.replace("_", "-"): value for name, value in more.items()}
    return dict.fromkeys(OUTPUT_NAMES, "") | shared | {"result": result} | named


def step_exit_code(fail_on: str, *, failed: bool, not_ok: bool) -> int:
    """The step's exit code under ``fail-on`` (SPEC 8): 1 fails the step."""
    if fail_on == "never":
        return 0
    return 1 if failed or (not_ok and fail_on == "not-ok") else 0


def failure_json(failure: Failure) -> str:
    """A failure as every mode's result words it when nothing ran: one compact JSON line,
    ``{"status": ..., "message": ...}`` (SPEC 5, 8)."""
    return json_line({"status": failure.status.value, "message": failure.message})


def failure_report(failure: Failure) -> StepReport:
    """The report of a run that stopped before any mode ran (SPEC 8: a malformed ``mode``,
    ``fail-on``, ``job-summary`` or file input; a defect): the four outputs every mode sets
    from ``failure`` (:func:`failure_json` as ``result``), every other output empty, an error
    annotation, and a summary of the status and message; under the default ``fail-on``
    (``error``: the step fails) with the job summary written."""
    status, message, exit_code = failure.status.value, failure.message, failure.status.exit_code
    return StepReport(
        outputs=outputs_of(status, exit_code, message, failure_json(failure)),
        summary=summary_head("", status, exit_code, "❌", message=message),
        log_line=f"frame-spine: status {status} (exit code {exit_code})",
        exit_code=step_exit_code("error", failed=exit_code != 0, not_ok=True),
        annotations=[Annotation("error", f"frame-spine: {status}", message)],
    )
