"""A run's token redaction (SPEC 6) ends with the run: the CLI and the action redact the values
their messages quote while they run, and leave nothing behind in the process, so a later run
(or a debug line written outside one) is never redacted with another run's tokens."""

from __future__ import annotations

from frame_spine import action
from frame_spine.core.shown import cut
from tests.conftest import clean_env
from tests.in_process import run_cli_in_process

SECRET = "ghp_" + "x" * 36


def test_the_action_redacts_while_it_runs_and_not_after() -> None:
    report = action.run_step({"mode": SECRET}, {"INPUT_TOKEN": SECRET})
    assert report.outputs["message"] == "mode '***' is not one of lookup, validate, audit, render"
    assert report.exit_code == 1
    assert cut(SECRET) == SECRET


def test_the_cli_redacts_while_it_runs_and_not_after() -> None:
    args = ["lookup", "--plan-body", f"missing-{SECRET}", "--generated-at", "current"]
    ran = run_cli_in_process([*args, "--step-id", "s1"], env={**clean_env(), "GH_TOKEN": SECRET})
    assert (ran.returncode, ran.stderr) == (1, b"")
    assert ran.stdout == (
        b"status: error\nmessage: cannot read --plan-body 'missing-***': No such file or "
        b"directory\n"
    )
    assert cut(SECRET) == SECRET
