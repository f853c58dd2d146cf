"""A plan's acceptance criteria (SPEC 10 ``uncovered-ac``): what counts as the section's
heading, as its end, as a criterion and as an id (the choices core/acceptance.py documents),
and what never counts (code, HTML comments, other sections)."""

from __future__ import annotations

import pytest

from frame_spine.core.acceptance import AcceptanceCriterion, acceptance_criteria


def lines(*text: str) -> str:
    return "\n".join(text) + "\n"


def found(text: str) -> list[tuple[str, int]]:
    return [(criterion.id, criterion.line) for criterion in acceptance_criteria(text)]


def test_the_criteria_of_a_plan_with_their_lines() -> None:
    text = lines(
        "<!-- plan-issue-7 -->",  # 1
        "# Plan",  # 2
        "## Acceptance Criteria",  # 3
        "",  # 4
        "- **AC1** the parser reads x",  # 5
        "- **AC2** (structure-presence): y",  # 6
        "  more text of AC2",  # 7
        "- **AC10** z",  # 8
        "## Steps",  # 9
    )
    assert acceptance_criteria(text) == (
        AcceptanceCriterion("AC1", 5),
        AcceptanceCriterion("AC2", 6),
        AcceptanceCriterion("AC10", 8),
    )


@pytest.mark.parametrize(
    "heading",
    [
        "## Acceptance Criteria",
        "## acceptance criteria",
        "## ACCEPTANCE   CRITERIA",
        "##\tAcceptance Criteria\t",
        "## Acceptance Criteria ##",
        "   ## Acceptance Criteria",
        "# Acceptance Criteria",
    ],
)
def test_headings_that_open_the_section(heading: str) -> None:
    assert found(lines("# Plan", heading, "- **AC1** x")) == [("AC1", 3)]


@pytest.mark.parametrize(
    "heading",
    [
        "##Acceptance Criteria",  # no space after the hashes: not a heading
        "### Acceptance Criteria",  # level 3 neither opens nor ends the section
        "## Acceptance Criteria:",
        "## Acceptance Criteria for the parser",
        "**Acceptance Criteria**",
        "Acceptance Criteria",  # a setext heading is not read
        "> ## Acceptance Criteria",
    ],
)
def test_lines_that_do_not_open_the_section(heading: str) -> None:
    assert found(lines("# Plan", heading, "---", "- **AC1** x")) == []


def test_the_section_ends_at_the_next_level_1_or_2_heading_not_level_3() -> None:
    text = lines(
        "## Acceptance Criteria",  # 1
        "### Parser",  # 2
        "- **AC1** x",  # 3
        "#### Deep",  # 4
        "- **AC2** y",  # 5
        "## Verification",  # 6
        "- **AC3** z",  # 7: another section's item
        "## Acceptance criteria",  # 8: a second AC section counts too
        "- **AC4** w",  # 9
        "# Appendix",  # 10
        "- **AC5** v",  # 11
    )
    assert found(text) == [("AC1", 3), ("AC2", 5), ("AC4", 9)]


@pytest.mark.parametrize(
    "item",
    [
        "- **AC1** x",
        "* **AC1** x",
        "+ **AC1** x",
        "1. **AC1** x",
        "2) **AC1** x",
        "  - **AC1** nested",
        "- [ ] **AC1** a task",
        "- [x] **AC1** a done task",
        "- __AC1__ x",
        "- **AC1:** x",
        "- **AC1.** x",
        "- **AC1**",
        "-\t**AC1** x",
    ],
)
def test_items_that_are_criteria(item: str) -> None:
    assert found(lines("## Acceptance Criteria", item)) == [("AC1", 2)]


@pytest.mark.parametrize(
    "item",
    [
        "- AC1 x",  # not bold
        "- *AC1* x",  # emphasis, not bold
        "- **AC-1** x",  # not an id
        "- **AC** x",
        "- **AC1 the parser** x",  # the bold text is more than the id
        "- **Criterion AC1** x",
        "- x **AC1**",  # the item does not start with it
        "**AC1** x",  # not a list item
        "-**AC1** x",  # no space after the marker
        "- **AC1*",
        "- **AC1__",
        "> - **AC1** x",  # block-quoted
    ],
)
def test_items_that_are_not_criteria(item: str) -> None:
    assert found(lines("## Acceptance Criteria", item)) == []


def test_ids_are_compared_upper_cased_and_counted_once_at_their_first_item() -> None:
    text = lines("## Acceptance Criteria", "- **ac1** x", "- **AC1** again", "- **AC01** other")
    assert found(text) == [("AC1", 2), ("AC01", 4)]


def test_code_never_counts_items_or_headings() -> None:
    text = lines(
        "## Acceptance Criteria",  # 1
        "```markdown",  # 2
        "- **AC1** in a fence",  # 3
        "## Steps",  # 4: in the fence, does not end the section
        "```",  # 5
        "- **AC2** real",  # 6
        "",  # 7
        "A paragraph.",  # 8
        "",  # 9
        "    - **AC3** indented code",  # 10
        "",  # 11
        "## Steps",  # 12
        "~~~",  # 13
        "## Acceptance Criteria",  # 14: in a fence, does not open it
        "~~~",  # 15
        "- **AC4** not in the section",  # 16
    )
    assert found(text) == [("AC2", 6)]


def test_html_comments_never_count_items_or_headings() -> None:
    text = lines(
        "## Acceptance Criteria",  # 1
        "<!-- frame-slice",  # 2
        "step_id: s1",  # 3
        "requirement-contract: |",  # 4
        "  - **AC9** quoted in a block scalar",  # 5
        "## Not a heading",  # 6
        "-->",  # 7
        "- **AC1** x",  # 8
        "<!-- a note --> - **AC5**",  # 9: a one-line comment, the rest is not an item
        "  <!-- indented",  # 10
        "- **AC6**",  # 11
        "-->",  # 12
        "- **AC2** y",  # 13
    )
    assert found(text) == [("AC1", 8), ("AC2", 13)]


def test_no_section_no_criteria() -> None:
    assert acceptance_criteria("") == ()
    assert acceptance_criteria(lines("# Plan", "- **AC1** x")) == ()
    assert acceptance_criteria(lines("Acceptance criteria are below.", "- **AC1** x")) == ()


def test_a_long_section_and_long_lines_are_read_in_one_pass() -> None:
    items = [f"- **AC{n}** criterion {n}" for n in range(1, 20_001)]
    hostile = ["- **AC" + "1" * 100_000, "### x" + " #" * 50_000, "- [ ]" + " " * 100_000]
    text = lines("## Acceptance Criteria", *hostile, *items)
    criteria = acceptance_criteria(text)
    assert len(criteria) == 20_000
    assert (criteria[0], criteria[-1]) == (
        AcceptanceCriterion("AC1", 5),
        AcceptanceCriterion("AC20000", 20_004),
    )
