"""Audit benchmark (SPEC 11): wall time and peak memory of `frame-spine audit` on a generated
repository behind the loopback fake of the GitHub API.

The repository of the tests (1,000 issues, 10,000 comments, every kind of plan) is audited
with --state all; then the same plans with 2x and 4x the comments (more decoy comments) show
that peak memory does not grow with the number of comments, only with the plan and sibling
bodies kept. Each figure is the median of 3 runs of the installed CLI in a subprocess, peak
RSS from /usr/bin/time.

Then the memory bound of SPEC 11 revision 3: 200,000 comments holding 20,000 small plans
(about 1.4 KB each, as many real plans are, each with a sibling of about 1.4 KB) or 6,000
larger ones (about 4 KB, siblings about 5 KB), half of them with a `—` (non-ASCII), the rest
decoy comments; against the same number of comments without plans. Peak RSS (``ru_maxrss``,
from /usr/bin/time) above the run without plans must be at most 3x the UTF-8 bytes of the
bodies the audit needs (each issue's plan and its sibling: over 50 MB in both shapes). One
run each, in a subprocess (benchmarks/audit_memory_probe.py), which also says where the
memory above the run without plans went: what the listing kept (bodies, their comments'
other fields, the indexes, the allocator's share), what classifying added (the report's
rows) and what writing the report added. MB here are 10^6 bytes; "non-ASCII" is the share of
the needed bytes in bodies that hold a non-ASCII character.

    .venv/bin/python benchmarks/bench_audit.py
"""

from __future__ import annotations

import json
import logging
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pytest_httpserver import HTTPServer  # noqa: E402
from targets import report_targets  # noqa: E402
from werkzeug import Request, Response  # noqa: E402

from tests.builders import entry, plan_marker, sibling_head, slice_block, spine_block  # noqa: E402
from tests.fake_github import REPO, TOKEN, FakeGitHub  # noqa: E402
from tests.modes.audit.repo import DECOYS, STAMP, populate  # noqa: E402

CLI = Path(sys.executable).parent / "frame-spine"
PROBE = Path(__file__).resolve().parent / "audit_memory_probe.py"
RUNS = 3
GROWTH_LIMIT = 1.15  # peak RSS at 4x the comments, relative to 1x
MEMORY_COMMENTS = 200_000
MEMORY_LIMIT = 3.0  # SPEC 11 rev 3: peak RSS above the run without plans / needed body bytes
MIN_NEEDED = 50_000_000  # SPEC 11 rev 3: measured with at least 50 MB of needed bodies
MB = 1_000_000
PROSE = "Prose about the plan, its reasons and its risks; what each step changes and why. "


@dataclass(frozen=True)
class Shape:
    """A repository of plans for the memory bound: ``plans`` issues, each with a plan of
    ``steps`` steps and ``prose`` sentences, and a sibling whose slices' ``rc`` repeats its
    phrase ``rc`` times."""

    name: str
    plans: int
    steps: int
    prose: int
    rc: int


SHAPES = (Shape("small", 20_000, 6, 10, 15), Shape("large", 6_000, 20, 30, 20))


class ListingFake(FakeGitHub):
    """The fake API, with the repository-wide listing sorted once (200,000 comments would be
    sorted again for each of its 2,000 pages)."""

    _sorted: tuple[int, list[dict[str, Any]]] = (-1, [])

    def _listing(self, request: Request, repo: str, match: re.Match[str]) -> Response:
        if match.group("issue") or request.args.get("since") is not None or repo != REPO:
            return super()._listing(request, repo, match)
        if self._sorted[0] != len(self.comments):
            items = sorted(self.comments.values(), key=lambda payload: payload["id"])
            self._sorted = (len(self.comments), items)
        return self._paged(request, self._sorted[1], repo, "issues/comments")


