"""Benchmark validate's dispatch matrix (SPEC 14): the twelve-step plan, a 5,000-step chain, a
10,000-step plan with lanes and every shape of SPEC 14's port lanes (revision 4); with
``--before REV``, the same plans through the code of an earlier revision too, in the same run.

Run: ``.venv/bin/python benchmarks/bench_dispatch.py [--before REV]`` (from any directory;
``REV`` is any git revision of this repository, e.g. ``33d7266^1``, main before port lanes
were merged: its ``src/`` is extracted with ``git archive`` into a temporary directory,
byte-compiled, and imported from there by a subprocess, so no copy of old code is kept
anywhere else).

The plans:

- **12 steps** on four ports, the shape of a mid-size change (one schema step, three readers
  after it, four writers each after one reader or two, two docs steps, one integration step
  and a terminal review), every slice in a sibling comment. Its implement-code port lists
  s1 ... s8, so with lanes those eight run one after another.
- **chain 5,000** (and **chain 10,000**, to show the growth): each step depends on the one
  before, one port lists them in that order: the commonest shape, lanes agreeing with
  ``depends_on`` (a cycle check per lane edge would make it quadratic).
- **lanes 10,000**: 10,000 steps over 20 ports; each step depends on one or two of the 30
  steps before it and is routed by one port, round robin, so that most of the lane agrees
  with ``depends_on``; every 50th pair of a port's neighbours is swapped (inserted steps,
  non-monotonic), which now and then puts a lane against ``depends_on`` (a
  ``lane-order-conflict`` each).
- **SPEC 14's shapes** (revision 4), each at 10,000 steps and comment-sized (the most steps
  whose plan comment, marker and spine, fits in GitHub's 65,536 characters; the slice blocks
  follow in the same body, as a sibling would hold them): a **chain** (as above);
  **reversed lanes** (the chain's ``depends_on``, one port listing the steps backwards: every
  lane edge dropped); **opposite chains** (no ``depends_on``; each hand-off from step n to
  step n+1 listed twice, by two ports of two tokens in opposite orders, the backward one
  sorted first); and 20 seeded **random** spines (each step depends on one or two of the 30
  steps before it; the shuffled steps cut into ports of two to five tokens).

Printed, per plan and per code (``after``: this checkout; ``before``: ``REV``): the median
in-process time of one validation (scan, rules, matrix: :func:`validate_scanned` and
:func:`with_dispatch`) with quartiles, the number of waves, the lane-order-conflict count;
the twelve-step plan's walk and waves; the median CLI wall time of ``frame-spine validate``
against ``frame-spine lookup`` of one step of the twelve-step plan (interleaved, so machine
noise hits both alike), and the median wall and CPU time of ``validate`` of the 10,000-step
plan with lanes; for each of SPEC 14's shapes, ``frame-spine validate --plan-body``'s best wall
time of 3 runs and that run's CPU time (the 20 random spines of a size in one line: the
slowest, and the medians).

Targets (exit 1 when one is missed): the twelve-step walk and waves below; ``validate`` of the
twelve-step plan within 1.5x of the lookup; ``frame-spine validate`` of the 10,000-step plan
with lanes under 1 s of CPU time (user and system, process start included: on a machine shared
with other work the wall time also counts the waiting; both are printed); chain 10,000 within
3x of chain 5,000 (linear is 2x, quadratic 4x); SPEC 14's: each shape valid, at 10,000 steps
within 1 s and comment-sized within 0.5 s (best wall time of 3).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from targets import report_targets  # noqa: E402

PYTHON = sys.executable
RUNS = 21
WARMUP = 2
ISSUE = 912
POINTER = 7000000913
STAMP = "2026-08-02T10:00:00Z"
RATIO_LIMIT = 1.5
CPU_LIMIT = 1.0  # seconds: frame-spine validate of the 10,000-step plan with lanes
GROWTH_LIMIT = 3.0  # chain 10,000 / chain 5,000
# SPEC 14 (revision 4): frame-spine validate --plan-body, best of SHAPE_RUNS wall times.
SHAPE_STEPS = 10_000
SHAPE_LIMIT = 1.0  # seconds, each shape at SHAPE_STEPS steps
COMMENT_LIMIT = 65_536  # characters: GitHub's cap on a comment
COMMENT_SHAPE_LIMIT = 0.5  # seconds, each shape comment-sized
SHAPE_RUNS = 3
RANDOM_SEEDS = range(1, 21)

# (step, depends_on, port)
STEPS = [
    ("s1", "", "implement-code"),
    ("s2", "s1", "implement-code"),
    ("s3", "s1", "implement-code"),
    ("s4", "s1", "implement-code"),
    ("s5", "s2", "implement-code"),
    ("s6", "s2, s3", "implement-code"),
    ("s7", "s3", "implement-code"),
    ("s8", "s4", "implement-code"),
    ("s9", "s1", "implement-docs"),
    ("s10", "s5, s6", "implement-docs"),
    ("s11", "s5, s6, s7, s8", "implement-test"),
    ("s12", "s9, s10, s11", "review"),
]
# With lanes: implement-code runs s1 ... s8 in order, implement-docs s9 then s10. (By
# depends_on alone the waves were [[s1], [s2, s3, s4, s9], [s5, s6, s7, s8], [s10, s11],
# [s12]].)
WALK = [
    ("s1", 1),
    ("s2", 2),
    ("s3", 3),
    ("s4", 4),
    ("s5", 5),
    ("s6", 6),
    ("s7", 7),
    ("s8", 8),
    ("s9", 2),
    ("s10", 7),
    ("s11", 9),
    ("s12", 10),
]
WAVES = [
    ["s1"],
    ["s2", "s9"],
    ["s3"],
    ["s4"],
    ["s5"],
    ["s6"],
    ["s7", "s10"],
    ["s8"],
    ["s11"],
    ["s12"],
]

# The worker: one plan, one code base (the PYTHONPATH it is started with); prints one JSON
# line. Only functions that every revision with a dispatch matrix has.
WORKER = """
import json, statistics, sys, time
from frame_spine.core.plan import scan_bodies
from frame_spine.core.spine import parse_spine
try:  # validate's rules live in frame_spine.validation since cd3c5d6
    from frame_spine.validation.dispatch import DispatchIds
    from frame_spine.validation.models import with_dispatch
    from frame_spine.validation.rules import validate_scanned
