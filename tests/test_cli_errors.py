"""Errors that say their cause (issue 22): an empty body, stdin on a terminal, two bodies on
one stdin, a comment's link given as its id. In process (``frame_spine.cli.main``) except for
the terminal, which only a real process on a pseudo-terminal shows."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
from pathlib import Path
from typing import Any

import pytest

from frame_spine.core.blocks import scan_comment
from frame_spine.core.identity import carries_no, marker_problem
from frame_spine.modes.lookup.models import parse_online_inputs
from frame_spine.values import parse_positive_id
from tests.conftest import CLI, REPO, clean_env, run_cli

PLAN = "examples/plan-878.md"
SIBLING = "examples/sibling-878.md"
STAMP = "2026-07-18T22:20:00Z"
DISPATCH = ["--step-id", "s1", "--generated-at", STAMP]
URL = "https://github.com/o/r/issues/878#issuecomment-5013464001"


@pytest.fixture(params=[b"", b"  \n\t\r\n"], ids=["empty", "whitespace"])
def blank(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    path = tmp_path / "blank.md"
    path.write_bytes(request.param)
    return str(path)


def json_of(ran: Any) -> dict[str, Any]:
    assert ran.stderr == b""
    result: dict[str, Any] = json.loads(ran.stdout)
    return result


# --- an empty body says it is empty (the status stays) --------------------------------------


def test_an_empty_plan_with_an_issue_number_says_it_is_empty(cli: Any, blank: str) -> None:
    ran = cli(
        ["lookup", "--plan-body", blank, "--issue-number", "878", *DISPATCH, "--format", "json"]
    )
    assert (ran.code, json_of(ran)) == (
        1,
        {
            "status": "plan-identity-mismatch",
            "message": "the plan comment is empty, so it carries no <!-- plan-issue-878 --> line",
        },
    )


def test_an_empty_sibling_says_it_is_empty(cli: Any, blank: str) -> None:
    args = ["lookup", "--plan-body", PLAN, "--slices-body", blank, "--issue-number", "878"]
    ran = cli([*args, *DISPATCH, "--format", "json"])
    assert (ran.code, json_of(ran)) == (
        1,
        {
            "status": "sibling-identity-mismatch",
            "message": "the sibling comment is empty, so it carries no <!-- frame-slices-878 --> "
            "line",
        },
    )


def test_validate_says_an_empty_body_is_empty(cli: Any, blank: str) -> None:
    ran = cli(["validate", "--plan-body", blank, "--issue-number", "878"])
    assert (ran.code, ran.stderr) == (1, b"")
    assert ran.stdout.decode().splitlines() == [
        "error plan-identity-mismatch plan: the plan comment is empty, so it carries no "
        "<!-- plan-issue-878 --> line",
        "error missing-spine plan: no frame-spine block: the comment body is empty",
        "invalid: 2 errors, 0 warnings, 0 notices",
    ]
    ran = cli(["validate", "--plan-body", PLAN, "--slices-body", blank])
    assert ran.code == 1
    assert ran.stdout.decode().splitlines()[-3:] == [
        "error sibling-identity-mismatch sibling: the sibling comment is empty, so it carries "
        "no <!-- frame-slices-878 --> line",
        "error sibling-unstamped sibling: the sibling comment is empty, so it carries no "
        "<!-- frame-slices-generated-at: ... --> stamp line",
        "invalid: 11 errors, 1 warning, 0 notices",
    ]


def test_a_single_empty_body_says_it_is_empty_too() -> None:
    for text in ("", " \n\n\t"):
        scan = scan_comment(text)
        assert marker_problem(scan, "plan-issue", 7, "the body") == (
            "the body is empty, so it carries no <!-- plan-issue-7 --> line"
        )
        assert carries_no(scan, "the body", "X") == "the body is empty, so it carries no X"
    assert carries_no(scan_comment("text\n"), "the body", "X") == "the body carries no X"


# --- one stdin cannot hold two bodies: a usage error like every conflict of sources ---------


@pytest.mark.parametrize(
    "command",
    [["lookup", *DISPATCH, "--issue-number", "878"], ["validate"], ["render"]],
    ids=["lookup", "validate", "render"],
)
def test_both_bodies_from_stdin_is_a_usage_error(cli: Any, command: list[str]) -> None:
    ran = cli([*command, "--plan-body", "-", "--slices-body", "-"])
    assert (ran.code, ran.stdout) == (2, b"")
    err = ran.stderr.decode()
    assert err.startswith(f"usage: frame-spine {command[0]} ")
    assert err.splitlines()[-1] == (
        f"frame-spine {command[0]}: error: --plan-body - and --slices-body - cannot be combined: "
        "only one body can come from standard input; give the other as a file"
    )


# --- a comment's link given as its id says which number to pass (ids stay integers) ---------


@pytest.mark.parametrize(
    ("value", "name", "message"),
    [
        (
            URL,
            "plan-comment-id",
            f"plan-comment-id '{URL}' is not a positive integer: that is a comment's link, pass "
            "its id 5013464001",
        ),
        (
            "#issuecomment-5013464861",
            "slices-comment-id",
            "slices-comment-id '#issuecomment-5013464861' is not a positive integer: that is a "
            "comment's link, pass its id 5013464861",
        ),
        (
            "https://api.github.com/repos/o/r/issues/comments/77",
            "plan-comment-id",
            "plan-comment-id 'https://api.github.com/repos/o/r/issues/comments/77' is not a "
            "positive integer: that is a comment's link, pass its id 77",
        ),
        (
            "https://github.com/o/r/issues/878",
            "plan-comment-id",
            "plan-comment-id 'https://github.com/o/r/issues/878' is not a positive integer: that "
            "is the link of issue 878; a comment's id is the N of #issuecomment-N in the "
            "comment's own link (its menu: Copy link)",
        ),
        (
            URL,
            "issue-number",
            f"issue-number '{URL}' is not a positive integer: that is the link of issue 878, "
            "pass 878",
        ),
        (
            "https://github.com/o/r/pull/9/",
            "issue-number",
            "issue-number 'https://github.com/o/r/pull/9/' is not a positive integer: that is "
            "the link of issue 9, pass 9",
        ),
        (
            "#878",
            "issue-number",
            "issue-number '#878' is not a positive integer: pass 878, without the #",
        ),
        ("12x", "plan-comment-id", "plan-comment-id '12x' is not a positive integer"),
        (
            f"{URL}x",
            "plan-comment-id",
            f"plan-comment-id '{URL}x' is not a positive integer: "
            "that is the link of issue 878; a comment's id is the N of #issuecomment-N in the "
            "comment's own link (its menu: Copy link)",
        ),
    ],
)
def test_a_link_given_as_an_id_says_which_number(value: str, name: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_positive_id(value, name)
    assert str(raised.value) == message


@pytest.mark.parametrize("flag", ["--plan-comment-id", "--slices-comment-id"])
def test_the_cli_says_which_comment_id_to_pass(cli: Any, flag: str) -> None:
    ids = {"--plan-comment-id": "5013464001", "--slices-comment-id": "5013464861", flag: URL}
    args = ["lookup", "--repo", "o/r", "--issue-number", "878", *DISPATCH, "--format", "json"]
    ran = cli([*args, *(item for pair in ids.items() for item in pair)])
    assert (ran.code, json_of(ran)) == (
        1,
        {
            "status": "error",
            "message": f"{flag} '{URL}' is not a positive integer: that is a comment's "
            "link, pass its id 5013464001",
        },
    )


def test_the_action_inputs_say_which_comment_id_to_pass() -> None:
    failure = parse_online_inputs(
        {
            "repository": "o/r",
            "api-url": "https://api.github.com",
            "plan-comment-id": URL,
            "step-id": "s1",
            "generated-at": "current",
        }
    )
    assert getattr(failure, "message", None) == (
        f"plan-comment-id '{URL}' is not a positive integer: that is a comment's link, pass its "
        "id 5013464001"
    )


# --- stdin on a terminal: say what is read and how to end it --------------------------------

NOTE = (
    b"frame-spine: reading the plan comment body (--plan-body) from standard input; end it "
    b"with Ctrl-D on a line of its own (Ctrl-Z then Enter on Windows)\n"
)


def _read_until(fd: int, wanted: bytes) -> bytes:
    seen = b""
    while wanted not in seen:
        ready, _, _ = select.select([fd], [], [], 30)
        assert ready, f"no {wanted!r} within 30 s: {seen!r}"
        seen += os.read(fd, 4096)
    return seen


def test_reading_a_terminal_says_so_on_stderr() -> None:
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [str(CLI), "digest", "--plan-body", "-"],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env(),
        cwd=REPO,
    )
    os.close(terminal)
    try:
        assert process.stderr is not None
        note = _read_until(process.stderr.fileno(), b"\n")
        assert note == NOTE
        os.write(controller, b"no plan here\r\x04")
        out, err = process.communicate(timeout=60)
    finally:
        os.close(controller)
        if process.poll() is None:
            process.kill()
    assert (process.returncode, err) == (1, b"")
    assert out == b"status: missing-spine\nmessage: no frame-spine block in the plan comment\n"


def test_a_pipe_gets_no_note() -> None:
    completed = run_cli(["digest", "--plan-body", "-"], stdin=(REPO / PLAN).read_bytes())
    assert (completed.returncode, completed.stderr) == (0, b"")