def plan_body(issue: int, sibling_id: int, shape: Shape, dash: bool) -> str:
    """A plan of ``shape``: marker, title (with a `—` when ``dash``), prose and a spine."""
    steps = [f"s{i}" for i in range(1, shape.steps + 1)]
    spine = spine_block(
        "coverage: complete",
        f"slice_comment_id: {sibling_id}",
        "ports:",
        f"  code: [{', '.join(steps[:-1])}]",
        f"  review: [{steps[-1]}]",
        "slices:",
        *(
            line
            for i, step in enumerate(steps)
            for line in entry(step, depends_on=f"[{steps[i - 1]}]" if i else "[]")
        ),
        generated_at=STAMP,
    )
    title = f"# Implementation Plan {'—' if dash else '-'} issue #{issue}"
    return f"{plan_marker(issue)}\n\n{title}\n\n{PROSE * shape.prose}\n\n" + "\n".join(spine)


def sibling_body(issue: int, shape: Shape, dash: bool) -> str:
    """The sibling of a plan of ``shape``: marker, stamp, one slice per step."""
    phrase = "do it " + ("—" if dash else "-") + " "
    blocks = [
        "\n".join(
            slice_block(
                f"s{i}",
                f"provides: [{'review' if i == shape.steps else 'code'}]",
                f"rc: {phrase * shape.rc}",
            )
        )
        for i in range(1, shape.steps + 1)
    ]
    return "\n".join(sibling_head(issue, STAMP)) + "\n\n" + "\n\n".join(blocks)


def populate_memory(fake: FakeGitHub, shape: Shape, with_plans: bool) -> tuple[int, int]:
    """Fill ``fake`` with :data:`MEMORY_COMMENTS` comments: ``shape``'s plans and siblings
    (when ``with_plans``), then decoys. Returns the UTF-8 bytes of the plan and sibling
    bodies, and of those that hold a non-ASCII character."""
    needed = non_ascii = 0
    next_id = 100_000
    count = 0
    if with_plans:
        for issue in range(1, shape.plans + 1):
            dash = issue % 2 == 0
            sibling_id, plan_id = next_id + 1, next_id + 2
            next_id += 2
            for comment_id, body in (
                (sibling_id, sibling_body(issue, shape, dash)),
                (plan_id, plan_body(issue, sibling_id, shape, dash)),
            ):
                fake.add_comment(comment_id, body, issue)
                size = len(body.encode())
                needed += size
                non_ascii += 0 if body.isascii() else size
            count += 2
    issues = max(shape.plans, 1_000)
    decoy = 0
    while count < MEMORY_COMMENTS:
        next_id += 1
        issue = decoy % issues + 1
        fake.add_comment(next_id, DECOYS[decoy % len(DECOYS)].format(n=issue, stamp=STAMP), issue)
        decoy += 1
        count += 1
    return needed, non_ascii


def audit_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    env["GITHUB_TOKEN"] = TOKEN
    return env


