"""Validate mode (SPEC 10): one test (at least) per finding code, valid plans, the real
issue-878 plan, comment order, and rendering (``render_findings``).

Codes, severities and where a finding applies (comment, line, step, port) come from SPEC 10
and the issue; message texts are the code's own (pinned). Every test compares the WHOLE
findings list, so no other finding can sneak in. ``older-plan-comments`` is only produced by
the online discovery and is tested with it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frame_spine.core.plan import scan_bodies
from frame_spine.modes.validate.render import validation_dict, validation_json, validation_text
from frame_spine.validation.findings import where
from frame_spine.validation.models import (
    Code,
    Finding,
    Severity,
    ValidationResult,
    Verdict,
    finding,
)
from frame_spine.validation.rules import validate_scanned
from tests.builders import TS, entry, plan_marker, sibling_head, slice_block, spine_block

LATER = "2026-05-05T09:00:00Z"
ISSUE = 7
POINTER = 5013460780
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

E, W, N = "error", "warning", "notice"

Row = tuple[str, str, str | None, int | None, str | None, str | None]

# --- building comments ----------------------------------------------------------------------


def body(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def plan(*lines: str) -> str:
    """``<!-- plan-issue-7 -->`` on line 1, a blank line 2; ``lines`` start on line 3."""
    return body(plan_marker(ISSUE), "", *lines)


def spine(*lines: str) -> list[str]:
    """Head, ``spine_schema_version: 2``, ``generated_at``, then ``lines``, then ``-->``.

    In :func:`plan` the head is line 3 and the first of ``lines`` is line 6.
    """
    return spine_block(*lines)


def sibling(*lines: str, issue: int = ISSUE, stamp: str = TS) -> str:
    """Marker on line 1, stamp on line 2, blank line 3; ``lines`` start on line 4."""
    return body(*sibling_head(issue, stamp), "", *lines)


# The spine of a split plan, lines 3-14 of plan(*SPLIT_SPINE): slice_comment_id on line 6,
# the port on line 8, s1 on line 10.
SPLIT_SPINE = spine(
    f"slice_comment_id: {POINTER}",
    "ports:",
    "  implement-code: [s1]",
    "slices:",
    *entry("s1"),
)
# The smallest spine, lines 3-13 of plan(*SPINE_S1): the port on line 7, s1 on line 9, its
# depends_on on line 11; a block after it starts on line 14.
SPINE_S1 = spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1"))
# The slice block for s1 (4 lines).
S1 = slice_block("s1", "provides: [implement-code]")


def validate(
    plan_body: str,
    sibling_body: str | None = None,
    *,
    issue_number: int | None = ISSUE,
    sibling_id: int | None = None,
) -> ValidationResult:
    return validate_scanned(
        scan_bodies(plan_body, sibling_body), issue_number=issue_number, sibling_id=sibling_id
    )


def rows(result: ValidationResult) -> list[Row]:
    return [(f.severity.value, f.code, f.comment, f.line, f.step, f.port) for f in result.findings]


def messages(result: ValidationResult) -> list[str]:
    return [finding.message for finding in result.findings]


def check(result: ValidationResult, expected: list[Row]) -> None:
    """The whole findings list, and the status and counts that follow from it."""
    assert rows(result) == expected
    errors = sum(row[0] == E for row in expected)
    warnings = sum(row[0] == W for row in expected)
    assert (result.status, result.errors, result.warnings) == (
        "invalid" if errors else "valid",
        errors,
        warnings,
    )
    assert result.message is None
    assert result.exit_code == (1 if errors else 0)


# --- valid plans -----------------------------------------------------------------------------


def test_minimal_valid_plan() -> None:
    result = validate(
        plan(
            *spine(
                "coverage: complete", "ports:", "  implement-code: [s1]", "slices:", *entry("s1")
            ),
            *S1,
        )
    )
    check(result, [])
    assert result.findings == ()


def test_valid_plan_with_several_ports_in_canonical_order() -> None:
    result = validate(
        plan(
            *spine(
                "coverage: complete",
                "ports:",
                "  implement-code: [s1, s2#cycle:2#terminal]",
                "  review: [s3#terminal]",
                "slices:",
                *entry("s1"),
                *entry("s2", depends_on="[s1]"),
                *entry("s3", "    terminal: true", depends_on="[s1, s2]"),
            ),
            *S1,
            *slice_block("s2", "provides: [implement-code]"),
            *slice_block("s3", "ports: [review]"),
        )
    )
    check(result, [])


def test_minimal_valid_split_plan() -> None:
    result = validate(plan(*SPLIT_SPINE), sibling(*S1), sibling_id=POINTER)
    check(result, [])


def test_valid_split_plan_with_crlf_bom_and_a_stamp_of_the_same_instant() -> None:
    plan_body = "\ufeff" + plan(*SPLIT_SPINE).replace("\n", "\r\n")
    sibling_body = sibling(*S1, stamp="2026-05-04T14:30:00.000Z").replace("\n", "\r\n")
    check(validate(plan_body, sibling_body, sibling_id=POINTER), [])


@pytest.mark.parametrize("dash", ["-", "\u2013", "\u2014"])
def test_spine_coverage_exploratory_is_no_finding(dash: str) -> None:
    # SPEC 10: the spine's coverage may be `exploratory <dash> <reason>`; only a slice's
    # exploratory coverage is a warning (the code's behaviour, pinned).
    result = validate(
        plan(
            *spine(
                f"coverage: exploratory {dash} spike first",
                "ports:",
                "  implement-code: [s1]",
                "slices:",
                *entry("s1"),
            ),
            *S1,
        )
    )
    check(result, [])


# --- missing-spine, no-spine-by-design, variants ----------------------------------------------


def test_missing_spine() -> None:
    result = validate(plan("# Implementation Plan", "", "prose only"))
    check(result, [(E, "missing-spine", "plan", None, None, None)])
    assert messages(result) == ["no frame-spine block in the plan comment"]


def test_missing_spine_when_only_a_fenced_example_and_a_prose_mention() -> None:
    result = validate(
        plan(
            "see `<!-- frame-spine ... -->` in prose",
            "```markdown",
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1")),
            "```",
        )
    )
    check(result, [(E, "missing-spine", "plan", None, None, None)])
    assert messages(result) == [
        "no frame-spine block outside code: the frame-spine heads found are code examples "
        "(in fenced or indented code blocks), not blocks"
    ]


def test_a_variant_line_outside_the_frontmatter_does_not_count() -> None:
    # Prose first, then a --- block: not the frontmatter (SPEC 10), so no spine is an error.
    result = validate(plan("# Plan", "", "---", "plan-variant: brief", "---"))
    check(result, [(E, "missing-spine", "plan", None, None, None)])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("plan-variant: brief", "no spine: a brief plan (plan-variant: brief) has none by design"),
        (
            'plan-variant: "goal-contract"',
            "no spine: a goal-contract plan (plan-variant: goal-contract) has none by design",
        ),
        (
            "spine-omitted: plan-too-small",
            "no spine: a plan that says spine-omitted: plan-too-small has none by design",
        ),
        (
            "spine-omitted: 'plan-too-small'",
            "no spine: a plan that says spine-omitted: plan-too-small has none by design",
        ),
    ],
)
def test_no_spine_by_design(line: str, message: str) -> None:
    result = validate(plan("---", "status: pending", line, "---", "", "# Brief"))
    check(result, [(N, "no-spine-by-design", "plan", 5, None, None)])
    assert messages(result) == [message]


def test_no_spine_by_design_frontmatter_after_html_comment_lines() -> None:
    result = validate(
        plan(
            "<!-- phase-containment-ledger-ref: 1 -->",  # 3
            "<!-- a comment",  # 4
            "spanning lines -->",  # 5
            "",  # 6
            "---",  # 7
            "plan-variant: goal-contract",  # 8
            "---",  # 9
        )
    )
    check(result, [(N, "no-spine-by-design", "plan", 8, None, None)])


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("plan-variant: brief", "a brief plan (plan-variant: brief)"),
        ("plan-variant: goal-contract", "a goal-contract plan (plan-variant: goal-contract)"),
    ],
)
def test_variant_with_spine(line: str, reason: str) -> None:
    # SPEC 10 revision 2: spine-omitted with a spine is a warning (spine-omitted-with-spine,
    # tests/modes/validate/test_rules_revision2.py); a variant with a spine stays an error.
    result = validate(
        plan(
            "---",  # 3
            line,  # 4
            "---",  # 5
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1")),  # 6-16
            *S1,
        )
    )
    check(result, [(E, "variant-with-spine", "plan", 6, None, None)])
    assert messages(result) == [
        f"{reason} carries no spine by design, but a frame-spine block is at line 6"
    ]


def test_ambiguous_variant_of_two_spineless_variants() -> None:
    result = validate(plan("---", "plan-variant: brief", "plan-variant: goal-contract", "---"))
    # No notice: which variant the plan is cannot be told (the code's behaviour, pinned).
    check(result, [(E, "ambiguous-variant", "plan", 5, None, None)])
    assert messages(result) == [
        "2 plan-variant lines in the frontmatter (brief, goal-contract); at most one is allowed"
    ]


def test_ambiguous_variant_with_a_spine() -> None:
    result = validate(
        plan(
            "---",  # 3
            "plan-variant: brief",  # 4
            "plan-variant: full",  # 5
            "---",  # 6
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1")),  # 7-17
            *S1,
        )
    )
    # SPEC 10 revision 2: "full" is not a variant (unknown-variant, at its line).
    check(
        result,
        [
            (E, "ambiguous-variant", "plan", 5, None, None),
            (E, "unknown-variant", "plan", 5, None, None),
            (E, "variant-with-spine", "plan", 7, None, None),
        ],
    )


def test_ambiguous_variant_of_unknown_variants_names_each_and_is_not_missing_spine() -> None:
    # SPEC 10 revision 2: a value other than brief/goal-contract is unknown-variant, checked
    # before the spine: each such line is named, and no missing-spine is reported (before
    # revision 2: missing-spine and ambiguous-variant).
    result = validate(plan("---", "plan-variant: full", "plan-variant: full", "---"))
    check(
        result,
        [
            (E, "unknown-variant", "plan", 4, None, None),
            (E, "ambiguous-variant", "plan", 5, None, None),
            (E, "unknown-variant", "plan", 5, None, None),
        ],
    )


def test_an_unknown_variant_with_a_valid_spine_is_not_waved_through() -> None:
    # SPEC 10 revision 2 (before: valid): only brief and goal-contract are variants.
    result = validate(
        plan(
            "---",
            "plan-variant: full",  # 4
            "---",
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1")),
            *S1,
        )
    )
    check(result, [(E, "unknown-variant", "plan", 4, None, None)])
    assert messages(result) == [
        "plan-variant 'full' is not a plan variant (brief or goal-contract); a plan with a "
        "spine has no plan-variant line"
    ]


# --- multiple-spines, invalid-spine, unterminated-block, slice-without-id ----------------------


def test_multiple_spines() -> None:
    result = validate(plan(*SPINE_S1, *SPINE_S1, *S1))  # spines at lines 3 and 14
    check(result, [(E, "multiple-spines", "plan", 14, None, None)])
    assert messages(result) == ["another frame-spine block at line 14; exactly one is allowed"]


def test_multiple_spines_one_finding_per_extra_spine_across_comments() -> None:
    result = validate(plan(*SPINE_S1, *SPINE_S1, *S1), sibling(*SPINE_S1))
    check(
        result,
        [
            (E, "multiple-spines", "plan", 14, None, None),
            (E, "multiple-spines", "sibling", 4, None, None),
        ],
    )


def test_invalid_spine_one_finding_per_offending_line() -> None:
    result = validate(
        plan(
            *spine(
                "owner: me",  # 6
                "ports:",  # 7
                "  implement-code: [s1]",  # 8
                "   review: [s1]",  # 9: three spaces
                "\t  docs: [s1]",  # 10: tab
                "slices:",  # 11
                "  s1:",  # 12
                "    ac_refs: [AC1]",  # 13
                "    depends_on: []",  # 14
                "    cycle: x",  # 15
            ),
            *S1,
        )
    )
    check(
        result,
        [
            (E, "invalid-spine", "plan", 6, None, None),
            (E, "invalid-spine", "plan", 9, None, None),
            (E, "invalid-spine", "plan", 10, None, None),
            (E, "invalid-spine", "plan", 15, None, None),
        ],
    )
    assert messages(result) == [
        "unknown or malformed top-level line: 'owner: me'",
        "a ports: line must be two spaces, name: [tokens]: 'review: [s1]'",
        "tab in indentation: 'docs: [s1]'",
        "cycle of s1 is not a non-negative integer: 'cycle: x'",
    ]


def test_invalid_spine_two_problems_on_one_line_give_one_finding() -> None:
    result = validate(
        plan(
            *spine("ports:", "  implement-code: [s1]", "slices:", "  s1:", "    cycle: 1"),  # s1: 9
            *S1,
        )
    )
    check(result, [(E, "invalid-spine", "plan", 9, None, None)])
    assert messages(result) == ["slice s1 has no ac_refs: 's1:'"]


def test_invalid_spine_whole_spine_problems_point_at_the_head() -> None:
    # Problems of no particular line are reported at the spine's head line (pinned).
    result = validate(plan(*spine("coverage: complete")))
    check(
        result,
        [
            (E, "invalid-spine", "plan", 3, None, None),
            (E, "invalid-spine", "plan", 3, None, None),
        ],
    )
    assert messages(result) == ["no ports: section", "no slices: section"]


def test_unterminated_spine_is_not_also_missing_spine() -> None:
    result = validate(plan("<!-- frame-spine", "spine_schema_version: 2", f"generated_at: {TS}"))
    check(result, [(E, "unterminated-block", "plan", 3, None, None)])
    assert messages(result) == ["the frame-spine head at line 3 has no closing -->"]


def test_unterminated_slice_in_the_sibling() -> None:
    result = validate(
        plan(*SPLIT_SPINE),
        sibling(*S1, "", "<!-- frame-slice", "step_id: s2"),  # S1 on 4-7, head on 9
    )
    check(result, [(E, "unterminated-block", "sibling", 9, None, None)])
    assert messages(result) == ["the frame-slice head at line 9 has no closing -->"]


def test_slice_without_id() -> None:
    result = validate(
        plan(
            *SPINE_S1, *S1, "<!-- frame-slice", "  step_id: s1", "provides: [implement-code]", "-->"
        )
    )
    check(result, [(E, "slice-without-id", "plan", 18, None, None)])
    assert messages(result) == [
        "the frame-slice block at line 18 has no column-0 step_id: (or id:) line"
    ]


def test_a_slice_without_id_carries_no_step() -> None:
    result = validate(plan(*SPINE_S1, "<!-- frame-slice", "provides: [implement-code]", "-->"))
    check(
        result,
        [
            (E, "unresolved-step", "plan", 9, "s1", None),
            (E, "slice-without-id", "plan", 14, None, None),
        ],
    )


# --- sibling and identity findings -----------------------------------------------------------


def test_sibling_missing_for_a_pointer_without_sibling() -> None:
    result = validate(plan(*SPLIT_SPINE, *S1))
    check(result, [(E, "sibling-missing", "plan", 6, None, None)])
    assert messages(result) == [
        f"the spine points at sibling comment {POINTER} (slice_comment_id), but there is no "
        "such sibling"
    ]


def test_sibling_missing_for_a_given_sibling_id_without_sibling() -> None:
    result = validate(plan(*SPINE_S1, *S1), sibling_id=99)
    check(result, [(E, "sibling-missing", None, None, None, None)])
    assert messages(result) == ["sibling comment 99 was not found"]


def test_sibling_identity_mismatch_marker_of_another_issue() -> None:
    result = validate(plan(*SPLIT_SPINE), sibling(*S1, issue=8))
    # The foreign marker is on sibling line 1: that is where the finding applies.
    check(result, [(E, "sibling-identity-mismatch", "sibling", 1, None, None)])
    assert messages(result) == [
        "the sibling comment is for issue #8 (a frame-slices marker line), not #7"
    ]


def test_sibling_identity_mismatch_marker_of_another_issue_too() -> None:
    sibling_body = body(
        "<!-- frame-slices-7 -->",  # 1
        "<!-- frame-slices-8 -->",  # 2
        f"<!-- frame-slices-generated-at: {TS} -->",  # 3
        *S1,
    )
    result = validate(plan(*SPLIT_SPINE), sibling_body)
    check(result, [(E, "sibling-identity-mismatch", "sibling", 2, None, None)])
    assert messages(result) == [
        "the sibling comment also carries a frame-slices marker line for issue #8"
    ]


def test_sibling_identity_mismatch_no_marker() -> None:
    result = validate(
        plan(*SPLIT_SPINE), body(f"<!-- frame-slices-generated-at: {TS} -->", "", *S1)
    )
    check(result, [(E, "sibling-identity-mismatch", "sibling", None, None, None)])
    assert messages(result) == ["the sibling comment carries no <!-- frame-slices-7 --> line"]


def test_sibling_identity_mismatch_sibling_id_is_not_the_spine_pointer() -> None:
    result = validate(plan(*SPLIT_SPINE), sibling(*S1), sibling_id=42)
    check(result, [(E, "sibling-identity-mismatch", "plan", 6, None, None)])
    assert messages(result) == [
        f"sibling comment 42 was given, but the plan's spine points at sibling comment {POINTER} "
        "(slice_comment_id)"
    ]


def test_plan_identity_mismatch_marker_of_another_issue() -> None:
    result = validate(body("<!-- plan-issue-8 -->", "", *SPINE_S1, *S1))
    check(result, [(E, "plan-identity-mismatch", "plan", 1, None, None)])
    assert messages(result) == [
        "the plan comment is for issue #8 (a plan-issue marker line), not #7"
    ]


def test_plan_identity_mismatch_marker_of_another_issue_too() -> None:
    result = validate(body("<!-- plan-issue-7 -->", "<!-- plan-issue-8 -->", *SPINE_S1, *S1))
    check(result, [(E, "plan-identity-mismatch", "plan", 2, None, None)])
    assert messages(result) == [
        "the plan comment also carries a plan-issue marker line for issue #8"
    ]


def test_plan_identity_mismatch_no_marker() -> None:
    result = validate(body("# Plan", "", *SPINE_S1, *S1))
    check(result, [(E, "plan-identity-mismatch", "plan", None, None, None)])
    assert messages(result) == ["the plan comment carries no <!-- plan-issue-7 --> line"]


def test_no_identity_checks_without_an_issue_number() -> None:
    result = validate(body("<!-- plan-issue-8 -->", "", *SPINE_S1, *S1), issue_number=None)
    check(result, [])


def test_sibling_unstamped_no_stamp() -> None:
    result = validate(plan(*SPLIT_SPINE), body("<!-- frame-slices-7 -->", "", *S1))
    check(result, [(E, "sibling-unstamped", "sibling", None, None, None)])
    assert messages(result) == [
        "the sibling comment carries no <!-- frame-slices-generated-at: ... --> stamp line"
    ]


def test_sibling_unstamped_a_stamp_in_a_fence_does_not_count() -> None:
    sibling_body = body(
        "<!-- frame-slices-7 -->",
        "```",
        f"<!-- frame-slices-generated-at: {TS} -->",
        "```",
        *S1,
    )
    result = validate(plan(*SPLIT_SPINE), sibling_body)
    check(result, [(E, "sibling-unstamped", "sibling", None, None, None)])


def test_sibling_unstamped_malformed_stamp() -> None:
    result = validate(plan(*SPLIT_SPINE), sibling(*S1, stamp="yesterday"))
    check(result, [(E, "sibling-unstamped", "sibling", 2, None, None)])
    assert messages(result) == ["the stamp of the sibling comment is not a timestamp: 'yesterday'"]


def test_sibling_unstamped_disagreeing_stamps() -> None:
    sibling_body = body(
        "<!-- frame-slices-7 -->",  # 1
        f"<!-- frame-slices-generated-at: {TS} -->",  # 2
        f"<!-- frame-slices-generated-at: {LATER} -->",  # 3
        *S1,
    )
    result = validate(plan(*SPLIT_SPINE), sibling_body)
    check(result, [(E, "sibling-unstamped", "sibling", 3, None, None)])
    assert messages(result) == ["the sibling comment carries 2 stamps that name different instants"]


def test_two_stamps_of_the_same_instant_are_fine() -> None:
    sibling_body = body(
        "<!-- frame-slices-7 -->",
        f"<!-- frame-slices-generated-at: {TS} -->",
        "<!-- frame-slices-generated-at: 2026-05-04T14:30:00.0Z -->",
        *S1,
    )
    check(validate(plan(*SPLIT_SPINE), sibling_body), [])


def test_stale_sibling() -> None:
    result = validate(plan(*SPLIT_SPINE), sibling(*S1, stamp=LATER))
    check(result, [(E, "stale-sibling", "sibling", 2, None, None)])
    assert messages(result) == [
        f"the sibling is stamped {LATER}, but the spine's generated_at is {TS}: its slices "
        "were written for another spine; re-run the planner's persist step so plan and "
        "sibling match"
    ]


# --- steps, slices, ports ----------------------------------------------------------------------


def test_unresolved_step_under_slices() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",  # 6
                "  implement-code: [s1]",  # 7
                "  review: [s2#terminal]",  # 8
                "slices:",  # 9
                *entry("s1"),  # 10-13
                *entry("s2"),  # 14-17
            ),
            *S1,
        )
    )
    # s2 is named by a port token and under slices: one finding, at its slices: entry.
    check(result, [(E, "unresolved-step", "plan", 14, "s2", None)])
    assert messages(result) == [
        "step s2 is in the spine but no frame-slice block carries it (ports routing to it: review)"
    ]


def test_unresolved_step_named_only_by_port_tokens() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",  # 6
                "  implement-code: [s1, s2]",  # 7
                "  review: [s2#cycle:2#terminal]",  # 8
                "slices:",  # 9
                *entry("s1"),
            ),
            *S1,
        )
    )
    # One finding per step, at the first port line naming it; `port` is not set (pinned);
    # the message names every port routing to it, once each, in ports: order.
    check(result, [(E, "unresolved-step", "plan", 7, "s2", None)])
    assert messages(result) == [
        "step s2 is in the spine but no frame-slice block carries it (ports routing to it: "
        "implement-code, review)"
    ]


def test_unresolved_step_with_a_missing_sibling() -> None:
    result = validate(plan(*SPLIT_SPINE))
    check(
        result,
        [
            (E, "sibling-missing", "plan", 6, None, None),
            (E, "unresolved-step", "plan", 10, "s1", None),
        ],
    )


def test_duplicate_slice_id() -> None:
    result = validate(
        plan(
            *SPINE_S1,  # 3-13
            *S1,  # 14-17
            *S1,  # 18-21
            *slice_block("S1", "provides: [implement-code]"),  # 22-25
        )
    )
    check(result, [(E, "duplicate-slice-id", "plan", 18, "s1", None)])
    assert messages(result) == ["3 frame-slice blocks carry step s1"]


def test_duplicate_slice_id_across_plan_and_sibling() -> None:
    result = validate(plan(*SPLIT_SPINE, *S1), sibling(*S1))
    check(result, [(E, "duplicate-slice-id", "sibling", 4, "s1", None)])
    assert messages(result) == ["2 frame-slice blocks carry step s1"]


def test_port_not_provided() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",
                "  implement-code: [s1]",
                "  review: [s1#terminal]",
                "slices:",
                *entry("s1"),
            ),  # 3-14
            *slice_block("s1", "provides: [implement-docs]"),  # 15
        )
    )
    check(
        result,
        [
            (E, "port-not-provided", "plan", 15, "s1", "implement-code"),
            (E, "port-not-provided", "plan", 15, "s1", "review"),
        ],
    )
    assert messages(result) == [
        "port implement-code routes to s1, but its slice's provides: [implement-docs] omits it",
        "port review routes to s1, but its slice's provides: [implement-docs] omits it",
    ]


def test_port_not_provided_slice_in_the_sibling() -> None:
    result = validate(
        plan(*SPLIT_SPINE), sibling(*slice_block("s1", "ports: [review]")), sibling_id=POINTER
    )
    check(result, [(E, "port-not-provided", "sibling", 4, "s1", "implement-code")])
    assert messages(result) == [
        "port implement-code routes to s1, but its slice's provides: [review] omits it"
    ]


def test_port_not_provided_once_per_port_and_slice() -> None:
    # The port routes to s1 twice (two cycles); the slice omits the port once: one finding.
    result = validate(
        plan(
            *spine("ports:", "  implement-code: [s1, s1#cycle:2]", "slices:", *entry("s1")),
            *slice_block("s1", "provides: [review]"),  # 14
        )
    )
    check(result, [(E, "port-not-provided", "plan", 14, "s1", "implement-code")])


def test_provides_and_ports_keys_match_ports_case_insensitively() -> None:
    result = validate(
        plan(
            *spine("ports:", "  Implement-Code: [s1]", "slices:", *entry("s1")),
            *slice_block("s1", "ports: [implement-code]"),
        )
    )
    check(result, [])


@pytest.mark.parametrize(
    "lines",
    [
        ("rc: no provides line",),
        ("provides: implement-code",),
        ("  provides: [implement-code]",),
        ("coverage: exploratory",),
    ],
)
def test_slice_without_provides(lines: tuple[str, ...]) -> None:
    result = validate(plan(*SPINE_S1, *slice_block("s1", *lines)))  # slice head on 14
    # SPEC 10 revision 2: the port routed to it is not provided either (before: only
    # slice-without-provides).
    check(
        result,
        [
            (E, "slice-without-provides", "plan", 14, "s1", None),
            (E, "port-not-provided", "plan", 14, "s1", "implement-code"),
        ],
    )
    assert messages(result) == [
        "slice s1 has neither a provides:/ports: inline list nor coverage: exploratory - <reason>",
        "port implement-code routes to s1, but its slice has no provides:/ports: list",
    ]


def test_unknown_dependency() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",
                "  implement-code: [s2, s1]",
                "slices:",
                *entry("s1", depends_on="[s2, s9]"),  # s1: 9, depends_on: 11
            ),
            *S1,
            *slice_block("s2", "provides: [implement-code]"),
        )
    )
    # s2 is in the spine (a port token names it), s9 is not.
    check(result, [(E, "unknown-dependency", "plan", 11, "s1", None)])
    assert messages(result) == ["s1 depends on s9, which is not in the spine"]


def test_dependency_cycle_of_two() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",
                "  implement-code: [s1, s2]",
                "slices:",
                *entry("s1", depends_on="[s2]"),  # s1: 9, depends_on: 11
                *entry("s2", depends_on="[s1]"),  # s2: 13, depends_on: 15
            ),
            *S1,
            *slice_block("s2", "provides: [implement-code]"),
        )
    )
    # The cycle stays the error it was; the lane s1 -> s2 inside it would close one too.
    check(
        result,
        [
            (W, "lane-order-conflict", "plan", 7, "s2", "implement-code"),
            (E, "dependency-cycle", "plan", 11, "s1", None),
        ],
    )
    assert messages(result) == [
        "port implement-code lists s1 before s2, but s2 already comes before s1 (by "
        "depends_on, or by the lane of a port sorted before implement-code): this lane order "
        "is dropped",
        "dependency cycle: s1 -> s2 -> s1",
    ]


def test_dependency_cycle_self_loop() -> None:
    result = validate(
        plan(
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1", depends_on="[s1]")),
            *S1,
        )
    )
    check(result, [(E, "dependency-cycle", "plan", 11, "s1", None)])
    assert messages(result) == ["dependency cycle: s1 -> s1"]


def test_dependency_cycles_each_reported_once() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",
                "  implement-code: [s1, s2, s3]",
                "slices:",
                *entry("s1", depends_on="[s3]"),  # depends_on: 11
                *entry("s2", depends_on="[s1, s2]"),  # depends_on: 15
                *entry("s3", depends_on="[s2]"),  # depends_on: 19
            ),
            *S1,
            *slice_block("s2", "provides: [implement-code]"),
            *slice_block("s3", "provides: [implement-code]"),
        )
    )
    # Both lane edges lie inside the cycle s1 -> s3 -> s2 -> s1: each is dropped, with a
    # warning, and the cycles stay errors.
    check(
        result,
        [
            (W, "lane-order-conflict", "plan", 7, "s2", "implement-code"),
            (W, "lane-order-conflict", "plan", 7, "s3", "implement-code"),
            (E, "dependency-cycle", "plan", 11, "s1", None),
            (E, "dependency-cycle", "plan", 15, "s2", None),
        ],
    )
    assert messages(result)[2:] == [
        "dependency cycle: s1 -> s3 -> s2 -> s1",
        "dependency cycle: s2 -> s2",
    ]


# --- rules stay iterative and linear (SPEC 10: chains as long as a comment can hold) --------

CHAIN = 5000


def chain_plan(depends_on: dict[int, str], *, lanes: str = "backward") -> str:
    """A plan of ``CHAIN`` steps s1..sN, one slice block each; ``depends_on[i]`` is step i's
    list (``[]`` when absent). ``lanes``: ``"backward"``, one port routing to all from sN
    down to s1 (the order of a chain where each step depends on the next: its lanes agree);
    ``"none"``, one port per step (no lane orders them). s1's depends_on is
    :func:`depends_on_line` (1)."""
    ids = [f"s{i}" for i in range(1, CHAIN + 1)]
    if lanes == "backward":
        ports = {"p": ids[::-1]}
    else:
        ports = {f"p{i:04}": [step] for i, step in enumerate(ids, 1)}
    lines = ["ports:", *(f"  {name}: [{', '.join(steps)}]" for name, steps in ports.items())]
    lines.append("slices:")
    for i in range(1, CHAIN + 1):
        lines += entry(f"s{i}", depends_on=depends_on.get(i, "[]"))
    provides = {step: name for name, steps in ports.items() for step in steps}
    blocks = []
    for step in ids:
        blocks += slice_block(step, f"provides: [{provides[step]}]")
    return plan(*spine(*lines), *blocks)


def depends_on_line(step: int, *, ports: int = 1) -> int:
    """The line of step ``step``'s depends_on in :func:`chain_plan` with ``ports`` port
    lines."""
    return 10 + ports + 5 * (step - 1)


def test_dependency_chain_of_5000_steps_is_valid() -> None:
    # Each step depends on the next: the walk goes 5,000 steps deep (a RecursionError before).
    result = validate(chain_plan({i: f"[s{i + 1}]" for i in range(1, CHAIN)}))
    check(result, [])


def test_dependency_chain_of_5000_steps_against_its_lane_warns_on_every_lane_edge() -> None:
    # One port lists s1..s5000 while each step depends on the next: every lane edge is
    # dropped (depends_on wins), each one warning, in linear time.
    ids = ", ".join(f"s{i}" for i in range(1, CHAIN + 1))
    text = chain_plan({i: f"[s{i + 1}]" for i in range(1, CHAIN)}).replace(
        "  p: [" + ", ".join(f"s{i}" for i in range(CHAIN, 0, -1)) + "]", f"  p: [{ids}]"
    )
    result = validate(text)
    check(
        result, [(W, "lane-order-conflict", "plan", 7, f"s{i + 1}", "p") for i in range(1, CHAIN)]
    )
    assert messages(result)[0] == (
        "port p lists s1 before s2, but s2 already comes before s1 (by depends_on, or by the "
        "lane of a port sorted before p): this lane order is dropped"
    )


def test_dependency_cycle_through_5000_steps_is_one_finding() -> None:
    depends = {i: f"[s{i + 1}]" for i in range(1, CHAIN)} | {CHAIN: "[s1]"}
    result = validate(chain_plan(depends, lanes="none"))
    check(result, [(E, "dependency-cycle", "plan", depends_on_line(1, ports=CHAIN), "s1", None)])
    steps = " -> ".join(f"s{i}" for i in range(1, CHAIN + 1))
    assert messages(result) == [f"dependency cycle: {steps} -> s1"]


def test_dependency_cycles_beyond_20_are_counted_in_one_finding() -> None:
    # Every step depends on the next and on s1: 5,000 cycles through s1, each longer.
    depends = {i: f"[s{i + 1}, s1]" for i in range(1, CHAIN)} | {CHAIN: "[s1]"}
    result = validate(chain_plan(depends, lanes="none"))
    # The walk meets the longest cycle first (s5000 -> s1), then the shorter ones on the way
    # back: s4999 -> s1, ...; the first one not listed is closed at s1 by s4980.
    line = depends_on_line(1, ports=CHAIN)
    expected = [(E, "dependency-cycle", "plan", line, "s1", None)] * 21
    check(result, expected)
    listed = messages(result)[:20]
    assert [len(message.split(" -> ")) for message in listed] == [CHAIN + 1 - k for k in range(20)]
    assert messages(result)[20] == "4980 more dependency cycles (only the first 20 are listed)"


@pytest.mark.parametrize(
    "coverage",
    ["partial", "exploratory", "exploratory -", "exploratory: spike", "Complete"],
)
def test_invalid_coverage(coverage: str) -> None:
    result = validate(
        plan(
            *spine(
                f"coverage: {coverage}", "ports:", "  implement-code: [s1]", "slices:", *entry("s1")
            ),
            *S1,
        )
    )
    check(result, [(E, "invalid-coverage", "plan", 6, None, None)])
    assert messages(result) == [
        f"spine coverage {coverage!r} is neither 'complete' nor 'exploratory - <reason>'"
    ]


# --- warnings ----------------------------------------------------------------------------------


def test_non_canonical_order_reported_once() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",  # 6
                "  review: [s1]",  # 7
                "  implement-code: [s1]",  # 8
                "  docs: [s1]",  # 9
                "slices:",
                *entry("s1"),
            ),
            *slice_block("s1", "provides: [docs, implement-code, review]"),
        )
    )
    check(result, [(W, "non-canonical-order", "plan", 8, None, "implement-code")])
    assert messages(result) == [
        "ports are not in canonical (sorted) order: implement-code comes after review "
        "(expected: docs, implement-code, review)"
    ]


def test_non_canonical_order_compares_code_points() -> None:
    # "Z" (U+005A) sorts before "a" (U+0061): [Z, a] is canonical, [a, Z] is not.
    ok = validate(
        plan(
            *spine("ports:", "  Z: [s1]", "  a: [s1]", "slices:", *entry("s1")),
            *slice_block("s1", "provides: [Z, a]"),
        )
    )
    check(ok, [])
    bad = validate(
        plan(
            *spine("ports:", "  a: [s1]", "  Z: [s1]", "slices:", *entry("s1")),
            *slice_block("s1", "provides: [Z, a]"),
        )
    )
    check(bad, [(W, "non-canonical-order", "plan", 8, None, "Z")])


def test_trailing_whitespace() -> None:
    result = validate(
        plan(
            *spine(
                "coverage: complete ",  # 6
                "ports:",  # 7
                "  implement-code: [s1]\t",  # 8
                "   ",  # 9: whitespace only
                "slices:",
                *entry("s1"),
            ),
            *S1,
        )
    )
    check(
        result,
        [
            (W, "trailing-whitespace", "plan", 6, None, None),
            (W, "trailing-whitespace", "plan", 8, None, None),
            (W, "trailing-whitespace", "plan", 9, None, None),
        ],
    )
    assert messages(result) == [
        "spine line 6 ends with whitespace",
        "spine line 8 ends with whitespace",
        "spine line 9 ends with whitespace",
    ]


def test_trailing_whitespace_on_the_last_spine_line() -> None:
    lines = [*SPINE_S1[:-2], "    cycle: 1  ", "-->"]  # cycle on line 12
    result = validate(plan(*lines, *S1))
    check(result, [(W, "trailing-whitespace", "plan", 12, None, None)])


def test_crlf_line_ends_are_not_trailing_whitespace() -> None:
    result = validate(plan(*SPINE_S1, *S1).replace("\n", "\r\n"))
    check(result, [])


def test_orphan_slice() -> None:
    result = validate(
        plan(*SPINE_S1, *S1, *slice_block("s5", "provides: [implement-code]"))  # s5 head: 18
    )
    check(result, [(W, "orphan-slice", "plan", 18, "s5", None)])
    assert messages(result) == [
        "the frame-slice block for s5 is for a step that is not in the spine"
    ]


def test_unrouted_step() -> None:
    result = validate(
        plan(
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1"), *entry("s2")),
            *S1,
            *slice_block("s2", "provides: [implement-code]"),
        )
    )
    check(result, [(W, "unrouted-step", "plan", 13, "s2", None)])
    assert messages(result) == ["no port routes to step s2"]


@pytest.mark.parametrize("dash", ["-", "\u2013", "\u2014"])
def test_exploratory_slice(dash: str) -> None:
    # s1 is in the spine but no port routes to it: exploratory excuses the missing list.
    result = validate(
        plan(
            *spine(
                "ports:", "  implement-code: [s2]", "slices:", *entry("s1"), *entry("s2")
            ),  # 3-17
            *slice_block("s1", f"coverage: exploratory {dash} spike first"),  # 18
            *slice_block("s2", "provides: [implement-code]"),
        )
    )
    check(
        result,
        [
            (W, "unrouted-step", "plan", 9, "s1", None),
            (W, "exploratory-slice", "plan", 18, "s1", None),
        ],
    )
    assert messages(result) == ["no port routes to step s1", "slice s1 is exploratory: spike first"]


def test_exploratory_slice_with_provides() -> None:
    result = validate(
        plan(
            *SPINE_S1,
            *slice_block("s1", "provides: [implement-code]", "coverage: exploratory - spike"),
        )
    )
    check(result, [(W, "exploratory-slice", "plan", 14, "s1", None)])


def test_terminal_mismatch_terminal_token_but_terminal_false() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",
                "  implement-code: [s1#terminal]",
                "slices:",
                *entry("s1", "    terminal: false"),  # terminal: 12
            ),
            *S1,
        )
    )
    check(result, [(W, "terminal-mismatch", "plan", 12, "s1", None)])
    assert messages(result) == [
        "a port token marks s1 #terminal, but the spine says terminal: false"
    ]


def test_terminal_mismatch_terminal_true_but_no_terminal_token() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",
                "  implement-code: [s1]",
                "slices:",
                *entry("s1", "    terminal: true"),  # terminal: 12
            ),
            *S1,
        )
    )
    check(result, [(W, "terminal-mismatch", "plan", 12, "s1", None)])
    assert messages(result) == [
        "the spine says terminal: true for s1, but no port token marks it #terminal"
    ]


@pytest.mark.parametrize(
    ("token", "props"),
    [("s1#terminal", ()), ("s1", ()), ("s1#terminal", ("    terminal: true",))],
)
def test_no_terminal_mismatch(token: str, props: tuple[str, ...]) -> None:
    result = validate(
        plan(
            *spine("ports:", f"  implement-code: [{token}]", "slices:", *entry("s1", *props)),
            *S1,
        )
    )
    check(result, [])


# --- the real issue-878 plan -----------------------------------------------------------------


def test_real_878_plan_with_only_its_s1_slice() -> None:
    plan_body = (EXAMPLES / "plan-878.md").read_text("utf-8")
    sibling_body = (EXAMPLES / "sibling-878.md").read_text("utf-8")
    result = validate(plan_body, sibling_body, issue_number=878, sibling_id=5013460780)
    # Ports on lines 24-28 (implement-code, line 26, comes after implement-test); the spine's
    # slices: entries s2..s9 on lines 36, 42, ..., 78; only s1 has a block (in the sibling).
    check(
        result,
        [
            (W, "non-canonical-order", "plan", 26, None, "implement-code"),
            (E, "unresolved-step", "plan", 36, "s2", None),
            (E, "unresolved-step", "plan", 42, "s3", None),
            (E, "unresolved-step", "plan", 48, "s4", None),
            (E, "unresolved-step", "plan", 54, "s5", None),
            (E, "unresolved-step", "plan", 60, "s6", None),
            (E, "unresolved-step", "plan", 66, "s7", None),
            (E, "unresolved-step", "plan", 72, "s8", None),
            (E, "unresolved-step", "plan", 78, "s9", None),
        ],
    )
    assert (result.status, result.errors, result.warnings) == ("invalid", 8, 1)
    assert messages(result) == [
        "ports are not in canonical (sorted) order: implement-code comes after implement-test "
        "(expected: ce-gate-cli, implement-code, implement-docs, implement-test, review)",
    ] + [
        f"step {step} is in the spine but no frame-slice block carries it (ports routing to "
        f"it: {port})"
        for step, port in [
            ("s2", "implement-test"),
            ("s3", "implement-docs"),
            ("s4", "implement-test"),
            ("s5", "implement-code"),
            ("s6", "implement-code"),
            ("s7", "implement-docs"),
            ("s8", "review"),
            ("s9", "ce-gate-cli"),
        ]
    ]
    # Without a sibling id the result is the same.
    assert validate(plan_body, sibling_body, issue_number=878) == result


# --- comment order and merged findings --------------------------------------------------------


def test_findings_in_comment_order() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",  # 6
                "  review: [s1]",  # 7
                "  implement-code: [s1, s2]",  # 8
                "slices:",
                *entry("s1"),
            ),
            *slice_block("s1", "provides: [implement-code]"),  # 15
        ),
        body("<!-- frame-slices-7 -->", *slice_block("s5", "provides: [review]")),  # s5: 2
    )
    check(
        result,
        [
            (W, "non-canonical-order", "plan", 8, None, "implement-code"),
            (E, "unresolved-step", "plan", 8, "s2", None),
            (E, "port-not-provided", "plan", 15, "s1", "review"),
            (W, "orphan-slice", "sibling", 2, "s5", None),
        ],
    )


def test_extra_findings_are_merged_in_comment_order() -> None:
    extra = [
        finding(Code.OLDER_PLAN_COMMENTS, "edge finding without a comment"),
        finding(Code.SIBLING_IDENTITY_MISMATCH, "edge finding in the sibling", comment="sibling"),
        finding(Code.PLAN_IDENTITY_MISMATCH, "edge finding at plan line 1", comment="plan", line=1),
    ]
    result = validate_scanned(
        scan_bodies(plan(*SPINE_S1, *S1)),
        issue_number=ISSUE,
        extra=extra,
    )
    check(
        result,
        [
            (E, "plan-identity-mismatch", "plan", 1, None, None),
            (E, "sibling-identity-mismatch", "sibling", None, None, None),
            (W, "older-plan-comments", None, None, None, None),
        ],
    )


# --- rendering ---------------------------------------------------------------------------------


def small_result() -> ValidationResult:
    """port-not-provided at plan:14 (all four places) and sibling-missing (no place)."""
    return validate(
        plan(*SPINE_S1, *slice_block("s1", "provides: [review]")),
        sibling_id=99,
    )


def test_validation_dict_exact() -> None:
    shown = validation_dict(small_result())
    assert list(shown) == ["status", "errors", "warnings", "findings"]
    assert [list(finding) for finding in shown["findings"]] == [
        ["severity", "code", "message", "comment", "line", "step", "port"],
        ["severity", "code", "message"],
    ]
    assert shown == {
        "status": "invalid",
        "errors": 2,
        "warnings": 0,
        "findings": [
            {
                "severity": "error",
                "code": "port-not-provided",
                "message": "port implement-code routes to s1, but its slice's provides: [review] omits it",
                "comment": "plan",
                "line": 14,
                "step": "s1",
                "port": "implement-code",
            },
            {
                "severity": "error",
                "code": "sibling-missing",
                "message": "sibling comment 99 was not found",
            },
        ],
    }


def test_validation_dict_of_a_valid_result() -> None:
    assert validation_dict(validate(plan(*SPINE_S1, *S1))) == {
        "status": "valid",
        "errors": 0,
        "warnings": 0,
        "findings": [],
    }


def test_validation_dict_of_a_fetch_failure() -> None:
    failed = ValidationResult(status="comment-not-found", message="plan comment 5 was not found")
    shown = validation_dict(failed)
    assert list(shown) == ["status", "errors", "warnings", "findings", "message"]
    assert shown == {
        "status": "comment-not-found",
        "errors": 0,
        "warnings": 0,
        "findings": [],
        "message": "plan comment 5 was not found",
    }
    assert failed.exit_code == 1


def test_validation_text_exact() -> None:
    assert validation_text(small_result()) == (
        "error port-not-provided plan:14 step s1 port implement-code: port implement-code "
        "routes to s1, but its slice's provides: [review] omits it\n"
        "error sibling-missing -: sibling comment 99 was not found\n"
        "invalid: 2 errors, 0 warnings, 0 notices\n"
    )


def test_validation_text_singular_counts_and_notice() -> None:
    notice = validate(plan("---", "plan-variant: brief", "---"))
    assert validation_text(notice) == (
        "notice no-spine-by-design plan:4: no spine: a brief plan (plan-variant: brief) has "
        "none by design\n"
        "valid: 0 errors, 0 warnings, 1 notice\n"
    )
    one_each = validate(
        plan(
            *spine("ports:", "  review: [s1]", "  implement-code: [s1]", "slices:", *entry("s1")),
            *S1,
        )
    )
    assert validation_text(one_each) == (
        "warning non-canonical-order plan:8 port implement-code: ports are not in canonical "
        "(sorted) order: implement-code comes after review (expected: implement-code, review)\n"
        "error port-not-provided plan:15 step s1 port review: port review routes to s1, but "
        "its slice's provides: [implement-code] omits it\n"
        "invalid: 1 error, 1 warning, 0 notices\n"
    )


def test_validation_text_of_a_valid_result_is_the_count_line() -> None:
    assert validation_text(validate(plan(*SPINE_S1, *S1))) == (
        "valid: 0 errors, 0 warnings, 0 notices\n"
    )


def test_validation_text_of_a_fetch_failure() -> None:
    failed = ValidationResult(status="gh-auth-expired", message="token invalid or expired")
    assert validation_text(failed) == "status: gh-auth-expired\nmessage: token invalid or expired\n"


def test_validation_json_is_one_line_that_reads_back() -> None:
    result = small_result()
    line = validation_json(result)
    assert "\n" not in line
    assert json.loads(line) == validation_dict(result)
    assert line.startswith('{"status":"invalid","errors":2,"warnings":0,"findings":[{')


def test_validation_json_of_the_878_case_reads_back() -> None:
    result = validate(
        (EXAMPLES / "plan-878.md").read_text("utf-8"),
        (EXAMPLES / "sibling-878.md").read_text("utf-8"),
        issue_number=878,
    )
    line = validation_json(result)
    assert "\n" not in line
    loaded = json.loads(line)
    assert loaded == validation_dict(result)
    assert (loaded["status"], loaded["errors"], loaded["warnings"]) == ("invalid", 8, 1)
    assert [f["code"] for f in loaded["findings"]] == ["non-canonical-order"] + [
        "unresolved-step"
    ] * 8


def test_validation_json_never_carries_a_workflow_command() -> None:
    result = validate(
        plan(
            *spine("::warning::x", "ports:", "  implement-code: [s1]", "slices:", *entry("s1")),
            *S1,
        )
    )
    check(result, [(E, "invalid-spine", "plan", 6, None, None)])
    assert messages(result) == ["unknown or malformed top-level line: '::warning::x'"]
    line = validation_json(result)
    assert "::" not in line
    assert json.loads(line) == validation_dict(result)


@pytest.mark.parametrize(
    ("finding", "expected"),
    [
        (
            Finding(
                severity=Severity.ERROR,
                code="orphan-slice",
                message="m",
                comment="plan",
                line=36,
                step="s2",
                port="review",
            ),
            "plan:36 step s2 port review",
        ),
        (
            Finding(severity=Severity.ERROR, code="orphan-slice", message="m", comment="sibling"),
            "sibling",
        ),
        (Finding(severity=Severity.WARNING, code="orphan-slice", message="m", line=3), "line 3"),
        (
            Finding(severity=Severity.WARNING, code="orphan-slice", message="m", port="review"),
            "port review",
        ),
        (Finding(severity=Severity.NOTICE, code="orphan-slice", message="m"), "-"),
    ],
)
def test_where(finding: Finding, expected: str) -> None:
    assert where(finding) == expected


def test_finding_dict_omits_unset_places() -> None:
    finding = Finding(
        severity=Severity.WARNING, code="orphan-slice", message="m", comment="plan", step="s1"
    )
    result = ValidationResult(status=Verdict.VALID, findings=(finding,))
    assert validation_dict(result)["findings"] == [
        {
            "severity": "warning",
            "code": "orphan-slice",
            "message": "m",
            "comment": "plan",
            "step": "s1",
        }
    ]
