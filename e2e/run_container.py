"""Run the built image the way GitHub's runner runs a Docker action, and check what it wrote.

usage: run_container.py IMAGE API_URL WORK_DIR [REQUESTS_LOG]

For each scenario: every input of action.yml as ``-e INPUT_<NAME>=...`` (hyphens kept), the
file-command files under a mounted ``/github/file_commands``, the workspace mounted at
``/github/workspace`` as the working directory, ``/github/home``, ``GITHUB_API_URL`` pointing
at the loopback fake (host networking). Checks the exit code, the outputs file (read with an
independent parser) and the job summary; the workspace belongs to the runner user
(uid/gid 1001, as on GitHub's runners) and what the container writes there must belong to
it too (SPEC 8). A refused comment's text (a drive-by's plan, a plan an untrusted bot
edited, a hidden plan) reaches no output, summary, log or file, and the result names why
(the author, the editor). With REQUESTS_LOG (the fake's log, e2e/fake_api.py STATE_DIR) each
scenario's requests are checked too. Then times five more runs of the ok scenario. Exit 0
only when every check passes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_github import REPO, TOKEN  # noqa: E402
from tests.runner_env import action_metadata, parse_output_file  # noqa: E402

PLAN_ID = "5013464861"
SIBLING_ID = "5013460780"
STAMP = "2026-07-18T22:20:00Z"
SLICE_START = "step_id: s1\ncommit-index: 1\nprovides: [implement-docs]\n"
RUNNER = (1001, 1001)  # the runner user's uid and gid, owner of the mounted workspace


@dataclass
class Scenario:
    name: str
    inputs: dict[str, str]
    exit_code: int
    status: str
    #: Keys the result must hold, with these values.
    result: dict[str, str] = field(default_factory=dict)
    #: Text of the refused comment that must reach no output, summary, log or file.
    withheld: str | None = None
    #: The requests the fake must see, in any order ("GET /path", "POST /graphql").
    requests: list[str] = field(default_factory=list)


def comment(comment_id: str) -> str:
    return f"GET /repos/{REPO}/issues/comments/{comment_id}"


SCENARIOS = [
    Scenario(
        "ok: real plan + sibling, slice-file",
        {
            "plan-comment-id": PLAN_ID,
            "slices-comment-id": SIBLING_ID,
            "issue-number": "878",
            "step-id": "s1",
            "generated-at": STAMP,
            "slice-file": "out/s1.md",
        },
        0,
        "ok",
        requests=[comment(PLAN_ID), comment(SIBLING_ID)],
    ),
    Scenario(
        "comment-not-found: unknown plan id",
        {"plan-comment-id": "999", "issue-number": "878", "step-id": "s1", "generated-at": STAMP},
        1,
        "comment-not-found",
        requests=[comment("999")],
    ),
    Scenario(
        "plan-identity-mismatch: a drive-by commenter's plan-like comment (SPEC 6.1)",
        {
            "plan-comment-id": "7000000999",
            "issue-number": "901",
            "step-id": "s1",
            "generated-at": "current",
            "slice-file": "out/s1.md",
        },
        1,
        "plan-identity-mismatch",
        {"author": "drive-by", "author_association": "NONE"},
        "DRIVE-BY-SLICE",
        [comment("7000000999"), f"GET /repos/{REPO}/collaborators/drive-by/permission"],
    ),
    Scenario(
        "plan-identity-mismatch: the owner's plan, edited by an untrusted bot (SPEC 6.1, rev. 4)",
        {
            "plan-comment-id": "7000000903",
            "issue-number": "903",
            "step-id": "s1",
            "generated-at": "2026-08-03T09:00:00Z",
            "slice-file": "out/s1.md",
        },
        1,
        "plan-identity-mismatch",
        {"editor": "ci-bot[bot]"},
        "CI-BOT-EDIT",
        [comment("7000000903"), "POST /graphql"],
    ),
    Scenario(
        "ok: a plan its planner bot wrote and edited, trusted-authors naming the bot",
        {
            "plan-comment-id": "7000000904",
            "issue-number": "904",
            "step-id": "s1",
            "generated-at": "2026-08-04T09:00:00Z",
            "trusted-authors": "OWNER,MEMBER,COLLABORATOR,write,@planner-app[bot]",
        },
        0,
        "ok",
        {"step_id": "s1"},
        requests=[comment("7000000904"), "POST /graphql"],
    ),
    Scenario(
        "plan-identity-mismatch: a plan hidden as outdated (SPEC 6.1, rev. 4)",
        {
            "plan-comment-id": "7000000905",
            "issue-number": "905",
            "step-id": "s1",
            "generated-at": "2026-08-05T09:00:00Z",
            "slice-file": "out/s1.md",
        },
        1,
        "plan-identity-mismatch",
        {"message": "comment 7000000905 is hidden as outdated: dispatch from the current plan"},
        "HIDDEN-PLAN-SLICE",
        [comment("7000000905")],
    ),
    Scenario(
        "stale-spine with fail-on not-ok",
        {
            "plan-comment-id": PLAN_ID,
            "slices-comment-id": "auto",
            "issue-number": "878",
            "step-id": "s1",
            "generated-at": "2026-07-18T21:00:00Z",
            "fail-on": "not-ok",
        },
        1,
        "stale-spine",
        requests=[comment(PLAN_ID), comment(SIBLING_ID)],
    ),
]


def podman_run(
    image: str, api_url: str, work: Path, inputs: dict[str, str]
) -> tuple[int, str, float]:
    """Run the container once; returns (exit code, stdout, wall seconds)."""
    for sub in ("workspace", "file_commands", "home"):
        folder = work / sub
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    os.chown(work / "workspace", *RUNNER)
    # Modules in the workspace must never be imported by the action (ENTRYPOINT runs -P).
    for name in ("pydantic.py", "github.py", "requests.py"):
        (work / "workspace" / name).write_text(
            "open('/github/workspace/PWNED', 'w').write('x')\nraise SystemExit(3)\n"
        )
    (work / "file_commands" / "set_output_1").write_text("")
    (work / "file_commands" / "step_summary_1").write_text("")
    resolved = {
        "${{ github.token }}": TOKEN,
        "${{ github.repository }}": REPO,
        "${{ github.api_url }}": api_url,
    }
    env: dict[str, str] = {}
    for name, spec in action_metadata()["inputs"].items():
        default = str(spec.get("default", ""))
        env[f"INPUT_{name.upper()}"] = inputs.get(name, resolved.get(default, default))
    env.update(
        {
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "HOME": "/github/home",
            "GITHUB_OUTPUT": "/github/file_commands/set_output_1",
            "GITHUB_STEP_SUMMARY": "/github/file_commands/step_summary_1",
            "GITHUB_WORKSPACE": "/github/workspace",
            "GITHUB_API_URL": api_url,
            "GITHUB_REPOSITORY": REPO,
            "RUNNER_TEMP": "/home/runner/work/_temp",
        }
    )
    command = ["podman", "run", "--rm", "--network", "host", "--workdir", "/github/workspace"]
    for mount in ("workspace", "file_commands", "home"):
        command += ["-v", f"{work / mount}:/github/{mount}"]
    for key, value in env.items():
        command += ["-e", f"{key}={value}"]
    command.append(image)
    started = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, check=False, timeout=300)
    elapsed = time.perf_counter() - started
    if completed.stderr:
        sys.stderr.write(completed.stderr.decode("utf-8", "replace"))
    return completed.returncode, completed.stdout.decode("utf-8", "replace"), elapsed


def check(scenario: Scenario, image: str, api_url: str, work: Path, log: Path | None) -> list[str]:
    if log is not None:
        log.write_text("")  # the fake appends one line per request
    code, stdout, _elapsed = podman_run(image, api_url, work, scenario.inputs)
    problems = []
    if log is not None:
        seen = sorted(log.read_text("utf-8").splitlines())
        if seen != sorted(scenario.requests):
            problems.append(f"requests {seen}, expected {sorted(scenario.requests)}")
    outputs = parse_output_file((work / "file_commands" / "set_output_1").read_text("utf-8"))
    summary = (work / "file_commands" / "step_summary_1").read_text("utf-8")
    expected_names = list(action_metadata()["outputs"])
    if code != scenario.exit_code:
        problems.append(f"exit code {code}, expected {scenario.exit_code}")
    if list(outputs) != expected_names:
        problems.append(f"outputs {list(outputs)}, expected {expected_names}")
    if outputs.get("status") != scenario.status:
        problems.append(f"status {outputs.get('status')!r}, expected {scenario.status!r}")
    result = json.loads(outputs.get("result", "{}"))
    if result.get("status") != scenario.status:
        problems.append(f"result {result!r}")
    # The heading: the status once, with its icon and its own exit code (markdown.headline).
    heading = rf"### \S+ frame-spine lookup: `{re.escape(scenario.status)}` \(exit code [01]\)\n"
    if not re.match(heading, summary):
        problems.append(f"summary starts {summary[:80]!r}")
    if not stdout.startswith(f"frame-spine lookup: status {scenario.status} "):
        problems.append(f"stdout {stdout!r}")
    if TOKEN in stdout + summary + json.dumps(outputs):
        problems.append("the token leaked")
    if (work / "workspace" / "PWNED").exists():
        problems.append("a module planted in the workspace was imported")
    for key, value in scenario.result.items():
        if result.get(key) != value:
            problems.append(f"result {key} is {result.get(key)!r}, expected {value!r}")
    if scenario.withheld is not None:
        if scenario.withheld in stdout + summary + json.dumps(outputs):
            problems.append("the refused comment's slice reached an output, the summary or the log")
        if (work / "workspace" / "out").exists():
            problems.append("slice-file was written for a refused plan")
    if scenario.status == "ok" and "slice-file" in scenario.inputs:
        slice_file = work / "workspace" / "out" / "s1.md"
        if not outputs["slice"].startswith(SLICE_START):
            problems.append(f"slice {outputs['slice'][:80]!r}")
        if (
            outputs["slice-path"] != "out/s1.md"
            or slice_file.read_text("utf-8") != outputs["slice"]
        ):
            problems.append("slice-file not written as the slice")
        if outputs["sibling-generated-at"] != STAMP:
            problems.append(f"sibling-generated-at {outputs['sibling-generated-at']!r}")
        for written in (slice_file.parent, slice_file):
            info = written.stat()
            if (info.st_uid, info.st_gid) != RUNNER:
                problems.append(
                    f"{written.name} is owned by {info.st_uid}:{info.st_gid}, not by the "
                    f"workspace's owner {RUNNER[0]}:{RUNNER[1]}"
                )
    return problems


def main(image: str, api_url: str, work_dir: str, requests_log: str | None = None) -> int:
    work = Path(work_dir)
    log = Path(requests_log) if requests_log else None
    failures = 0
    for scenario in SCENARIOS:
        problems = check(scenario, image, api_url, work, log)
        print(f"{'PASS' if not problems else 'FAIL'} container run: {scenario.name}")
        for problem in problems:
            print(f"     {problem}")
        failures += bool(problems)

    times = []
    for _ in range(5):
        code, _stdout, elapsed = podman_run(image, api_url, work, SCENARIOS[0].inputs)
        if code != 0:
            failures += 1
        times.append(elapsed)
    print(
        f"container start to outputs written (podman run, ok lookup, 2 GETs): median of 5 "
        f"{statistics.median(times) * 1000:.0f} ms (runs: "
        + ", ".join(f"{t * 1000:.0f}" for t in times)
        + " ms)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
