"""The limits every mode's report respects (SPEC 8): annotations per kind, output sizes."""

from __future__ import annotations

import json

import pytest

from frame_spine import console
from frame_spine.core.status import Failure, Status, error
from frame_spine.step.report import (
    OUTPUT_LIMIT,
    OUTPUT_NAMES,
    Annotation,
    StepReport,
    bounded_outputs,
    cap_annotations,
    failure_report,
    within_limits,
)


def annotations(kind: str, count: int) -> list[Annotation]:
    return [Annotation(kind, f"{kind} {n}", f"{kind} message {n}") for n in range(count)]


def test_annotations_within_ten_per_kind_are_kept_as_they_are() -> None:
    given = annotations("error", 10) + annotations("warning", 10) + annotations("notice", 10)
    assert cap_annotations(given, "the job summary lists them") == given


def test_annotations_over_ten_per_kind_are_capped_with_one_notice() -> None:
    errors, warnings, notices = (
        annotations("error", 12),
        annotations("warning", 3),
        annotations("notice", 11),
    )
    mixed = [errors[0], notices[0], *warnings, *errors[1:], *notices[1:]]
    capped = cap_annotations(mixed, "the `result` output lists every finding")
    assert capped == [
        errors[0],
        notices[0],
        *warnings,
        *errors[1:10],
        *notices[1:9],
        Annotation(
            "notice",
            "frame-spine: annotations left out",
            "4 more annotations not shown (2 errors, 2 notices): GitHub shows at most 10 of "
            "each kind per step; the `result` output lists every finding",
        ),
    ]
    assert [a.command for a in capped].count("notice") == 10


def test_one_annotation_left_out_is_counted_in_the_singular() -> None:
    capped = cap_annotations(annotations("warning", 11), "the job summary lists them")
    assert len(capped) == 11
    assert capped[-1].message == (
        "1 more annotation not shown (1 warning): GitHub shows at most 10 of each kind per "
        "step; the job summary lists them"
    )


def test_outputs_within_the_limit_are_kept() -> None:
    outputs = {"status": "ok", "slice": "é" * (OUTPUT_LIMIT // 2), "result": "{}"}
    assert bounded_outputs(outputs) == outputs


def test_an_output_over_the_limit_is_cut_with_a_note() -> None:
    bounded = bounded_outputs({"status": "error", "message": "é" * 600_000})
    note = "\n[cut: 1,200,000 bytes are over the 1,000,000-byte limit of a step output]"
    assert bounded["message"] == "é" * ((OUTPUT_LIMIT - len(note.encode())) // 2) + note
    assert len(bounded["message"].encode()) <= OUTPUT_LIMIT


def test_a_result_over_the_limit_keeps_only_the_status() -> None:
    bounded = bounded_outputs({"status": "invalid", "result": json.dumps(["x" * OUTPUT_LIMIT])})
    assert json.loads(bounded["result"]) == {"status": "invalid", "result_omitted": True}


def test_within_limits_applies_both_rules() -> None:
    report = StepReport(
        outputs={"status": "ok", "message": "x" * (OUTPUT_LIMIT + 1)},
        summary="",
        log_line="",
        exit_code=0,
        annotations=annotations("error", 11),
        full_list="the job summary lists them",
    )
    limited = within_limits(report)
    assert len(limited.outputs["message"].encode()) <= OUTPUT_LIMIT
    assert len(limited.annotations) == 11
    assert limited.annotations[-1].command == "notice"


def test_a_run_stopped_before_any_mode_reports_in_no_mode_s_words() -> None:
    message = "fail-on 'warning' is not one of error, not-ok, never"
    report = failure_report(error(message))
    assert report == StepReport(
        outputs={
            **dict.fromkeys(OUTPUT_NAMES, ""),
            "status": "error",
            "exit-code": "1",
            "message": message,
            "result": json.dumps({"status": "error", "message": message}, separators=(",", ":")),
        },
        summary=f"### ❌ frame-spine: `error` (exit code 1)\n\n> {message}\n\n",
        log_line="frame-spine: status error (exit code 1)",
        exit_code=1,
        job_summary=True,
        annotations=[Annotation("error", "frame-spine: error", message)],
    )


def test_a_failure_report_keeps_the_failure_s_own_status() -> None:
    report = failure_report(Failure(Status.COMMENT_ID_MISSING, "no plan comment id"))
    assert (report.outputs["status"], report.outputs["result"], report.exit_code) == (
        "comment-id-missing",
        '{"status":"comment-id-missing","message":"no plan comment id"}',
        1,
    )


@pytest.mark.parametrize(
    ("output_format", "printed"),
    [
        ("json", b'{"status":"error","message":"internal error (KeyError): please report it"}\n'),
        ("text", b"status: error\nmessage: internal error (KeyError): please report it\n"),
    ],
)
def test_a_defect_is_printed_in_no_mode_s_words(
    capfdbinary: pytest.CaptureFixture[bytes], output_format: str, printed: bytes
) -> None:
    console.print_failure(output_format, error("internal error (KeyError): please report it"))
    assert capfdbinary.readouterr().out == printed
