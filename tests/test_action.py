"""The action entrypoint run as a subprocess with the runner's environment (SPEC 8)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from frame_spine.declared import INPUT_NAMES
from frame_spine.step.report import OUTPUT_NAMES
from tests.conftest import CASES_DIR
from tests.conftest import REPO as REPO_DIR
from tests.fake_github import REPO, TOKEN, FakeGitHub, error
from tests.in_process import run_action_in_process
from tests.runner_env import ActionRun, action_metadata, run_action

PLAN = (REPO_DIR / "examples" / "plan-878.md").read_text("utf-8")
SIBLING = (REPO_DIR / "examples" / "sibling-878.md").read_text("utf-8")
PLAN_ID = 5013464001
SIBLING_ID = 5013460780
STAMP = "2026-07-18T22:20:00Z"
DIGEST = "sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a"
S1 = SIBLING.split("<!-- frame-slice\n", 1)[1].rsplit("\n-->", 1)[0]
SPLIT_INPUTS = {
    "plan-comment-id": str(PLAN_ID),
    "slices-comment-id": str(SIBLING_ID),
    "issue-number": "878",
    "step-id": "S1",
    "generated-at": STAMP,
}


def act(fake: FakeGitHub, tmp_path: Path, **inputs: str) -> ActionRun:
    """The entrypoint in this process, in the runner's environment (tests.in_process)."""
    return run_action_in_process(tmp_path, inputs, api_url=fake.url, token=TOKEN, repository=REPO)


def act_process(fake: FakeGitHub, tmp_path: Path, **inputs: str) -> ActionRun:
    """The entrypoint as the container runs it, a process: for what only a process shows
    (its exit code, the bytes on stdout, the interpreter's flags, the import path)."""
    return run_action(tmp_path, inputs, api_url=fake.url, token=TOKEN, repository=REPO)


def serve(fake: FakeGitHub, sibling: str = SIBLING) -> None:
    fake.add_comment(PLAN_ID, PLAN, 878)
    fake.add_comment(SIBLING_ID, sibling, 878)


def fixed_line(status: str, code: int, step: str = "s1", plan: object = PLAN_ID) -> str:
    return f"frame-spine lookup: status {status} (exit code {code}) for step {step} of plan comment {plan}\n"


def test_action_yml_declares_what_the_entrypoint_reads_and_writes() -> None:
    metadata = action_metadata()
    assert tuple(metadata["inputs"]) == INPUT_NAMES
    assert tuple(metadata["outputs"]) == OUTPUT_NAMES
    assert metadata["runs"] == {"using": "docker", "image": "Dockerfile"}
    assert set(metadata["branding"]) == {"icon", "color"}
    defaults = {name: str(spec.get("default", "")) for name, spec in metadata["inputs"].items()}
    assert defaults == {
        "mode": "lookup",
        "token": "${{ github.token }}",
        "repository": "${{ github.repository }}",
        "api-url": "${{ github.api_url }}",
        "issue-number": "",
        "plan-comment-id": "",
        "slices-comment-id": "",
        "step-id": "",
        "generated-at": "",
        "spine-digest": "",
        "slice-file": "",
        "fail-on": "error",
        "job-summary": "true",
        "timeout": "10",
        "max-wait": "60",
        "trusted-authors": "OWNER,MEMBER,COLLABORATOR,write",
        "issue-state": "open",
        "since": "",
        "report-file": "",
        "ports-dir": "",
        "completed-steps": "",
    }
    for section in ("inputs", "outputs"):
        for name, spec in metadata[section].items():
            assert len(spec["description"]) > 20, name


