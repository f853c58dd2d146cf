"""Validate mode, the rules SPEC 10 revision 2 adds (issue 13): one test per rule and per
edge, each comparing the WHOLE findings list (the style of test_rules.py, whose builders
these tests share), plus what the new codes look like in the job summary.

- ``port-not-provided`` whatever the routed slice's list looks like (missing, empty,
  exploratory);
- ``provides: []`` is no list (``slice-without-provides`` unless exploratory);
- ``unknown-variant``, checked before the spine;
- ``variant-with-slices`` / ``unreachable-slice`` for slice blocks in a plan without a spine
  by design;
- ``spine-omitted-with-spine`` (a warning; the spine is validated as usual);
- ``uncovered-ac``;
- ``unresolved-step`` messages name the ports routing to the step (test_rules.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from frame_spine.modes.validate.render import validation_summary, validation_text
from tests.builders import entry, slice_block
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.modes.validate.test_rules import (
    ISSUE,
    S1,
    SPINE_S1,
    SPLIT_SPINE,
    E,
    N,
    Row,
    W,
    check,
    messages,
    plan,
    sibling,
    spine,
    validate,
)
from tests.runner_env import run_action

# --- port-not-provided, whatever the routed slice's list looks like ---------------------------

EXCUSE = " (coverage: exploratory excuses only a slice that no port routes to)"


@pytest.mark.parametrize(
    ("lines", "expected", "message"),
    [
        (
            ("coverage: exploratory - spike",),
            [(W, "exploratory-slice", "plan", 14, "s1", None)],
            "port implement-code routes to s1, but its slice has no provides:/ports: list" + EXCUSE,
        ),
        (
            ("provides: []", "coverage: exploratory - spike"),
            [(W, "exploratory-slice", "plan", 14, "s1", None)],
            "port implement-code routes to s1, but its slice's provides: [] omits it" + EXCUSE,
        ),
        (
            ("provides: [review]", "coverage: exploratory - spike"),
            [(W, "exploratory-slice", "plan", 14, "s1", None)],
            "port implement-code routes to s1, but its slice's provides: [review] omits it"
            + EXCUSE,
        ),
        (
            ("provides: []",),
            [(E, "slice-without-provides", "plan", 14, "s1", None)],
            "port implement-code routes to s1, but its slice's provides: [] omits it",
        ),
        (
            ("ports: [ ]",),
            [(E, "slice-without-provides", "plan", 14, "s1", None)],
            "port implement-code routes to s1, but its slice's provides: [] omits it",
        ),
    ],
)
def test_a_routed_port_needs_a_slice_that_names_it(
    lines: tuple[str, ...], expected: list[Row], message: str
) -> None:
    # The issue's case first: an exploratory slice without provides: that a port routes to
    # (before revision 2: only the exploratory-slice warning, and valid).
    result = validate(plan(*SPINE_S1, *slice_block("s1", *lines)))  # slice head on 14
    check(result, [*expected, (E, "port-not-provided", "plan", 14, "s1", "implement-code")])
    assert messages(result)[-1] == message


def test_an_exploratory_slice_that_names_its_port_is_only_exploratory() -> None:
    result = validate(
        plan(
            *SPINE_S1,
            *slice_block("s1", "coverage: exploratory - spike", "provides: [Implement-Code]"),
        )
    )
    check(result, [(W, "exploratory-slice", "plan", 14, "s1", None)])


def test_port_not_provided_for_every_port_routing_to_a_slice_without_a_list() -> None:
    result = validate(
        plan(
            *spine(
                "ports:",
                "  implement-code: [s1, s1#cycle:2]",
                "  review: [s1#terminal]",
                "slices:",
                *entry("s1"),
            ),  # 3-14
            *slice_block("s1", "coverage: exploratory - spike"),  # 15
        )
    )
    check(
        result,
        [
            (W, "exploratory-slice", "plan", 15, "s1", None),
            (E, "port-not-provided", "plan", 15, "s1", "implement-code"),
            (E, "port-not-provided", "plan", 15, "s1", "review"),
        ],
    )


def test_port_not_provided_for_an_exploratory_slice_in_the_sibling() -> None:
    result = validate(
        plan(*SPLIT_SPINE), sibling(*slice_block("s1", "coverage: exploratory - spike"))
    )
    check(
        result,
        [
            (W, "exploratory-slice", "sibling", 4, "s1", None),
            (E, "port-not-provided", "sibling", 4, "s1", "implement-code"),
        ],
    )


# --- provides: [] is no list --------------------------------------------------------------------

EMPTY = (
    "slice s2 has an empty provides:/ports: list (provides: [] is no list) and no coverage: "
    "exploratory - <reason>"
)


def test_an_empty_list_on_a_slice_nothing_routes_to_is_slice_without_provides() -> None:
    # Before revision 2: only unrouted-step (a warning), and valid.
    result = validate(
        plan(
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1"), *entry("s2")),
            *S1,  # 18
            *slice_block("s2", "provides: []"),  # 22
        )
    )
    check(
        result,
        [
            (W, "unrouted-step", "plan", 13, "s2", None),
            (E, "slice-without-provides", "plan", 22, "s2", None),
        ],
    )
    assert messages(result) == ["no port routes to step s2", EMPTY]


def test_an_empty_list_on_an_orphan_slice_is_slice_without_provides() -> None:
    result = validate(plan(*SPINE_S1, *S1, *slice_block("s2", "ports: []")))  # s2 head: 18
    check(
        result,
        [
            (E, "slice-without-provides", "plan", 18, "s2", None),
            (W, "orphan-slice", "plan", 18, "s2", None),
        ],
    )
    assert messages(result)[0] == EMPTY


def test_an_empty_list_on_an_exploratory_slice_nothing_routes_to_is_excused() -> None:
    result = validate(
        plan(
            *spine("ports:", "  implement-code: [s1]", "slices:", *entry("s1"), *entry("s2")),
            *S1,
            *slice_block("s2", "provides: []", "coverage: exploratory \u2014 spike"),  # 22
        )
    )
    check(
        result,
        [
            (W, "unrouted-step", "plan", 13, "s2", None),
            (W, "exploratory-slice", "plan", 22, "s2", None),
        ],
    )


# --- unknown-variant ------------------------------------------------------------------------------


def frontmatter(*lines: str) -> list[str]:
    """``---`` on plan line 3, ``lines`` from line 4, ``---`` after them."""
    return ["---", *lines, "---"]


def test_unknown_variant_without_a_spine_is_not_missing_spine() -> None:
    # Before revision 2: missing-spine, without naming the value.
    result = validate(plan(*frontmatter("status: pending", "plan-variant: breif"), "# Brief"))
    check(result, [(E, "unknown-variant", "plan", 5, None, None)])
    assert messages(result) == [
        "plan-variant 'breif' is not a plan variant (brief or goal-contract); a plan with a "
        "spine has no plan-variant line"
    ]


def test_unknown_variant_with_a_valid_split_spine_is_not_waved_through() -> None:
    # Before revision 2: valid.
    result = validate(
        plan(*frontmatter('plan-variant: "breif"'), *SPLIT_SPINE),
        sibling(*S1),
        sibling_id=5013460780,
    )
    check(result, [(E, "unknown-variant", "plan", 4, None, None)])


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("plan-variant: Brief", "'Brief'"),  # values are case-sensitive
        ("plan-variant:", "''"),
        ("plan-variant: 'goal contract'", "'goal contract'"),
        ("plan-variant: " + "x" * 200, repr("x" * 117 + "...")),
    ],
)
def test_unknown_variant_names_the_value(line: str, named: str) -> None:
    result = validate(plan(*frontmatter(line)))
    check(result, [(E, "unknown-variant", "plan", 4, None, None)])
    assert messages(result)[0].startswith(f"plan-variant {named} is not a plan variant")


def test_unknown_variant_next_to_a_known_one_is_also_ambiguous() -> None:
    result = validate(plan(*frontmatter("plan-variant: brief", "plan-variant: breif")))
    # Which variant the plan is cannot be told: no notice (as for two known ones).
    check(
        result,
        [
            (E, "ambiguous-variant", "plan", 5, None, None),
            (E, "unknown-variant", "plan", 5, None, None),
        ],
    )


def test_a_variant_line_in_code_inside_the_frontmatter_is_no_variant() -> None:
    result = validate(plan(*frontmatter("```", "plan-variant: breif", "```"), *SPINE_S1, *S1))
    check(result, [])


# --- variant-with-slices, unreachable-slice --------------------------------------------------------


def test_variant_with_slices_one_per_slice_block_in_either_comment() -> None:
    # Before revision 2: only the no-spine-by-design notice, and valid.
    result = validate(
        plan(
            *frontmatter("plan-variant: brief"),  # 3-5
            "# Brief",  # 6
            *S1,  # 7-10
            "<!-- frame-slice",  # 11
            "provides: [review]",
            "-->",
        ),
        sibling(*slice_block("s2", "provides: [review]")),  # 4
    )
    check(
        result,
        [
            (N, "no-spine-by-design", "plan", 4, None, None),
            (E, "variant-with-slices", "plan", 7, "s1", None),
            (E, "variant-with-slices", "plan", 11, None, None),
            (E, "slice-without-id", "plan", 11, None, None),
            (E, "variant-with-slices", "sibling", 4, "s2", None),
        ],
    )
    assert messages(result) == [
        "no spine: a brief plan (plan-variant: brief) has none by design",
        "slice s1 is in a brief plan (plan-variant: brief), which has no spine: nothing "
        "routes to it",
        "the frame-slice block at line 11 is in a brief plan (plan-variant: brief), which has "
        "no spine: nothing routes to it",
        "the frame-slice block at line 11 has no column-0 step_id: (or id:) line",
        "slice s2 is in a brief plan (plan-variant: brief), which has no spine: nothing "
        "routes to it",
    ]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("plan-variant: goal-contract", "a goal-contract plan (plan-variant: goal-contract)"),
        ("spine-omitted: plan-too-small", "a plan that says spine-omitted: plan-too-small"),
    ],
)
def test_unreachable_slice_in_the_other_spineless_plans(line: str, reason: str) -> None:
    result = validate(plan(*frontmatter(line), *S1))  # S1 head on 6
    check(
        result,
        [
            (N, "no-spine-by-design", "plan", 4, None, None),
            (W, "unreachable-slice", "plan", 6, "s1", None),
        ],
    )
    assert (
        messages(result)[1] == f"slice s1 is in {reason}, which has no spine: nothing routes to it"
    )


def test_a_brief_plan_with_a_spine_and_slices_is_variant_with_spine_only() -> None:
    result = validate(plan(*frontmatter("plan-variant: brief"), *SPINE_S1, *S1))  # spine: 6
    check(result, [(E, "variant-with-spine", "plan", 6, None, None)])


def test_slice_examples_in_a_brief_plan_are_no_slices() -> None:
    result = validate(plan(*frontmatter("plan-variant: brief"), "```", *S1, "```"))
    check(result, [(N, "no-spine-by-design", "plan", 4, None, None)])


def test_slices_in_a_plan_with_an_unknown_variant_and_no_spine_are_no_further_finding() -> None:
    result = validate(plan(*frontmatter("plan-variant: breif"), *S1))
    check(result, [(E, "unknown-variant", "plan", 4, None, None)])


# --- spine-omitted-with-spine ----------------------------------------------------------------------


def test_spine_omitted_with_a_valid_spine_is_a_warning_and_valid() -> None:
    # Before revision 2: variant-with-spine, an error.
    result = validate(plan(*frontmatter("spine-omitted: plan-too-small"), *SPINE_S1, *S1))
    check(result, [(W, "spine-omitted-with-spine", "plan", 4, None, None)])
    assert messages(result) == [
        "the plan says spine-omitted: plan-too-small, but a frame-spine block is at line 6: "
        "the spine is validated as usual (drop the spine-omitted line)"
    ]


def test_spine_omitted_with_a_spine_validates_the_spine_as_usual() -> None:
    result = validate(plan(*frontmatter("spine-omitted: 'plan-too-small'"), *SPINE_S1))
    check(
        result,
        [
            (W, "spine-omitted-with-spine", "plan", 4, None, None),
            (E, "unresolved-step", "plan", 12, "s1", None),
        ],
    )


def test_a_brief_plan_that_also_says_spine_omitted_with_a_spine() -> None:
    result = validate(
        plan(
            *frontmatter("plan-variant: brief", "spine-omitted: plan-too-small"),  # 4, 5
            *SPINE_S1,  # 7
            *S1,
        )
    )
    check(
        result,
        [
            (W, "spine-omitted-with-spine", "plan", 5, None, None),
            (E, "variant-with-spine", "plan", 7, None, None),
        ],
    )


# --- uncovered-ac ---------------------------------------------------------------------------------

# The AC section, lines 3-8 of plan(*CRITERIA, ...): AC1 on 5, AC2 on 6, AC3 on 7; the spine
# after it starts on line 9 (its s1 entry lists ac_refs: [AC1]).
CRITERIA = [
    "## Acceptance Criteria",
    "",
    "- **AC1** the parser reads x",
    "- **AC2** the writer writes y",
    "- **AC3** the reader reads z",
    "## Steps",
]


def test_uncovered_ac_one_warning_per_criterion_no_slice_lists() -> None:
    result = validate(
        plan(
            *CRITERIA, *SPINE_S1, *slice_block("s1", "provides: [implement-code]", "ac-refs: [ac2]")
        )
    )
    check(
        result,
        [
            (W, "uncovered-ac", "plan", 5, None, None),
            (W, "uncovered-ac", "plan", 7, None, None),
        ],
    )
    assert messages(result) == [
        "acceptance criterion AC1 is in no frame-slice block's ac-refs: no specialist is "
        "handed it (the spine's ac_refs list it, but a specialist reads the slice)",
        "acceptance criterion AC3 is in no frame-slice block's ac-refs: no specialist is handed it",
    ]


def test_uncovered_ac_counts_every_slice_block_in_either_comment() -> None:
    # ac_refs (underscore) in the plan, ac-refs in the sibling; an orphan slice counts too.
    result = validate(
        plan(*CRITERIA, *SPLIT_SPINE),
        sibling(
            *slice_block("s1", "provides: [implement-code]", "ac_refs: [AC1, AC2]"),  # 4
            *slice_block("s9", "provides: [review]", "ac-refs: [AC3]"),  # 9
        ),
    )
    check(result, [(W, "orphan-slice", "sibling", 9, "s9", None)])


@pytest.mark.parametrize(
    "refs",
    [
        "ac-refs: AC1, AC2, AC3",  # not an inline list
        "  ac-refs: [AC1, AC2, AC3]",  # indented: not a column-0 key
        "acrefs: [AC1, AC2, AC3]",
    ],
)
def test_uncovered_ac_when_the_slice_does_not_list_them(refs: str) -> None:
    result = validate(
        plan(*CRITERIA, *SPINE_S1, *slice_block("s1", "provides: [implement-code]", refs))
    )
    check(result, [(W, "uncovered-ac", "plan", line, None, None) for line in (5, 6, 7)])


def test_uncovered_ac_only_for_a_plan_with_a_spine_block() -> None:
    brief = validate(plan(*frontmatter("plan-variant: brief"), *CRITERIA))
    check(brief, [(N, "no-spine-by-design", "plan", 4, None, None)])
    prose = validate(plan(*CRITERIA, *S1))
    check(prose, [(E, "missing-spine", "plan", None, None, None)])


def test_uncovered_ac_with_an_invalid_spine_still_reports_the_criteria() -> None:
    result = validate(
        plan(
            *CRITERIA,
            *spine("owner: me", "ports:", "  implement-code: [s1]", "slices:", *entry("s1")),
        )
    )
    check(
        result,
        [
            (W, "uncovered-ac", "plan", 5, None, None),
            (W, "uncovered-ac", "plan", 6, None, None),
            (W, "uncovered-ac", "plan", 7, None, None),
            (E, "invalid-spine", "plan", 12, None, None),
        ],
    )
    # Without a parsed spine the message says nothing about the spine's ac_refs.
    assert messages(result)[0] == (
        "acceptance criterion AC1 is in no frame-slice block's ac-refs: no specialist is handed it"
    )


def test_acceptance_criteria_in_the_sibling_do_not_count() -> None:
    result = validate(plan(*SPLIT_SPINE), sibling(*CRITERIA, *S1))
    check(result, [])


# --- rendering the new codes ------------------------------------------------------------------------


def test_the_new_codes_in_the_text_and_the_job_summary() -> None:
    result = validate(
        plan(
            *frontmatter("plan-variant: breif"),
            *CRITERIA,
            *SPINE_S1,
            *slice_block("s1", "ac-refs: [AC1, AC2]"),
        )
    )
    check(
        result,
        [
            (E, "unknown-variant", "plan", 4, None, None),
            (W, "uncovered-ac", "plan", 10, None, None),
            (E, "slice-without-provides", "plan", 23, "s1", None),
            (E, "port-not-provided", "plan", 23, "s1", "implement-code"),
        ],
    )
    assert validation_text(result).split("\n")[:2] == [
        "error unknown-variant plan:4: plan-variant 'breif' is not a plan variant (brief or "
        "goal-contract); a plan with a spine has no plan-variant line",
        "warning uncovered-ac plan:10: acceptance criterion AC3 is in no frame-slice block's "
        "ac-refs: no specialist is handed it",
    ]
    summary = validation_summary(result, repository="o/r", plan=None, sibling=None)
    assert summary.startswith(
        "### ❌ frame-spine validate: `invalid` (exit code 1): 3 errors, 1 warning\n"
    )
    assert (
        "| ❌ | **unknown-variant**: plan-variant 'breif' is not a plan variant "
        "\\(brief or goal-contract\\); a plan with a spine has no plan-variant line | plan "
        "comment line 4 |\n"
    ) in summary
    assert summary.endswith(
        "| ⚠️ | **uncovered-ac**: acceptance criterion AC3 is in no frame-slice "
        "block's ac-refs: no specialist is handed it | plan comment line 10 |\n"
    )


def test_the_new_codes_as_annotations_of_the_action(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    # A brief plan, typed wrong, that carries a slice: the typo is the one error (no
    # missing-spine); the slice is no further finding (the variant is unknown).
    fake_github.add_comment(41, plan(*frontmatter("plan-variant: breif"), *S1), ISSUE)
    run = run_action(
        tmp_path,
        {"mode": "validate", "plan-comment-id": "41"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    assert (run.returncode, run.stderr) == (1, "")
    assert (run.outputs["status"], run.outputs["error-count"]) == ("invalid", "1")
    assert run.stdout.splitlines() == [
        "frame-spine validate: status invalid (1 error, 0 warnings, 0 notices)",
        "::error title=frame-spine validate%3A unknown-variant::plan:4: plan-variant 'breif' is "
        "not a plan variant (brief or goal-contract); a plan with a spine has no plan-variant "
        "line",
    ]
    assert (
        "| ❌ | **unknown-variant**: plan-variant 'breif' is not a plan variant "
        "\\(brief or goal-contract\\); a plan with a spine has no plan-variant line | plan "
        "comment line 4 |\n"
    ) in run.summary


# --- linear at scale (SPEC 10) --------------------------------------------------------------------

MANY = 5000


def test_5000_criteria_each_covered_by_its_own_slice_is_valid() -> None:
    steps = [f"s{n}" for n in range(1, MANY + 1)]
    entries = [line for step in steps for line in entry(step)]
    blocks = [
        line
        for n, step in enumerate(steps, start=1)
        for line in slice_block(step, "provides: [p]", f"ac-refs: [AC{n}]")
    ]
    criteria = ["## Acceptance Criteria", *(f"- **AC{n}** criterion" for n in range(1, MANY + 1))]
    result = validate(
        plan(
            *criteria, *spine("ports:", f"  p: [{', '.join(steps)}]", "slices:", *entries), *blocks
        )
    )
    check(result, [])


def test_a_step_routed_from_5000_ports_names_each_port_once() -> None:
    ports = [f"p{n:04}" for n in range(1, MANY + 1)]
    result = validate(
        plan(
            *spine(
                "ports:",
                *(f"  {port}: [s1, s1#cycle:2]" for port in ports),
                "slices:",
                *entry("s1"),
            )
        )
    )
    check(result, [(E, "unresolved-step", "plan", 6 + MANY + 2, "s1", None)])
    assert messages(result) == [
        "step s1 is in the spine but no frame-slice block carries it (ports routing to it: "
        + ", ".join(ports)
        + ")"
    ]