except ImportError:  # before: in the mode (e.g. 33d7266^1, main before port lanes)
    from frame_spine.modes.validate.dispatch import DispatchIds, with_dispatch
    from frame_spine.modes.validate.rules import validate_scanned

plan_file, sibling_file, issue, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
plan = open(plan_file, encoding="utf-8").read()
sibling = open(sibling_file, encoding="utf-8").read() if sibling_file != "-" else None
times, cpu = [], []
forget = getattr(parse_spine, "cache_clear", lambda: None)  # each run from nothing
for _ in range(runs):
    forget()
    start, start_cpu = time.perf_counter(), time.process_time()
    comments = scan_bodies(plan, sibling)
    result = validate_scanned(comments, issue_number=issue)
    dispatch = with_dispatch(result, comments, DispatchIds(issue)).dispatch
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
q1, median, q3 = statistics.quantiles(times, n=4) if runs > 1 else (times[0],) * 3
print(json.dumps({
    "median": median, "q1": q1, "q3": q3, "cpu": statistics.median(cpu),
    "status": result.status, "errors": result.errors,
    "conflicts": sum(f.code == "lane-order-conflict" for f in result.findings),
    "steps": len(dispatch.steps), "waves": [list(w) for w in dispatch.waves],
}))
"""


def twelve_step_bodies() -> tuple[str, str]:
    """The 12-step plan and its sibling."""
    ports: dict[str, list[str]] = {}
    for step, _depends, port in STEPS:
        ports.setdefault(port, []).append(step + ("#terminal" if port == "review" else ""))
    spine = [
        "<!-- frame-spine",
        "spine_schema_version: 2",
        f"generated_at: {STAMP}",
        "coverage: complete",
        f"slice_comment_id: {POINTER}",
        "ports:",
        *(f"  {port}: [{', '.join(tokens)}]" for port, tokens in sorted(ports.items())),
        "slices:",
    ]
    for step, depends, port in STEPS:
        spine += [f"  {step}:", "    ac_refs: [AC1]", f"    depends_on: [{depends}]"]
        spine += ["    cycle: 1", *(["    terminal: true"] if port == "review" else [])]
    plan = "\n".join([f"<!-- plan-issue-{ISSUE} -->", "", "# Plan", "", *spine, "-->", ""])
    sibling = [f"<!-- frame-slices-{ISSUE} -->", f"<!-- frame-slices-generated-at: {STAMP} -->"]
    for step, depends, port in STEPS:
        sibling += ["", "<!-- frame-slice", f"step_id: {step}", f"provides: [{port}]"]
        sibling += [f"depends-on: [{depends}]", "requirement-contract: |", f"  Do {step}.", "-->"]
    return plan, "\n".join(sibling) + "\n"


def generated_plan(depends: list[list[int]], lanes: dict[str, list[int]]) -> str:
    """One body (plan and slices together) of steps s1..sN: ``depends[i]`` are step i+1's
    ``depends_on`` (1-based step numbers), ``lanes`` each port's steps in list order; each
    slice provides the ports that list its step."""
    ports_of: dict[int, list[str]] = {}
    for port, steps in lanes.items():
        for step in dict.fromkeys(steps):
            ports_of.setdefault(step, []).append(port)
    lines = [
        f"<!-- plan-issue-{ISSUE} -->",
        "",
        "<!-- frame-spine",
        "spine_schema_version: 2",
        f"generated_at: {STAMP}",
        "coverage: complete",
        "ports:",
    ]
    lines += [f"  {port}: [{', '.join(f's{n}' for n in steps)}]" for port, steps in lanes.items()]
    lines.append("slices:")
    for number, items in enumerate(depends, 1):
        lines += [f"  s{number}:", "    ac_refs: [AC1]"]
        lines += [f"    depends_on: [{', '.join(f's{n}' for n in items)}]", "    cycle: 1"]
    lines.append("-->")
    for number in range(1, len(depends) + 1):
        provided = ", ".join(ports_of[number])
        lines += ["<!-- frame-slice", f"step_id: s{number}", f"provides: [{provided}]"]
        lines += [f"requirement-contract: do s{number}", "-->"]
    return "\n".join(lines) + "\n"


def chain_plan(count: int) -> str:
    """Each step depends on the one before; one port lists them in that order."""
    depends = [[number - 1] if number > 1 else [] for number in range(1, count + 1)]
    return generated_plan(depends, {"implement-code": list(range(1, count + 1))})


def lanes_plan(count: int = 10_000, ports: int = 20) -> str:
    """The 10,000-step plan with lanes (see the module's notes); the same every run."""
    rng = random.Random(14)
    depends = [
        sorted(rng.sample(range(max(1, number - 30), number), min(number - 1, rng.randint(1, 2))))
        for number in range(1, count + 1)
    ]
    lanes: dict[str, list[int]] = {f"port-{index:02}": [] for index in range(ports)}
    for number in range(1, count + 1):
        lanes[f"port-{(number - 1) % ports:02}"].append(number)
    for steps in lanes.values():
        for index in range(0, len(steps) - 1, 50):
            steps[index], steps[index + 1] = steps[index + 1], steps[index]
    return generated_plan(depends, lanes)


def reversed_plan(count: int) -> str:
    """Reversed lanes: each step depends on the one before; one port lists them backwards."""
    depends = [[number - 1] if number > 1 else [] for number in range(1, count + 1)]
    return generated_plan(depends, {"implement-code": list(range(count, 0, -1))})


def opposite_plan(count: int) -> str:
    """Two opposite chains: no ``depends_on``; every hand-off (step n to step n+1) listed twice,
    by two ports of two tokens in opposite orders (the port sorted first lists it backwards)."""
    width = len(str(count))
    lanes: dict[str, list[int]] = {}
    for number in range(1, count):
        lanes[f"h{number:0{width}}a"] = [number + 1, number]
        lanes[f"h{number:0{width}}b"] = [number, number + 1]
    return generated_plan([[] for _ in range(count)], lanes)


def random_plan(count: int, seed: int) -> str:
    """A seeded random spine: each step depends on one or two of the 30 steps before it; the
    steps, shuffled, are cut into ports of two to five tokens (so each port lists steps from
    anywhere in the spine, in random order)."""
    rng = random.Random(seed)
    depends = [
        sorted(rng.sample(range(max(1, number - 30), number), min(number - 1, rng.randint(1, 2))))
        for number in range(1, count + 1)
    ]
    steps = list(range(1, count + 1))
    rng.shuffle(steps)
    lanes: dict[str, list[int]] = {}
    while steps:
        size = rng.randint(2, 5)
        size += len(steps) - size == 1  # never a port of one token at the end
        lanes[f"port-{len(lanes):04}"] = steps[:size]
        del steps[:size]
    return generated_plan(depends, lanes)


def comment_sized(plan: Callable[[int], str]) -> str:
    """``plan`` of the most steps whose plan comment (its marker and spine, the body up to the
    spine's end; the slice blocks after it would be the sibling comment) fits in one GitHub
    comment (:data:`COMMENT_LIMIT` characters)."""
    low, high = 2, SHAPE_STEPS  # plan(low) fits, plan(high) does not

    def fits(count: int) -> bool:
        body = plan(count)
        return body.index("\n-->\n") + len("\n-->") <= COMMENT_LIMIT

    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return plan(low)


def shape_plans() -> list[tuple[str, str, float]]:
    """SPEC 14's shapes (revision 4): ``(name, body, limit in seconds)``, each at
    :data:`SHAPE_STEPS` steps and comment-sized; random spines are named ``random <seed>``."""
    shapes: list[tuple[str, Callable[[int], str]]] = [
        ("chain", chain_plan),
        ("reversed lanes", reversed_plan),
        ("opposite chains", opposite_plan),
    ]
    shapes += [(f"random {seed}", partial(random_plan, seed=seed)) for seed in RANDOM_SEEDS]
    plans = []
    for name, plan in shapes:
        plans.append((f"{name}, {SHAPE_STEPS:,} steps", plan(SHAPE_STEPS), SHAPE_LIMIT))
        body = comment_sized(plan)
        steps = body.count("<!-- frame-slice")
        plans.append((f"{name}, comment-sized ({steps:,} steps)", body, COMMENT_SHAPE_LIMIT))
    return plans


def shape_time(src: Path, plan_file: Path) -> tuple[float, float, str]:
    """``frame-spine validate --plan-body plan_file`` with the code under ``src``: the best wall
    time of :data:`SHAPE_RUNS`, the CPU time of that run, and a summary of its result."""
    args = ["validate", "--plan-body", str(plan_file), "--format", "json"]
    wall, cpu, stdout = min(cli_time(src, args) for _ in range(SHAPE_RUNS))
    result = json.loads(stdout)
    conflicts = sum(finding["code"] == "lane-order-conflict" for finding in result["findings"])
    return wall, cpu, f"{result['status']}, {conflicts:,} lane-order-conflicts"


def check_shapes(codes: dict[str, Path], folder: Path) -> list[str]:
    """Time every shape of :func:`shape_plans` with each code and print the figures (the 20
    random spines of a size in one line: the slowest, the median); the missed targets of
    ``after``."""
    print(
        f"SPEC 14 shapes: frame-spine validate --plan-body, best of {SHAPE_RUNS} wall times "
        f"(CPU of that run); limits {SHAPE_LIMIT} s at {SHAPE_STEPS:,} steps, "
        f"{COMMENT_SHAPE_LIMIT} s comment-sized"
    )
    plans = []
    for number, (name, body, limit) in enumerate(shape_plans()):
        plan_file = folder / f"shape-{number}.md"
        plan_file.write_text(body, "utf-8")
        plans.append((name, plan_file, limit))
    failures = []
    for code, src in codes.items():
        randoms: dict[str, list[tuple[float, float, str]]] = {}
        for name, plan_file, limit in plans:
            wall, cpu, summary = shape_time(src, plan_file)
            if code == "after" and (wall > limit or not summary.startswith("valid")):
                failures.append(f"{name}: {wall:.3f} s (limit {limit} s), {summary}")
            if name.startswith("random"):
                size = name.split(", ", 1)[1]
                size = size.split(" (")[0]  # comment-sized spines differ in steps by seed
                randoms.setdefault(size, []).append((wall, cpu, f"{name}: {summary}"))
            else:
                print(f"  {name:38} {code:6} {wall:6.3f} s (CPU {cpu:.3f} s), {summary}")
        for size, rows in randoms.items():
            wall, cpu, summary = max(rows)
            median, median_cpu = (statistics.median(row[n] for row in rows) for n in (0, 1))
            print(
                f"  {len(rows)} random spines, {size:17} {code:6} {wall:6.3f} s (CPU {cpu:.3f} s, "
                f"{summary}), median {median:.3f} s (CPU {median_cpu:.3f} s)"
            )
    return failures


def extract_src(revision: str, into: Path) -> Path:
    """``src/`` of ``revision`` (``git archive``) under ``into``; returns that ``src``."""
    into.mkdir(parents=True)
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    compiled(into / "src")
    return into / "src"


def compiled(src: Path) -> Path:
    """``src`` byte-compiled (``compileall``), so the CLI timings of either code never include
    compiling its modules (under ``PYTHONDONTWRITEBYTECODE=1`` no run would write them)."""
    subprocess.run(
        [PYTHON, "-m", "compileall", "-q", str(src)], check=True, stdout=subprocess.DEVNULL
    )
    return src


def measure(src: Path, plan: Path, sibling: Path | None, runs: int) -> dict[str, object]:
    """The worker's figures for ``plan`` with the code under ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [str(plan), str(sibling) if sibling else "-", str(ISSUE), str(runs)]
    completed = subprocess.run(
        [PYTHON, "-c", WORKER, *args], capture_output=True, text=True, env=env, check=True
    )
    figures: dict[str, object] = json.loads(completed.stdout)
    return figures


def cli_time(src: Path, args: list[str]) -> tuple[float, float, str]:
    """One ``frame-spine`` run with the code under ``src``: its wall time, its CPU time (user
    and system, process start included: what other load on the machine does not change), and
    its stdout."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [PYTHON, "-c", "from frame_spine.cli import main; main()", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, completed.stdout


def quartiles(values: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(values, n=4)
    return f"median {median * 1000:.0f} ms (quartiles {q1 * 1000:.0f}-{q3 * 1000:.0f})"


def shown(figures: dict[str, object]) -> str:
    waves = figures["waves"]
    assert isinstance(waves, list)
    median, q1, q3 = (float(str(figures[key])) * 1000 for key in ("median", "q1", "q3"))
    cpu = float(str(figures["cpu"])) * 1000
    return (
        f"{median:8.1f} ms ({q1:.1f}-{q3:.1f}), CPU {cpu:.1f} ms, {figures['status']}, "
        f"{len(waves):,} waves, {figures['conflicts']} lane-order-conflicts"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="REV", help="also measure this git revision's code")
    args = parser.parse_args()
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-dispatch-") as scratch:
        folder = Path(scratch)
        codes = {"after": compiled(ROOT / "src")}
        if args.before:
            codes = {"before": extract_src(args.before, folder / "before"), **codes}
        plan12, sibling12 = twelve_step_bodies()
        files: dict[str, tuple[Path, Path | None, int]] = {}
        for name, plan, sibling, runs in (
            ("12 steps", plan12, sibling12, 200),
            ("chain 5,000", chain_plan(5_000), None, 7),
            ("chain 10,000", chain_plan(10_000), None, 7),
            ("lanes 10,000", lanes_plan(), None, 7),
        ):
            plan_file = folder / f"{name.replace(' ', '-').replace(',', '')}.md"
            plan_file.write_text(plan, "utf-8")
            sibling_file = None
            if sibling is not None:
                sibling_file = plan_file.with_suffix(".sibling.md")
                sibling_file.write_text(sibling, "utf-8")
            files[name] = (plan_file, sibling_file, runs)
        print("one validation in process (scan, rules, matrix): median (quartiles)")
        results: dict[tuple[str, str], dict[str, object]] = {}
        for name, (plan_file, sibling_file, runs) in files.items():
            for code, src in codes.items():
                figures = measure(src, plan_file, sibling_file, runs)
                results[name, code] = figures
                print(f"  {name:13} {code:6} {shown(figures)}")
            if "before" in codes:
                ratio = float(str(results[name, "after"]["median"])) / float(
                    str(results[name, "before"]["median"])
                )
                print(f"  {name:13} after / before: {ratio:.2f}")
        growth = float(str(results["chain 10,000", "after"]["median"])) / float(
            str(results["chain 5,000", "after"]["median"])
        )
        print(f"chain 10,000 / chain 5,000 (after): {growth:.2f}")
        if growth > GROWTH_LIMIT:
            failures.append(f"chain 10,000 is {growth:.2f}x chain 5,000 (limit {GROWTH_LIMIT})")

        plan_file, sibling_file, _runs = files["12 steps"]
        assert sibling_file is not None
        common = ["--plan-body", str(plan_file), "--slices-body", str(sibling_file)]
        validate = ["validate", *common, "--completed-steps", "s1,s2", "--format", "json"]
        lookup = ["lookup", *common, "--issue-number", str(ISSUE), "--step-id", "s12"]
        lookup += ["--generated-at", STAMP, "--format", "json"]
        for code, src in codes.items():
            dispatch = json.loads(cli_time(src, validate)[2])["dispatch"]
            walk = [(entry["step-id"], entry["wave"]) for entry in dispatch["steps"]]
            print(f"12 steps, {code}: walk", ", ".join(f"{s} (wave {w})" for s, w in walk))
            print(f"12 steps, {code}: waves", json.dumps(dispatch["waves"]))
            print(
                f"12 steps, {code}: ready after s1,s2:",
                [entry["step-id"] for entry in dispatch["ready"]],
            )
        if walk != WALK or dispatch["waves"] != WAVES:
            failures.append("the twelve-step walk or waves differ from the expected ones")

        src = codes["after"]
        times: dict[str, list[float]] = {"validate": [], "lookup": []}
        for run in range(WARMUP + RUNS):
            for name, command in (("validate", validate), ("lookup", lookup)):
                elapsed = cli_time(src, command)[0]
                if run >= WARMUP:
                    times[name].append(elapsed)
        for name, values in times.items():
            print(f"frame-spine {name}, 12 steps (CLI wall time, {RUNS} runs): {quartiles(values)}")
        ratio = statistics.median(times["validate"]) / statistics.median(times["lookup"])
        print(f"validate / lookup: {ratio:.2f}")
        if ratio > RATIO_LIMIT:
            failures.append(f"validate is {ratio:.2f}x a lookup (limit {RATIO_LIMIT})")

        big = ["validate", "--plan-body", str(files["lanes 10,000"][0]), "--format", "json"]
        for code, src in codes.items():
            runs = [cli_time(src, big)[:2] for _ in range(7)]
            walls, cpus = [run[0] for run in runs], [run[1] for run in runs]
            print(
                f"frame-spine validate, lanes 10,000, {code} (CLI, 7 runs): wall "
                f"{quartiles(walls)}; CPU {quartiles(cpus)}"
            )
        if statistics.median(cpus) > CPU_LIMIT:
            failures.append(
                f"validate of the 10,000-step plan took {statistics.median(cpus):.2f} s of CPU "
                f"(limit {CPU_LIMIT} s)"
            )

        failures += check_shapes(codes, folder)
    return report_targets(failures)


if __name__ == "__main__":
    sys.exit(main())