def test_ok_sets_every_output(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = act_process(fake_github, tmp_path, **SPLIT_INPUTS)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == fixed_line("ok", 0)
    result = json.loads(run.outputs["result"])
    assert run.outputs == {
        **dict.fromkeys(OUTPUT_NAMES, ""),
        "status": "ok",
        "exit-code": "0",
        "message": "",
        "slice": S1,
        "slice-path": "",
        "step-id": "s1",
        "generated-at": STAMP,
        "current-generated-at": STAMP,
        "sibling-generated-at": STAMP,
        "spine-digest": DIGEST,
        "result": run.outputs["result"],
        "error-count": "",
        "warning-count": "",
    }
    assert result == {
        "status": "ok",
        "step_id": "s1",
        "generated_at": STAMP,
        "slice": S1,
        "spine_digest": DIGEST,
        "current_generated_at": STAMP,
        "sibling_generated_at": STAMP,
    }
    assert sorted(fake_github.paths()) == sorted(
        [
            f"GET /repos/{REPO}/issues/comments/{PLAN_ID}",
            f"GET /repos/{REPO}/issues/comments/{SIBLING_ID}",
        ]
    )
    summary = run.summary
    assert summary.startswith(
        f"### ✅ frame-spine lookup: `ok` (exit code 0)\n\n| Repository | {REPO} |\n|:--|:--|\n"
    )
    assert (
        f"| Plan comment | [{PLAN_ID}](https://github.com/{REPO}/issues/878#issuecomment-{PLAN_ID}) |"
        in summary
    )
    assert (
        f"| Sibling comment | [{SIBLING_ID}](https://github.com/{REPO}/issues/878#issuecomment-{SIBLING_ID}) |"
        in summary
    )
    assert f"| Spine digest | `{DIGEST}` |" in summary
    assert (
        f"<details><summary>Slice s1 ({S1.count(chr(10)) + 1} lines, {len(S1.encode()):,} bytes)</summary>\n\n```text\n{S1}\n```\n\n</details>\n"
        in summary
    )
    for text in (run.stdout, run.output_file_text, summary):
        assert TOKEN not in text


def test_slice_file_is_written_under_the_workspace(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **SPLIT_INPUTS, **{"slice-file": "out/slices/s1.md"})
    assert run.outputs["slice-path"] == "out/slices/s1.md"
    assert (run.workspace / "out" / "slices" / "s1.md").read_text("utf-8") == S1


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            "../outside.md",
            "slice-file '../outside.md' must be a relative path inside the workspace (no leading / and no ..)",
        ),
        (
            "/tmp/abs.md",
            "slice-file '/tmp/abs.md' must be a relative path inside the workspace (no leading / and no ..)",
        ),
        (
            "a/../../b.md",
            "slice-file 'a/../../b.md' must be a relative path inside the workspace (no leading / and no ..)",
        ),
        ("dir/", "slice-file 'dir/' ends in /: name a file, not a directory"),
        ("a/b//", "slice-file 'a/b//' ends in /: name a file, not a directory"),
    ],
)
def test_slice_file_outside_the_workspace_is_refused(
    fake_github: FakeGitHub, tmp_path: Path, path: str, message: str
) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **SPLIT_INPUTS, **{"slice-file": path})
    assert (run.returncode, run.outputs["status"], run.outputs["message"]) == (1, "error", message)
    assert fake_github.requests == []


def test_slice_file_through_a_symlink_out_of_the_workspace(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    (tmp_path / "workspace").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "workspace" / "link").symlink_to(tmp_path / "elsewhere")
    run = act(fake_github, tmp_path, **SPLIT_INPUTS, **{"slice-file": "link/s1.md"})
    assert (run.outputs["status"], run.outputs["message"]) == (
        "error",
        "slice-file 'link/s1.md' resolves outside the workspace",
    )
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_an_error_status_sets_every_output_and_one_annotation(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **{**SPLIT_INPUTS, "step-id": "s2"})
    message = (
        "step s2 is in the spine but no frame-slice block for it is in the plan comment or "
        "its sibling"
    )
    assert run.returncode == 1
    assert run.stdout == fixed_line("missing-slice", 1, step="s2") + (
        f"::error title=frame-spine lookup%3A missing-slice::{message}\n"
    )
    assert run.outputs == {
        **dict.fromkeys(OUTPUT_NAMES, ""),
        "status": "missing-slice",
        "exit-code": "1",
        "message": message,
        "slice": "",
        "slice-path": "",
        "step-id": "s2",
        "generated-at": STAMP,
        "current-generated-at": STAMP,
        "sibling-generated-at": STAMP,
        "spine-digest": DIGEST,
        "result": json.dumps(
            {
                "status": "missing-slice",
                "step_id": "s2",
                "message": message,
                "spine_digest": DIGEST,
                "current_generated_at": STAMP,
                "sibling_generated_at": STAMP,
            },
            separators=(",", ":"),
        ),
        "error-count": "",
        "warning-count": "",
    }
    assert f"(exit code 1)\n\n> {message}\n\n" in run.summary


