"""Benchmark the dispatch matrix of validate (SPEC 14) on a 12-step plan.

Run: ``.venv/bin/python benchmarks/bench_dispatch.py`` (from any directory).

The plan: 12 steps on four ports, the shape of a mid-size change (one schema step, three
readers after it, four writers each after one reader or two, two docs steps, one integration
step and a terminal review), with every slice in a sibling comment.

Printed: the walk order with waves, the waves, ``ready`` after ``--completed-steps s1,s2``;
the median wall time (and quartiles) of ``frame-spine validate --format json`` against
``frame-spine lookup`` of one step of the same plan (interleaved, so machine noise hits both
alike), and the in-process median of the matrix alone (:func:`with_dispatch` after
validation). Targets (exit 1 when one fails): the walk and waves below; the validate run
within 1.5x of the lookup run.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from frame_spine.core.plan import scan_bodies  # noqa: E402
from frame_spine.modes.validate.dispatch import DispatchIds, with_dispatch  # noqa: E402
from frame_spine.modes.validate.rules import validate_scanned  # noqa: E402

CLI = ROOT / ".venv" / "bin" / "frame-spine"
RUNS = 21
WARMUP = 2
ISSUE = 912
POINTER = 7000000913
STAMP = "2026-08-02T10:00:00Z"
RATIO_LIMIT = 1.5

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
WALK = [
    ("s1", 1),
    ("s2", 2),
    ("s3", 2),
    ("s4", 2),
    ("s5", 3),
    ("s6", 3),
    ("s7", 3),
    ("s8", 3),
    ("s9", 2),
    ("s10", 4),
    ("s11", 4),
    ("s12", 5),
]
WAVES = [["s1"], ["s2", "s3", "s4", "s9"], ["s5", "s6", "s7", "s8"], ["s10", "s11"], ["s12"]]


def bodies() -> tuple[str, str]:
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


def timed(args: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    completed = subprocess.run([str(CLI), *args], capture_output=True, check=False)
    return time.perf_counter() - start, completed.stdout


def quartiles(values: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(values, n=4)
    return f"median {median * 1000:.0f} ms (quartiles {q1 * 1000:.0f}-{q3 * 1000:.0f})"


def main() -> int:
    plan, sibling = bodies()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        plan_file, sibling_file = Path(folder, "plan.md"), Path(folder, "sibling.md")
        plan_file.write_text(plan)
        sibling_file.write_text(sibling)
        common = ["--plan-body", str(plan_file), "--slices-body", str(sibling_file)]
        validate = ["validate", *common, "--completed-steps", "s1,s2", "--format", "json"]
        lookup = ["lookup", *common, "--issue-number", str(ISSUE), "--step-id", "s12"]
        lookup += ["--generated-at", STAMP, "--format", "json"]
        result = json.loads(timed(validate)[1])
        dispatch = result["dispatch"]
        walk = [(entry["step-id"], entry["wave"]) for entry in dispatch["steps"]]
        print(f"status {result['status']}, {len(walk)} steps in {len(dispatch['waves'])} waves")
        print("walk:", ", ".join(f"{step} (wave {wave})" for step, wave in walk))
        print("waves:", json.dumps(dispatch["waves"]))
        print("ready after s1,s2:", [entry["step-id"] for entry in dispatch["ready"]])
        if walk != WALK or dispatch["waves"] != WAVES:
            failures.append("walk or waves differ from the expected ones")
        sizes = {name: len(json.dumps(dispatch[name], separators=(",", ":"))) for name in dispatch}
        print("output sizes (bytes):", sizes)
        times: dict[str, list[float]] = {"validate": [], "lookup": []}
        for run in range(WARMUP + RUNS):
            for name, args in (("validate", validate), ("lookup", lookup)):
                elapsed = timed(args)[0]
                if run >= WARMUP:
                    times[name].append(elapsed)
    for name, values in times.items():
        print(f"frame-spine {name} (CLI wall time, {RUNS} runs): {quartiles(values)}")
    ratio = statistics.median(times["validate"]) / statistics.median(times["lookup"])
    print(f"validate / lookup: {ratio:.2f}")
    if ratio > RATIO_LIMIT:
        failures.append(f"validate is {ratio:.2f}x a lookup (limit {RATIO_LIMIT})")
    comments = scan_bodies(plan, sibling)
    checked = validate_scanned(comments, issue_number=ISSUE)
    matrix_times = []
    for _ in range(200):
        start = time.perf_counter()
        with_dispatch(checked, comments, DispatchIds(ISSUE), ("s1", "s2"))
        matrix_times.append(time.perf_counter() - start)
    micros = statistics.median(matrix_times) * 1e6
    print(f"the matrix alone (in process, 200 runs): median {micros:.0f} µs")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
