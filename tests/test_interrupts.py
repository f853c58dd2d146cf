"""Ctrl-C and SIGTERM (SPEC 6 "Interrupts", SPEC 9): the command line and the action's
entrypoint as subprocesses against the loopback fake, which answers a secondary rate limit
(403, ``retry-after: 20``); the test sends the signal once the request is seen (the server's
log, or the request's debug line: the process is then in its rate-limit wait), and the
process ends within 1 s, exit 130 (SIGINT) or 143 (SIGTERM), with nothing half-written."""

from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import CLI, clean_env
from tests.conftest import REPO as REPO_DIR
from tests.fake_github import REPO, TOKEN, FakeGitHub, Responder, error
from tests.runner_env import entrypoint_command, parse_output_file, runner_environment

pytestmark = pytest.mark.serial  # timings: run alone

PLAN = (REPO_DIR / "examples" / "plan-878.md").read_text("utf-8")
SIBLING = (REPO_DIR / "examples" / "sibling-878.md").read_text("utf-8")
PLAN_ID = 5013464001
SIBLING_ID = 5013460780
STAMP = "2026-07-18T22:20:00Z"
SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)
#: How long the test waits for the process to reach the point where it is signalled.
READY_WITHIN = 30.0
#: SPEC 6: the command ends within 1 s of the signal.
WITHIN = 1.0


def secondary_rate_limit() -> Responder:
    """GitHub's secondary rate limit: 403, ``retry-after: 20``, the documented message."""
    return error(403, SECONDARY, {"retry-after": "20"})


@dataclass
class Ended:
    """A signalled process: its exit code, output, and the seconds from signal to exit."""

    returncode: int
    stdout: str
    stderr: str
    after: float


def _collect(stream: object, into: bytearray) -> None:
    read = stream.read1  # type: ignore[attr-defined]
    while chunk := read(65536):
        into.extend(chunk)


