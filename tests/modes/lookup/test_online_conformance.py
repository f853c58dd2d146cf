"""The conformance corpus through the GitHub path: the online CLI and the action entrypoint,
against the loopback fake of the REST API (see tests/conformance/README.md). Served by a
trusted author (the fake's default, the repository's owner) each case passes as it does
locally; served by a drive-by commenter (SPEC 6.1) it is ``plan-identity-mismatch``, or
``sibling-identity-mismatch`` when only the sibling is the drive-by's.

The cases run the entry points in this process (tests.in_process), with the same argv,
environment and files; one trusted case per exit code runs the installed command (a
process)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CASES, Case, clean_env, expectation_failures, run_cli
from tests.fake_github import DRIVE_BY, OWNER, REPO, TOKEN, FakeGitHub, User
from tests.in_process import run_action_in_process, run_cli_in_process

PLAN_ID = 4995960001
OTHER_SIBLING_ID = 4995960002
_POINTER = re.compile(r"^slice_comment_id:[ \t]*([0-9]+)[ \t]*$", re.MULTILINE)
_PLAN_MARKER = re.compile(r"<!-- plan-issue-([0-9]+) -->")

ONLINE = [case for case in CASES if not case.spec.get("body") and case.format == "json"]


def serve_case(
    fake: FakeGitHub, case: Case, plan_author: User = OWNER, sibling_author: User = OWNER
) -> tuple[int | None, int | None]:
    """Serve the case's comments (by these authors); returns (issue number, sibling id) for
    the dispatch."""
    plan = case.body("plan") or ""
    sibling = case.body("sibling")
    issue = case.spec.get("issue_number")
    marker = _PLAN_MARKER.search(plan)
    served_issue = issue if issue is not None else (int(marker.group(1)) if marker else 1)
    fake.add_comment(PLAN_ID, plan, served_issue, author=plan_author)
    if sibling is None:
        return issue, None
    pointer = _POINTER.search(plan.replace("\r\n", "\n").replace("\r", "\n"))
    sibling_id = int(pointer.group(1)) if pointer else OTHER_SIBLING_ID
    fake.add_comment(sibling_id, sibling, served_issue, author=sibling_author)
    return issue, sibling_id


def test_online_subset_is_every_json_case_with_separate_bodies() -> None:
    assert len(ONLINE) == 60  # revision 2 added three cases


def online_args(
    case: Case, fake: FakeGitHub, issue: int | None, sibling_id: int | None
) -> list[str]:
    spec = case.spec
    args = [
        "lookup",
        "--repo",
        REPO,
        "--plan-comment-id",
        str(PLAN_ID),
        "--api-url",
        fake.url,
        "--generated-at",
        spec["generated_at"],
        "--step-id",
        spec["step_id"],
        "--format",
        "json",
    ]
    if sibling_id is not None:
        args += ["--slices-comment-id", str(sibling_id)]
    if issue is not None:
        args += ["--issue-number", str(issue)]
    if spec.get("spine_digest"):
        args += ["--spine-digest", spec["spine_digest"]]
    return args


def check_online_cli(case: Case, fake_github: FakeGitHub, run: Any) -> None:
    """Serve the case trusted, run ``run(argv, env=...)``, check its result and requests."""
    issue, sibling_id = serve_case(fake_github, case)
    completed = run(
        online_args(case, fake_github, issue, sibling_id), env=clean_env(GITHUB_TOKEN=TOKEN)
    )
    assert completed.stderr == b""
    assert expectation_failures(case, completed.stdout.decode(), completed.returncode) == []
    expected_gets = 0 if case.expect["status"] == "error" else 1 + (sibling_id is not None)
    assert len(fake_github.requests) == expected_gets


@pytest.mark.parametrize("case", ONLINE, ids=[c.name for c in ONLINE])
def test_case_through_online_cli(case: Case, fake_github: FakeGitHub) -> None:
    check_online_cli(case, fake_github, run_cli_in_process)


#: One trusted case per exit code, run by the installed command.
ONE_PER_EXIT_CODE = list({case.expect["exit_code"]: case for case in ONLINE}.values())


def test_one_per_exit_code_covers_both_exit_codes() -> None:
    assert sorted(case.expect["exit_code"] for case in ONE_PER_EXIT_CODE) == [0, 1]


@pytest.mark.parametrize("case", ONE_PER_EXIT_CODE, ids=[c.name for c in ONE_PER_EXIT_CODE])
def test_case_through_installed_online_cli(case: Case, fake_github: FakeGitHub) -> None:
    check_online_cli(case, fake_github, run_cli)


def untrusted(comment_id: int, knob: str = "--trusted-authors") -> str:
    """The refusal of a drive-by's comment, naming the policy as the caller set it (the
    command line: its flag; the action: ``trusted-authors``)."""
    return (
        f"comment {comment_id} was written by drive-by (NONE, permission read), not a trusted "
        f"author; {knob} is OWNER,MEMBER,COLLABORATOR,write"
    )


@pytest.mark.parametrize("case", ONLINE, ids=[c.name for c in ONLINE])
def test_case_by_an_untrusted_author_through_online_cli(
    case: Case, fake_github: FakeGitHub
) -> None:
    issue, sibling_id = serve_case(fake_github, case, plan_author=DRIVE_BY)
    completed = run_cli_in_process(
        online_args(case, fake_github, issue, sibling_id), env=clean_env(GITHUB_TOKEN=TOKEN)
    )
    assert completed.stderr == b""
    result = json.loads(completed.stdout)
    if case.expect["status"] == "error":  # an input check: no request, as before
        assert expectation_failures(case, completed.stdout.decode(), completed.returncode) == []
        assert fake_github.requests == []
        return
    assert (result, completed.returncode) == (
        {
            "status": "plan-identity-mismatch",
            "message": untrusted(PLAN_ID),
            "author": "drive-by",
            "author_association": "NONE",
        },
        1,
    )
    assert "slice" not in result
    assert len(fake_github.requests) == 2 + (sibling_id is not None)  # + the permission


WITH_SIBLING = [case for case in ONLINE if case.spec.get("sibling")]


def test_the_sibling_subset_has_cases() -> None:
    assert len(WITH_SIBLING) == 20


@pytest.mark.parametrize("case", WITH_SIBLING, ids=[c.name for c in WITH_SIBLING])
def test_case_with_an_untrusted_sibling_through_online_cli(
    case: Case, fake_github: FakeGitHub
) -> None:
    issue, sibling_id = serve_case(fake_github, case, sibling_author=DRIVE_BY)
    assert sibling_id is not None
    completed = run_cli_in_process(
        online_args(case, fake_github, issue, sibling_id), env=clean_env(GITHUB_TOKEN=TOKEN)
    )
    result = json.loads(completed.stdout)
    if case.expect["status"] == "error":
        assert expectation_failures(case, completed.stdout.decode(), completed.returncode) == []
        assert fake_github.requests == []
        return
    assert completed.returncode == 1
    assert {key: result[key] for key in list(result)[:4]} == {
        "status": "sibling-identity-mismatch",
        "message": untrusted(sibling_id),
        "author": "drive-by",
        "author_association": "NONE",
    }
    assert "slice" not in result
    assert len(fake_github.requests) == 3


@pytest.mark.parametrize("case", ONLINE, ids=[c.name for c in ONLINE])
def test_case_through_action_entrypoint(
    case: Case, fake_github: FakeGitHub, tmp_path: Path
) -> None:
    issue, sibling_id = serve_case(fake_github, case)
    spec = case.spec
    inputs = {
        "plan-comment-id": str(PLAN_ID),
        "step-id": spec["step_id"],
        "generated-at": spec["generated_at"],
        "slices-comment-id": "" if sibling_id is None else str(sibling_id),
        "issue-number": "" if issue is None else str(issue),
        "spine-digest": spec.get("spine_digest") or "",
        "fail-on": "never",
    }
    run = run_action_in_process(
        tmp_path, inputs, api_url=fake_github.url, token=TOKEN, repository=REPO
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    outputs = run.outputs
    expected_exit = case.expect["exit_code"]
    assert (outputs["status"], outputs["exit-code"]) == (case.expect["status"], str(expected_exit))
    assert expectation_failures(case, outputs["result"], expected_exit) == []
    result = json.loads(outputs["result"])
    assert outputs["slice"] == result.get("slice", "")
    assert outputs["message"] == result.get("message", "")
    assert outputs["spine-digest"] == result.get("spine_digest", "")


#: One case per expected status (the CLI runs every case untrusted; the action's outputs are
#: the same whatever the case holds once the author is refused).
ONE_PER_STATUS = list({case.expect["status"]: case for case in ONLINE}.values())


def test_one_per_status_covers_every_status() -> None:
    assert {case.expect["status"] for case in ONE_PER_STATUS} == {
        case.expect["status"] for case in ONLINE
    }


@pytest.mark.parametrize("case", ONE_PER_STATUS, ids=[c.name for c in ONE_PER_STATUS])
def test_case_by_an_untrusted_author_through_action_entrypoint(
    case: Case, fake_github: FakeGitHub, tmp_path: Path
) -> None:
    issue, sibling_id = serve_case(fake_github, case, plan_author=DRIVE_BY)
    spec = case.spec
    inputs = {
        "plan-comment-id": str(PLAN_ID),
        "step-id": spec["step_id"],
        "generated-at": spec["generated_at"],
        "slices-comment-id": "" if sibling_id is None else str(sibling_id),
        "issue-number": "" if issue is None else str(issue),
        "spine-digest": spec.get("spine_digest") or "",
        "fail-on": "never",
    }
    run = run_action_in_process(
        tmp_path, inputs, api_url=fake_github.url, token=TOKEN, repository=REPO
    )
    assert (run.returncode, run.stderr) == (0, "")
    if case.expect["status"] == "error":
        assert run.outputs["status"] == "error"
        assert fake_github.requests == []
        return
    assert (run.outputs["status"], run.outputs["message"], run.outputs["slice"]) == (
        "plan-identity-mismatch",
        untrusted(PLAN_ID, "trusted-authors"),
        "",
    )
