"""The bundled examples (examples/): the real 878 plan fails validation for the reason
examples/README.md gives, and the complete plan (plan-valid.md + sibling-valid.md) validates
with its dispatch matrix, as README.md and docs/ show it. The complete plan's validation runs
the installed command; the rest run ``main`` in this process (tests.in_process: the same argv
and bytes)."""

from __future__ import annotations

import json

from tests.conftest import REPO, run_cli
from tests.in_process import run_cli_in_process

EXAMPLES = REPO / "examples"
VALID = [
    "--plan-body",
    str(EXAMPLES / "plan-valid.md"),
    "--slices-body",
    str(EXAMPLES / "sibling-valid.md"),
]


def test_the_complete_example_plan_is_valid() -> None:
    ran = run_cli(["validate", *VALID])
    assert (ran.stdout, ran.returncode) == (b"valid: 0 errors, 0 warnings, 0 notices\n", 0)


def test_the_complete_example_plan_dispatches_nine_steps_in_six_waves() -> None:
    ran = run_cli_in_process(["validate", *VALID, "--format", "json"])
    result = json.loads(ran.stdout)
    assert (result["status"], result["errors"], result["warnings"], result["findings"]) == (
        "valid",
        0,
        0,
        [],
    )
    dispatch = result["dispatch"]
    assert dispatch["waves"] == [["s1", "s2"], ["s3", "s4"], ["s5"], ["s6", "s7"], ["s8"], ["s9"]]
    assert [entry["step-id"] for entry in dispatch["ready"]] == ["s1", "s2"]
    assert dispatch["steps"][0] == {
        "step-id": "s1",
        "issue-number": "880",
        "plan-comment-id": "",
        "slices-comment-id": "5013470121",
        "generated-at": "2026-07-20T09:30:00Z",
        "spine-digest": "sha256:eb4cca5847e1e94fc0be9249640c58956f60a399e444974ee2e4a2c14c5f63d8",
        "ports": ["implement-docs"],
        "depends-on": [],
        "wave": 1,
    }
    assert ran.returncode == 0


def test_every_step_of_the_complete_example_looks_up_ok() -> None:
    for step in range(1, 10):
        ran = run_cli_in_process(
            [
                "lookup",
                *VALID,
                "--issue-number",
                "880",
                "--generated-at",
                "2026-07-20T09:30:00Z",
                "--step-id",
                f"s{step}",
                "--format",
                "json",
            ]
        )
        assert (json.loads(ran.stdout)["status"], ran.returncode) == ("ok", 0), step


def test_the_real_878_example_is_invalid_for_its_eight_missing_slices() -> None:
    ran = run_cli_in_process(
        [
            "validate",
            "--plan-body",
            str(EXAMPLES / "plan-878.md"),
            "--slices-body",
            str(EXAMPLES / "sibling-878.md"),
        ]
    )
    lines = ran.stdout.decode("utf-8").splitlines()
    assert [line.split(" ")[1] for line in lines[:-1]] == ["non-canonical-order"] + [
        "unresolved-step"
    ] * 8
    assert (lines[-1], ran.returncode) == ("invalid: 8 errors, 1 warning, 0 notices", 1)
