"""Benchmark the code-region pass (SPEC 2.4) alone, on bodies that stress a Markdown parser.

Run: ``.venv/bin/python benchmarks/bench_regions.py [--size-mib 2] [--markdown-it]``.

For each shape, the median time of ``code_lines`` (cmarkgfm: parse, render HTML with source
positions, read the code blocks) at n and 2n bytes, interleaved, and the ratio
time(2n)/time(n) (linear: about 2). With ``--markdown-it`` (and ``markdown-it-py``
installed; it is not a dependency) the same pass written with markdown-it-py's token map is
measured beside it, as the comparison that chose the library. Import costs (``-X importtime``,
median of several fresh interpreters) are printed first.

Before the shapes, the realistic plans (with and without footnotes) at 64 KB and 128 KB, the
sizes of real plan comments: median CPU time of the process (the target: on a machine
shared with other work, wall time measures the machine), and wall time beside it.

Targets (exit 1 when one fails): every cmarkgfm ratio <= 2.5; each realistic plan at 64 KB
and 128 KB under 20 ms of CPU time.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from targets import report_targets

from frame_spine.core.code_regions import code_lines

ROOT = Path(__file__).resolve().parent.parent
MIB = 1 << 20
RATIO_LIMIT = 2.5
REALISTIC_LIMIT_MS = 20.0
REALISTIC_SIZES = (64 * 1024, 128 * 1024)
BUDGET_S = 4.0
MIN_SAMPLES = 3
MAX_SAMPLES = 15
IMPORT_RUNS = 9
# Every shape starts with a code block, so no shape is skipped by the "no code possible"
# shortcut: what is timed is always the parse.
LEAD = "```\nexample\n```\n\n"


def _fill(total: int, make: Callable[[int], str]) -> str:
    parts = [LEAD]
    size = len(LEAD)
    index = 0
    while size < total:
        part = make(index)
        parts.append(part)
        size += len(part)
        index += 1
    return "".join(parts)[:total]


def realistic(total: int) -> str:
    """A plan: prose, a list of steps with a fenced template, an indented example, blocks."""
    chunk = (
        "Each step is posted as a frame-slice block in the sibling comment.\n\n"
        "10. Template for planners:\n\n    ```markdown\n    <!-- frame-spine\n"
        "    spine_schema_version: 2\n    -->\n    ```\n\n"
        "An indented example:\n\n    <!-- frame-slice\n    step_id: s1\n    -->\n\n"
        "<!-- frame-slice\nstep_id: s2\nrequirement-contract: |\n  kept verbatim\n-->\n\n"
        "| port | steps |\n|---|---|\n| review | s8 |\n\n"
    )
    return _fill(total, lambda _i: chunk)


def nested_lists(total: int) -> str:
    """One list nested ever deeper: line i is indented 2*i spaces (depth grows as sqrt(n))."""
    return _fill(total, lambda i: "  " * i + "- item\n")


def nested_quotes(total: int) -> str:
    """Block quotes nested ever deeper, one level more per line."""
    return _fill(total, lambda i: ">" * i + " quoted\n")


def quote_run(total: int) -> str:
    """One line of '>' (nesting depth = n)."""
    return LEAD + ">" * (total - len(LEAD))


def bracket_run(total: int) -> str:
    """One long run of '[' (link openers that never close)."""
    return LEAD + "[" * (total - len(LEAD))


def star_run(total: int) -> str:
    """'*a' repeated: emphasis delimiters that never pair up in one paragraph."""
    return LEAD + "*a" * ((total - len(LEAD)) // 2)


def wide_table(total: int) -> str:
    """One table whose header has n/8 columns, and a few rows."""
    cols = (total - len(LEAD)) // 10
    return LEAD + "|" + " a |" * cols + "\n|" + "---|" * cols + "\n" + "| b |\n" * 10


def tall_table(total: int) -> str:
    """One 2-column table with n/10 rows."""
    return _fill(total, lambda i: "| a | b |\n|---|---|\n" if i == 0 else "| c | d |\n")


def short_rows(total: int) -> str:
    """A 200-column header, then thousands of rows with one cell (cells to fill in)."""
    head = "|" + " a |" * 200 + "\n|" + "---|" * 200 + "\n"
    return _fill(total, lambda i: head if i == 0 else "| x\n")


def many_fences(total: int) -> str:
    """Thousands of small closed fences (a block every 30 bytes)."""
    return _fill(
        total, lambda i: "```\n<!-- frame-spine -->\n```\n" if i % 2 else "~~~ x\nb\n~~~\n"
    )


def many_indented(total: int) -> str:
    """Thousands of indented code blocks, separated by paragraphs."""
    return _fill(total, lambda _i: "prose\n\n    <!-- frame-slice -->\n\n")


def fence_openers(total: int) -> str:
    """Fence openers with info strings (none closes): one block to the end."""
    return _fill(total, lambda _i: "```python\n~~~ info\n````\n<!-- frame-slice\n   ~~~~~ text\n")


def realistic_footnotes(total: int) -> str:
    """The realistic plan, each chunk also holding a referenced footnote with a template."""
    chunk = realistic(4096)[len(LEAD) :]
    return _fill(
        total,
        lambda i: (
            chunk
            + f"A note[^t{i}].\n\n[^t{i}]: Template:\n    ```\n    <!-- frame-slice\n    ```\n\n"
        ),
    )


def many_footnotes(total: int) -> str:
    """Thousands of unreferenced footnote definitions, each holding indented code."""
    return _fill(total, lambda i: f"[^n{i}]: Template:\n\n        <!-- frame-slice -->\n\n")


def footnotes_on_one_line(total: int) -> str:
    """Footnote definitions nested on one line (``[^0]: [^1]: ...``: depth n/6)."""
    return (LEAD + "".join(f"[^{i}]: " for i in range(total // 6)))[:total]


def footnote_references(total: int) -> str:
    """One footnote definition and thousands of references to it."""
    return _fill(total, lambda i: "[^a]: x\n\n" if i == 0 else "see[^a] ")


SHAPES: dict[str, Callable[[int], str]] = {
    "realistic plan with code examples": realistic,
    "nested lists (depth sqrt n)": nested_lists,
    "nested block quotes (depth sqrt n)": nested_quotes,
    "one line of '>' (depth n)": quote_run,
    "run of '['": bracket_run,
    "run of '*a'": star_run,
    "wide table (n/10 columns)": wide_table,
    "tall table (n/10 rows)": tall_table,
    "200-column header, 1-cell rows": short_rows,
    "thousands of fences": many_fences,
    "thousands of indented blocks": many_indented,
    "fence openers, never closed": fence_openers,
    "realistic plan with footnotes": realistic_footnotes,
    "thousands of footnote definitions": many_footnotes,
    "footnotes nested on one line": footnotes_on_one_line,
    "thousands of footnote references": footnote_references,
}


def markdown_it_pass() -> Callable[[str], list[tuple[int, int]]] | None:
    """The same pass with markdown-it-py (CommonMark preset plus GFM tables), if installed."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        return None
    parser = MarkdownIt("commonmark").enable("table")

    def ranges(text: str) -> list[tuple[int, int]]:
        found = []
        for token in parser.parse(text):
            if token.type in ("fence", "code_block") and token.map and token.content:
                first = token.map[0] + (2 if token.type == "fence" else 1)
                found.append((first, first + len(token.content.splitlines()) - 1))
        return found

    return ranges