def test_a_fetch_failure_sets_every_output(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    fake_github.script(PLAN_ID, error(404, "Not Found"))
    run = act(fake_github, tmp_path, **SPLIT_INPUTS)
    assert run.returncode == 1
    assert run.outputs["status"] == "comment-not-found"
    assert run.outputs["exit-code"] == "1"
    assert run.outputs["step-id"] == "s1"
    assert run.outputs["generated-at"] == STAMP
    assert [
        run.outputs[k]
        for k in (
            "slice",
            "slice-path",
            "current-generated-at",
            "sibling-generated-at",
            "spine-digest",
        )
    ] == [""] * 5
    # the ids asked for stay visible, unlinked: neither comment was read
    assert f"| Plan comment | {PLAN_ID} |\n| Sibling comment | {SIBLING_ID} |\n" in run.summary


@pytest.mark.parametrize(
    ("fail_on", "stale_exit", "missing_exit"),
    [("error", 0, 1), ("not-ok", 1, 1), ("never", 0, 0)],
)
def test_fail_on(
    fake_github: FakeGitHub, tmp_path: Path, fail_on: str, stale_exit: int, missing_exit: int
) -> None:
    serve(fake_github)
    stale = act(
        fake_github,
        tmp_path / "a",
        **{**SPLIT_INPUTS, "generated-at": "2026-07-18T21:00:00Z", "fail-on": fail_on},
    )
    assert (stale.outputs["status"], stale.outputs["exit-code"], stale.returncode) == (
        "stale-spine",
        "0",
        stale_exit,
    )
    assert stale.stdout.endswith(
        "::warning title=frame-spine lookup%3A stale-spine::the spine's generated_at is "
        "2026-07-18T22:20:00Z, not the dispatched 2026-07-18T21:00:00Z: the plan changed after "
        "this step was dispatched; re-dispatch it from the current spine\n"
    )
    missing = act(
        fake_github, tmp_path / "b", **{**SPLIT_INPUTS, "step-id": "s3", "fail-on": fail_on}
    )
    assert (missing.outputs["status"], missing.outputs["exit-code"], missing.returncode) == (
        "missing-slice",
        "1",
        missing_exit,
    )
    ok = act(fake_github, tmp_path / "c", **{**SPLIT_INPUTS, "fail-on": fail_on})
    assert ok.returncode == 0


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (
            {"report-file": "../r.json"},
            "report-file '../r.json' must be a relative path inside the workspace (no leading / and no ..)",
        ),
        (
            {"report-file": "reports/"},
            "report-file 'reports/' ends in /: name a file, not a directory",
        ),
        ({"mode": "lookups"}, "mode 'lookups' is not one of lookup, validate, audit, render"),
        (
            {"step-id": "x" * 60_000},
            f"step-id '{'x' * 117}...' is not a step id (expected s<digits>, e.g. s4)",
        ),
        ({"fail-on": "warning"}, "fail-on 'warning' is not one of error, not-ok, never"),
        ({"job-summary": "yes"}, "job-summary 'yes' is not true or false"),
        ({"plan-comment-id": ""}, "no plan comment id was given (plan-comment-id)"),
        ({"step-id": "4"}, "step-id '4' is not a step id (expected s<digits>, e.g. s4)"),
        ({"timeout": "ten"}, "timeout 'ten' is not a whole number of seconds in 1..600"),
        ({"repository": "just-a-name"}, "repository 'just-a-name' is not OWNER/NAME"),
    ],
)
def test_bad_inputs_are_statuses_with_every_output_set(
    fake_github: FakeGitHub, tmp_path: Path, inputs: dict[str, str], message: str
) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **{**SPLIT_INPUTS, **inputs})
    status = "comment-id-missing" if "plan-comment-id" in inputs else "error"
    assert run.returncode == 1
    assert set(run.outputs) == set(OUTPUT_NAMES)
    assert (run.outputs["status"], run.outputs["message"]) == (status, message)
    assert json.loads(run.outputs["result"]) == {"status": status, "message": message}
    assert fake_github.requests == []
    assert "Traceback" not in run.stdout + run.stderr


