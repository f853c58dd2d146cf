"""Property tests (hypothesis) for block scanning and the whole lookup (SPEC 2, 5, 7).

Three families:

- robustness: :func:`scan_comment` and the public lookup path (``parse_request`` +
  ``lookup``: plan only, plan + sibling, one pre-concatenated body) never raise on arbitrary
  text biased towards the grammar, and are deterministic;
- normalisation (SPEC 2.1): for bodies without ``\\r``, LF -> CRLF, LF -> CR and a leading
  U+FEFF never change the lookup's status (nor the slice of an ``ok``);
- round trip: a generated well-formed plan (canonical spine, one slice block per step,
  optionally split into plan + sibling) looks up ``ok`` with the exact payload for every step,
  and ``stale-spine`` for a dispatched instant that differs from the spine's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from frame_spine.core.blocks import CommentScan, scan_comment
from frame_spine.core.status import Status
from frame_spine.modes.lookup.models import LookupResult
from frame_spine.modes.lookup.render import result_json, result_text
from frame_spine.modes.lookup.rules import lookup
from tests.builders import checked_request

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

ISSUE = 7
BOM = "\ufeff"

# Fragments of the grammar (SPEC 1-3), mixed with random text to build comment bodies.
FRAGMENTS = (
    "<!-- frame-spine",
    "<!-- frame-spine -->",
    "<!-- frame-slice -->",
    "<!-- frame-slice",
    "<!--frame-slice",
    "-->",
    "  -->",
    " --> tail",
    "```",
    "````",
    "```markdown",
    "~~~",
    "   ~~~~ info",
    "<!-- frame-slices-7 -->",
    "<!-- frame-slices-8 -->",
    "<!-- frame-slices-generated-at: 2026-05-04T14:30:00Z -->",
    "<!-- frame-slices-generated-at: 2026-05-04T14:30:00.000Z -->",
    "<!-- frame-slices-generated-at: not-a-time -->",
    "<!-- plan-issue-7 -->",
    "<!-- plan-issue-9 -->",
    "<!-- phase-containment-ledger-ref: 5013464861 -->",
    "see `<!-- frame-spine ... -->` here",
    "spine_schema_version: 2",
    "spine_schema_version: 1",
    "generated_at: 2026-05-04T14:30:00Z",
    "generated_at: 2026-05-04T14:30:00.5Z",
    "coverage: complete",
    "slice_comment_id: 42",
    "slice_comment_id:",
    "ports:",
    "  p: [s1]",
    "  q: [s1#cycle:2#terminal, s2]",
    "  r: []",
    "slices:",
    "  s1:",
    "  s2:",
    "    ac_refs: []",
    "    ac_refs: [AC1, AC2]",
    "    depends_on: []",
    "    depends_on: [s1]",
    "    cycle: 1",
    "    terminal: true",
    "    rc: free text",
    "step_id: s1",
    "step_id: S2",
    "id: s2",
    "---",
    "plan-variant: brief",
    "spine-omitted: plan-too-small",
    "\r\n",
    "\r",
    "\n",
    BOM,
    "\t",
    " ",
    "    ",
    "é—✓",
)
SEPARATORS = ("\n", "\n", "\n", "\r\n", "\r", "", " ", "\t")

STEP_INPUTS = ("s1", "s2", "S1", "s3", "s01", "x", "", "s")
TIME_INPUTS = (
    "2026-05-04T14:30:00Z",
    "2026-05-04T14:30:00.000Z",
    "2026-05-04T14:30:01Z",
    "current",
    "2026-02-30T00:00:00Z",
    "",
)
DIGEST_INPUTS = (None, "", "sha256:" + "0" * 64, "0" * 64, "sha256:nope")
ISSUE_INPUTS = (ISSUE, str(ISSUE), None, 8, "x", 0)


def _join(pieces: list[tuple[str, str]]) -> str:
    return "".join(piece + separator for piece, separator in pieces)


@functools.cache
def grammar_text(*, allow_cr: bool = True) -> st.SearchStrategy[str]:
    """Text biased towards the block/spine grammar (``allow_cr=False``: no ``\\r`` at all).

    One strategy object per ``allow_cr`` (cached): the composites below draw from it many
    times per example, and building and validating a strategy costs more than drawing."""
    fragments = [f for f in FRAGMENTS if allow_cr or "\r" not in f]
    separators = [s for s in SEPARATORS if allow_cr or "\r" not in s]
    blacklist = "" if allow_cr else "\r"
    random_text = st.text(st.characters(blacklist_characters=blacklist), max_size=12)
    piece = st.one_of(st.sampled_from(fragments), st.sampled_from(fragments), random_text)
    mixed = st.lists(st.tuples(piece, st.sampled_from(separators)), max_size=60).map(_join)
    plain = st.text(st.characters(blacklist_characters=blacklist), max_size=200)
    return st.one_of(mixed, mixed, plain)


# --- timestamps -------------------------------------------------------------------------


@dataclass(frozen=True)
class Stamp:
    """A contract timestamp: whole seconds plus a fraction as written (0-9 digits)."""

    moment: datetime
    fraction: str

    def text(self) -> str:
        fraction = f".{self.fraction}" if self.fraction else ""
        return f"{self.moment:%Y-%m-%dT%H:%M:%S}{fraction}Z"

    def instant(self) -> tuple[datetime, int]:
        return self.moment, int(self.fraction.ljust(9, "0")) if self.fraction else 0


# The strategies the composites draw from, built once (building one per draw cost more CPU
# than the draws; the values drawn are the same).
MOMENTS = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2099, 12, 31))
FRACTIONS = st.one_of(st.just(""), st.from_regex(r"[0-9]{1,9}", fullmatch=True))


@st.composite
def stamps(draw: st.DrawFn) -> Stamp:
    moment = draw(MOMENTS)
    fraction = draw(FRACTIONS)
    return Stamp(moment.replace(microsecond=0), fraction)


@st.composite
def same_instant_spelling(draw: st.DrawFn, stamp: Stamp) -> str:
    """The same instant, possibly spelled differently (trailing fraction zeros)."""
    digits = stamp.fraction.rstrip("0")
    width = draw(st.integers(len(digits), 9))
    fraction = digits.ljust(width, "0")
    return Stamp(stamp.moment, fraction).text()


# --- well-formed plans --------------------------------------------------------------------

SAFE_PROSE = (
    "Some prose about the plan.",
    "# Implementation Plan",
    "",
    "- a list item",
    "Each step is posted as a `<!-- frame-slice ... -->` block; see `<!-- frame-spine -->`.",
    "<!-- phase-containment-ledger-ref: 5013464861 -->",
    "Non-ASCII prose: é — ✓ 日本",
    "    indented prose",
)
RC_ALPHABET = st.characters(whitelist_categories=("L", "N"), whitelist_characters=" .,;()/#-_'é—")
PAYLOAD_LINE = st.text(
    st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=30
).filter(lambda line: "-->" not in line)
PROSE_LINES = st.lists(st.sampled_from(SAFE_PROSE), max_size=4)
FENCES = st.sampled_from(["```", "~~~"])
SLICE_KEYS = st.sampled_from(["step_id", "step_id", "id"])
SLICE_LINES = st.lists(
    st.sampled_from(
        [
            "provides: [implement-code]",
            "depends-on: []",
            "ac-refs: [AC1]",
            "requirement-contract: |",
            "  Indented free text, kept verbatim.",
            "",
            "  <!-- frame-spine inside a payload is payload",
            "  ``` a fence line inside a payload is payload",
        ]
    ),
    max_size=5,
)
PAYLOAD_LINES = st.lists(PAYLOAD_LINE, max_size=3)
SLICE_FORMS = st.sampled_from(["open", "open-inline-closer", "bare"])
STEP_NUMBERS = st.lists(st.integers(0, 99_999), min_size=1, max_size=7, unique=True)
PORT_NAMES = st.lists(
    st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True),
    min_size=1,
    max_size=4,
    unique_by=str.lower,
)
CYCLES = st.one_of(st.none(), st.integers(0, 9))
RCS = st.text(RC_ALPHABET, min_size=1, max_size=40)
AC_REFS = st.lists(st.from_regex(r"AC[0-9]{1,2}", fullmatch=True), max_size=3)
DIGITS = st.integers(0, 9)
TERMINALS = st.sampled_from(["true", "false"])
COMMENT_IDS = st.integers(1, 10**12)
SCHEMA_VERSIONS = st.sampled_from(["1", "2"])


@dataclass(frozen=True)
class Plan:
    """A generated well-formed plan and what lookup must answer."""

    plan: str
    sibling: str | None
    split: bool
    issue_number: int | None
    generated_at: Stamp
    payloads: dict[str, str]  # step -> exact slice payload


def _fenced_example(step: str, fence: str) -> list[str]:
    return [
        fence + ("markdown" if fence.startswith("`") else ""),
        "<!-- frame-spine",
        "spine_schema_version: 2",
        "generated_at: 1999-01-01T00:00:00Z",
        "-->",
        "<!-- frame-slice",
        f"step_id: {step}",
        "a fenced example, never a block",
        "-->",
        fence,
    ]


@st.composite
def prose(draw: st.DrawFn, steps: list[str]) -> list[str]:
    lines = draw(PROSE_LINES)
    if steps and draw(st.booleans()):
        lines += _fenced_example(draw(st.sampled_from(steps)), draw(FENCES))
    return lines


@st.composite
def slice_block(draw: st.DrawFn, step: str) -> tuple[list[str], str]:
    """One slice block for ``step``: its lines and its exact payload (SPEC 2.6, 4)."""
    written_step = step.upper() if draw(st.booleans()) else step
    key = draw(SLICE_KEYS)
    body = [f"{key}: {written_step}"]
    body += draw(SLICE_LINES)
    body += ["  " + line for line in draw(PAYLOAD_LINES)]
    form = draw(SLICE_FORMS)
    if form == "bare":
        # A bare head is a one-line HTML comment for GitHub, so a bare payload is Markdown:
        # a fence line in it would open a fence that never closes and turn every later head
        # into a code example (SPEC 2.4). An open head's payload is inside its HTML comment.
        body = [line for line in body if not line.lstrip(" ").startswith(("```", "~~~"))]
    while len(body) > 1 and not body[-1].strip(" \t"):
        body.pop()
    body[-1] = body[-1].rstrip(" \t")
    payload = "\n".join(body)
    padding = [""] if draw(st.booleans()) else []
    if form == "open":
        lines = ["<!-- frame-slice", *padding, *body, *padding, "-->"]
    elif form == "open-inline-closer":
        lines = ["<!-- frame-slice", *body[:-1], body[-1] + " -->"]
    else:
        lines = ["<!-- frame-slice -->", *padding, *body, "  -->"]
    return lines, payload


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    numbers = draw(STEP_NUMBERS)
    all_steps = [f"s{number}" for number in numbers]
    cut = draw(st.integers(1, len(all_steps)))
    slice_steps, token_only = all_steps[:cut], all_steps[cut:]

    port_names = draw(PORT_NAMES)
    token = st.tuples(st.sampled_from(all_steps), CYCLES, st.booleans()).map(
        lambda t: t[0] + ("" if t[1] is None else f"#cycle:{t[1]}") + ("#terminal" * t[2])
    )
    routes = {name: draw(st.lists(token, max_size=4)) for name in port_names}
    # Every token-only step must be routed by some port (else it is not in the spine).
    for step in token_only:
        routes[draw(st.sampled_from(port_names))].append(step)
    ports = ["ports:"] + [f"  {name}: [{', '.join(routes[name])}]" for name in sorted(routes)]

    slices = ["slices:"]
    for step in slice_steps:
        slices.append(f"  {step}:")
        if draw(st.booleans()):
            slices.append("    execution_mode: serial")
        rc = draw(RCS).strip()
        if rc:
            slices.append(f"    rc: {rc}")
        refs = draw(AC_REFS)
        deps = draw(st.lists(st.sampled_from(all_steps), max_size=2, unique=True))
        slices.append(f"    ac_refs: [{', '.join(refs)}]")
        slices.append(f"    depends_on: [{', '.join(deps)}]")
        slices.append(f"    cycle: {draw(DIGITS)}")
        if draw(st.booleans()):
            slices.append(f"    terminal: {draw(TERMINALS)}")

    stamp = draw(stamps())
    split = draw(st.booleans())
    comment_id = draw(COMMENT_IDS)
    header = [f"spine_schema_version: {draw(SCHEMA_VERSIONS)}"]
    header.append(f"generated_at: {stamp.text()}")
    if draw(st.booleans()):
        header.append("coverage: complete")
    if split:
        header.append(f"slice_comment_id: {comment_id}")
    sections = [ports, slices] if draw(st.booleans()) else [slices, ports]
    spine_payload = header + sections[0] + sections[1]
    if draw(st.booleans()):
        spine_lines = ["<!-- frame-spine", *spine_payload, "-->"]
    else:
        spine_lines = ["<!-- frame-spine -->", *spine_payload, "-->"]

    blocks = {step: draw(slice_block(step)) for step in all_steps}
    order = draw(st.permutations(all_steps))
    in_plan = {step: (not split) or draw(st.booleans()) for step in all_steps}

    with_marker = split or draw(st.booleans())
    plan_lines = [f"<!-- plan-issue-{ISSUE} -->", ""] if with_marker else []
    plan_lines += ["---", "status: pending", f"issue_id: {ISSUE}", "---", ""]
    plan_lines += draw(prose(all_steps)) + spine_lines + draw(prose(all_steps))
    sibling_lines: list[str] = []
    if split:
        sibling_lines = [
            f"<!-- frame-slices-{ISSUE} -->",
            f"<!-- frame-slices-generated-at: {draw(same_instant_spelling(stamp))} -->",
            "",
        ]
    for step in order:
        target = plan_lines if in_plan[step] else sibling_lines
        target += [*draw(prose(all_steps)), *blocks[step][0], ""]

    return Plan(
        plan="\n".join(plan_lines),
        sibling="\n".join(sibling_lines) if split else None,
        split=split,
        issue_number=ISSUE if with_marker else None,
        generated_at=stamp,
        payloads={step: blocks[step][1] for step in all_steps},
    )


# --- helpers --------------------------------------------------------------------------------


def run_lookup(
    plan: str,
    sibling: str | None = None,
    *,
    single_body: bool = False,
    step_id: object = "s1",
    generated_at: object = "2026-05-04T14:30:00Z",
    spine_digest: object = None,
    issue_number: object = None,
) -> LookupResult:
    """The public library path: input checks, then lookup."""
    request = checked_request(
        step_id=step_id,
        generated_at=generated_at,
        spine_digest=spine_digest,
        issue_number=issue_number,
        has_sibling=sibling is not None,
    )
    if isinstance(request, LookupResult):
        return request
    return lookup(request, plan, sibling, single_body=single_body)


def lf_to(body: str | None, ending: str, bom: bool = False) -> str | None:
    if body is None:
        return None
    return (BOM if bom else "") + body.replace("\n", ending)


def check_scan_invariants(scan: CommentScan) -> None:
    assert "\r" not in scan.text
    head_lines = [block.head_line for block in scan.blocks]
    assert head_lines == sorted(head_lines)
    for block in scan.blocks:
        assert "\r" not in block.payload
        assert block.payload == block.payload.strip("\n")
        assert block.payload_line >= block.head_line


MODES = st.sampled_from(["plan", "sibling", "single"])
RANDOM_INPUTS = st.fixed_dictionaries(
    {
        "step_id": st.one_of(st.sampled_from(STEP_INPUTS), st.text(max_size=5)),
        "generated_at": st.one_of(st.sampled_from(TIME_INPUTS), st.text(max_size=5)),
        "spine_digest": st.sampled_from(DIGEST_INPUTS),
        "issue_number": st.sampled_from(ISSUE_INPUTS),
    }
)
VALID_INPUTS = st.fixed_dictionaries(
    {
        "step_id": st.sampled_from(["s1", "s2", "S1"]),
        "generated_at": st.sampled_from(TIME_INPUTS[:4]),
        "spine_digest": st.sampled_from(DIGEST_INPUTS[:4]),
        "issue_number": st.just(ISSUE),
    }
)
# Mostly valid inputs, so that most examples get past the input checks (SPEC 5).
INPUTS = st.one_of(VALID_INPUTS, VALID_INPUTS, VALID_INPUTS, RANDOM_INPUTS)

Case = tuple[str, str, str, dict[str, Any]]  # mode, plan, sibling, raw inputs


def lookup_in_mode(mode: str, plan: str, sibling: str, inputs: dict[str, Any]) -> LookupResult:
    if mode == "plan":
        return run_lookup(plan, **inputs)
    if mode == "sibling":
        return run_lookup(plan, sibling, **inputs)
    return run_lookup(plan + "\n\n" + sibling, single_body=True, **inputs)


@st.composite
def random_cases(draw: st.DrawFn, *, allow_cr: bool = True) -> Case:
    """Grammar-biased random plan and sibling bodies, any mode, mostly valid inputs."""
    text = grammar_text(allow_cr=allow_cr)
    plan, sibling = draw(text), draw(text)
    if draw(st.booleans()):  # get past the identity checks (SPEC 6 steps 3-4) more often
        plan = f"<!-- plan-issue-{ISSUE} -->\n" + plan
        sibling = f"<!-- frame-slices-{ISSUE} -->\n" + sibling
    return draw(MODES), plan, sibling, draw(INPUTS)


@st.composite
def mutated_cases(draw: st.DrawFn, *, allow_cr: bool = True) -> Case:
    """A well-formed plan (and sibling), then a few random line edits: reaches checks 4-9.

    The inputs usually name one of its steps and its own instant, so ``ok`` is common.
    """
    plan = draw(plans())
    pair = [
        plan.plan,
        plan.sibling if plan.sibling is not None else f"<!-- frame-slices-{ISSUE} -->",
    ]
    noise = grammar_text(allow_cr=allow_cr)
    for _ in range(draw(st.integers(0, 4))):
        which = draw(st.integers(0, 1))
        lines = pair[which].split("\n")
        at = draw(st.integers(0, len(lines)))
        edit = draw(st.sampled_from(["insert", "delete", "duplicate"]))
        if edit == "insert":
            lines.insert(at, draw(noise))
        elif lines and edit == "delete":
            del lines[min(at, len(lines) - 1)]
        elif lines:
            lines.insert(at, lines[min(at, len(lines) - 1)])
        pair[which] = "\n".join(lines)
    steps = sorted(plan.payloads)
    own = {
        "step_id": draw(st.sampled_from([*steps, "s1"])),
        "generated_at": draw(
            st.one_of(
                same_instant_spelling(plan.generated_at),
                st.sampled_from(["current", "2026-05-04T14:30:00Z"]),
            )
        ),
        "spine_digest": None,
        "issue_number": ISSUE,
    }
    inputs = draw(st.one_of(st.just(own), st.just(own), st.just(own), INPUTS))
    preferred = ["sibling", "single"] if plan.split else ["plan"]
    mode = draw(st.one_of(st.sampled_from(preferred), st.sampled_from(preferred), MODES))
    return mode, pair[0], pair[1], inputs


def cases(*, allow_cr: bool = True) -> st.SearchStrategy[Case]:
    return st.one_of(random_cases(allow_cr=allow_cr), mutated_cases(allow_cr=allow_cr))


# --- robustness -----------------------------------------------------------------------------


@SETTINGS
@given(grammar_text())
def test_scan_comment_never_raises_and_is_deterministic(body: str) -> None:
    first = scan_comment(body)
    second = scan_comment(body)
    assert first == second
    check_scan_invariants(first)


@SETTINGS
@given(cases())
def test_lookup_never_raises_and_is_deterministic(case: Case) -> None:
    mode, plan, sibling, inputs = case
    first = lookup_in_mode(mode, plan, sibling, inputs)
    second = lookup_in_mode(mode, plan, sibling, inputs)
    assert isinstance(first.status, Status)
    event(f"status {first.status.value}")
    assert first == second
    assert result_json(first) == result_json(second)
    assert result_text(first) == result_text(second)
    if first.status is Status.OK:
        assert first.slice is not None


# --- normalisation (SPEC 2.1) ---------------------------------------------------------------


@SETTINGS
@given(cases(allow_cr=False), st.sampled_from(["\r\n", "\r"]))
def test_line_ends_never_change_the_result(case: Case, ending: str) -> None:
    mode, plan, sibling, inputs = case
    assert "\r" not in plan + sibling
    original = lookup_in_mode(mode, plan, sibling, inputs)
    converted = lookup_in_mode(
        mode, lf_to(plan, ending) or "", lf_to(sibling, ending) or "", inputs
    )
    event(f"status {original.status.value}")
    assert converted.status == original.status
    if original.status is Status.OK:
        assert converted.slice == original.slice


@SETTINGS
@given(cases(allow_cr=False), st.booleans(), st.booleans())
def test_leading_bom_never_changes_the_result(case: Case, on_plan: bool, on_sibling: bool) -> None:
    mode, plan, sibling, inputs = case
    # SPEC 2.1 drops ONE leading U+FEFF: a body that already starts with one is another body.
    assume(not plan.startswith(BOM) and not sibling.startswith(BOM))
    original = lookup_in_mode(mode, plan, sibling, inputs)
    event(f"status {original.status.value}")
    if mode == "single":  # one body: only its own start can carry the BOM
        on_plan, on_sibling = True, False
    with_bom = lookup_in_mode(
        mode, BOM * on_plan + plan, BOM * (on_sibling or not on_plan) + sibling, inputs
    )
    assert with_bom.status == original.status
    if original.status is Status.OK:
        assert with_bom.slice == original.slice


# --- round trip of well-formed plans ---------------------------------------------------------


def _encode(plan: Plan, ending: str, bom_plan: bool, bom_sibling: bool) -> tuple[str, str | None]:
    return lf_to(plan.plan, ending, bom_plan) or "", lf_to(plan.sibling, ending, bom_sibling)


@SETTINGS
@given(
    plans(),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
    st.booleans(),
    st.data(),
)
def test_well_formed_plan_looks_up_every_step(
    plan: Plan, ending: str, bom_plan: bool, bom_sibling: bool, data: st.DataObject
) -> None:
    body, sibling = _encode(plan, ending, bom_plan, bom_sibling)
    spine_time = plan.generated_at.text()
    for step, payload in plan.payloads.items():
        dispatched = data.draw(
            st.one_of(same_instant_spelling(plan.generated_at), st.just("current")),
            label=f"generated_at for {step}",
        )
        step_input = step.upper() if data.draw(st.booleans(), label="upper") else step
        result = run_lookup(
            body,
            sibling,
            step_id=step_input,
            generated_at=dispatched,
            issue_number=plan.issue_number,
        )
        assert result.status is Status.OK, result
        assert result.step_id == step
        assert result.slice == payload
        assert result.generated_at == (spine_time if dispatched == "current" else dispatched)
        assert result.current_generated_at == spine_time

        if plan.split:
            assert sibling is not None
            single = run_lookup(
                body + "\n\n" + sibling,
                single_body=True,
                step_id=step,
                generated_at=dispatched,
                issue_number=ISSUE,
            )
            assert single.status is Status.OK, single
            assert single.slice == payload


@SETTINGS
@given(
    plans(),
    stamps(),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
    st.booleans(),
)
def test_well_formed_plan_is_stale_for_another_instant(
    plan: Plan, other: Stamp, ending: str, bom_plan: bool, bom_sibling: bool
) -> None:
    assume(other.instant() != plan.generated_at.instant())
    body, sibling = _encode(plan, ending, bom_plan, bom_sibling)
    for step in plan.payloads:
        result = run_lookup(
            body,
            sibling,
            step_id=step,
            generated_at=other.text(),
            issue_number=plan.issue_number,
        )
        assert result.status is Status.STALE_SPINE, result
        assert result.dispatched_generated_at == other.text()
        assert result.current_generated_at == plan.generated_at.text()
        assert result.slice is None
