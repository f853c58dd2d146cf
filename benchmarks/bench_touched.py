"""Who touched it (SPEC 6.1, revision 4): the round trips and requests of one online lookup of
the 878 plan, by whether its comments were edited, through `frame-spine lookup` against the
loopback fake of the GitHub API (every answer delayed by 100 ms, so requests sent together
arrive together).

Rows: the sibling's id given, with neither comment edited, the plan edited, both edited; and
``--slices-comment-id auto`` likewise. Targets (SPEC 6.1): with the sibling's id 1 round trip
unedited and 2 when edited; with ``auto`` 2 and 3; the GraphQL requests at most 1.

    .venv/bin/python benchmarks/bench_touched.py
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pytest_httpserver import HTTPServer  # noqa: E402
from targets import report_targets  # noqa: E402

from tests.fake_github import OWNER, REPO, TOKEN, FakeGitHub  # noqa: E402
from tests.modes.test_trust import PLAN_878, PLAN_ID, SIBLING_878, SIBLING_ID, STAMP  # noqa: E402

LATENCY = 0.1
CLI = Path(sys.executable).parent / "frame-spine"
CASES = {  # name: (sibling flag, plan edited, sibling edited, round trips expected)
    "id, neither edited": (str(SIBLING_ID), False, False, 1),
    "id, plan edited": (str(SIBLING_ID), True, False, 2),
    "id, both edited": (str(SIBLING_ID), True, True, 2),
    "auto, neither edited": ("auto", False, False, 2),
    "auto, plan edited": ("auto", True, False, 3),
    "auto, both edited": ("auto", True, True, 3),
}


def round_trips(arrivals: list[float]) -> int:
    """Requests that arrive within half the latency of a group's first are one round trip."""
    trips, first = 0, None
    for at in sorted(arrivals):
        if first is None or at - first > LATENCY / 2:
            trips, first = trips + 1, at
    return trips


def measure(sibling: str, plan_edited: bool, sibling_edited: bool) -> tuple[str, int, int, int]:
    """One lookup: its status, round trips, requests and GraphQL requests."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        fake = FakeGitHub(server, latency=LATENCY)
        for comment_id, body, edited in (
            (PLAN_ID, PLAN_878, plan_edited),
            (SIBLING_ID, SIBLING_878, sibling_edited),
        ):
            updated = "2026-07-18T23:00:00Z" if edited else STAMP
            edits = [(OWNER, updated)] if edited else None
            fake.add_comment(
                comment_id, body, 878, updated_at=updated, created_at=STAMP, edits=edits
            )
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
        env["GITHUB_TOKEN"] = TOKEN
        args = ["--repo", REPO, "--api-url", fake.url, "--plan-comment-id", str(PLAN_ID)]
        args += ["--slices-comment-id", sibling, "--issue-number", "878", "--step-id", "s1"]
        completed = subprocess.run(
            [str(CLI), "lookup", *args, "--generated-at", STAMP, "--format", "json"],
            capture_output=True,
            env=env,
            check=False,
        )
        status = json.loads(completed.stdout)["status"]
        arrivals = [request.at for request in fake.requests]
        graphql = sum(1 for request in fake.requests if request.path.endswith("/graphql"))
        return status, round_trips(arrivals), len(fake.requests), graphql
    finally:
        server.stop()


def main() -> int:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    failures = []
    print(f"an online lookup of the 878 plan, {LATENCY * 1000:.0f} ms per answer")
    print(f"{'case':<22} {'status':>7} {'round trips':>12} {'requests':>9} {'GraphQL':>8}")
    for name, (sibling, plan_edited, sibling_edited, expected) in CASES.items():
        status, trips, requests, graphql = measure(sibling, plan_edited, sibling_edited)
        print(f"{name:<22} {status:>7} {trips:>12} {requests:>9} {graphql:>8}")
        if status != "ok" or trips != expected or graphql > 1:
            failures.append(f"{name}: {status}, {trips} round trips (target {expected})")
    return report_targets(failures)


if __name__ == "__main__":
    sys.exit(main())
