"""Benchmark the command line's start-up cost against the interpreter and a pydantic floor.

Run: ``.venv/bin/python benchmarks/bench_startup.py`` (from any directory).

Median wall time of, interleaved (so machine noise hits all three alike):

(a) ``python -c pass`` with the venv interpreter;
(b) the floor: a process that imports pydantic, defines one ``BaseModel`` with one ``int``
    field and validates one value (the CLI cannot start faster than its own dependency);
(c) one offline ``frame-spine lookup`` of the real issue-878 example (plan + sibling, json).

Targets (exit 1 when one fails): (c)/(b) <= 1.5 (a regression limit; issue 21's aim, 1.0, is
printed beside it, met or not); (c) exits 0 with status ``ok``; the offline lookup imports
neither ``github`` (PyGithub) nor ``actions_toolkit``.

The package's modules are byte-compiled first (``compileall``), as a wheel install and the
container image have them: an editable install under ``PYTHONDONTWRITEBYTECODE=1`` (set on
some machines, this one included) would otherwise compile every module on every start, and
(c) would time the compiler (about +25 %).

Also printed: what the code-region parser (SPEC 2.4: ``cmarkgfm`` and the ``ctypes`` it is
freed with) adds to the start-up, from ``-X importtime``. The 878 plan holds indented lines, so
its lookup loads the parser; a body that cannot hold code never does.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from targets import report_targets

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
PYTHON = VENV_BIN / "python"
CLI = VENV_BIN / "frame-spine"
EXAMPLES = ROOT / "examples"

RUNS = 21
WARMUP = 2
RATIO_LIMIT = 1.5
#: Issue 21's aim for (c)/(b), printed (met or not) but not a failure.
RATIO_AIM = 1.0
FORBIDDEN = ("github", "actions_toolkit")
PARSER = ("cmarkgfm", "ctypes", "_cffi_backend")

LOOKUP_ARGS = [
    "lookup",
    "--plan-body",
    str(EXAMPLES / "plan-878.md"),
    "--slices-body",
    str(EXAMPLES / "sibling-878.md"),
    "--issue-number",
    "878",
    "--generated-at",
    "2026-07-18T22:20:00Z",
    "--step-id",
    "s1",
    "--format",
    "json",
]
FLOOR = (
    "from pydantic import BaseModel\n"
    "class Model(BaseModel):\n"
    "    value: int\n"
    "Model.model_validate({'value': 1})\n"
)
# Runs the CLI's offline lookup in-process, then reports (on stderr, after the CLI's own
# stdout) which of the forbidden modules ended up in sys.modules.
IMPORT_PROBE = (
    "import json, sys\n"
    "from frame_spine.cli import main\n"
    "code = main(json.loads(sys.argv[1]))\n"
    "loaded = sorted(m for m in sys.modules if m.split('.')[0] in json.loads(sys.argv[2]))\n"
    "sys.stderr.write(json.dumps({'exit': code, 'loaded': loaded}) + '\\n')\n"
)

COMMANDS: dict[str, list[str]] = {
    "(a) python -c pass": [str(PYTHON), "-c", "pass"],
    "(b) floor: pydantic BaseModel": [str(PYTHON), "-c", FLOOR],
    "(c) frame-spine lookup (878 s1)": [str(CLI), *LOOKUP_ARGS],
}


def clean_env() -> dict[str, str]:
    """The environment without GitHub runner/token variables (as the test suite does)."""
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GITHUB_", "INPUT_", "GH_", "RUNNER_"))
    }


def run(
    command: list[str], env: dict[str, str]
) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    start = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, env=env, cwd=ROOT, check=False)
    return time.perf_counter() - start, completed


def check_lookup(completed: subprocess.CompletedProcess[bytes]) -> str | None:
    """Return a problem with the CLI run, or None when it exited 0 with status ok."""
    if completed.returncode != 0:
        return f"exit code {completed.returncode}; stderr: {completed.stderr.decode()[:500]!r}"
    try:
        status = json.loads(completed.stdout)["status"]
    except (ValueError, KeyError) as exc:
        return f"stdout is not a JSON result ({exc}): {completed.stdout[:300]!r}"
    if status != "ok":
        return f"status {status!r}, expected 'ok'"
    return None


def importtime_modules(
    env: dict[str, str],
) -> tuple[set[str], list[tuple[int, str]], dict[str, int]]:
    """Modules imported by the console script (``-X importtime``), the slowest ones
    (top-level packages and ``frame_spine`` modules, by cumulative import time), and the
    cumulative microseconds of the parser's modules (``PARSER``) when imported."""
    completed = subprocess.run(
        [str(PYTHON), "-X", "importtime", str(CLI), *LOOKUP_ARGS],
        capture_output=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    modules: set[str] = set()
    timings: list[tuple[int, str]] = []
    parser: dict[str, int] = {}
    for line in completed.stderr.decode().splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [part.strip() for part in line[len("import time:") :].split("|")]
        if len(parts) != 3 or not parts[1].isdigit():
            continue
        name = parts[2].strip()
        modules.add(name)
        if "." not in name or name.startswith("frame_spine."):
            timings.append((int(parts[1]), name))
        if name in PARSER:
            parser[name] = int(parts[1])
    timings.sort(reverse=True)
    return modules, timings[:8], parser


def compile_package() -> None:
    """Byte-compile ``src/`` (as an installed wheel is), so no timed run compiles a module."""
    subprocess.run([str(PYTHON), "-m", "compileall", "-q", str(ROOT / "src")], check=True, cwd=ROOT)


def main() -> int:
    env = clean_env()
    compile_package()
    failures: list[str] = []
    print(f"frame-spine start-up benchmark: {RUNS} interleaved runs each, {WARMUP} warm-up")
    print(f"repository: {ROOT}")
    print(f"interpreter: {PYTHON} ({sys.version.split()[0]} running this script)\n")

    for _ in range(WARMUP):
        for command in COMMANDS.values():
            run(command, env)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    problems: list[str] = []
    for _ in range(RUNS):
        for name, command in COMMANDS.items():
            elapsed, completed = run(command, env)
            times[name].append(elapsed)
            if name.startswith("(c)"):
                problem = check_lookup(completed)
                if problem is not None:
                    problems.append(problem)
            elif completed.returncode != 0:
                problems.append(f"{name} exited {completed.returncode}")

    medians = {name: statistics.median(values) for name, values in times.items()}
    header = f"{'command':34} {'median':>10} {'min':>10} {'max':>10}"
    print(header)
    print("-" * len(header))
    for name, values in times.items():
        print(
            f"{name:34} {medians[name] * 1e3:7.1f} ms {min(values) * 1e3:7.1f} ms "
            f"{max(values) * 1e3:7.1f} ms"
        )
    a, b, c = medians.values()
    ratio_cb = c / b
    verdict = "PASS" if ratio_cb <= RATIO_LIMIT else "FAIL"
    print()
    aim = "met" if ratio_cb <= RATIO_AIM else "not met"
    print(
        f"(c)/(b) = {ratio_cb:.2f}  (target <= {RATIO_LIMIT}): {verdict}; aim <= {RATIO_AIM}: {aim}"
    )
    print(f"(b)/(a) = {b / a:.2f}  (what importing pydantic costs over a bare interpreter)")
    print(f"(c)-(b) = {(c - b) * 1e3:.1f} ms  (the CLI's own cost above the floor)")
    if verdict == "FAIL":
        failures.append(f"(c)/(b) = {ratio_cb:.2f} > {RATIO_LIMIT}")
    if problems:
        failures.append(f"a run failed ({len(problems)}x): {problems[0]}")
        print(f"run problems: {problems[0]}")
    else:
        print(f"(c) exited 0 with status ok in all {RUNS} timed runs: PASS")

    print()
    probe = subprocess.run(
        [str(PYTHON), "-c", IMPORT_PROBE, json.dumps(LOOKUP_ARGS), json.dumps(FORBIDDEN)],
        capture_output=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    try:
        report = json.loads(probe.stderr.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        report = {"exit": None, "loaded": ["<probe failed: " + probe.stderr.decode()[:300] + ">"]}
    loaded = report["loaded"]
    verdict = "PASS" if not loaded and report["exit"] == 0 else "FAIL"
    print(
        f"in-process cli.main(lookup ...): exit {report['exit']}, sys.modules holds "
        f"{', '.join(loaded) if loaded else 'neither github nor actions_toolkit'}: {verdict}"
    )
    if verdict == "FAIL":
        failures.append(f"the offline lookup imports {loaded} (exit {report['exit']})")

    modules, slowest, parser = importtime_modules(env)
    imported = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)
    verdict = "PASS" if modules and not imported else "FAIL"
    print(
        f"-X importtime of the console script: {len(modules)} modules imported, "
        f"forbidden: {', '.join(imported) if imported else 'none'}: {verdict}"
    )
    if slowest:
        shown = ", ".join(f"{name} {micros / 1e3:.1f} ms" for micros, name in slowest)
        print(f"  slowest imports (cumulative): {shown}")
    if verdict == "FAIL":
        failures.append(f"-X importtime shows {imported or 'no modules (probe failed)'}")
    shown = ", ".join(f"{name} {parser[name] / 1e3:.1f} ms" for name in PARSER if name in parser)
    print(f"  code-region parser imports (cumulative): {shown or 'not imported'}")

    print()
    return report_targets(failures)


if __name__ == "__main__":
    sys.exit(main())