def import_ms(module: str) -> float:
    """Median cumulative ``-X importtime`` of ``module`` in fresh interpreters (ms)."""
    samples = []
    for _ in range(IMPORT_RUNS):
        completed = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=True,
        )
        last = [line for line in completed.stderr.splitlines() if line.endswith(f"| {module}")]
        samples.append(int(last[-1].split("|")[1]) / 1e3)
    return statistics.median(samples)


def measure(
    run: Callable[[str], object],
    small: str,
    large: str,
    factor: float = 1.0,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float]:
    """Medians of ``run`` on ``small`` and ``large`` by ``clock``, samples interleaved."""
    start = time.perf_counter()
    run(small)
    run(large)
    per_round = time.perf_counter() - start
    rounds = int(min(MAX_SAMPLES, max(MIN_SAMPLES, BUDGET_S / max(per_round, 1e-9))) * factor)
    small_times: list[float] = []
    large_times: list[float] = []
    gc.collect()
    for _ in range(rounds):
        for body, times in ((small, small_times), (large, large_times)):
            begin = clock()
            run(body)
            times.append(clock() - begin)
    return statistics.median(small_times), statistics.median(large_times)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--size-mib", type=float, default=1.0, help="n (2n is also measured)")
    options.add_argument("--markdown-it", action="store_true", help="also time markdown-it-py")
    options.add_argument("--only", help="only the shapes whose name holds this text")
    args = options.parse_args()
    n = int(args.size_mib * MIB)
    other = markdown_it_pass() if args.markdown_it else None

    print(f"code-region pass benchmark, {sys.version.split()[0]}; n = {n / MIB:g} MiB")
    print(f"import cmarkgfm: {import_ms('cmarkgfm'):.1f} ms (median of {IMPORT_RUNS})")
    if other is not None:
        print(f"import markdown_it: {import_ms('markdown_it'):.1f} ms (median of {IMPORT_RUNS})")
    elif args.markdown_it:
        print("markdown-it-py is not installed: its column is left out")
    print()
    failures = []
    uncached = code_lines.__wrapped__
    for name in ("realistic plan with code examples", "realistic plan with footnotes"):
        small, large = (SHAPES[name](size) for size in REALISTIC_SIZES)
        wall = [t * 1e3 for t in measure(uncached, small, large)]
        times = [t * 1e3 for t in measure(uncached, small, large, clock=time.process_time)]
        print(
            f"{name + ', 64 KB / 128 KB':52} CPU {times[0]:6.2f} ms / {times[1]:6.2f} ms"
            f"  (wall {wall[0]:.2f} ms / {wall[1]:.2f} ms)"
        )
        failures += [
            f"{name} at {size // 1024} KB: {ms:.2f} ms >= {REALISTIC_LIMIT_MS:g} ms"
            for size, ms in zip(REALISTIC_SIZES, times, strict=True)
            if ms >= REALISTIC_LIMIT_MS
        ]
    print()
    header = f"{'shape':36} {'cmarkgfm n':>11} {'2n':>9} {'ratio':>6}"
    if other is not None:
        header += f" {'markdown-it n':>14} {'2n':>9} {'ratio':>6}"
    print(header)
    print("-" * len(header))

    for name, build in SHAPES.items():
        if args.only and args.only not in name:
            continue
        small, large = build(n), build(2 * n)
        t_small, t_large = measure(uncached, small, large)
        ratio = t_large / t_small
        note = ""
        if RATIO_LIMIT < ratio <= 2 * RATIO_LIMIT:  # borderline: could be noise, measure again
            first = ratio
            t_small, t_large = measure(uncached, small, large, factor=2.0)
            ratio = t_large / t_small
            note = f"  (re-measured; first ratio {first:.2f})"
        row = f"{name:36} {t_small * 1e3:8.1f} ms {t_large * 1e3:6.1f} ms {ratio:6.2f}"
        if ratio > RATIO_LIMIT:
            failures.append(f"{name}: cmarkgfm ratio {ratio:.2f} > {RATIO_LIMIT}")
        if other is not None:
            o_small, o_large = measure(other, small, large)
            row += f" {o_small * 1e3:11.1f} ms {o_large * 1e3:6.1f} ms {o_large / o_small:6.2f}"
        print(row + note, flush=True)
    print()
    return report_targets(failures)


if __name__ == "__main__":
    sys.exit(main())
