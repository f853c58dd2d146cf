"""Render mode's decision (SPEC 13): the ports table, the steps of the graph, and the one-line
reason of every plan without a (valid) spine, from real comment bodies."""

from __future__ import annotations

import pytest

from frame_spine.core.plan import scan_bodies
from frame_spine.core.status import Status
from frame_spine.modes.render.models import PortRow, RenderResult, StepNode
from frame_spine.modes.render.rules import render_scanned
from frame_spine.validation.rules import validate_scanned
from tests.builders import TS, entry, plan_marker, slice_block, spine_block
from tests.conftest import REPO

PLAN_TEXT = (REPO / "examples" / "plan-878.md").read_text("utf-8")
SIBLING_TEXT = (REPO / "examples" / "sibling-878.md").read_text("utf-8")


def render(
    plan: str,
    sibling: str | None = None,
    *,
    canonical: frozenset[str] | None = None,
    issue: int | None = 7,
) -> RenderResult:
    comments = scan_bodies(plan, sibling)
    findings = validate_scanned(comments, issue_number=issue)
    return render_scanned(
        comments, findings=findings, issue=issue, plan_comment_id=None, canonical=canonical
    )


def body(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def test_the_878_plan_has_nine_port_rows_in_spine_order() -> None:
    result = render(PLAN_TEXT, SIBLING_TEXT, issue=878)
    assert result.status is Status.OK
    assert result.exit_code == 0
    assert result.generated_at == "2026-07-18T22:20:00Z"
    assert result.spine_digest == (
        "sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a"
    )
    # A token without #cycle:K shows its spine slice's cycle: (SPEC 13 revision 3).
    assert [(row.port, row.step, row.cycle, row.terminal) for row in result.ports] == [
        ("implement-docs", "s1", 1, False),
        ("implement-docs", "s3", 2, False),
        ("implement-docs", "s7", 3, True),
        ("implement-test", "s2", 1, False),
        ("implement-test", "s4", 2, True),
        ("implement-code", "s5", 1, False),
        ("implement-code", "s6", 2, True),
        ("review", "s8", 1, True),
        ("ce-gate-cli", "s9", 1, True),
    ]
    assert all(row.warning is None for row in result.ports)
    assert result.message is None
    assert result.ports_checked is False


def test_the_878_steps_carry_dependencies_and_only_s1_has_a_slice() -> None:
    result = render(PLAN_TEXT, SIBLING_TEXT, issue=878)
    assert [(n.step, n.ports, n.depends_on, n.has_slice, n.terminal) for n in result.steps] == [
        ("s1", ("implement-docs",), (), True, False),
        ("s2", ("implement-test",), (), False, False),
        ("s3", ("implement-docs",), ("s2",), False, False),
        ("s4", ("implement-test",), (), False, True),
        ("s5", ("implement-code",), ("s4",), False, False),
        ("s6", ("implement-code",), ("s1",), False, True),
        ("s7", ("implement-docs",), ("s5",), False, True),
        ("s8", ("review",), ("s7",), False, True),
        ("s9", ("ce-gate-cli",), ("s8",), False, True),
    ]
    assert result.findings is not None
    assert (result.findings.errors, result.findings.warnings) == (8, 1)


def test_without_the_sibling_no_step_has_a_slice() -> None:
    result = render(PLAN_TEXT, issue=878)
    assert result.status is Status.OK
    assert [node.has_slice for node in result.steps] == [False] * 9


def test_unknown_port_is_a_warning_on_every_token_of_that_port() -> None:
    canonical = frozenset({"implement-docs", "implement-test", "implement-code", "review"})
    result = render(PLAN_TEXT, SIBLING_TEXT, canonical=canonical, issue=878)
    assert result.status is Status.OK
    assert [(row.port, row.warning) for row in result.ports if row.warning] == [
        ("ce-gate-cli", "unknown-port")
    ]
    assert result.ports_checked is True


def test_port_names_are_compared_without_case() -> None:
    plan = body(plan_marker(7), *spine_block("ports:", "  Code-Port: [s1]"))
    assert render(plan, canonical=frozenset({"code-port"})).ports == (
        PortRow(port="Code-Port", step="s1", cycle=None, terminal=False, warning=None),
    )


def test_an_empty_canonical_set_warns_on_every_port() -> None:
    plan = body(plan_marker(7), *spine_block("ports:", "  code: [s1]", "  docs: [s2]"))
    assert [row.warning for row in render(plan, canonical=frozenset()).ports] == [
        "unknown-port",
        "unknown-port",
    ]


def test_a_step_named_twice_is_one_node_with_both_ports() -> None:
    plan = body(
        plan_marker(7),
        *spine_block(
            "ports:",
            "  code: [s1, s2#cycle:2]",
            "  docs: [s2#terminal]",
            "slices:",
            *entry("s1"),
            *entry("s2", depends_on="[s1]"),
        ),
        *slice_block("s2", "provides: [code, docs]"),
    )
    result = render(plan)
    assert result.steps == (
        StepNode(step="s1", ports=("code",), depends_on=(), has_slice=False, terminal=False),
        StepNode(
            step="s2",
            ports=("code", "docs"),
            depends_on=("s1",),
            has_slice=True,
            terminal=True,
            lanes=("s1",),
        ),
    )


def test_terminal_true_in_the_slices_map_marks_the_node() -> None:
    plan = body(
        plan_marker(7),
        *spine_block("ports:", "  code: [s1]", "slices:", *entry("s1", "    terminal: true")),
    )
    assert [node.terminal for node in render(plan).steps] == [True]


def test_cycle_and_terminal_fall_back_to_the_spine_slice() -> None:
    # SPEC 13 revision 3: a token's cycle is its #cycle:K, else its slice's cycle:; it is
    # terminal when the token says #terminal or the slice says terminal: true. Cycle 0 stays
    # 0, from the token or from the slice; a step without a slices: entry has no cycle.
    plan = body(
        plan_marker(7),
        *spine_block(
            "ports:",
            "  code: [s1, s2, s3#cycle:0, s4#cycle:2, s5#terminal, s9]",
            "  docs: [s2#cycle:5]",
            "slices:",
            *entry("s1"),
            *[line.replace("cycle: 1", "cycle: 0") for line in entry("s2")],
            *entry("s3", "    terminal: true"),
            *entry("s4", "    terminal: false"),
            *entry("s5"),
        ),
    )
    result = render(plan)
    assert [(row.port, row.step, row.cycle, row.terminal) for row in result.ports] == [
        ("code", "s1", 1, False),
        ("code", "s2", 0, False),
        ("code", "s3", 0, True),
        ("code", "s4", 2, False),
        ("code", "s5", 1, True),
        ("code", "s9", None, False),
        ("docs", "s2", 5, False),
    ]
    assert [(node.step, node.terminal) for node in result.steps] == [
        ("s1", False),
        ("s2", False),
        ("s3", True),
        ("s4", False),
        ("s5", True),
        ("s9", False),
    ]


def test_steps_carry_their_lane_predecessors() -> None:
    # code lists s1, s3, s2: s3 after s1, s2 after s3 (SPEC 14); docs lists s2, s1, which
    # would close a cycle (code is sorted first): dropped.
    plan = body(
        plan_marker(7),
        *spine_block(
            "ports:",
            "  code: [s1, s3, s2]",
            "  docs: [s2, s1]",
            "slices:",
            *entry("s1"),
            *entry("s2", depends_on="[s1]"),
            *entry("s3"),
        ),
    )
    result = render(plan)
    assert [(node.step, node.depends_on, node.lanes) for node in result.steps] == [
        ("s1", (), ()),
        ("s2", ("s1",), ("s3",)),
        ("s3", (), ("s1",)),
    ]
    assert result.findings is not None
    assert [f.code for f in result.findings.findings if f.code == "lane-order-conflict"] == [
        "lane-order-conflict"
    ]


@pytest.mark.parametrize(
    ("frontmatter", "message"),
    [
        (
            "plan-variant: goal-contract",
            "no spine: a goal-contract plan (plan-variant: goal-contract) has none by design",
        ),
        ("plan-variant: brief", "no spine: a brief plan (plan-variant: brief) has none by design"),
        (
            'plan-variant: "brief"',
            "no spine: a brief plan (plan-variant: brief) has none by design",
        ),
        (
            "spine-omitted: plan-too-small",
            "no spine: the plan says spine-omitted: plan-too-small (none by design)",
        ),
    ],
)
def test_spineless_by_design_plans_say_why(frontmatter: str, message: str) -> None:
    result = render(body(plan_marker(7), "---", frontmatter, "---", "# Plan"))
    assert (result.status, result.exit_code, result.message) == (
        Status.MISSING_SPINE,
        0,
        message,
    )
    assert (result.ports, result.steps, result.generated_at) == ((), (), None)


def test_a_variant_plan_with_a_spine_is_ambiguous() -> None:
    plan = body(
        plan_marker(7),
        "---",
        "plan-variant: goal-contract",
        "---",
        *spine_block("ports:", "  code: [s1]"),
    )
    result = render(plan)
    assert (result.status, result.exit_code) == (Status.MISSING_SPINE, 0)
    assert result.message == (
        "no spine drawn: a goal-contract plan (plan-variant: goal-contract) has no spine by "
        "design, but the plan comment also carries a frame-spine block (line 5): ambiguous"
    )
    assert result.ports == ()


def test_a_variant_plan_whose_spine_is_in_the_sibling_is_ambiguous() -> None:
    plan = body(plan_marker(7), "---", "plan-variant: brief", "---")
    sibling = body("<!-- frame-slices-7 -->", *spine_block("ports:", "  code: [s1]"))
    assert render(plan, sibling).message == (
        "no spine drawn: a brief plan (plan-variant: brief) has no spine by design, but the "
        "sibling comment also carries a frame-spine block (line 2): ambiguous"
    )


def test_a_legacy_prose_plan_says_so() -> None:
    result = render(body(plan_marker(7), "# Plan", "", "1. write the code"))
    assert (result.status, result.exit_code, result.message) == (
        Status.MISSING_SPINE,
        0,
        "no spine: a legacy prose plan (no frame-spine block in the plan comment)",
    )


def test_a_plan_with_an_unknown_variant_names_it_not_a_legacy_plan() -> None:
    # As validate's unknown-variant (SPEC 10): a typo is named, never taken for prose.
    result = render(body(plan_marker(7), "---", "plan-variant: 'breif'", "---", "# Plan"))
    assert (result.status, result.exit_code, result.message) == (
        Status.MISSING_SPINE,
        0,
        "no spine: plan-variant 'breif' is not a plan variant (brief or goal-contract), and "
        "the plan carries no frame-spine block",
    )
    assert [finding.code for finding in result.findings.findings] == ["unknown-variant"]


def test_a_legacy_prose_plan_with_a_sibling_names_both_comments() -> None:
    result = render(body(plan_marker(7), "# Plan"), body("<!-- frame-slices-7 -->"))
    assert result.message == (
        "no spine: a legacy prose plan (no frame-spine block in the plan comment or its sibling)"
    )


def test_a_spine_only_in_a_code_example_is_no_spine() -> None:
    plan = body(plan_marker(7), "```", *spine_block("ports:", "  code: [s1]"), "```")
    assert render(plan).message == (
        "no spine: the only frame-spine heads are code examples (in fenced or indented code blocks)"
    )


def test_an_empty_body_is_no_spine() -> None:
    result = render("   \n")
    assert (result.status, result.message) == (
        Status.MISSING_SPINE,
        "no spine: the comment body is empty",
    )


def test_an_invalid_spine_keeps_the_port_lines_that_parsed() -> None:
    plan = body(
        plan_marker(7),
        *spine_block("ports:", "  code: [s1, s2#cycle:x]", "  docs: [s3#cycle:2#terminal]"),
    )
    result = render(plan)
    assert (result.status, result.exit_code) == (Status.INVALID_SPINE, 1)
    assert result.message == (
        "invalid frame-spine: line 6 of the plan comment: port code has a malformed port token "
        "'s2#cycle:x' (expected sN[#cycle:K][#terminal]): 'code: [s1, s2#cycle:x]'"
    )
    assert result.ports == (PortRow(port="docs", step="s3", cycle=2, terminal=True, warning=None),)
    assert [node.step for node in result.steps] == ["s3"]
    assert (result.generated_at, result.spine_digest) == (None, None)


def test_two_spines_are_invalid_with_an_empty_table() -> None:
    spine = spine_block("ports:", "  code: [s1]")
    result = render(body(plan_marker(7), *spine, *spine))
    assert (result.status, result.ports, result.steps) == (Status.INVALID_SPINE, (), ())
    assert result.message == (
        "2 frame-spine blocks (line 2 of the plan comment, line 8 of the plan comment); exactly "
        "one is allowed"
    )


def test_an_unterminated_spine_is_invalid() -> None:
    plan = body(
        plan_marker(7), "<!-- frame-spine", "spine_schema_version: 2", f"generated_at: {TS}"
    )
    result = render(plan)
    assert (result.status, result.exit_code, result.ports) == (Status.INVALID_SPINE, 1, ())
