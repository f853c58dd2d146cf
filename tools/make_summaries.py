"""Write today's job summaries (lookup, validate, audit, render) to Markdown files, for
screenshots.

Development tool (``make screenshots``), not a test: each summary comes from a real run of the
action entrypoint, the way tests/test_action.py runs it (tests/runner_env.py ``run_action``
with the runner's environment), against the loopback fake of the GitHub REST API
(tests/fake_github.py) serving the bundled example (examples/plan-878.md as comment
5013464861 and examples/sibling-878.md as comment 5013460780, both on issue 878) and a
twelve-step plan (tests/modes/render/plans/plan-912.md as comment 5020000001 and
sibling-912.md as 5020000002, on issue 912) and the bundled complete plan
(examples/plan-valid.md as comment 5013470120 and examples/sibling-valid.md as 5013470121, on
issue 880).

Run from the repository root with the project's venv::

    PYTHONPATH=. .venv/bin/python tools/make_summaries.py [OUT_DIR]

``OUT_DIR`` defaults to ``docs/screenshots``. One ``<name>.md`` per summary is written (the
exact text the action appended to ``GITHUB_STEP_SUMMARY``), and one line per run is printed:
name, status, exit code, summary size in bytes.
"""

from __future__ import annotations

import logging
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pytest_httpserver import HTTPServer

from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.modes.audit.repo import populate
from tests.runner_env import run_action

ROOT = Path(__file__).resolve().parent.parent
PLAN = (ROOT / "examples" / "plan-878.md").read_text("utf-8")
SIBLING = (ROOT / "examples" / "sibling-878.md").read_text("utf-8")
PLAN_ID = 5013464861
SIBLING_ID = 5013460780
ISSUE = 878
STAMP = "2026-07-18T22:20:00Z"
PLANS_912 = ROOT / "tests" / "modes" / "render" / "plans"
PLAN_912_ID = 5020000001
SIBLING_912_ID = 5020000002
VALID_PLAN_ID = 5013470120
VALID_SIBLING_ID = 5013470121
#: A plan comment id that exists nowhere (one past the plan's: a real-looking id, not ``404``).
MISSING_ID = 5013464862
LOOKUP = {
    "plan-comment-id": str(PLAN_ID),
    "slices-comment-id": str(SIBLING_ID),
    "issue-number": str(ISSUE),
    "step-id": "s1",
    "generated-at": STAMP,
}


def serve_example(fake: FakeGitHub) -> None:
    """Serve the bundled example plan and sibling on issue 878 (and list the issue)."""
    fake.add_issue(ISSUE)
    fake.add_comment(PLAN_ID, PLAN, ISSUE)
    fake.add_comment(SIBLING_ID, SIBLING, ISSUE)


def serve_912(fake: FakeGitHub) -> None:
    """Serve the twelve-step plan and its sibling on issue 912."""
    fake.add_issue(912)
    fake.add_comment(PLAN_912_ID, (PLANS_912 / "plan-912.md").read_text("utf-8"), 912)
    fake.add_comment(SIBLING_912_ID, (PLANS_912 / "sibling-912.md").read_text("utf-8"), 912)


def serve_valid(fake: FakeGitHub) -> None:
    """Serve the bundled complete plan and its sibling on issue 880."""
    fake.add_issue(880)
    fake.add_comment(VALID_PLAN_ID, (ROOT / "examples" / "plan-valid.md").read_text("utf-8"), 880)
    fake.add_comment(
        VALID_SIBLING_ID, (ROOT / "examples" / "sibling-valid.md").read_text("utf-8"), 880
    )


def serve_audit_repository(fake: FakeGitHub) -> None:
    """A small generated repository (every audit state at least twice) plus issue 878."""
    populate(fake, total_comments=60, issues=36)
    serve_example(fake)


@dataclass(frozen=True)
class Scenario:
    """One summary to produce: file name, what the fake serves, the action's inputs."""

    name: str
    serve: Callable[[FakeGitHub], None]
    inputs: dict[str, str]
    ports: tuple[str, ...] = ()  # files put in the workspace's frame/ports first


SCENARIOS = (
    Scenario("lookup-ok", serve_example, LOOKUP),
    Scenario(
        "lookup-stale-spine", serve_example, {**LOOKUP, "generated-at": "2026-07-18T21:00:00Z"}
    ),
    Scenario("lookup-missing-slice", serve_example, {**LOOKUP, "step-id": "s9"}),
    Scenario(
        "lookup-comment-not-found", serve_example, {**LOOKUP, "plan-comment-id": str(MISSING_ID)}
    ),
    Scenario(
        "validate-invalid", serve_example, {"mode": "validate", "plan-comment-id": str(PLAN_ID)}
    ),
    Scenario(
        "audit-findings",
        serve_audit_repository,
        {"mode": "audit", "issue-state": "all", "fail-on": "never"},
    ),
    Scenario(
        "render-878",
        serve_example,
        {"mode": "render", "issue-number": str(ISSUE)},
        ("implement-code.md", "implement-docs.md", "implement-test.md", "review.md"),
    ),
    Scenario(
        "render-912",
        serve_912,
        {"mode": "render", "plan-comment-id": str(PLAN_912_ID)},
        ("ce-gate-cli.md", "implement-code.md", "implement-docs.md", "implement-test.md"),
    ),
    Scenario("validate-valid", serve_valid, {"mode": "validate", "issue-number": "880"}),
    Scenario(
        "render-valid",
        serve_valid,
        {"mode": "render", "issue-number": "880"},
        ("ce-gate-cli.md", "implement-code.md", "implement-docs.md", "implement-test.md"),
    ),
    Scenario("validate-912", serve_912, {"mode": "validate", "plan-comment-id": str(PLAN_912_ID)}),
    Scenario(
        "lookup-912",
        serve_912,
        {
            "plan-comment-id": str(PLAN_912_ID),
            "slices-comment-id": str(SIBLING_912_ID),
            "issue-number": "912",
            "step-id": "s7",
            "generated-at": "2026-08-02T09:15:00Z",
        },
    ),
)


def run_scenario(scenario: Scenario, out_dir: Path) -> Path:
    """Run the entrypoint once against a fresh fake; write and return ``<name>.md``."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        fake = FakeGitHub(server)
        scenario.serve(fake)
        with tempfile.TemporaryDirectory(prefix="frame-spine-summary-") as scratch:
            ports = Path(scratch) / "workspace" / "frame" / "ports"
            for name in scenario.ports:
                ports.mkdir(parents=True, exist_ok=True)
                (ports / name).write_text("port\n", "utf-8")
            run = run_action(
                Path(scratch), scenario.inputs, api_url=fake.url, token=TOKEN, repository=REPO
            )
    finally:
        server.clear()
        if server.is_running():
            server.stop()
    if not run.summary:
        raise SystemExit(f"{scenario.name}: the action wrote no summary (stderr: {run.stderr!r})")
    if TOKEN in run.summary:
        raise SystemExit(f"{scenario.name}: the token reached the summary")
    path = out_dir / f"{scenario.name}.md"
    path.write_text(run.summary, "utf-8")
    print(
        f"{scenario.name}: status {run.outputs.get('status', '?')}, exit {run.returncode}, "
        f"summary {len(run.summary.encode())} bytes -> {path}"
    )
    return path


def main(argv: list[str]) -> int:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per fake API request
    out_dir = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "screenshots"
    out_dir.mkdir(parents=True, exist_ok=True)
    for scenario in SCENARIOS:
        run_scenario(scenario, out_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
