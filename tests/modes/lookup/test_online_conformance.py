"""The conformance corpus through the GitHub path: the online CLI and the action entrypoint,
against the loopback fake of the REST API (see tests/conformance/README.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import CASES, Case, clean_env, expectation_failures, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.runner_env import run_action

PLAN_ID = 4995960001
OTHER_SIBLING_ID = 4995960002
_POINTER = re.compile(r"^slice_comment_id:[ \t]*([0-9]+)[ \t]*$", re.MULTILINE)
_PLAN_MARKER = re.compile(r"<!-- plan-issue-([0-9]+) -->")

ONLINE = [case for case in CASES if not case.spec.get("body") and case.format == "json"]


def serve_case(fake: FakeGitHub, case: Case) -> tuple[int | None, int | None]:
    """Serve the case's comments; returns (issue number, sibling id) for the dispatch."""
    plan = case.body("plan") or ""
    sibling = case.body("sibling")
    issue = case.spec.get("issue_number")
    marker = _PLAN_MARKER.search(plan)
    served_issue = issue if issue is not None else (int(marker.group(1)) if marker else 1)
    fake.add_comment(PLAN_ID, plan, served_issue)
    if sibling is None:
        return issue, None
    pointer = _POINTER.search(plan.replace("\r\n", "\n").replace("\r", "\n"))
    sibling_id = int(pointer.group(1)) if pointer else OTHER_SIBLING_ID
    fake.add_comment(sibling_id, sibling, served_issue)
    return issue, sibling_id


def test_online_subset_is_every_json_case_with_separate_bodies() -> None:
    assert len(ONLINE) == 60  # revision 2 added three cases


@pytest.mark.parametrize("case", ONLINE, ids=[c.name for c in ONLINE])
def test_case_through_online_cli(case: Case, fake_github: FakeGitHub) -> None:
    issue, sibling_id = serve_case(fake_github, case)
    spec = case.spec
    args = [
        "lookup",
        "--repo",
        REPO,
        "--plan-comment-id",
        str(PLAN_ID),
        "--api-url",
        fake_github.url,
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
    completed = run_cli(args, env=clean_env(GITHUB_TOKEN=TOKEN))
    assert completed.stderr == b""
    assert expectation_failures(case, completed.stdout.decode(), completed.returncode) == []
    expected_gets = 0 if case.expect["status"] == "error" else 1 + (sibling_id is not None)
    assert len(fake_github.requests) == expected_gets


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
    run = run_action(tmp_path, inputs, api_url=fake_github.url, token=TOKEN, repository=REPO)
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
