"""Properties of validate mode (SPEC 10): it never raises, and a plan that validates with no
error looks up ``ok`` for every step in its spine."""

from __future__ import annotations

from hypothesis import event, given
from hypothesis import strategies as st

from frame_spine.core.plan import scan_bodies
from frame_spine.core.spine import parse_spine
from frame_spine.core.status import Status
from frame_spine.modes.lookup.models import LookupRequest
from frame_spine.modes.lookup.rules import lookup
from frame_spine.modes.validate.render import validation_json, validation_text
from frame_spine.validation.models import ValidationResult
from frame_spine.validation.rules import validate_scanned
from tests.builders import checked_request
from tests.modes.lookup.test_properties import ISSUE, SETTINGS, grammar_text, mutated_cases

STAMP = "2026-05-04T14:30:00Z"
POINTER = 4995965999


@st.composite
def clean_plans(draw: st.DrawFn) -> tuple[str, str | None]:
    """A plan that SPEC 10 finds nothing wrong with: canonical ports, every step carried by
    exactly one slice that provides every port routing to it, acyclic known dependencies."""
    count = draw(st.integers(1, 6))
    steps = [
        f"s{n}"
        for n in draw(st.lists(st.integers(1, 500), min_size=count, max_size=count, unique=True))
    ]
    ports = sorted(
        draw(
            st.lists(
                st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True),
                min_size=1,
                max_size=3,
                unique=True,
            )
        )
    )
    routes: dict[str, list[str]] = {port: [] for port in ports}
    for step in steps:
        for port in draw(st.lists(st.sampled_from(ports), min_size=1, unique=True)):
            routes[port].append(step)
    provided = {step: [port for port in ports if step in routes[port]] for step in steps}
    split = draw(st.booleans())
    spine = [
        "<!-- frame-spine",
        "spine_schema_version: 2",
        f"generated_at: {STAMP}",
        draw(st.sampled_from(["coverage: complete", "coverage: exploratory - spike"])),
    ]
    if split:
        spine.append(f"slice_comment_id: {POINTER}")
    spine.append("ports:")
    spine += [f"  {port}: [{', '.join(routes[port])}]" for port in ports]
    spine.append("slices:")
    for index, step in enumerate(steps):
        deps = draw(st.lists(st.sampled_from(steps[:index]), unique=True)) if index else []
        spine += [
            f"  {step}:",
            "    ac_refs: [AC1]",
            f"    depends_on: [{', '.join(deps)}]",
            f"    cycle: {draw(st.integers(0, 3))}",
        ]
    spine.append("-->")
    blocks = [
        [
            "<!-- frame-slice",
            f"step_id: {step}",
            f"provides: [{', '.join(provided[step])}]",
            f"rc: do {step}",
            "-->",
        ]
        for step in steps
    ]
    plan = [f"<!-- plan-issue-{ISSUE} -->", "", "# Plan", "", *spine, ""]
    sibling = [f"<!-- frame-slices-{ISSUE} -->", f"<!-- frame-slices-generated-at: {STAMP} -->", ""]
    for block in blocks:
        (sibling if split and draw(st.booleans()) else plan).extend([*block, ""])
    return "\n".join(plan), "\n".join(sibling) if split else None


def request(step: str) -> LookupRequest:
    checked = checked_request(step_id=step, generated_at="current", issue_number=ISSUE)
    assert isinstance(checked, LookupRequest)
    return checked


def spine_steps(plan: str, sibling: str | None) -> list[str]:
    comments = scan_bodies(plan, sibling)
    blocks = [b for _c, scan in comments.comments() for b in scan.blocks if b.name == "frame-spine"]
    if not blocks:  # a plan without a spine by design: nothing to look up
        return []
    parsed = parse_spine(blocks[0].payload, blocks[0].payload_line)
    assert parsed.spine is not None
    return sorted(parsed.spine.steps)


@SETTINGS
@given(grammar_text(), grammar_text(), st.sampled_from([None, ISSUE, 8]), st.booleans())
def test_validate_never_raises_and_is_deterministic(
    plan: str, sibling: str, issue: int | None, with_sibling: bool
) -> None:
    comments = scan_bodies(plan, sibling if with_sibling else None)
    first = validate_scanned(comments, issue_number=issue)
    assert first == validate_scanned(comments, issue_number=issue)
    assert first.status in ("valid", "invalid")
    assert first.errors == sum(f.severity.value == "error" for f in first.findings)
    validation_json(first)
    validation_text(first)


@SETTINGS
@given(clean_plans())
def test_generated_clean_plans_validate_and_every_step_looks_up_ok(
    pair: tuple[str, str | None],
) -> None:
    plan, sibling = pair
    result = validate_scanned(scan_bodies(plan, sibling), issue_number=ISSUE)
    assert result == ValidationResult(
        status="valid", findings=result.findings, warnings=result.warnings
    )
    assert [f.code for f in result.findings if f.code != "exploratory-slice"] == []
    for step in spine_steps(plan, sibling):
        assert lookup(request(step), plan, sibling).status is Status.OK


@st.composite
def mutated_clean_plans(draw: st.DrawFn) -> tuple[str, str, str, object]:
    """A clean plan with a few lines deleted, duplicated or swapped for grammar noise."""
    plan, sibling = draw(clean_plans())
    pair = [plan, sibling]
    for _ in range(draw(st.integers(1, 3))):
        which = 1 if pair[1] is not None and draw(st.booleans()) else 0
        lines = (pair[which] or "").split("\n")
        at = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["delete", "duplicate", "noise"]))
        if edit == "delete":
            del lines[at]
        elif edit == "duplicate":
            lines.insert(at, lines[at])
        else:
            lines.insert(at, draw(grammar_text(allow_cr=False)))
        pair[which] = "\n".join(lines)
    mode = "sibling" if pair[1] is not None else "plan"
    return mode, pair[0] or "", pair[1] or "", None


@SETTINGS
@given(st.one_of(mutated_cases(allow_cr=False), mutated_clean_plans()))
def test_no_error_findings_means_every_step_looks_up_ok(case: tuple[str, str, str, object]) -> None:
    mode, plan, sibling, _inputs = case
    body_sibling = sibling if mode == "sibling" else None
    result = validate_scanned(scan_bodies(plan, body_sibling), issue_number=ISSUE)
    event(f"validate: {result.status}")
    if result.errors:
        return
    for step in spine_steps(plan, body_sibling):
        assert lookup(request(step), plan, body_sibling).status is Status.OK, step
