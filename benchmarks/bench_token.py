"""Token benchmark (SPEC 9): what asking ``gh auth token`` costs a lookup, against a token
variable.

The installed CLI looks up step s1 of the example plan (plan and sibling, ``--slices-comment-id
auto``: two requests) behind the loopback fake of the GitHub API, in three ways, interleaved:

- ``GITHUB_TOKEN`` set, with a stand-in ``gh`` first on ``PATH`` that records every call and
  exits 97: it must never be called (checked after all runs);
- no token variable, the stand-in ``gh`` printing the token: ``gh auth token --hostname HOST``
  once per run (checked);
- no token variable, the real ``gh`` (when ``which gh`` finds one and it is logged in to the
  fake's host, which it normally is not: then this row is skipped).

Each figure is the median wall time of RUNS runs of the installed CLI in a subprocess, the two
ways alternating in order round by round; the ratio is gh-stand-in / variable, and the median of
the paired differences (one round's gh run minus its variable run) is printed too.

    .venv/bin/python benchmarks/bench_token.py
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_httpserver import HTTPServer  # noqa: E402

from tests.fake_github import TOKEN, FakeGitHub  # noqa: E402
from tests.stand_ins import StandInGh, write_gh  # noqa: E402

CLI = Path(sys.executable).parent / "frame-spine"
RUNS = 30
PLAN_ID, SIBLING_ID = 5013464861, 5013460780
REPO = "octo-org/plans"


def base_env(path: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    env["PATH"] = path
    return env


def lookup_seconds(url: str, env: dict[str, str]) -> float:
    """One lookup's wall time; fails unless it answers ``ok``."""
    argv = [str(CLI), "lookup", "--api-url", url, "--repo", REPO]
    argv += ["--plan-comment-id", str(PLAN_ID), "--slices-comment-id", "auto"]
    argv += ["--issue-number", "878", "--step-id", "s1"]
    argv += ["--generated-at", "2026-07-18T22:20:00Z", "--format", "json"]
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    status = json.loads(done.stdout)["status"]
    if status != "ok":
        raise SystemExit(f"lookup answered {status}: {done.stdout!r}")
    return elapsed


def gh_alone_seconds(gh: StandInGh, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([str(gh.folder / "gh"), "auth", "token"], env=env, capture_output=True)
    return time.perf_counter() - started


def in_process_ms(printing: StandInGh) -> tuple[float, float]:
    """Medians (ms) of finding the token inside the process: from the variables, and from
    ``gh auth token`` (the stand-in): the part of a lookup that differs between the two."""
    from frame_spine.github.auth import token_from_environment
    from frame_spine.programs import gh_auth_token

    environ = base_env(printing.path())
    variable, gh = [], []
    for _ in range(RUNS):
        started = time.perf_counter()
        token_from_environment({**environ, "GITHUB_TOKEN": TOKEN}, "https://api.github.com")
        variable.append(time.perf_counter() - started)
        started = time.perf_counter()
        if not isinstance(gh_auth_token("github.com", environ), str):
            raise SystemExit("the stand-in gh printed no token")
        gh.append(time.perf_counter() - started)
    return statistics.median(variable) * 1000, statistics.median(gh) * 1000


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    fake = FakeGitHub(server)
    fake.add_comment(PLAN_ID, (ROOT / "examples/plan-878.md").read_text("utf-8"), 878, REPO)
    fake.add_comment(SIBLING_ID, (ROOT / "examples/sibling-878.md").read_text("utf-8"), 878, REPO)
    with tempfile.TemporaryDirectory() as scratch:
        loud = write_gh(Path(scratch, "loud"), exit_code=97)
        printing = write_gh(Path(scratch, "printing"), prints=TOKEN + "\n")
        with_variable = {**base_env(loud.path()), "GITHUB_TOKEN": TOKEN}
        through_gh = base_env(printing.path())
        times: dict[str, list[float]] = {"variable": [], "gh": [], "gh-alone": []}
        lookup_seconds(fake.url, with_variable)  # warm the page cache once
        envs = {"variable": with_variable, "gh": through_gh}
        for round_ in range(RUNS):
            # Alternate the order: on a shared machine the second of two runs is not the same
            # as the first (measured: a fixed order alone made a 50 ms difference).
            for name in ("variable", "gh") if round_ % 2 == 0 else ("gh", "variable"):
                times[name].append(lookup_seconds(fake.url, envs[name]))
            times["gh-alone"].append(gh_alone_seconds(printing, through_gh))
        loud_calls, printing_calls = loud.calls(), printing.calls()
        inside = in_process_ms(printing)
        host = "127.0.0.1"
        expected = [f"auth token --hostname {host}"] * RUNS
        if loud_calls:
            raise SystemExit(f"gh was run although GITHUB_TOKEN was set: {loud_calls}")
        lookups = [call for call in printing_calls if call.startswith("auth token --hostname")]
        if lookups[:RUNS] != expected:
            raise SystemExit(f"unexpected gh calls: {printing_calls[:3]}")
    median = {name: statistics.median(values) * 1000 for name, values in times.items()}
    paired = statistics.median(g - v for g, v in zip(times["gh"], times["variable"], strict=True))
    print(f"lookup, {RUNS} runs each, medians (ms), plan + sibling (auto), loopback fake:")
    print(
        f"  GITHUB_TOKEN set (stand-in gh on PATH, calls: {len(loud_calls)}): "
        f"{median['variable']:.1f}"
    )
    print(f"  no variable, gh auth token (stand-in gh, calls: {RUNS}): {median['gh']:.1f}")
    print(f"  the stand-in gh alone (sh script): {median['gh-alone']:.1f}")
    print(f"  median of the paired differences (gh - variable): {paired * 1000:+.1f}")
    print(
        f"  ratio gh / variable: {median['gh'] / median['variable']:.3f} "
        f"({median['gh'] - median['variable']:+.1f} ms)"
    )
    print(
        f"  inside the process, finding the token: variable {inside[0]:.3f}, "
        f"gh auth token {inside[1]:.2f}"
    )
    real = shutil.which("gh")
    print(f"  real gh: {'found at ' + real if real else 'not installed (which gh: nothing)'}")
    server.stop()


if __name__ == "__main__":
    main()
