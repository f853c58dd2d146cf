"""The action in render mode (SPEC 8, 13), run as the runner runs it: the entrypoint as a
subprocess with the runner's environment, the loopback fake of the GitHub REST API, and the
exact outputs (`status`, `markdown`, `result`, ...), annotations and summary file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frame_spine.step.report import OUTPUT_NAMES
from tests.conftest import REPO as REPO_DIR
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.runner_env import ActionRun, run_action

PLAN = (REPO_DIR / "examples" / "plan-878.md").read_text("utf-8")
SIBLING = (REPO_DIR / "examples" / "sibling-878.md").read_text("utf-8")
PLAN_ID = 5013464861
SIBLING_ID = 5013460780
STAMP = "2026-07-18T22:20:00Z"
DIGEST = "sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a"
BRIEF = "<!-- plan-issue-878 -->\n---\nplan-variant: brief\n---\n# Brief\n"
BRIEF_MESSAGE = "no spine: a brief plan (plan-variant: brief) has none by design"


def act(
    fake: FakeGitHub, tmp_path: Path, ports: tuple[str, ...] | None = None, **inputs: str
) -> ActionRun:
    if ports is not None:
        folder = tmp_path / "workspace" / "frame" / "ports"
        folder.mkdir(parents=True)
        for name in ports:
            (folder / name).write_text("port\n")
    return run_action(
        tmp_path, {"mode": "render", **inputs}, api_url=fake.url, token=TOKEN, repository=REPO
    )


def serve(fake: FakeGitHub, plan: str = PLAN) -> None:
    fake.add_comment(PLAN_ID, plan, 878)
    fake.add_comment(SIBLING_ID, SIBLING, 878)


def test_ok_sets_status_markdown_result_and_the_summary(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID)})
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == (
        f"frame-spine render: status ok (exit code 0) for plan comment {PLAN_ID}: "
        "9 port tokens, 9 steps\n"
    )
    result = json.loads(run.outputs["result"])
    assert run.outputs == {
        **dict.fromkeys(OUTPUT_NAMES, ""),
        "status": "ok",
        "exit-code": "0",
        "current-generated-at": STAMP,
        "sibling-generated-at": STAMP,  # SPEC 8: set whenever it was read
        "spine-digest": DIGEST,
        "error-count": "8",
        "warning-count": "1",
        "result": run.outputs["result"],
        "markdown": run.summary,
    }
    assert (result["status"], result["issue"], result["plan_comment_id"]) == (
        "ok",
        878,
        str(PLAN_ID),
    )
    assert len(result["ports"]) == 9
    assert [step["has_slice"] for step in result["steps"]] == [True] + [False] * 8
    summary = run.summary
    assert summary.startswith(
        "### ✅ frame-spine render: `ok` (exit code 0): issue #878, spine generated_at "
        "2026-07-18T22:20:00Z\n"
    )
    assert f"| Repository | {REPO} |\n" in summary
    assert (
        f"| Plan comment | [{PLAN_ID}](https://github.com/{REPO}/issues/878"
        f"#issuecomment-{PLAN_ID}) |\n"
    ) in summary
    assert (
        f"| Sibling comment | [{SIBLING_ID}](https://github.com/{REPO}/issues/878"
        f"#issuecomment-{SIBLING_ID}) |\n"
    ) in summary
    # Cycle: the slice's cycle: 1 (the token has no #cycle:K; SPEC 13 revision 3).
    assert "| ce-gate-cli | s9 | 1 | yes |  |\n" in summary
    assert "```mermaid\nflowchart TD\n" in summary
    assert "  class s2,s3,s4,s5,s6,s7,s8,s9 noslice\n" in summary
    assert "#### Findings (validate): 8 errors, 1 warning\n" in summary


def test_discovery_by_issue_number(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **{"issue-number": "878"})
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    assert json.loads(run.outputs["result"])["plan_comment_id"] == str(PLAN_ID)
    assert fake_github.paths() == [
        f"GET /repos/{REPO}/issues/878/comments",
        f"GET /repos/{REPO}/issues/comments/{SIBLING_ID}",
    ]


def test_frame_ports_in_the_workspace_marks_an_unknown_port(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    ports = ("implement-docs.md", "implement-test.yaml", "implement-code.yml", "review.md")
    run = act(fake_github, tmp_path, ports, **{"plan-comment-id": str(PLAN_ID)})
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    assert run.stdout.splitlines()[1:] == [
        "::warning title=frame-spine render%3A unknown-port::port ce-gate-cli (step s9) has no "
        "file ce-gate-cli.yaml, .yml or .md in frame/ports"
    ]
    assert (
        "| ce-gate-cli | s9 | 1 | yes | ⚠️ unknown-port: no ce-gate-cli.yaml/.yml/.md in "
        "frame/ports |\n"
    ) in run.summary
    assert "\n#### Ports (names checked against the port files in frame/ports)\n" in run.summary
    assert (
        "\n`unknown-port` is render's own check of port names against the port files; "
        "validate does not read them, so a plan can be valid with unknown ports.\n"
    ) in run.summary
    warned = [row for row in json.loads(run.outputs["result"])["ports"] if row["warning"]]
    assert warned == [
        {
            "port": "ce-gate-cli",
            "step": "s9",
            "cycle": 1,
            "terminal": True,
            "warning": "unknown-port",
        }
    ]


def test_a_ports_dir_input_is_workspace_relative(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    folder = tmp_path / "workspace" / "ports"
    folder.mkdir(parents=True)
    (folder / "review.md").write_text("x")
    run = act(fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID), "ports-dir": "ports"})
    warned = [row["port"] for row in json.loads(run.outputs["result"])["ports"] if row["warning"]]
    assert warned == [
        "implement-docs",
        "implement-docs",
        "implement-docs",
        "implement-test",
        "implement-test",
        "implement-code",
        "implement-code",
        "ce-gate-cli",
    ]


@pytest.mark.parametrize(
    ("ports_dir", "message"),
    [
        (
            "../outside",
            "ports-dir '../outside' must be a relative path inside the workspace (no leading / "
            "and no ..)",
        ),
        ("missing", "ports-dir 'missing' does not exist"),
    ],
)
def test_a_bad_ports_dir_is_an_error_without_a_request(
    fake_github: FakeGitHub, tmp_path: Path, ports_dir: str, message: str
) -> None:
    (tmp_path / "outside").mkdir()
    run = act(fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID), "ports-dir": ports_dir})
    assert (run.returncode, run.outputs["status"], run.outputs["exit-code"]) == (1, "error", "1")
    assert run.outputs["message"] == message
    assert fake_github.requests == []


def test_a_ports_dir_linked_out_of_the_workspace_is_refused(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "ports").symlink_to(tmp_path / "outside")
    run = act(fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID), "ports-dir": "ports"})
    assert (run.outputs["status"], run.outputs["message"]) == (
        "error",
        "ports-dir 'ports' resolves outside the workspace",
    )


@pytest.mark.parametrize(("fail_on", "step_exit"), [("error", 0), ("not-ok", 1), ("never", 0)])
def test_missing_spine_exits_0_unless_fail_on_not_ok(
    fake_github: FakeGitHub, tmp_path: Path, fail_on: str, step_exit: int
) -> None:
    serve(fake_github, BRIEF)
    run = act(fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID), "fail-on": fail_on})
    assert run.returncode == step_exit
    assert (run.outputs["status"], run.outputs["exit-code"], run.outputs["message"]) == (
        "missing-spine",
        "0",
        BRIEF_MESSAGE,
    )
    assert run.stdout.splitlines()[1] == (
        f"::notice title=frame-spine render%3A missing-spine::{BRIEF_MESSAGE}"
    )
    assert run.summary == (
        "### \u2139\ufe0f frame-spine render: `missing-spine` (exit code 0): issue #878\n\n"
        "> no spine: a brief plan \\(plan-variant: brief\\) has none by design\n\n"
        f"| Repository | {REPO} |\n|:--|:--|\n"
        f"| Plan comment | [{PLAN_ID}](https://github.com/{REPO}/issues/878"
        f"#issuecomment-{PLAN_ID}) |\n"
        "| Sibling comment | — |\n"
    )
    assert run.outputs["markdown"] == run.summary


INVALID = PLAN.replace("  review: [s8#terminal]", "  review: [s8#cycle:x]")


@pytest.mark.parametrize(("fail_on", "step_exit"), [("error", 1), ("not-ok", 1), ("never", 0)])
def test_invalid_spine_exits_1_unless_fail_on_never(
    fake_github: FakeGitHub, tmp_path: Path, fail_on: str, step_exit: int
) -> None:
    serve(fake_github, INVALID)
    run = act(fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID), "fail-on": fail_on})
    assert run.returncode == step_exit
    assert (run.outputs["status"], run.outputs["exit-code"]) == ("invalid-spine", "1")
    result = json.loads(run.outputs["result"])
    assert [row["port"] for row in result["ports"]] == [
        "implement-docs",
        "implement-docs",
        "implement-docs",
        "implement-test",
        "implement-test",
        "implement-code",
        "implement-code",
        "ce-gate-cli",
    ]
    assert (result["generated_at"], result["spine_digest"]) == (None, None)
    assert "| ce-gate-cli | s9 | 1 | yes |  |\n" in run.summary
    assert "| review |" not in run.summary
    assert run.stdout.splitlines()[1].startswith(
        "::error title=frame-spine render%3A invalid-spine::invalid frame-spine: line 27 of the "
        "plan comment"
    )


@pytest.mark.parametrize(("fail_on", "step_exit"), [("error", 1), ("not-ok", 1), ("never", 0)])
def test_a_missing_plan_comment_is_comment_not_found(
    fake_github: FakeGitHub, tmp_path: Path, fail_on: str, step_exit: int
) -> None:
    run = act(fake_github, tmp_path, **{"plan-comment-id": "12", "fail-on": fail_on})
    assert run.returncode == step_exit
    assert run.outputs == {
        **dict.fromkeys(OUTPUT_NAMES, ""),
        "status": "comment-not-found",
        "exit-code": "1",
        "message": run.outputs["message"],
        "result": run.outputs["result"],
        "markdown": run.summary,
    }
    assert run.outputs["message"] == (
        f"plan comment 12 in {REPO} was not found (HTTP 404): check the comment id and "
        "repository, and that the token can read the repository (request id "
        "F00D:1234:5678:9ABC:DEF0)"
    )
    assert json.loads(run.outputs["result"]) == {
        "status": "comment-not-found",
        "issue": None,
        "plan_comment_id": "12",
        "generated_at": None,
        "spine_digest": None,
        "ports": [],
        "steps": [],
        "message": run.outputs["message"],
    }
    assert run.summary.startswith(
        "### ❌ frame-spine render: `comment-not-found` (exit code 1): a plan\n\n> plan comment 12 "
    )


def test_a_refused_token_is_gh_auth_expired(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    fake_github.token = "another"
    run = act(fake_github, tmp_path, **{"issue-number": "878"})
    assert (run.returncode, run.outputs["status"]) == (1, "gh-auth-expired")
    assert json.loads(run.outputs["result"])["issue"] == 878


def test_an_input_that_is_no_id_is_an_error_without_a_request(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    run = act(fake_github, tmp_path, **{"plan-comment-id": "abc"})
    assert (run.returncode, run.outputs["status"], run.outputs["exit-code"]) == (1, "error", "1")
    assert "plan-comment-id" in run.outputs["message"]
    assert fake_github.requests == []


def test_no_job_summary_still_sets_markdown(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID), "job-summary": "false"})
    assert run.summary == ""
    assert run.outputs["markdown"].startswith("### ✅ frame-spine render: `ok` (exit code 0): ")


def test_a_result_too_large_for_its_output_leaves_the_lists_out() -> None:
    from frame_spine.core.status import Status
    from frame_spine.modes.render.models import PortRow, RenderResult, StepNode
    from frame_spine.modes.render.report import _result_output
    from frame_spine.step.report import OUTPUT_LIMIT

    ports = tuple(
        PortRow(port="p" * 100, step=f"s{n}", cycle=None, terminal=False) for n in range(12_000)
    )
    steps = (StepNode(step="s1", ports=("p",), depends_on=(), has_slice=True),)
    text = _result_output(RenderResult(status=Status.OK, issue=5, ports=ports, steps=steps))
    assert len(text.encode()) < OUTPUT_LIMIT
    assert json.loads(text) == {
        "status": "ok",
        "issue": 5,
        "plan_comment_id": None,
        "generated_at": None,
        "spine_digest": None,
        "ports": [],
        "steps": [],
        "message": None,
        "ports_omitted": 12_000,
        "steps_omitted": 1,
    }


def test_slices_comment_id_auto_follows_the_spines_pointer(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    run = act(
        fake_github, tmp_path, **{"plan-comment-id": str(PLAN_ID), "slices-comment-id": "auto"}
    )
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    result = json.loads(run.outputs["result"])
    assert [step["step"] for step in result["steps"] if step["has_slice"]] == ["s1"]