def signalled(
    command: list[str],
    env: dict[str, str],
    signum: int,
    ready: Callable[[bytes, bytes], bool],
    *,
    cwd: Path | None = None,
) -> Ended:
    """Start ``command``, send ``signum`` as soon as ``ready(stdout, stderr)`` holds (polled
    every 10 ms: no blind sleep), and time the process's end from the signal."""
    process = subprocess.Popen(
        command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = bytearray(), bytearray()
    readers = [
        threading.Thread(target=_collect, args=(process.stdout, out), daemon=True),
        threading.Thread(target=_collect, args=(process.stderr, err), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        give_up = time.monotonic() + READY_WITHIN
        while not ready(bytes(out), bytes(err)):
            assert process.poll() is None, f"ended before the signal: {bytes(out + err)!r}"
            assert time.monotonic() < give_up, f"never ready: {bytes(out + err)!r}"
            time.sleep(0.01)
        sent = time.monotonic()
        process.send_signal(signum)
        try:
            returncode = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 10 s after {signal.Signals(signum).name}")
        after = time.monotonic() - sent
        for reader in readers:
            reader.join(5)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return Ended(returncode, out.decode("utf-8"), err.decode("utf-8"), after)


def request_lines(text: str, path: str) -> list[str]:
    """The debug lines (``--verbose`` or ``::debug::``) of requests for ``path``."""
    return [line for line in text.splitlines() if f"GET {path}" in line]


def debug_line(path: str, status: int, *, remaining: str = "4999") -> str:
    """A request's ``--verbose`` line as a pattern (the milliseconds vary)."""
    return (
        re.escape(f"GET {path} -> {status} in ")
        + r"[0-9]+"
        + re.escape(f" ms (rate limit remaining {remaining}, request id F00D:1234:5678:9ABC:DEF0)")
    )


def lookup_args(fake: FakeGitHub, *extra: str) -> list[str]:
    return [
        str(CLI),
        "lookup",
        "--repo",
        REPO,
        "--api-url",
        fake.url,
        "--plan-comment-id",
        str(PLAN_ID),
        "--slices-comment-id",
        str(SIBLING_ID),
        "--issue-number",
        "878",
        "--generated-at",
        STAMP,
        "--step-id",
        "S1",
        "--max-wait",
        "3600",
        "--format",
        "json",
        *extra,
    ]


def both_rate_limited(fake: FakeGitHub) -> None:
    fake.add_comment(PLAN_ID, PLAN, 878)
    fake.add_comment(SIBLING_ID, SIBLING, 878)
    fake.script(PLAN_ID, forever=secondary_rate_limit())
    fake.script(SIBLING_ID, forever=secondary_rate_limit())


PLAN_PATH = f"/repos/{REPO}/issues/comments/{PLAN_ID}"
SIBLING_PATH = f"/repos/{REPO}/issues/comments/{SIBLING_ID}"


def answered(path: str, count: int = 1) -> Callable[[bytes, bytes], bool]:
    """Ready once ``count`` requests for ``path`` were answered (their debug lines, on
    stdout or stderr, are written after the answer, right before the wait)."""

    def ready(out: bytes, err: bytes) -> bool:
        text = (out + err).decode("utf-8", "replace")
        return len(request_lines(text, path)) >= count

    return ready


def seen(fake: FakeGitHub, count: int) -> Callable[[bytes, bytes], bool]:
    """Ready once the server has seen ``count`` requests (they are then in flight)."""
    return lambda _out, _err: len(fake.requests) >= count


# ---- the command line ----------------------------------------------------------------------------


def test_ctrl_c_during_the_rate_limit_waits_of_a_lookup_with_a_sibling(
    fake_github: FakeGitHub,
) -> None:
    both_rate_limited(fake_github)

    def ready(out: bytes, err: bytes) -> bool:
        return answered(PLAN_PATH)(out, err) and answered(SIBLING_PATH)(out, err)

    ended = signalled(
        lookup_args(fake_github, "--verbose"),
        clean_env(GITHUB_TOKEN=TOKEN),
        signal.SIGINT,
        ready,
    )
    assert (ended.returncode, ended.stdout) == (130, "")
    assert ended.after < WITHIN
    lines = ended.stderr.splitlines()
    assert lines[0] == "token: from GITHUB_TOKEN"
    requests = sorted(lines[1:3])
    assert re.fullmatch(debug_line(PLAN_PATH, 403), requests[1])
    assert re.fullmatch(debug_line(SIBLING_PATH, 403), requests[0])
    assert lines[3:] == ["frame-spine: interrupted by SIGINT"]
    assert sorted(fake_github.paths()) == [f"GET {SIBLING_PATH}", f"GET {PLAN_PATH}"]


def test_sigterm_during_the_requests_of_a_lookup_with_a_sibling(fake_github: FakeGitHub) -> None:
    both_rate_limited(fake_github)
    fake_github.latency = 3.0  # the answers take 3 s: the signal comes during the requests
    ended = signalled(
        lookup_args(fake_github),
        clean_env(GITHUB_TOKEN=TOKEN),
        signal.SIGTERM,
        seen(fake_github, 2),
    )
    assert (ended.returncode, ended.stdout, ended.stderr) == (
        143,
        "",
        "frame-spine: interrupted by SIGTERM\n",
    )
    assert ended.after < WITHIN
    assert len(fake_github.requests) == 2


def serve_issues(fake: FakeGitHub, count: int) -> None:
    for number in range(1, count + 1):
        fake.add_issue(number)


ISSUES_PATH = f"/repos/{REPO}/issues"
#: Where GitHub links the second page of the issue listing on (the fake's id of the repository).
LATER_ISSUES_PATH = "/repositories/1001/issues"
COMMENTS_PATH = f"/repos/{REPO}/issues/comments"
#: The requests of an audit of open issues as its debug lines name them: three pages of
#: issues, then the first page of comments.
AUDIT_REQUESTS = [
    (f"{ISSUES_PATH}?per_page=100&state=open", 200),
    (f"{LATER_ISSUES_PATH}?page=2&per_page=100&state=open", 200),
    (f"{LATER_ISSUES_PATH}?page=3&per_page=100&state=open", 200),
    (f"{COMMENTS_PATH}?per_page=100", 403),
]
DISCOVERY = f"/repos/{REPO}/issues/878/comments"


def test_sigterm_during_the_rate_limit_wait_of_an_audit(fake_github: FakeGitHub) -> None:
    serve_issues(fake_github, 250)  # three pages of issues, then the comment listing
    fake_github.script(0, forever=secondary_rate_limit())
    command = [str(CLI), "audit", "--repo", REPO, "--api-url", fake_github.url]
    ended = signalled(
        [*command, "--max-wait", "3600", "--verbose"],
        clean_env(GITHUB_TOKEN=TOKEN),
        signal.SIGTERM,
        answered(AUDIT_REQUESTS[3][0]),
    )
    assert (ended.returncode, ended.stdout) == (143, "")
    assert ended.after < WITHIN
    lines = ended.stderr.splitlines()
    assert lines[0] == "token: from GITHUB_TOKEN"
    for line, (path, status) in zip(lines[1:5], AUDIT_REQUESTS, strict=True):
        assert re.fullmatch(debug_line(path, status), line), line
    assert lines[5:] == ["frame-spine: interrupted by SIGTERM"]
    assert fake_github.paths() == [
        f"GET {ISSUES_PATH}",
        f"GET {LATER_ISSUES_PATH}",
        f"GET {LATER_ISSUES_PATH}",
        f"GET {COMMENTS_PATH}",
    ]


def test_ctrl_c_during_the_rate_limit_wait_of_validate_by_discovery(
    fake_github: FakeGitHub,
) -> None:
    fake_github.script(0, forever=secondary_rate_limit())
    command = [str(CLI), "validate", "--repo", REPO, "--api-url", fake_github.url]
    ended = signalled(
        [*command, "--issue-number", "878", "--max-wait", "3600", "--verbose"],
        clean_env(GITHUB_TOKEN=TOKEN),
        signal.SIGINT,
        answered(f"{DISCOVERY}?per_page=100"),
    )
    assert (ended.returncode, ended.stdout) == (130, "")
    assert ended.after < WITHIN
    lines = ended.stderr.splitlines()
    assert lines[0] == "token: from GITHUB_TOKEN"
    assert re.fullmatch(debug_line(f"{DISCOVERY}?per_page=100", 403), lines[1]), lines[1]
    assert lines[2:] == ["frame-spine: interrupted by SIGINT"]
    assert fake_github.paths() == [f"GET {DISCOVERY}"]


# ---- the action ----------------------------------------------------------------------------------


@dataclass
class StepFiles:
    output: str
    summary: str
    workspace: list[str]


def action_signalled(
    fake: FakeGitHub,
    tmp_path: Path,
    inputs: dict[str, str],
    signum: int,
    ready: Callable[[bytes, bytes], bool],
    *,
    debug: bool = True,
) -> tuple[Ended, StepFiles]:
    env, files = runner_environment(
        tmp_path, {"max-wait": "3600", **inputs}, api_url=fake.url, token=TOKEN, repository=REPO
    )
    if debug:
        env["RUNNER_DEBUG"] = "1"
    ended = signalled(entrypoint_command(), env, signum, ready, cwd=files.workspace)
    left = sorted(str(path.relative_to(files.workspace)) for path in files.workspace.rglob("*"))
    return ended, StepFiles(
        files.output_file.read_text("utf-8"), files.summary_file.read_text("utf-8"), left
    )


LOOKUP_INPUTS = {
    "plan-comment-id": str(PLAN_ID),
    "slices-comment-id": str(SIBLING_ID),
    "issue-number": "878",
    "step-id": "S1",
    "generated-at": STAMP,
    "slice-file": "out/slice.md",
}


def test_a_cancelled_lookup_step_gets_sigint_during_its_waits(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    both_rate_limited(fake_github)

    def ready(out: bytes, err: bytes) -> bool:
        return answered(PLAN_PATH)(out, err) and answered(SIBLING_PATH)(out, err)

    ended, files = action_signalled(fake_github, tmp_path, LOOKUP_INPUTS, signal.SIGINT, ready)
    assert (ended.returncode, ended.stderr) == (130, "frame-spine: interrupted by SIGINT\n")
    assert ended.after < WITHIN
    lines = sorted(ended.stdout.splitlines())
    assert len(lines) == 2
    assert re.fullmatch(debug_line(SIBLING_PATH, 403), lines[0].removeprefix("::debug::"))
    assert re.fullmatch(debug_line(PLAN_PATH, 403), lines[1].removeprefix("::debug::"))
    assert files == StepFiles("", "", [])  # no outputs, no summary, no slice file


def test_a_cancelled_lookup_step_gets_sigterm_during_its_requests(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    both_rate_limited(fake_github)
    fake_github.latency = 3.0
    ended, files = action_signalled(
        fake_github, tmp_path, LOOKUP_INPUTS, signal.SIGTERM, seen(fake_github, 2), debug=False
    )
    assert (ended.returncode, ended.stdout, ended.stderr) == (
        143,
        "",
        "frame-spine: interrupted by SIGTERM\n",
    )
    assert ended.after < WITHIN
    assert files == StepFiles("", "", [])


def test_a_cancelled_audit_step_gets_sigterm_during_its_wait(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve_issues(fake_github, 250)
    fake_github.script(0, forever=secondary_rate_limit())
    ended, files = action_signalled(
        fake_github,
        tmp_path,
        {"mode": "audit", "report-file": "out/audit.json"},
        signal.SIGTERM,
        answered(AUDIT_REQUESTS[3][0]),
    )
    assert (ended.returncode, ended.stderr) == (143, "frame-spine: interrupted by SIGTERM\n")
    assert ended.after < WITHIN
    lines = [line.removeprefix("::debug::") for line in ended.stdout.splitlines()]
    assert len(lines) == 4
    for line, (path, status) in zip(lines, AUDIT_REQUESTS, strict=True):
        assert re.fullmatch(debug_line(path, status), line), line
    assert files == StepFiles("", "", [])


def test_a_cancelled_validate_step_gets_sigint_during_discovery(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    fake_github.script(0, forever=secondary_rate_limit())
    ended, files = action_signalled(
        fake_github,
        tmp_path,
        {"mode": "validate", "issue-number": "878"},
        signal.SIGINT,
        answered(f"{DISCOVERY}?per_page=100"),
    )
    assert (ended.returncode, ended.stderr) == (130, "frame-spine: interrupted by SIGINT\n")
    assert ended.after < WITHIN
    lines = ended.stdout.splitlines()
    assert len(lines) == 1
    assert re.fullmatch(
        debug_line(f"{DISCOVERY}?per_page=100", 403), lines[0].removeprefix("::debug::")
    ), lines[0]
    assert files == StepFiles("", "", [])


# ---- a write in progress is finished first -------------------------------------------------------

#: 1,500 lines of the requirement contract more: the slice output (and the result, which
#: holds it again) is larger than a pipe's buffer.
PADDING = "".join(
    f"  Filler line {index:04d} of the contract, to make the slice large.\n"
    for index in range(1500)
)
BIG_SIBLING = SIBLING.replace("  Non-goals:", PADDING + "  Non-goals:", 1)


def _pipe_filled(fd: int) -> int:
    """Bytes waiting in the pipe (``FIONREAD``)."""
    waiting = bytearray(4)
    fcntl.ioctl(fd, termios.FIONREAD, waiting)
    return int.from_bytes(waiting, sys.byteorder)


def test_a_signal_during_the_output_write_takes_effect_once_the_outputs_are_whole(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    fake_github.add_comment(PLAN_ID, PLAN, 878)
    fake_github.add_comment(SIBLING_ID, BIG_SIBLING, 878)
    inputs = {key: value for key, value in LOOKUP_INPUTS.items() if key != "slice-file"}
    env, files = runner_environment(
        tmp_path, inputs, api_url=fake_github.url, token=TOKEN, repository=REPO
    )
    files.output_file.unlink()
    os.mkfifo(files.output_file)  # GITHUB_OUTPUT: a pipe this test reads, slowly
    reader = os.open(files.output_file, os.O_RDONLY | os.O_NONBLOCK)
    capacity = fcntl.fcntl(reader, fcntl.F_GETPIPE_SZ)
    received = bytearray()
    try:
        # Ready when half the pipe is filled: the entrypoint is in the middle of writing
        # the outputs (the first thing it writes), with more than the pipe holds to come,
        # so it cannot finish before this test reads.
        ended_holder: list[Ended] = []

        def ready(_out: bytes, _err: bytes) -> bool:
            return _pipe_filled(reader) >= capacity // 2

        def drain_later() -> None:
            # Nothing is read for 0.5 s after the signal: the write must wait for us, and
            # the process must not end in the middle of it. Then everything is read.
            time.sleep(0.5)
            while True:
                try:
                    chunk = os.read(reader, 65536)
                except BlockingIOError:
                    time.sleep(0.005)
                    continue
                if not chunk and ended_holder:
                    return
                received.extend(chunk)
                if not chunk:
                    time.sleep(0.005)

        drainer = threading.Thread(target=drain_later, daemon=True)

        def ready_then_drain(out: bytes, err: bytes) -> bool:
            if ready(out, err):
                drainer.start()
                return True
            return False

        ended = signalled(
            entrypoint_command(), env, signal.SIGTERM, ready_then_drain, cwd=files.workspace
        )
        ended_holder.append(ended)
        drainer.join(10)
    finally:
        os.close(reader)
    assert (ended.returncode, ended.stderr) == (143, "frame-spine: interrupted by SIGTERM\n")
    assert ended.after >= 0.5  # it waited for the write to finish
    outputs = parse_output_file(received.decode("utf-8"))
    assert (outputs["status"], outputs["exit-code"]) == ("ok", "0")
    assert outputs["slice"] == BIG_SIBLING.split("<!-- frame-slice\n", 1)[1].rsplit("\n-->", 1)[0]
    assert json.loads(outputs["result"])["slice"] == outputs["slice"]
    # The write finished whole (summary and log line included), then the signal took effect.
    assert files.summary_file.read_text("utf-8").startswith(
        "### ✅ frame-spine lookup: `ok` (exit code 0)\n"
    )
    assert ended.stdout == (
        f"frame-spine lookup: status ok (exit code 0) for step s1 of plan comment {PLAN_ID}\n"
    )
