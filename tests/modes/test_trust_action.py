"""Who wrote it (SPEC 6.1) through the action: the entrypoint as a subprocess with the
runner's environment, against the loopback fake of the GitHub REST API, in every mode. Exact
outputs; no text of an untrusted comment in any output, the summary or the log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frame_spine.step.report import OUTPUT_NAMES
from tests.fake_github import DRIVE_BY, OWNER, REPO, TOKEN, FakeGitHub
from tests.modes.test_trust import (
    DIGEST_878,
    DRIVE_BY_ID,
    EVIL_PLAN,
    EVIL_TEXT,
    PLAN_901_ID,
    PLAN_ID,
    READ_ONLY,
    SIBLING_901_ID,
    SIBLING_ID,
    STAMP,
    STAMP_901,
    comment_get,
    drive_by_plan,
    permission_get,
    serve_878,
    serve_901,
)
from tests.runner_env import ActionRun, run_action

#: The action names its inputs (the command line: its flags; SPEC 9).
DEFAULT = "trusted-authors is OWNER,MEMBER,COLLABORATOR,write"
PASSED_OVER = (
    f"comment {DRIVE_BY_ID} carries a <!-- plan-issue-901 --> line but was written by drive-by "
    f"(NONE, {READ_ONLY}), not a trusted author ({DEFAULT}): passed over, it is not the plan"
)
PLAN_MESSAGE = (
    f"comment {PLAN_ID} was written by drive-by (NONE, {READ_ONLY}), not a trusted author; "
    f"{DEFAULT}"
)


def act(fake: FakeGitHub, tmp_path: Path, **inputs: str) -> ActionRun:
    return run_action(
        tmp_path, {"fail-on": "never", **inputs}, api_url=fake.url, token=TOKEN, repository=REPO
    )


def everything(run: ActionRun) -> str:
    return run.stdout + run.stderr + run.summary + run.output_file_text


LOOKUP = {"plan-comment-id": str(PLAN_ID), "issue-number": "878", "step-id": "s1"}


def test_lookup_of_a_drive_by_plan(fake_github: FakeGitHub, tmp_path: Path) -> None:
    fake_github.add_comment(PLAN_ID, EVIL_PLAN.format(issue=878), 878, author=DRIVE_BY)
    run = act(
        fake_github,
        tmp_path,
        **LOOKUP,
        **{"generated-at": "current", "slice-file": ".frame/s1.md", "fail-on": "error"},
    )
    assert run.returncode == 1
    result = {
        "status": "plan-identity-mismatch",
        "message": PLAN_MESSAGE,
        "author": "drive-by",
        "author_association": "NONE",
    }
    assert run.outputs == {
        **dict.fromkeys(OUTPUT_NAMES, ""),
        "status": "plan-identity-mismatch",
        "exit-code": "1",
        "message": PLAN_MESSAGE,
        "step-id": "s1",
        "result": json.dumps(result, separators=(",", ":")),
    }
    assert run.stdout == (
        "frame-spine lookup: status plan-identity-mismatch (exit code 1) for step s1 of plan "
        f"comment {PLAN_ID}\n"
        f"::error title=frame-spine lookup%3A plan-identity-mismatch::{PLAN_MESSAGE}\n"
    )
    assert not (run.workspace / ".frame").exists()
    assert EVIL_TEXT not in everything(run)
    assert fake_github.paths() == [comment_get(PLAN_ID), permission_get("drive-by")]


def test_lookup_of_an_untrusted_sibling(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve_878(fake_github, sibling=DRIVE_BY)
    run = act(
        fake_github, tmp_path, **LOOKUP, **{"generated-at": STAMP, "slices-comment-id": "auto"}
    )
    assert (run.returncode, run.outputs["status"], run.outputs["slice"]) == (
        0,
        "sibling-identity-mismatch",
        "",
    )
    assert json.loads(run.outputs["result"]) == {
        "status": "sibling-identity-mismatch",
        "message": f"comment {SIBLING_ID} was written by drive-by (NONE, {READ_ONLY}), not "
        f"a trusted author; {DEFAULT}",
        "author": "drive-by",
        "author_association": "NONE",
        "spine_digest": DIGEST_878,
        "current_generated_at": STAMP,
    }
    assert "requirement-contract" not in everything(run)


@pytest.mark.parametrize(
    ("policy", "status"),
    [("any", "ok"), ("OWNER,@drive-by", "ok"), ("MEMBER", "plan-identity-mismatch")],
)
def test_the_trusted_authors_input_is_the_policy(
    fake_github: FakeGitHub, tmp_path: Path, policy: str, status: str
) -> None:
    serve_878(fake_github, plan=DRIVE_BY if status == "ok" else OWNER, sibling=DRIVE_BY)
    run = act(
        fake_github,
        tmp_path,
        **LOOKUP,
        **{"generated-at": STAMP, "slices-comment-id": "auto", "trusted-authors": policy},
    )
    assert run.outputs["status"] == status
    assert all("/permission" not in path for path in fake_github.paths())


def test_an_empty_trusted_authors_input_is_the_default(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    fake_github.add_comment(PLAN_ID, EVIL_PLAN.format(issue=878), 878, author=DRIVE_BY)
    run = act(fake_github, tmp_path, **LOOKUP, **{"generated-at": "current", "trusted-authors": ""})
    assert (run.outputs["status"], run.outputs["message"]) == (
        "plan-identity-mismatch",
        PLAN_MESSAGE,
    )


@pytest.mark.parametrize("mode", ["lookup", "validate", "render", "audit"])
def test_a_malformed_trusted_authors_input_makes_no_request(
    fake_github: FakeGitHub, tmp_path: Path, mode: str
) -> None:
    serve_878(fake_github)
    run = act(
        fake_github,
        tmp_path,
        mode=mode,
        **LOOKUP,
        **{"generated-at": STAMP, "trusted-authors": "OWNER,maintainers"},
    )
    assert (run.outputs["status"], run.outputs["message"]) == (
        "error",
        "trusted-authors: 'maintainers' is not a term (an author association such as OWNER, "
        "MEMBER or COLLABORATOR, @login, write, or any alone)",
    )
    assert fake_github.requests == []


def test_validate_by_discovery_dispatches_the_maintainers_plan(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve_901(fake_github)
    drive_by_plan(fake_github)
    run = act(fake_github, tmp_path, mode="validate", **{"issue-number": "901"})
    assert (run.outputs["status"], run.outputs["error-count"], run.outputs["warning-count"]) == (
        "valid",
        "0",
        "1",
    )
    steps = json.loads(run.outputs["steps"])
    assert {(s["plan-comment-id"], s["slices-comment-id"], s["generated-at"]) for s in steps} == {
        (str(PLAN_901_ID), str(SIBLING_901_ID), STAMP_901)
    }
    assert run.stdout == (
        "frame-spine validate: status valid (0 errors, 1 warning, 0 notices)\n"
        f"::warning title=frame-spine validate%3A untrusted-plan-comment::-: {PASSED_OVER}\n"
    )
    assert EVIL_TEXT not in everything(run)


def test_validate_by_id_of_an_untrusted_plan(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve_901(fake_github, plan=DRIVE_BY)
    run = act(fake_github, tmp_path, mode="validate", **{"plan-comment-id": str(PLAN_901_ID)})
    assert (run.outputs["status"], run.outputs["steps"], run.outputs["ready"]) == (
        "plan-identity-mismatch",
        "[]",
        "[]",
    )
    assert json.loads(run.outputs["result"])["author"] == "drive-by"


def test_render_by_discovery_and_by_id(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve_901(fake_github)
    drive_by_plan(fake_github)
    run = act(fake_github, tmp_path / "a", mode="render", **{"issue-number": "901"})
    result = json.loads(run.outputs["result"])
    assert (
        run.outputs["status"],
        result["plan_comment_id"],
        result["untrusted_plan_comments"],
    ) == (
        "ok",
        str(PLAN_901_ID),
        1,
    )
    assert EVIL_TEXT not in everything(run)
    run = act(fake_github, tmp_path / "b", mode="render", **{"plan-comment-id": str(DRIVE_BY_ID)})
    message = (
        f"comment {DRIVE_BY_ID} was written by drive-by (NONE, {READ_ONLY}), not a trusted "
        f"author; {DEFAULT}"
    )
    assert (run.outputs["status"], run.outputs["exit-code"], run.outputs["message"]) == (
        "plan-identity-mismatch",
        "1",
        message,
    )
    assert run.outputs["markdown"] == run.summary
    assert "#### Ports" not in run.summary and EVIL_TEXT not in everything(run)


def test_audit_counts_untrusted_plan_comments(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve_901(fake_github)
    drive_by_plan(fake_github)
    run = act(
        fake_github,
        tmp_path,
        mode="audit",
        **{"issue-state": "all", "report-file": "audit.json"},
    )
    assert (run.outputs["status"], run.outputs["count-fresh"]) == ("clean", "1")
    report = json.loads((run.workspace / "audit.json").read_text("utf-8"))
    assert (report["untrusted_plan_comments"], report["plans"][0]["untrusted_plan_comments"]) == (
        1,
        1,
    )
    assert (
        "1 plan-like comment by an author outside trusted-authors passed over (never "
        "classified)\n" in run.summary
    )
    assert EVIL_TEXT not in everything(run)
