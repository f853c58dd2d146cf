"""The action in validate mode hands over the dispatch matrix (SPEC 8, 14): the entrypoint runs
as a subprocess with the runner's environment against the loopback fake of the GitHub REST
API, and its ``steps``, ``waves`` and ``ready`` outputs are compared as exact JSON text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.builders import entry, slice_block
from tests.conftest import REPO as REPO_DIR
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.runner_env import ActionRun, run_action

PLANS = REPO_DIR / "e2e" / "plans"
PLAN_TEXT = (PLANS / "plan-901.md").read_text("utf-8")
SIBLING_TEXT = (PLANS / "sibling-901.md").read_text("utf-8")
ISSUE = 901
PLAN_ID = 7000000901
SIBLING_ID = 7000000902
STAMP = "2026-08-01T09:00:00Z"
DIGEST = "sha256:e2f38cf6444f9d4eb06b4cb7a241ce6b80bf7931c9565f22d6170b2435c4a28c"
EMPTY = {"steps": "[]", "waves": "[]", "ready": "[]"}


def step(step_id: str, ports: list[str], depends: list[str], wave: int) -> dict[str, Any]:
    return {
        "step-id": step_id,
        "issue-number": "901",
        "plan-comment-id": str(PLAN_ID),
        "slices-comment-id": str(SIBLING_ID),
        "generated-at": STAMP,
        "spine-digest": DIGEST,
        "ports": ports,
        "depends-on": depends,
        "wave": wave,
    }


# e2e/plans/plan-901.md: a diamond. Port lanes (SPEC 14) change nothing here: the one port that
# lists two steps, implement-code: [s1, s3#cycle:2], agrees with s3's depends_on: [s1].
S1 = step("s1", ["implement-code"], [], 1)
S2 = step("s2", ["implement-docs"], ["s1"], 2)
S3 = step("s3", ["implement-code"], ["s1"], 2)
S4 = step("s4", ["review"], ["s2", "s3"], 3)


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def validate(tmp_path: Path, fake: FakeGitHub, **inputs: str) -> ActionRun:
    return run_action(
        tmp_path,
        {"mode": "validate", **inputs},
        api_url=fake.url,
        token=TOKEN,
        repository=REPO,
    )


def matrix_outputs(run: ActionRun) -> dict[str, str]:
    return {name: run.outputs[name] for name in ("steps", "waves", "ready")}


@pytest.fixture
def plan_901(fake_github: FakeGitHub) -> FakeGitHub:
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, ISSUE)
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, ISSUE)
    return fake_github


def test_valid_plan_sets_steps_waves_and_ready_as_exact_json(
    plan_901: FakeGitHub, tmp_path: Path
) -> None:
    run = validate(tmp_path, plan_901, **{"plan-comment-id": str(PLAN_ID)})
    assert (run.returncode, run.stderr, run.outputs["status"]) == (0, "", "valid")
    assert matrix_outputs(run) == {
        "steps": compact([S1, S2, S3, S4]),
        "waves": '[["s1"],["s2","s3"],["s4"]]',
        "ready": compact([S1]),
    }
    assert json.loads(run.outputs["result"])["dispatch"] == {
        "steps": [S1, S2, S3, S4],
        "waves": [["s1"], ["s2", "s3"], ["s4"]],
        "ready": [S1],
    }
    assert (
        "**Dispatch matrix**: 4 steps in 3 waves (the `steps`, `waves` and `ready` outputs)\n"
        "- wave 1: s1\n"
        "- wave 2: s2, s3\n"
        "- wave 3: s4\n"
        "- ready now: s1\n"
    ) in run.summary
    # SPEC 8: a value is set whenever it is known: the valid spine's generated_at and digest.
    assert (run.outputs["current-generated-at"], run.outputs["spine-digest"]) == (
        S1["generated-at"],
        S1["spine-digest"],
    )
    assert S1["spine-digest"].startswith("sha256:")


def test_discovered_plan_carries_its_own_comment_id(plan_901: FakeGitHub, tmp_path: Path) -> None:
    run = validate(tmp_path, plan_901, **{"issue-number": "901", "completed-steps": "s1, s3"})
    assert (run.returncode, run.outputs["status"]) == (0, "valid")
    assert run.outputs["steps"] == compact([S1, S2, S3, S4])
    assert run.outputs["ready"] == compact([S2])
    assert "- ready now: s2\n" in run.summary


@pytest.mark.parametrize(
    ("completed", "ready"),
    [
        ("s1", [S2, S3]),
        ("S1,\ns2   s3", [S4]),
        ("s1 s2 s3 s4", []),
        ("s9, s1", [S2, S3]),
    ],
)
def test_completed_steps_narrow_ready(
    plan_901: FakeGitHub, tmp_path: Path, completed: str, ready: list[dict[str, Any]]
) -> None:
    run = validate(
        tmp_path, plan_901, **{"plan-comment-id": str(PLAN_ID), "completed-steps": completed}
    )
    assert (run.returncode, run.outputs["status"]) == (0, "valid")
    assert run.outputs["waves"] == '[["s1"],["s2","s3"],["s4"]]'
    assert run.outputs["ready"] == compact(ready)


def test_invalid_plan_sets_empty_matrix_outputs(fake_github: FakeGitHub, tmp_path: Path) -> None:
    # The sibling is not served: sibling-missing, and no slice block for the four steps.
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, ISSUE)
    run = validate(
        tmp_path, fake_github, **{"plan-comment-id": str(PLAN_ID), "completed-steps": "s1"}
    )
    assert (run.returncode, run.outputs["status"], run.outputs["error-count"]) == (
        1,
        "invalid",
        "5",
    )
    findings = json.loads(run.outputs["result"])["findings"]
    assert [finding["code"] for finding in findings] == 2 * ["uncovered-ac"] + [
        "sibling-missing"
    ] + 4 * ["unresolved-step"]
    assert matrix_outputs(run) == EMPTY
    assert json.loads(run.outputs["result"])["dispatch"] == {"steps": [], "waves": [], "ready": []}
    assert "Dispatch matrix" not in run.summary


def test_bad_completed_steps_is_an_error_before_any_request(
    plan_901: FakeGitHub, tmp_path: Path
) -> None:
    run = validate(
        tmp_path, plan_901, **{"plan-comment-id": str(PLAN_ID), "completed-steps": "s1;s2"}
    )
    message = (
        "completed-steps: 's1;s2' is not a step id (expected s<digits> separated by commas or "
        "whitespace, e.g. s1, s2)"
    )
    assert run.returncode == 1
    assert (run.outputs["status"], run.outputs["exit-code"], run.outputs["message"]) == (
        "error",
        "1",
        message,
    )
    assert matrix_outputs(run) == EMPTY
    assert plan_901.requests == []


def test_fetch_failure_sets_empty_matrix_outputs(fake_github: FakeGitHub, tmp_path: Path) -> None:
    run = validate(tmp_path, fake_github, **{"plan-comment-id": "404404"})
    assert (run.returncode, run.outputs["status"]) == (1, "comment-not-found")
    assert matrix_outputs(run) == EMPTY


MANY = 4000


def test_matrix_list_over_the_output_limit_is_left_empty_with_a_warning(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    # 4,000 independent steps (one port each, so no lane orders them): steps and ready would
    # be about 1.07 MB each; waves fits.
    ids = [f"s{n}" for n in range(1, MANY + 1)]
    lines = [
        "<!-- plan-issue-901 -->",
        "<!-- frame-spine",
        "spine_schema_version: 2",
        f"generated_at: {STAMP}",
        "ports:",
        *(f"  code-{n:04}: [s{n}]" for n in range(1, MANY + 1)),
        "slices:",
        *(line for step_id in ids for line in entry(step_id)),
        "-->",
        *(
            line
            for n, step_id in enumerate(ids, 1)
            for line in slice_block(step_id, f"provides: [code-{n:04}]")
        ),
    ]
    fake_github.add_comment(PLAN_ID, "\n".join(lines) + "\n", ISSUE)
    run = validate(tmp_path, fake_github, **{"plan-comment-id": str(PLAN_ID)})
    assert (run.returncode, run.outputs["status"], run.outputs["error-count"]) == (0, "valid", "0")
    assert (run.outputs["steps"], run.outputs["ready"]) == ("", "")
    assert json.loads(run.outputs["waves"]) == [ids]
    result = json.loads(run.outputs["result"])
    assert ("dispatch" in result, result["dispatch_omitted"]) == (False, True)
    warnings = [line for line in run.stdout.splitlines() if line.startswith("::warning")]
    assert [line.split("::")[1] for line in warnings] == [
        "warning title=frame-spine validate%3A steps output omitted",
        "warning title=frame-spine validate%3A ready output omitted",
    ]
    assert warnings[0].endswith(
        "::the steps output would be 1,074,894 bytes, over the 1,000,000-byte limit of a step "
        "output: it is empty; a matrix holds at most 256 jobs, so dispatch a plan this large in "
        "ready batches (completed-steps), or read `frame-spine validate --format json`"
    )


@pytest.mark.parametrize("value", ["auto", " AUTO ", ""])
def test_slices_comment_id_auto_follows_the_spines_pointer(
    plan_901: FakeGitHub, tmp_path: Path, value: str
) -> None:
    # SPEC 8 offers `auto` for slices-comment-id in every mode; validate follows the
    # spine's pointer by default, so `auto` means the same as empty.
    run = validate(
        tmp_path, plan_901, **{"plan-comment-id": str(PLAN_ID), "slices-comment-id": value}
    )
    assert (run.returncode, run.outputs["status"], run.outputs["message"]) == (0, "valid", "")
    assert run.outputs["steps"] == compact([S1, S2, S3, S4])
