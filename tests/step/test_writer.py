"""Writing a step's report (SPEC 8): the one filter (token redaction, valid UTF-8) on every
text, and debug lines, one per request, as they happen."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

import pytest

from frame_spine.core.utf8 import valid_utf8
from frame_spine.github.auth import Redactor
from frame_spine.github.request_log import RequestRecord
from frame_spine.step.emitted import EmittedText
from frame_spine.step.report import Annotation, StepReport
from frame_spine.step.writer import FilteredText, StepWriter, debug_enabled
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.runner_env import parse_output_file, run_action
from tests.test_action import S1, SPLIT_INPUTS, fixed_line, serve

INNER_NEWLINE = "test-token\n-0123456789"
RECORD = RequestRecord("GET", f"/repos/{REPO}/issues/comments/5", 200, 12.4, "4999", "F00D:1")


def writer_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[StepWriter, io.BytesIO]:
    output = tmp_path / "set_output"
    output.write_text("")
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))  # actions-toolkit reads os.environ
    stdout = io.BytesIO()
    environ = {"GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary")}
    redactor = Redactor(f" {TOKEN}\n", INNER_NEWLINE)
    return StepWriter(environ, EmittedText(redactor), stdout), stdout


def test_debug_enabled_only_with_runner_debug_1() -> None:
    assert debug_enabled({"RUNNER_DEBUG": "1"}) is True
    assert debug_enabled({"RUNNER_DEBUG": "0"}) is False
    assert debug_enabled({"RUNNER_DEBUG": "true"}) is False
    assert debug_enabled({}) is False


def test_debug_line_per_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer, stdout = writer_for(tmp_path, monkeypatch)
    writer.debug(RECORD)
    writer.debug(RequestRecord("GET", "/a\n::error::x", None, 3.0))
    assert stdout.getvalue().decode("utf-8") == (
        f"::debug::GET /repos/{REPO}/issues/comments/5 -> 200 in 12 ms (rate limit remaining "
        "4999, request id F00D:1)\n"
        "::debug::GET /a\\n::error::x -> no answer in 3 ms (rate limit remaining -, request "
        "id -)\n"
    )


def test_debug_lines_never_carry_the_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer, stdout = writer_for(tmp_path, monkeypatch)
    writer.debug(RequestRecord("GET", f"/repos/{REPO}?access_token={TOKEN}", 401, 1.0))
    assert (
        stdout.getvalue()
        == (
            f"::debug::GET /repos/{REPO}?access_token=*** -> 401 in 1 ms (rate limit remaining -, "
            "request id -)\n"
        ).encode()
    )


def test_debug_lines_from_concurrent_requests_stay_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer, stdout = writer_for(tmp_path, monkeypatch)
    threads = [
        threading.Thread(target=lambda: [writer.debug(RECORD) for _ in range(200)])
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = stdout.getvalue().decode("utf-8").split("\n")
    assert lines[-1] == ""
    assert set(lines[:-1]) == {
        f"::debug::GET /repos/{REPO}/issues/comments/5 -> 200 in 12 ms (rate limit remaining "
        "4999, request id F00D:1)"
    }
    assert len(lines) - 1 == 1600


def report_with(text: str) -> StepReport:
    return StepReport(
        outputs={"status": "ok", "slice": f"a {text} b", "result": f'{{"slice":"{text}"}}'},
        summary=f"### summary {text}\n",
        log_line=f"log {text}",
        exit_code=0,
        annotations=[Annotation("warning", f"title {text}", f"message {text}")],
    )


def test_every_written_text_passes_the_redaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer, stdout = writer_for(tmp_path, monkeypatch)
    assert writer.write(report_with(f"{TOKEN} and {INNER_NEWLINE}")) == 0
    outputs = parse_output_file((tmp_path / "set_output").read_text("utf-8"))
    assert outputs == {
        "status": "ok",
        "slice": "a *** and *** b",
        "result": '{"slice":"*** and ***"}',
    }
    assert (tmp_path / "summary").read_text("utf-8") == "### summary *** and ***\n"
    assert stdout.getvalue().decode("utf-8") == (
        "log *** and ***\n::warning title=title *** and ***::message *** and ***\n"
    )


def test_every_written_text_is_valid_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer, stdout = writer_for(tmp_path, monkeypatch)
    assert writer.write(report_with("\ud800 é \udfff")) == 0
    outputs = parse_output_file((tmp_path / "set_output").read_bytes().decode("utf-8"))
    assert (outputs["slice"], outputs["result"]) == (
        "a \ufffd é \ufffd b",
        '{"slice":"\ufffd é \ufffd"}',
    )
    assert (tmp_path / "summary").read_bytes().decode("utf-8") == "### summary \ufffd é \ufffd\n"
    assert stdout.getvalue().decode("utf-8") == (
        "log \ufffd é \ufffd\n::warning title=title \ufffd é \ufffd::message \ufffd é \ufffd\n"
    )


def test_valid_utf8_replaces_only_surrogates() -> None:
    text = "plain ü 😀 \x00"
    assert valid_utf8(text) is text
    assert valid_utf8("\ud83d\ude00 \ud800") == "\ufffd\ufffd \ufffd"


def test_stderr_passes_the_redaction() -> None:
    stream = io.StringIO()
    filtered = FilteredText(stream, EmittedText(Redactor(TOKEN)))
    assert filtered.write(f"warning: {TOKEN}\n") == len(f"warning: {TOKEN}\n")
    filtered.flush()
    assert stream.getvalue() == "warning: ***\n"


def test_unwritable_outputs_give_fixed_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer, stdout = writer_for(tmp_path, monkeypatch)
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "gone" / "out"))
    assert writer.write(report_with("x")) == 1
    assert stdout.getvalue() == (
        b"::error title=frame-spine::cannot write the step outputs to the GITHUB_OUTPUT file\n"
    )


# ---- through the entrypoint ------------------------------------------------------------------

DEBUG_LINE = re.compile(
    rf"::debug::GET /repos/{REPO}/issues/comments/[0-9]+ -> 200 in [0-9]+ ms "
    r"\(rate limit remaining 4999, request id F00D:1234:5678:9ABC:DEF0\)"
)


def test_runner_debug_writes_no_token_and_no_body(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "token": f" {TOKEN} "},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"RUNNER_DEBUG": "1", "GITHUB_TOKEN": TOKEN},
    )
    assert (run.returncode, run.stderr, run.outputs["status"]) == (0, "", "ok")
    lines = run.stdout.splitlines()
    assert lines[-1] == fixed_line("ok", 0).rstrip("\n")
    assert all(DEBUG_LINE.fullmatch(line) for line in lines[:-1]), lines
    assert TOKEN not in run.stdout
    assert not any(line in run.stdout for line in S1.splitlines() if len(line) > 8)


def test_runner_debug_logs_one_line_per_request(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = run_action(
        tmp_path,
        SPLIT_INPUTS,
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"RUNNER_DEBUG": "1"},
    )
    debug = [line for line in run.stdout.splitlines() if line.startswith("::debug::")]
    assert len(debug) == len(fake_github.requests) == 2
    assert all(DEBUG_LINE.fullmatch(line) for line in debug)
