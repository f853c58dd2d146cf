"""Audit benchmark (SPEC 11): wall time and peak memory of `frame-spine audit` on a generated
repository behind the loopback fake of the GitHub API.

The repository of the tests (1,000 issues, 10,000 comments, every kind of plan) is audited
with --state all; then the same plans with 2x and 4x the comments (more decoy comments) show
that peak memory does not grow with the number of comments, only with the plan and sibling
bodies kept. Each figure is the median of 3 runs of the installed CLI in a subprocess, peak
RSS from /usr/bin/time.

    .venv/bin/python benchmarks/bench_audit.py
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_httpserver import HTTPServer  # noqa: E402

from tests.fake_github import REPO, TOKEN, FakeGitHub  # noqa: E402
from tests.modes.audit.repo import populate  # noqa: E402

CLI = Path(sys.executable).parent / "frame-spine"
RUNS = 3
GROWTH_LIMIT = 1.15  # peak RSS at 4x the comments, relative to 1x


def run_once(url: str) -> tuple[float, int, dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    env["GITHUB_TOKEN"] = TOKEN
    with tempfile.NamedTemporaryFile("r", suffix=".time") as stats:
        completed = subprocess.run(
            [
                "/usr/bin/time",
                "-f",
                "%e %M",
                "-o",
                stats.name,
                str(CLI),
                "audit",
                "--repo",
                REPO,
                "--api-url",
                url,
                "--state",
                "all",
                "--format",
                "json",
            ],
            capture_output=True,
            env=env,
            check=False,
        )
        seconds, kilobytes = stats.read().split()[-2:]
    return float(seconds), int(kilobytes), json.loads(completed.stdout)


def main() -> int:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    print(f"frame-spine audit --state all, median of {RUNS} runs (wall time, peak RSS)")
    print(f"{'comments':>9} {'plans':>6} {'requests':>9} {'wall s':>7} {'peak MB':>8}")
    peaks = []
    for factor in (1, 2, 4):
        server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
        server.start()
        try:
            fake = FakeGitHub(server)
            expected = populate(fake, total_comments=10_000 * factor)
            runs = [run_once(fake.url) for _ in range(RUNS)]
        finally:
            server.stop()
        wall = statistics.median(r[0] for r in runs)
        peak = statistics.median(r[1] for r in runs) / 1024
        report = runs[0][2]
        plans = report["plans"]
        assert isinstance(plans, list) and len(plans) == len(expected.states)
        peaks.append(peak)
        print(
            f"{expected.comments:>9} {len(plans):>6} {report['requests']:>9} {wall:>7.2f} "
            f"{peak:>8.1f}"
        )
    growth = peaks[-1] / peaks[0]
    verdict = "PASS" if growth <= GROWTH_LIMIT else "FAIL"
    print(f"peak memory at 4x the comments / at 1x: {growth:.2f} (limit {GROWTH_LIMIT}): {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
