"""Output limits through the entrypoint (SPEC 8): no output value over 1,000,000 bytes, all
outputs of a step far under 50 MB, at most 10 annotations of each kind, and a notice saying
what was left out and where it is."""

from __future__ import annotations

import json
from pathlib import Path

from frame_spine.step.report import OUTPUT_LIMIT
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.runner_env import ActionRun, run_action
from tests.test_action import DIGEST, PLAN_ID, S1, SIBLING, SPLIT_INPUTS, STAMP, fixed_line, serve

PORTS, STEPS = 30, 298


def crowded_plan() -> str:
    """A valid-looking plan of at most 65,536 characters (GitHub's cap for a comment) with
    one finding per port and step: 30 ports route to every one of 298 steps, and no slice
    provides them (8,940 port-not-provided errors; the ports are not in canonical order)."""
    tokens = ", ".join(f"s{step}" for step in range(1, STEPS + 1))
    ports = "".join(f"  p{port}: [{tokens}]\n" for port in range(1, PORTS + 1))
    blocks = "".join(
        f"<!-- frame-slice\nstep_id: s{step}\nprovides: [x]\n-->\n" for step in range(1, STEPS + 1)
    )
    return (
        "<!-- plan-issue-878 -->\n<!-- frame-spine\nspine_schema_version: 2\n"
        f"generated_at: {STAMP}\ncoverage: complete\nports:\n{ports}slices:\n"
        "  s1:\n    ac_refs: [AC1]\n    depends_on: []\n    cycle: 1\n-->\n" + blocks
    )


def assert_within_limits(run: ActionRun) -> None:
    for name, value in run.outputs.items():
        assert len(value.encode("utf-8")) <= OUTPUT_LIMIT, name
    assert len(run.output_file_text.encode("utf-8")) < 3 * OUTPUT_LIMIT
    assert len(run.summary.encode("utf-8")) < 1024 * 1024


def test_validate_on_a_crowded_64_kb_plan_stays_within_the_limits(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    plan = crowded_plan()
    assert len(plan) <= 65_536
    fake_github.add_comment(PLAN_ID, plan, 878)
    run = run_action(
        tmp_path,
        {"mode": "validate", "plan-comment-id": str(PLAN_ID)},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    errors = PORTS * STEPS
    assert (run.returncode, run.stderr) == (1, "")
    assert json.loads(run.outputs["result"]) == {
        "status": "invalid",
        "errors": errors,
        "warnings": 1,
        "findings_omitted": errors + 1,
        "dispatch": {"steps": [], "waves": [], "ready": []},  # SPEC 14: invalid, nothing
    }
    assert (run.outputs["error-count"], run.outputs["warning-count"]) == (str(errors), "1")
    lines = run.stdout.splitlines()
    assert lines[0] == (
        f"frame-spine validate: status invalid ({errors:,} errors, 1 warning, 0 notices)"
    )
    assert [line.split("::")[1].split(" ")[0] for line in lines[1:]] == (
        ["warning"] + ["error"] * 10 + ["notice"]
    )
    assert lines[-1] == (
        "::notice title=frame-spine%3A annotations left out::8,930 more annotations not shown "
        "(8,930 errors): GitHub shows at most 10 of each kind per step; the job summary lists "
        "them as far as its size limit allows; there are too many for the `result` output; "
        "`frame-spine validate --format json` prints every finding"
    )
    assert run.summary.endswith(
        " more findings not shown here; `frame-spine validate --format json` prints all.\n"
    )
    assert_within_limits(run)


def test_validate_findings_that_fit_stay_in_the_result(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github)
    run = run_action(
        tmp_path,
        {"mode": "validate", "plan-comment-id": str(PLAN_ID), "job-summary": "false"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    result = json.loads(run.outputs["result"])
    assert (result["errors"], result["warnings"], len(result["findings"])) == (8, 1, 9)
    assert "findings_omitted" not in result
    assert len(run.stdout.splitlines()) == 1 + 9  # nothing left out: no notice


def big_slice_sibling(extra: str) -> str:
    return SIBLING.replace("step_id: s1\n", f"step_id: s1\nfiller: {extra}\n")


def test_a_slice_over_the_output_limit_is_in_slice_file_only(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github, big_slice_sibling("x" * OUTPUT_LIMIT))
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "slice-file": "out/s1.md"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    whole = S1.replace("step_id: s1\n", f"step_id: s1\nfiller: {'x' * OUTPUT_LIMIT}\n")
    size = len(whole.encode())
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    assert (run.outputs["slice"], run.outputs["slice-path"]) == ("", "out/s1.md")
    assert (run.workspace / "out" / "s1.md").read_text("utf-8") == whole
    assert json.loads(run.outputs["result"]) == {
        "status": "ok",
        "step_id": "s1",
        "generated_at": STAMP,
        "spine_digest": DIGEST,
        "current_generated_at": STAMP,
        "sibling_generated_at": STAMP,
        "slice_omitted": True,
    }
    assert run.stdout == fixed_line("ok", 0) + (
        "::notice title=frame-spine lookup%3A slice in slice-file only::the slice is "
        f"{size:,} bytes, over the 1,000,000-byte limit of a step output: the slice output "
        "is empty; the whole slice is in out/s1.md\n"
    )
    assert "The whole slice is in out/s1.md only.\n" in run.summary
    assert_within_limits(run)


def test_a_slice_over_the_output_limit_without_slice_file_is_an_error(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve(fake_github, big_slice_sibling("x" * OUTPUT_LIMIT))
    run = run_action(tmp_path, SPLIT_INPUTS, api_url=fake_github.url, token=TOKEN, repository=REPO)
    size = len(S1.encode()) + len("filler: \n") + OUTPUT_LIMIT
    message = (
        f"the slice of step s1 is {size:,} bytes, over the 1,000,000-byte limit of a step "
        "output: set slice-file to receive it as a file"
    )
    assert (run.returncode, run.outputs["status"], run.outputs["message"]) == (1, "error", message)
    assert run.outputs["slice"] == ""
    assert (run.outputs["generated-at"], run.outputs["spine-digest"]) == (STAMP, DIGEST)
    assert "The whole slice is in no output.\n" in run.summary
    assert_within_limits(run)


def test_a_slice_whose_json_is_over_the_limit_stays_in_the_slice_output(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    controls = "\x01" * 200_000  # 200,000 bytes as text, 1,200,000 escaped in JSON
    serve(fake_github, big_slice_sibling(controls))
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "job-summary": "false"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    assert run.outputs["slice"] == S1.replace("step_id: s1\n", f"step_id: s1\nfiller: {controls}\n")
    result = json.loads(run.outputs["result"])
    assert ("slice" in result, result["slice_omitted"]) == (False, True)
    assert run.stdout == fixed_line("ok", 0)
    assert_within_limits(run)
