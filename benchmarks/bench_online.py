"""Online lookup latency against the loopback fake of the GitHub API with 200 ms injected.

Prints the median wall time of an online lookup without a sibling (1 GET) and with one
(2 concurrent GETs), in-process (library) and through the installed CLI, with the request
counts the server recorded. Target: with a sibling < 1.3x the single-comment time.

    .venv/bin/python benchmarks/bench_online.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logging  # noqa: E402

from pytest_httpserver import HTTPServer  # noqa: E402

from frame_spine.modes.lookup.models import parse_online_inputs  # noqa: E402
from frame_spine.modes.lookup.online import lookup_online  # noqa: E402
from tests.fake_github import REPO, TOKEN, FakeGitHub  # noqa: E402

LATENCY = 0.2
RUNS = 9
PLAN_ID, SIBLING_ID = 5013464001, 5013460780
SINGLE_ID = 7001  # a legacy plan: spine and slices in one comment
STAMP = "2026-07-18T22:20:00Z"
SINGLE_STAMP = "2026-05-04T14:30:00Z"


def dispatch(sibling: str) -> dict[str, str]:
    """The dispatch inputs: the single-comment plan when there is no sibling, else #878."""
    if not sibling:
        return {"plan": str(SINGLE_ID), "issue": "863", "step": "s2", "at": SINGLE_STAMP}
    return {"plan": str(PLAN_ID), "issue": "878", "step": "s1", "at": STAMP}


CLI = Path(sys.executable).parent / "frame-spine"


def library_once(fake: FakeGitHub, sibling: str) -> tuple[float, str]:
    d = dispatch(sibling)
    validated = parse_online_inputs(
        {
            "repository": REPO,
            "plan-comment-id": d["plan"],
            "slices-comment-id": sibling,
            "api-url": fake.url,
            "step-id": d["step"],
            "generated-at": d["at"],
            "issue-number": d["issue"],
        }
    )
    assert not hasattr(validated, "status")
    target, request = validated  # type: ignore[misc]
    started = time.perf_counter()
    outcome = lookup_online(target, request, target.fetcher(TOKEN))
    return time.perf_counter() - started, outcome.result.status.value


def cli_once(fake: FakeGitHub, sibling: str) -> tuple[float, str]:
    d = dispatch(sibling)
    args = [str(CLI), "lookup", "--repo", REPO, "--api-url", fake.url]
    args += ["--plan-comment-id", d["plan"], "--issue-number", d["issue"]]
    args += ["--generated-at", d["at"], "--step-id", d["step"], "--format", "json"]
    if sibling:
        args += ["--slices-comment-id", sibling]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    env["GITHUB_TOKEN"] = TOKEN
    started = time.perf_counter()
    completed = subprocess.run(args, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    return elapsed, completed.stdout.decode().split('"status":"', 1)[1].split('"', 1)[0]


def measure(fake: FakeGitHub, runner, sibling: str) -> tuple[float, float]:
    times = []
    fake.requests.clear()
    for _ in range(RUNS):
        elapsed, status = runner(fake, sibling)
        assert status == "ok", status
        times.append(elapsed)
    return statistics.median(times), len(fake.requests) / RUNS


def main() -> int:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    failed = False
    try:
        fake = FakeGitHub(server, latency=LATENCY)
        fake.add_comment(PLAN_ID, (ROOT / "examples/plan-878.md").read_text("utf-8"), 878)
        fake.add_comment(SIBLING_ID, (ROOT / "examples/sibling-878.md").read_text("utf-8"), 878)
        single = ROOT / "tests/conformance/cases/ok-single-comment/plan.md"
        fake.add_comment(SINGLE_ID, single.read_text("utf-8"), 863)
        print(f"online lookup, {LATENCY * 1000:.0f} ms server latency, median of {RUNS} runs")
        print(f"{'path':<10} {'sibling':<10} {'median ms':>10} {'GETs/run':>9} {'ratio':>7}")
        for name, runner in (("library", library_once), ("cli", cli_once)):
            single, single_gets = measure(fake, runner, "")
            split, split_gets = measure(fake, runner, str(SIBLING_ID))
            auto, auto_gets = measure(fake, runner, "auto")
            ratio = split / single
            verdict = "PASS" if ratio < 1.3 else "FAIL"
            failed |= ratio >= 1.3
            print(f"{name:<10} {'none':<10} {single * 1000:>10.1f} {single_gets:>9.1f}")
            print(
                f"{name:<10} {'by id':<10} {split * 1000:>10.1f} {split_gets:>9.1f} "
                f"{ratio:>6.2f}x {verdict} (target < 1.3x)"
            )
            print(
                f"{name:<10} {'auto':<10} {auto * 1000:>10.1f} {auto_gets:>9.1f} "
                f"{auto / single:>6.2f}x (sequential by design)"
            )
    finally:
        server.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