def test_job_summary_false_writes_none(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, **SPLIT_INPUTS, **{"job-summary": "false"})
    assert (run.outputs["status"], run.summary) == ("ok", "")


def test_refuses_to_run_without_github_output(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = run_action(
        tmp_path,
        SPLIT_INPUTS,
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        drop=("GITHUB_OUTPUT",),
    )
    assert run.returncode == 1
    assert run.stdout == (
        "::error title=frame-spine::GITHUB_OUTPUT is not set: this entrypoint runs as a GitHub "
        "Actions step and writes its outputs to that file only\n"
    )
    assert fake_github.requests == []


INJECTION_LINES = [
    "::set-output name=status::ok",
    "::error::x",
    "##[error]x",
    "::add-mask::x",
    "::stop-commands::t",
    "ghadelimiter_00000000-0000-0000-0000-000000000000",
    "EOF",
    "status<<EOF",
    "``````````",
    "`` inline `code` ``",
]


def injected_sibling() -> str:
    body = "\n".join(INJECTION_LINES)
    return (
        "<!-- frame-slices-878 -->\n<!-- frame-slices-generated-at: 2026-07-18T22:20:00Z -->\n\n"
        f"<!-- frame-slice -->\nstep_id: s1\n{body}\n-->\n"
    )


def test_comment_text_never_reaches_stdout_as_a_workflow_command(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github, injected_sibling())
    run = act_process(fake_github, tmp_path, **SPLIT_INPUTS)
    expected_slice = "step_id: s1\n" + "\n".join(INJECTION_LINES)
    assert run.stdout == fixed_line("ok", 0)
    assert run.outputs["status"] == "ok"
    assert run.outputs["slice"] == expected_slice
    assert json.loads(run.outputs["result"])["slice"] == expected_slice
    assert "::" not in run.outputs["result"] and "##[" not in run.outputs["result"]
    fences = re.findall(r"^(`{3,})text$", run.summary, re.MULTILINE)
    assert fences == ["`" * 11]
    assert f"\n{'`' * 11}text\n{expected_slice}\n{'`' * 11}\n" in run.summary


def test_messages_quoting_comment_text_are_escaped_in_the_annotation_and_summary(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    bad_spine = PLAN.replace("coverage: complete", "coverage: complete\nx: <b>|`a`|\n::error::y")
    fake_github.add_comment(PLAN_ID, bad_spine, 878)
    run = act(fake_github, tmp_path, **{**SPLIT_INPUTS, "slices-comment-id": ""})
    message = (
        "invalid frame-spine: line 22 of the plan comment: unknown or malformed top-level "
        "line: 'x: <b>|`a`|'"
    )
    assert run.outputs["status"] == "invalid-spine"
    assert run.outputs["message"] == message
    assert run.stdout.splitlines() == [
        fixed_line("invalid-spine", 1).rstrip("\n"),
        f"::error title=frame-spine lookup%3A invalid-spine::{message}",
    ]
    assert (
        "\n> invalid frame-spine: line 22 of the plan comment: unknown or malformed "
        "top-level line: 'x: &lt;b&gt;&#124;&#96;a&#96;&#124;'\n"
    ) in run.summary


def test_every_online_status_sets_every_output(fake_github: FakeGitHub, tmp_path: Path) -> None:
    # The case corpus covers each status; here one run per output name proves the file format.
    serve(fake_github)
    run = act(fake_github, tmp_path, **SPLIT_INPUTS)
    names = re.findall(
        r"^([a-z-]+)<<ghadelimiter_[0-9a-f-]{36}$", run.output_file_text, re.MULTILINE
    )
    assert names == list(OUTPUT_NAMES)
    delimiters = re.findall(r"<<(ghadelimiter_[0-9a-f-]{36})$", run.output_file_text, re.MULTILINE)
    assert len(set(delimiters)) == len(OUTPUT_NAMES)


def test_case_corpus_ok_bom_through_the_action(fake_github: FakeGitHub, tmp_path: Path) -> None:
    plan = (CASES_DIR / "ok-bom" / "plan.md").read_bytes().decode()
    sibling = (CASES_DIR / "ok-bom" / "sibling.md").read_bytes().decode()
    fake_github.add_comment(1, plan, 863)
    fake_github.add_comment(4995965999, sibling, 863)
    run = act(
        fake_github,
        tmp_path,
        **{
            "plan-comment-id": "1",
            "slices-comment-id": "auto",
            "issue-number": "863",
            "step-id": "s2",
            "generated-at": "current",
        },
    )
    assert (run.outputs["status"], run.outputs["generated-at"]) == ("ok", "2026-05-04T14:30:00Z")
    assert len(fake_github.requests) == 2


# ---- mode: validate ---------------------------------------------------------------------------

VALID_UNSORTED = (
    "<!-- plan-issue-878 -->\n<!-- frame-spine\nspine_schema_version: 2\n"
    "generated_at: 2026-07-18T22:20:00Z\ncoverage: complete\nports:\n  review: [s2]\n"
    "  code: [s1]\nslices:\n  s1:\n    ac_refs: [AC1]\n    depends_on: []\n    cycle: 1\n"
    "  s2:\n    ac_refs: [AC1]\n    depends_on: [s1]\n    cycle: 1\n-->\n"
    "<!-- frame-slice\nstep_id: s1\nprovides: [code]\n-->\n"
    "<!-- frame-slice\nstep_id: s2\nprovides: [review]\n-->\n"
)


def test_validate_mode_outputs_annotations_and_summary(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    run = act_process(fake_github, tmp_path, mode="validate", **{"plan-comment-id": str(PLAN_ID)})
    assert (run.returncode, run.stderr) == (1, "")
    result = json.loads(run.outputs["result"])
    assert (result["status"], result["errors"], result["warnings"]) == ("invalid", 8, 1)
    assert run.outputs == {
        **dict.fromkeys(OUTPUT_NAMES, ""),
        "status": "invalid",
        "exit-code": "1",
        "result": run.outputs["result"],
        "error-count": "8",
        "warning-count": "1",
        "steps": "[]",
        "waves": "[]",
        "ready": "[]",
    }
    lines = run.stdout.splitlines()
    assert lines[0] == "frame-spine validate: status invalid (8 errors, 1 warning, 0 notices)"
    assert lines[1] == (
        "::warning title=frame-spine validate%3A non-canonical-order::plan:26 port "
        "implement-code: ports are not in canonical (sorted) order: implement-code comes after "
        "implement-test (expected: ce-gate-cli, implement-code, implement-docs, implement-test, review)"
    )
    assert lines[2] == (
        "::error title=frame-spine validate%3A unresolved-step::plan:36 step s2: step s2 is in "
        "the spine but no frame-slice block carries it (ports routing to it: implement-test)"
    )
    assert len(lines) == 10
    assert run.summary.startswith(
        "### ❌ frame-spine validate: `invalid` (exit code 1): 8 errors, 1 warning\n"
    )
    assert "| Severity | Finding | Where |\n|:-:|:--|:--|\n" in run.summary
    assert (
        "| ❌ | **unresolved-step**: step s2 is in the spine but no frame-slice block carries "
        "it \\(ports routing to it: implement-test\\) | plan comment line 36, step s2 |"
    ) in run.summary
    assert (
        f"| Plan comment | [{PLAN_ID}](https://github.com/{REPO}/issues/878#issuecomment-{PLAN_ID}) |"
        in run.summary
    )


def test_validate_mode_discovers_the_plan_by_issue(fake_github: FakeGitHub, tmp_path: Path) -> None:
    serve(fake_github)
    run = act(fake_github, tmp_path, mode="validate", **{"issue-number": "878", "fail-on": "never"})
    assert (run.returncode, run.outputs["status"], run.outputs["error-count"]) == (
        0,
        "invalid",
        "8",
    )
    assert fake_github.paths() == [
        f"GET /repos/{REPO}/issues/878/comments",
        f"GET /repos/{REPO}/issues/comments/{SIBLING_ID}",
    ]


@pytest.mark.parametrize(("fail_on", "exit_code"), [("error", 0), ("not-ok", 1), ("never", 0)])
def test_validate_mode_fail_on_with_only_warnings(
    fake_github: FakeGitHub, tmp_path: Path, fail_on: str, exit_code: int
) -> None:
    fake_github.add_comment(PLAN_ID, VALID_UNSORTED, 878)
    run = act(
        fake_github,
        tmp_path,
        mode="validate",
        **{"plan-comment-id": str(PLAN_ID), "fail-on": fail_on},
    )
    assert (run.outputs["status"], run.outputs["error-count"], run.outputs["warning-count"]) == (
        "valid",
        "0",
        "1",
    )
    assert run.returncode == exit_code


def test_validate_mode_fetch_failure(fake_github: FakeGitHub, tmp_path: Path) -> None:
    run = act(fake_github, tmp_path, mode="validate", **{"plan-comment-id": "404"})
    assert run.returncode == 1
    assert (run.outputs["status"], run.outputs["exit-code"], run.outputs["error-count"]) == (
        "comment-not-found",
        "1",
        "0",
    )
    assert run.outputs["message"].startswith(f"plan comment 404 in {REPO} was not found (HTTP 404)")
    assert run.stdout.splitlines()[1].startswith(
        "::error title=frame-spine validate%3A comment-not-found::plan comment 404"
    )


def test_validate_mode_needs_a_plan_id_or_an_issue(fake_github: FakeGitHub, tmp_path: Path) -> None:
    run = act(fake_github, tmp_path, mode="validate")
    assert (run.returncode, run.outputs["status"]) == (1, "comment-id-missing")
    assert fake_github.requests == []


def test_modules_in_the_workspace_are_never_imported(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    """The runner starts the container in the checked-out workspace: a `pydantic.py` (or any
    module) there must not run inside the action, where the token is."""
    serve(fake_github)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    for name in ("pydantic.py", "github.py", "requests.py", "json.py"):
        (workspace / name).write_text(
            "import pathlib\npathlib.Path('/proc/self/cwd/PWNED').write_text('x')\n"
            "raise SystemExit(3)\n"
        )
    (workspace / "frame_spine").mkdir()
    (workspace / "frame_spine" / "__init__.py").write_text("raise SystemExit(4)\n")
    run = act_process(fake_github, tmp_path, **SPLIT_INPUTS)
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    assert not (workspace / "PWNED").exists()


def test_unwritable_outputs_or_summary_give_fixed_text(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    run = run_action(
        tmp_path,
        SPLIT_INPUTS,
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        extra_env={
            "GITHUB_OUTPUT": str(tmp_path / "gone" / "out"),
            "GITHUB_STEP_SUMMARY": str(tmp_path / "gone" / "sum"),
        },
    )
    assert (run.returncode, run.stderr) == (1, "")
    assert run.stdout == (
        "::error title=frame-spine::cannot write the step outputs to the GITHUB_OUTPUT file\n"
    )
    run = run_action(
        tmp_path / "b",
        SPLIT_INPUTS,
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"GITHUB_STEP_SUMMARY": str(tmp_path / "gone" / "sum")},
    )
    assert (run.returncode, run.stderr, run.outputs["status"]) == (0, "", "ok")
    assert run.stdout == (
        "::warning title=frame-spine::cannot write the job summary to the GITHUB_STEP_SUMMARY "
        "file\n" + fixed_line("ok", 0)
    )


def test_a_60000_character_step_id_is_cut_in_every_message(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    step = "s" + "1" * 60_000
    run = act(fake_github, tmp_path, **{**SPLIT_INPUTS, "step-id": step})
    shown = f"{step[:117]}..."
    assert run.outputs["status"] == "missing-slice"
    assert run.outputs["message"].startswith(f"step {shown} is not in the spine (its steps: ")
    assert json.loads(run.outputs["result"])["message"] == run.outputs["message"]
    assert len(run.outputs["result"]) < 61_000  # the step id once, as the result's step_id
    assert max(len(line) for line in run.stdout.splitlines()) < 1_000
    assert step not in run.summary and step not in run.stdout
