"""What a drive-by costs (SPEC 6.1, 11, revision 4): requests and memory an untrusted commenter
can make a run spend, through `frame-spine` against the loopback fake of the GitHub API.

Requests, per mode (validate and render by discovery of issue 901, audit of the repository),
for three crowds of plan-like comments by accounts no association trusts, beside one trusted
plan: 30 older than it by 30 accounts (target: no permission request), 30 newer by one account
(target: one), 25 newer by 25 accounts (target: at most 20, then an ``error`` that names the
remedy; audit: that issue ``undetermined``).

Memory: the peak RSS of an audit of 10,000 comments with no plans, 1,200 of them drive-by
comments of 60 KB, with and without a ``frame-slices-N`` marker line on each (target: the
markers add less than 10 MB: those bodies are never kept).

    .venv/bin/python benchmarks/bench_drive_by.py [--cli PATH]

``--cli`` runs another build's ``frame-spine`` (e.g. a checkout of an earlier revision
installed in its own venv), to compare before and after.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pytest_httpserver import HTTPServer  # noqa: E402
from targets import report_targets  # noqa: E402

from tests.fake_github import REPO, TOKEN, FakeGitHub, User  # noqa: E402
from tests.modes.test_trust import EVIL_PLAN, PLAN_901, PLAN_901_ID, SIBLING_901  # noqa: E402

CROWDS = {  # name: (comments, accounts, newer than the trusted plan)
    "30 older, 30 accounts": (30, 30, False),
    "30 newer, 1 account": (30, 1, True),
    "25 newer, 25 accounts": (25, 25, True),
}
MAX_PERMISSIONS = {"30 older, 30 accounts": 0, "30 newer, 1 account": 1}
MARKERS = 1_200
MARKER_BYTES = 60_000
MEMORY_COMMENTS = 10_000
MEMORY_LIMIT = 10_000_000  # bytes the marker comments may add to the peak
MB = 1_000_000


def serve(fake: FakeGitHub, crowd: tuple[int, int, bool]) -> None:
    """The trusted plan of issue 901, its sibling, and ``crowd``."""
    fake.add_comment(PLAN_901_ID, PLAN_901, 901, updated_at="2026-08-01T12:00:00Z")
    fake.add_comment(7000000902, SIBLING_901, 901)
    count, accounts, newer = crowd
    for index in range(count):
        stamp = f"2026-08-{'02' if newer else '01'}T0{index // 60 % 9}:{index % 60:02}:00Z"
        author = User(f"drive-by-{index % accounts}", "NONE", id=990100 + index % accounts)
        evil = EVIL_PLAN.format(issue=901)
        fake.add_comment(7100000000 + index, evil, 901, updated_at=stamp, author=author)


def run(cli: str, args: list[str], url: str) -> tuple[dict[str, object], int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    env["GITHUB_TOKEN"] = TOKEN
    completed = subprocess.run(
        [cli, *args, "--repo", REPO, "--api-url", url, "--format", "json"],
        capture_output=True,
        env=env,
        check=False,
    )
    return json.loads(completed.stdout), completed.returncode


def requests_table(cli: str) -> list[str]:
    """Print the requests of each crowd in each mode; the missed targets."""
    failures = []
    print("requests a drive-by crowd costs (permission requests / all requests; status)")
    print(f"{'crowd':<22} {'validate':>26} {'render':>26} {'audit':>30}")
    for name, crowd in CROWDS.items():
        cells = []
        for args in (
            ["validate", "--issue-number", "901"],
            ["render", "--issue-number", "901"],
            ["audit", "--state", "all"],
        ):
            server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
            server.start()
            try:
                fake = FakeGitHub(server)
                serve(fake, crowd)
                result, _ = run(cli, args, fake.url)
                asked = sum(1 for r in fake.requests if r.path.endswith("/permission"))
                total = len(fake.requests)
            finally:
                server.stop()
            status = str(result.get("status"))
            if args[0] == "audit" and isinstance(result.get("plans"), list):
                status += ": " + ",".join(str(p["state"]) for p in result["plans"])  # type: ignore[index]
            cells.append(f"{asked}/{total} {status}")
            limit = MAX_PERMISSIONS.get(name, 20)
            if asked > limit:
                failures.append(f"{name}, {args[0]}: {asked} permission requests (limit {limit})")
        print(f"{name:<22} {cells[0]:>26} {cells[1]:>26} {cells[2]:>30}")
    return failures


def audit_peak(cli: str, markers: int) -> int:
    """The peak RSS (bytes) of an audit of :data:`MEMORY_COMMENTS` comments: 1,200 drive-by
    comments of 60 KB (``markers`` of them with a ``frame-slices-N`` line), the rest
    chatter."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        fake = FakeGitHub(server)
        filler = "x" * (MARKER_BYTES - 40)
        drive_by = User("drive-by", "NONE", id=990001)
        for index in range(MEMORY_COMMENTS):
            issue = index % 500 + 1
            if index < MARKERS:
                head = f"<!-- frame-slices-{issue} -->" if index < markers else "no marker"
                fake.add_comment(10_000 + index, f"{head}\n{filler}", issue, author=drive_by)
            else:
                fake.add_comment(10_000 + index, f"chatter {index}", issue)
        with tempfile.NamedTemporaryFile("r", suffix=".time") as stats:
            env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
            env["GITHUB_TOKEN"] = TOKEN
            args = ["audit", "--repo", REPO, "--api-url", fake.url, "--state", "all"]
            subprocess.run(
                ["/usr/bin/time", "-f", "%M", "-o", stats.name, cli, *args, "--format", "json"],
                capture_output=True,
                env=env,
                check=False,
            )
            return int(stats.read().split()[-1]) * 1024
    finally:
        server.stop()


def memory_table(cli: str) -> list[str]:
    """Print the audit's peak with and without the marker comments; the missed targets."""
    without = audit_peak(cli, 0)
    with_markers = audit_peak(cli, MARKERS)
    added = with_markers - without
    print()
    print(
        f"audit of {MEMORY_COMMENTS:,} comments, {MARKERS:,} of them drive-by comments of "
        f"{MARKER_BYTES // 1000} KB; peak RSS (MB = 10^6 bytes): without marker lines "
        f"{without / MB:.1f}, with {with_markers / MB:.1f}, added {added / MB:.1f} (limit "
        f"{MEMORY_LIMIT / MB:.0f})"
    )
    return [f"the marker comments added {added / MB:.1f} MB"] if added > MEMORY_LIMIT else []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(Path(sys.executable).parent / "frame-spine"))
    cli = parser.parse_args().cli
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    return report_targets(requests_table(cli) + memory_table(cli))


if __name__ == "__main__":
    sys.exit(main())
