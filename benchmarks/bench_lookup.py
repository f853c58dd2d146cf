"""Benchmark the public library lookup path on realistic and adversarial comment bodies.

Run: ``.venv/bin/python benchmarks/bench_lookup.py`` (from any directory).

What is timed is what a caller of the library does: ``parse_request`` + ``lookup``
(scan both bodies, find the spine, check freshness, find the slice). For every shape the same
shape is also measured at double size; a linear implementation gives time(2n)/time(n) ~ 2.
The ``md:`` shapes put bodies that stress the Markdown parser behind the code regions
(SPEC 2.4; built by ``bench_regions.py``) after a small spine, so each lookup parses them.
Targets (exit 1 when one fails):

- every shape: time(2n) / time(n) <= 2.5;
- the realistic 128 KB lookup (plan + sibling, 64 KB each): median under 20 ms.

The machine is shared and noisy, so each figure is the median of many samples, the n and 2n
samples of a shape are interleaved, and each sample times a batch of calls long enough to be
well above the clock's resolution. A ratio just over the limit (at most twice it) is measured once
more, with twice the samples, before it is called a failure; both figures are printed.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_regions import (
    bracket_run,
    many_fences,
    many_indented,
    nested_lists,
    nested_quotes,
    quote_run,
    short_rows,
    star_run,
    tall_table,
    wide_table,
)
from bench_regions import realistic as realistic_markdown
from targets import report_targets

from frame_spine.core.code_regions import code_lines
from frame_spine.core.status import Failure
from frame_spine.modes.lookup.models import LookupResult, parse_request
from frame_spine.modes.lookup.rules import lookup

ROOT = Path(__file__).resolve().parent.parent

RATIO_LIMIT = 2.5
LATENCY_LIMIT_S = 0.020
ISSUE = 878
STAMP = "2026-07-18T22:20:00Z"
COMMENT_ID = 5013460780
KB = 1024

# How long one sample (a batch of calls) should take, and the time budget per shape.
SAMPLE_S = 0.004
BUDGET_S = 3.0
MIN_SAMPLES = 5
MAX_SAMPLES = 41

PROSE = (
    "This plan is assembled from the real fragments of the issue. Each step of the plan is "
    "posted as a frame-slice block in the sibling comment, and the spine above routes every "
    "port to the steps that serve it, so a specialist fetches only its own step.",
    "The inventory covers both script trees and is committed as a tracked artifact. Five "
    "classification classes are recorded: block-selector, presence-gate, count-validator, "
    "splice-writer and comment-selector, with the pattern text and its anchoring.",
    "Polarity rule (load-bearing): never narrow a gate whose true branch is the fail-loud "
    "path. Conversion difficulty must never drive classification; structurally unanchorable "
    "readers are recorded with their disposition and degrade to a warning.",
    "## Risks\n\n- a quoted `<!-- frame-spine ... -->` in prose must not count as a block;\n"
    "- a copy-pasted stamp `<!-- frame-slices-generated-at: ... -->` in prose must not count;"
    "\n- CRLF line ends from web edits are normalised before scanning.",
)
CONTRACT = (
    "Exhaustive marker-reader inventory across BOTH .github/scripts/** and skills/**/scripts/**,",
    "committed as a tracked artifact (not .tmp/, which is gitignored). Five classification",
    "classes: block-selector, presence-gate, count-validator, splice-writer, comment-selector",
    "(wildcard/substring matchers Part C's regex anchoring cannot reach). Record pattern text,",
    "top-level alternation presence, end-anchor presence, and for presence-gates their polarity.",
    "Polarity rule (load-bearing): never narrow a gate whose true branch is the fail-loud path.",
    "phase-containment-emission-check-core.ps1:800 is excluded from anchoring for this reason.",
    "Structurally unanchorable readers are recorded as structurally-unanchorable (warn).",
    "Non-goals: no source edits; no review-judgment PR-surface emission work.",
)
PORTS = ("ce-gate-cli", "implement-code", "implement-docs", "implement-test", "review")


@dataclass(frozen=True)
class Bodies:
    """One lookup input: the bodies and the dispatch inputs."""

    plan: str
    sibling: str | None
    step_id: str
    issue_number: int | None

    @property
    def size(self) -> int:
        return len(self.plan.encode()) + len(self.sibling.encode() if self.sibling else b"")


def run_lookup(bodies: Bodies) -> LookupResult:
    """The public library path: input checks, then scan + lookup.

    The code regions are memoised per body text (scan and frontmatter ask about the same
    body); a process looks a body up once, so every timed call starts with an empty memo.
    """
    code_lines.cache_clear()
    request = parse_request(
        {"step-id": bodies.step_id, "generated-at": STAMP, "issue-number": bodies.issue_number},
        has_sibling=bodies.sibling is not None,
    )
    if isinstance(request, Failure):
        return LookupResult.of_failure(request)
    return lookup(request, bodies.plan, bodies.sibling)


# --- body builders ---------------------------------------------------------------------------


def spine(steps: int, *, pointer: bool) -> str:
    """A canonical spine routing ``steps`` steps (s1..sN) over five ports."""
    routes: dict[str, list[str]] = {port: [] for port in PORTS}
    for number in range(1, steps + 1):
        routes[PORTS[number % len(PORTS)]].append(f"s{number}")
    lines = ["<!-- frame-spine", "spine_schema_version: 2", f"generated_at: {STAMP}"]
    lines.append("coverage: complete")
    if pointer:
        lines.append(f"slice_comment_id: {COMMENT_ID}")
    lines.append("ports:")
    lines += [f"  {port}: [{', '.join(routes[port])}]" for port in PORTS if routes[port]]
    lines.append("slices:")
    for number in range(1, steps + 1):
        lines += [
            f"  s{number}:",
            "    execution_mode: serial",
            "    rc: exhaustive marker-reader inventory committed as a tracked artifact",
            f"    ac_refs: [AC{number % 6 + 1}]",
            f"    depends_on: [{'' if number == 1 else f's{number - 1}'}]",
            f"    cycle: {number % 3 + 1}",
        ]
    lines.append("-->")
    return "\n".join(lines) + "\n"


def slice_block(number: int, contract_lines: int) -> str:
    lines = [
        "<!-- frame-slice",
        f"step_id: s{number}",
        f"commit-index: {number}",
        f"provides: [{PORTS[number % len(PORTS)]}]",
        "adapter: skills/documentation-finalization/adapters/implement-docs-adapter.md",
        f"depends-on: [{'' if number == 1 else f's{number - 1}'}]",
        "ac-refs: [AC4]",
        "requirement-contract: |",
    ]
    lines += ["  " + CONTRACT[i % len(CONTRACT)] for i in range(contract_lines)]
    lines.append("-->")
    return "\n".join(lines) + "\n\n"


def realistic(total: int) -> Bodies:
    """A plan + sibling pair of about ``total`` bytes (half each), prose and slice blocks.

    The sibling holds slice blocks of up to ~1.3 KB (the size of the real issue-878 slice);
    the plan holds the markers, frontmatter, the spine listing every step, and prose.
    """
    half = total // 2
    sibling = f"<!-- frame-slices-{ISSUE} -->\n<!-- frame-slices-generated-at: {STAMP} -->\n\n"
    steps = 0
    while len(sibling) < half:
        steps += 1
        room = (half - len(sibling) - 330) // 92
        sibling += slice_block(steps, max(1, min(len(CONTRACT), room)))
    plan = (
        f"<!-- plan-issue-{ISSUE} -->\n\n<!-- phase-containment-ledger-ref: 5013464861 -->\n\n"
        f"---\nstatus: pending\nissue_id: {ISSUE}\n---\n\n# Implementation Plan\n\n"
    )
    plan += spine(steps, pointer=True)
    paragraph = 0
    while len(plan) < half:
        plan += "\n" + PROSE[paragraph % len(PROSE)] + "\n"
        paragraph += 1
    return Bodies(plan, sibling, f"s{steps}", ISSUE)


def repeat_to(line: str, total: int, head: str = "") -> str:
    """``head`` then ``line`` repeated until the body is ``total`` bytes."""
    count = max(1, (total - len(head)) // len(line))
    return head + line * count


SMALL_SPINE = spine(3, pointer=False)


def unclosed_heads(total: int) -> Bodies:
    """Thousands of open heads ``<!-- frame-slice ...`` and no ``-->`` anywhere in the body."""
    return Bodies(repeat_to("<!-- frame-slice x\n", total), None, "s1", None)


def bare_markers(total: int) -> Bodies:
    """A spine, then thousands of bare markers ``<!-- frame-slice -->`` and no closer line."""
    return Bodies(repeat_to("<!-- frame-slice -->\n", total, SMALL_SPINE), None, "s3", None)


def single_line(total: int) -> Bodies:
    """The whole body is one line: an open slice head followed by prose, never closed."""
    words = "lorem ipsum <!-- frame-spine dolor `code` ~~~ sit amet "
    return Bodies(repeat_to(words, total, "<!-- frame-slice step_id: s1 "), None, "s1", None)


def fence_openers(total: int) -> Bodies:
    """A spine, then thousands of fence openers (with info strings, so none closes)."""
    lines = "```python\n~~~ info\n````\n<!-- frame-slice\n   ~~~~~ text\n"
    return Bodies(repeat_to(lines, total, SMALL_SPINE), None, "s3", None)


def many_slices(count: int) -> Bodies:
    """One plan: a spine listing ``count`` steps, then ``count`` slice blocks; the last step."""
    blocks = "".join(
        f"<!-- frame-slice\nstep_id: s{n}\nprovides: [{PORTS[n % len(PORTS)]}]\n"
        f"requirement-contract: |\n  do step {n}\n-->\n\n"
        for n in range(1, count + 1)
    )
    return Bodies(spine(count, pointer=False) + "\n" + blocks, None, f"s{count}", None)


# Adversarial shapes for lines read by pattern: once found to backtrack (cubic and quadratic),
# now read with plain string operations; kept here so they stay linear.
def stamp_whitespace(total: int) -> Bodies:
    """One line: a stamp marker head, then a run of spaces, and no ``-->``."""
    head = "<!-- frame-slices-generated-at:"
    return Bodies(head + " " * (total - len(head)), None, "s1", None)


def frontmatter_whitespace(total: int) -> Bodies:
    """A frontmatter ``plan-variant: x<spaces>y`` line and no spine (missing-spine path)."""
    head = "---\nplan-variant: x"
    tail = "y\n---\n"
    return Bodies(head + " " * (total - len(head) - len(tail)) + tail, None, "s1", None)


# Shapes that stress the Markdown parser behind the code regions (SPEC 2.4): a small spine
# first (its head needs the regions, so every lookup parses the whole body), then the body of
# the same-named shape of bench_regions.py.
def parser_stress(build: Callable[[int], str]) -> Callable[[int], Bodies]:
    def bodies(total: int) -> Bodies:
        return Bodies(SMALL_SPINE + build(total - len(SMALL_SPINE)), None, "s3", None)

    bodies.__name__ = build.__name__
    return bodies


def realistic_with_examples(total: int) -> Bodies:
    """The realistic pair, the plan also holding code examples of blocks (list-item fences,
    indented blocks, tables) as planners' templates do."""
    pair = realistic(total)
    half = len(pair.plan)
    plan = pair.plan[: half // 2] + "\n" + realistic_markdown(half - half // 2)
    return Bodies(plan, pair.sibling, pair.step_id, pair.issue_number)


@dataclass(frozen=True)
class Shape:
    name: str
    build: Callable[[int], Bodies]
    n: int
    unit: str = "bytes"


SHAPES = (
    Shape("realistic 1 KB (plan+sibling)", realistic, 1 * KB),
    Shape("realistic 64 KB (plan+sibling)", realistic, 64 * KB),
    Shape("realistic 128 KB (64+64 KB)", realistic, 128 * KB),
    Shape("adv: unclosed open heads", unclosed_heads, 64 * KB),
    Shape("adv: bare markers, no closer", bare_markers, 64 * KB),
    Shape("adv: one single line", single_line, 64 * KB),
    Shape("adv: fence openers", fence_openers, 64 * KB),
    Shape("adv: 5,000 slices (last step)", many_slices, 5000, unit="slices"),
    Shape("adv: stamp head + spaces line", stamp_whitespace, 64 * KB),
    Shape("adv: frontmatter value spaces", frontmatter_whitespace, 64 * KB),
    Shape("realistic 64 KB + code examples", realistic_with_examples, 64 * KB),
    Shape("md: nested lists", parser_stress(nested_lists), 64 * KB),
    Shape("md: nested block quotes", parser_stress(nested_quotes), 64 * KB),
    # A quote nested 65,536 deep makes a parse tree of ~10 MB, about the CPU cache: from 64 to
    # 128 KB the ratio measures the cache more than the algorithm (2.2-2.8 here); from 256 KB
    # on it is 1.8-2.3 (bench_regions.py shows the curve).
    Shape("md: one line of '>'", parser_stress(quote_run), 256 * KB),
    Shape("md: run of '['", parser_stress(bracket_run), 64 * KB),
    Shape("md: run of '*a'", parser_stress(star_run), 64 * KB),
    Shape("md: wide table", parser_stress(wide_table), 64 * KB),
    Shape("md: tall table", parser_stress(tall_table), 64 * KB),
    Shape("md: 200-col header, 1-cell rows", parser_stress(short_rows), 64 * KB),
    Shape("md: thousands of fences", parser_stress(many_fences), 64 * KB),
    Shape("md: thousands of indented blocks", parser_stress(many_indented), 64 * KB),
)


# --- measurement ---------------------------------------------------------------------------


def calibrate(bodies: Bodies) -> tuple[float, int]:
    """Return the time of one call (best of a few) and the batch size of one sample."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run_lookup(bodies)
        best = min(best, time.perf_counter() - start)
        if best > 0.05:  # slow shape: one call is a good enough estimate
            break
    return best, max(1, int(SAMPLE_S / max(best, 1e-7)))


def sample(bodies: Bodies, batch: int) -> float:
    start = time.perf_counter()
    for _ in range(batch):
        run_lookup(bodies)
    return (time.perf_counter() - start) / batch


def measure_pair(small: Bodies, large: Bodies, factor: float = 1.0) -> tuple[float, float]:
    """Medians of one call on ``small`` and ``large``, samples interleaved."""
    one_small, batch_small = calibrate(small)
    one_large, batch_large = calibrate(large)
    per_round = one_small * batch_small + one_large * batch_large
    rounds = int(min(MAX_SAMPLES, max(MIN_SAMPLES, BUDGET_S / max(per_round, 1e-9))) * factor)
    small_times: list[float] = []
    large_times: list[float] = []
    gc.collect()
    for _ in range(rounds):
        small_times.append(sample(small, batch_small))
        large_times.append(sample(large, batch_large))
    return statistics.median(small_times), statistics.median(large_times)


def fmt_size(value: int, unit: str) -> str:
    if unit == "slices":
        return f"{value:,} sl"
    return f"{value / KB:,.1f} KB"


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:8.2f} s "
    if seconds >= 1e-3:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds * 1e6:8.1f} us"


def main() -> int:
    print(
        f"frame-spine lookup benchmark (validate inputs + scan + lookup), {sys.version.split()[0]}"
    )
    print(f"repository: {ROOT}")
    print(f"ratio target: time(2n)/time(n) <= {RATIO_LIMIT}; 128 KB target: < 20 ms\n")
    header = (
        f"{'shape':34} {'size n':>10} {'median n':>11} {'size 2n':>10} {'median 2n':>11} "
        f"{'ratio':>6}  {'status (n)':18} verdict"
    )
    print(header)
    print("-" * len(header))
    failures: list[str] = []
    latency_128: float | None = None
    for shape in SHAPES:
        small, large = shape.build(shape.n), shape.build(2 * shape.n)
        status = run_lookup(small).status.value
        status_large = run_lookup(large).status.value
        t_small, t_large = measure_pair(small, large)
        ratio = t_large / t_small
        note = ""
        if RATIO_LIMIT < ratio <= 2 * RATIO_LIMIT:  # borderline: could be noise, measure again
            first = ratio
            t_small, t_large = measure_pair(small, large, factor=2.0)
            ratio = t_large / t_small
            note = f" (re-measured; first ratio {first:.2f})"
        verdict = "PASS" if ratio <= RATIO_LIMIT else "FAIL"
        if verdict == "FAIL":
            failures.append(f"{shape.name}: ratio {ratio:.2f} > {RATIO_LIMIT}")
        if status != status_large:
            note += f" [2n status: {status_large}]"
        size_small = shape.n if shape.unit == "slices" else small.size
        size_large = 2 * shape.n if shape.unit == "slices" else large.size
        print(
            f"{shape.name:34} {fmt_size(size_small, shape.unit):>10} {fmt_time(t_small):>11} "
            f"{fmt_size(size_large, shape.unit):>10} {fmt_time(t_large):>11} {ratio:6.2f}  "
            f"{status:18} {verdict}{note}",
            flush=True,
        )
        if shape.build is realistic and shape.n == 128 * KB:
            latency_128 = t_small

    print()
    if latency_128 is None:
        failures.append("the 128 KB realistic lookup was not measured")
    else:
        verdict = "PASS" if latency_128 < LATENCY_LIMIT_S else "FAIL"
        print(
            f"128 KB realistic lookup median: {fmt_time(latency_128).strip()} (< 20 ms): {verdict}"
        )
        if verdict == "FAIL":
            failures.append(f"128 KB lookup median {latency_128 * 1e3:.2f} ms >= 20 ms")
    print()
    return report_targets(failures)


if __name__ == "__main__":
    sys.exit(main())