def probe_once(shape: Shape, with_plans: bool) -> tuple[dict[str, Any], int, int, float]:
    """One audit of a memory repository through the probe: its figures, the needed and
    non-ASCII body bytes, the wall time."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        fake = ListingFake(server)
        needed, non_ascii = populate_memory(fake, shape, with_plans)
        with (
            tempfile.NamedTemporaryFile("r", suffix=".json") as out,
            tempfile.NamedTemporaryFile("r", suffix=".time") as stats,
        ):
            started = time.monotonic()
            completed = subprocess.run(
                [
                    "/usr/bin/time",
                    "-f",
                    "%M",
                    "-o",
                    stats.name,
                    sys.executable,
                    str(PROBE),
                    out.name,
                    *audit_args(fake.url),
                ],
                capture_output=True,
                env=audit_env(),
                check=False,
            )
            wall = time.monotonic() - started
            figures = json.loads(out.read())
            figures["peak"] = int(stats.read().split()[-1]) * 1024
    finally:
        server.stop()
    report = json.loads(completed.stdout)
    rows = report.get("plans", [])
    expected = shape.plans if with_plans else 0
    counts = report.get("counts", {})
    assert len(rows) == expected and counts.get("fresh") == expected, completed.stderr[-2000:]
    return figures, needed, non_ascii, wall


def memory_bound() -> list[str]:
    """Measure and print SPEC 11 revision 3's memory bound for each shape; the missed
    targets."""
    failures = []
    print()
    print(
        f"audit memory, SPEC 11 rev 3 ({MEMORY_COMMENTS} comments, one run each; MB = 10^6 "
        f"bytes): peak RSS above the run without plans <= {MEMORY_LIMIT:g}x the needed bodies"
    )
    print(
        f"{'shape':>6} {'plans':>6} {'needed MB':>10} {'non-ASCII':>10} {'no plans MB':>12} "
        f"{'plans MB':>9} {'above MB':>9} {'ratio':>6} {'plans s':>8}"
    )
    wheres = []
    for shape in SHAPES:
        base, _, _, _ = probe_once(shape, with_plans=False)
        full, needed, non_ascii, wall = probe_once(shape, with_plans=True)
        above = full["peak"] - base["peak"]
        ratio = above / needed
        print(
            f"{shape.name:>6} {shape.plans:>6} {needed / MB:>10.1f} {non_ascii / needed:>10.0%} "
            f"{base['peak'] / MB:>12.1f} {full['peak'] / MB:>9.1f} {above / MB:>9.1f} "
            f"{ratio:>6.2f} {wall:>8.1f}"
        )
        if needed < MIN_NEEDED:
            failures.append(f"{shape.name}: needed bodies {needed / MB:.1f} MB < 50 MB")
        if ratio > MEMORY_LIMIT:
            failures.append(
                f"{shape.name}: peak RSS above the run without plans is {ratio:.2f}x the "
                f"needed bodies (limit {MEMORY_LIMIT:g}x)"
            )
        listed = full["listed"] - base["classified"]
        accounted = full["bodies"] + full["other"] + full["indexes"]
        classified = full["classified"] - full["listed"]
        indent = " " * (len(shape.name) + 2)
        wheres.append(
            f"{shape.name}: the listing read: {listed / MB:+.1f}: {full['kept']} kept bodies "
            f"{full['bodies'] / MB:.1f} (UTF-8), their comments' other fields and objects "
            f"{full['other'] / MB:.1f}, the collector's indexes {full['indexes'] / MB:.1f}, "
            f"allocator and transient {(listed - accounted) / MB:.1f}\n"
            f"{indent}classifying, one plan at a time (a plan's body let go once read): "
            f"{classified / MB:+.1f} (the report's {full['rows']} rows hold "
            f"{full['row_bytes'] / MB:.1f})\n"
            f"{indent}writing the JSON report: "
            f"{(full['peak'] - max(full['classified'], full['listed'])) / MB:+.1f} (to the peak)"
        )
    print("where the memory above the run without plans went (MB):")
    for where in wheres:
        print(textwrap.indent(where, "  "))
    return failures


def audit_args(url: str) -> list[str]:
    return ["audit", "--repo", REPO, "--api-url", url, "--state", "all", "--format", "json"]


def run_once(url: str) -> tuple[float, int, dict[str, object]]:
    with tempfile.NamedTemporaryFile("r", suffix=".time") as stats:
        completed = subprocess.run(
            [
                "/usr/bin/time",
                "-f",
                "%e %M",
                "-o",
                stats.name,
                str(CLI),
                *audit_args(url),
            ],
            capture_output=True,
            env=audit_env(),
            check=False,
        )
        seconds, kilobytes = stats.read().split()[-2:]
    return float(seconds), int(kilobytes), json.loads(completed.stdout)


def growth_table() -> list[str]:
    """Time and peak memory of the test repository at 1x, 2x and 4x the comments; the missed
    targets."""
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
    if growth > GROWTH_LIMIT:
        return [f"peak memory at 4x the comments is {growth:.2f}x that at 1x"]
    return []


def main() -> int:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    return report_targets(growth_table() + memory_bound())


if __name__ == "__main__":
    sys.exit(main())
