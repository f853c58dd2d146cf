"""SPEC 2.4: code is what GitHub shows as code, one test per kind, with exact results.

Each body here is small and ordinary, so the expectations are also checked against the oracle
(``tests/code_lines.py``: the ``cmark-gfm`` program) when it is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from frame_spine.core.blocks import Block, HeadRef, MarkerLine, scan_comment
from frame_spine.core.code_regions import (
    GFM_EXTENSIONS,
    CodeLines,
    code_lines,
    might_hold_code,
    with_footnote_references,
)
from frame_spine.core.frontmatter import plan_variants, spine_omitted
from frame_spine.core.status import Status
from tests import code_lines as oracle
from tests.modes.lookup.test_rules import (
    ISSUE,
    SPLIT,
    TS,
    assert_result,
    plan,
    run,
    sibling,
    slice_block,
    spine_block,
    status_message,
)

SPINE = "frame-spine"
SLICE = "frame-slice"
NEEDS_ORACLE = pytest.mark.skipif(
    not oracle.available(),
    reason="the cmark-gfm program (Debian package cmark-gfm) is not installed, so the SPEC 2.4 "
    "oracle cannot run; `make test` installs it when apt-get can",
)


def lines(*items: str) -> str:
    return "\n".join(items)


def assert_code(body: str, expected: list[int]) -> None:
    """``code_lines`` gives exactly ``expected``; so does the oracle when installed (for the
    body's own lines: it also counts the footnote references it appends when the body ends
    inside an open fence)."""
    assert code_lines(body).lines() == expected
    if oracle.available():
        lines = body.count("\n") + 1
        assert sorted(line for line in oracle.code_lines(body) if line <= lines) == expected


EXAMPLE_SPINE = (
    "<!-- frame-spine",
    "spine_schema_version: 2",
    "generated_at: 2020-01-01T00:00:00Z",
    "-->",
)
REAL_SPINE = ("<!-- frame-spine", "spine_schema_version: 2", "-->")


# --- kinds of code ----------------------------------------------------------------------


def test_indented_code_block_head_is_an_example() -> None:
    body = lines(
        "A spine looks like this:", "", *("    " + x for x in EXAMPLE_SPINE), "", *REAL_SPINE
    )
    assert_code(body, [3, 4, 5, 6])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SPINE, 3),)
    assert scan.blocks == (Block(SPINE, "spine_schema_version: 2", 8, 9, False),)


def test_tab_indented_code_head_is_an_example() -> None:
    body = lines(
        "prose", "", "\t<!-- frame-slice step_id: s1 -->", "", "<!-- frame-slice step_id: s2 -->"
    )
    assert_code(body, [3])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 3),)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 5, 5, False),)


def test_indented_line_continuing_a_paragraph_is_not_code() -> None:
    # Lazy continuation: an indented line right after a paragraph line continues it.
    body = lines("Some prose", "    <!-- frame-spine", "spine_schema_version: 2", "-->")
    assert_code(body, [])
    scan = scan_comment(body)
    assert scan.examples == ()
    assert scan.blocks == (Block(SPINE, "spine_schema_version: 2", 2, 3, False),)


def test_fence_under_a_numbered_list_item_is_code() -> None:
    body = lines(
        "10. Template:",
        "",
        "    ```markdown",
        *("    " + x for x in EXAMPLE_SPINE),
        "    ```",
        "",
        *REAL_SPINE,
    )
    assert_code(body, [4, 5, 6, 7])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SPINE, 4),)
    assert scan.blocks == (Block(SPINE, "spine_schema_version: 2", 10, 11, False),)


def test_fence_in_a_block_quote_is_code() -> None:
    # Quoted lines start with ">", so they are never heads (SPEC 2.3); the quote's fence is
    # code all the same, and the spine after the quote is live.
    body = lines("> ```", *("> " + x for x in EXAMPLE_SPINE), "> ```", "", *REAL_SPINE)
    assert_code(body, [2, 3, 4, 5])
    scan = scan_comment(body)
    assert scan.examples == ()
    assert scan.blocks == (Block(SPINE, "spine_schema_version: 2", 8, 9, False),)


def test_fence_in_a_nested_list_is_code() -> None:
    body = lines(
        "- step one",
        "  - the template:",
        "",
        "    ~~~",
        "    <!-- frame-slice step_id: s1 -->",
        "    ~~~",
        "- step two",
        "",
        "<!-- frame-slice step_id: s2 -->",
    )
    assert_code(body, [5])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 5),)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 9, 9, False),)


def test_indented_code_inside_a_list_item_is_code() -> None:
    # A list item's content starts at column 3 ("- "), so 2 + 4 spaces is indented code.
    body = lines(
        "- item",
        "",
        "      <!-- frame-slice step_id: s1 -->",
        "",
        "<!-- frame-slice step_id: s2 -->",
    )
    assert_code(body, [3])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 3),)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 5, 5, False),)


def test_tilde_fence_is_code() -> None:
    body = lines(
        "~~~~ yaml",
        "<!-- frame-slice step_id: s1 -->",
        "```",
        "~~~~",
        "<!-- frame-slice step_id: s2 -->",
    )
    assert_code(body, [2, 3])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 2),)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 5, 5, False),)


def test_unclosed_fence_in_a_list_item_ends_with_the_item() -> None:
    body = lines("- ```", "  <!-- frame-slice step_id: s1 -->", "<!-- frame-slice step_id: s2 -->")
    assert_code(body, [2])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 2),)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 3, 3, False),)


def test_unclosed_fence_in_a_block_quote_ends_with_the_quote() -> None:
    # A line without ">" ends the quote (a fence is never continued lazily), so the fence
    # ends there and the head on that line is live.
    body = lines("> ```", "> <!-- frame-slice step_id: s1 -->", "<!-- frame-slice step_id: s2 -->")
    assert_code(body, [2])
    scan = scan_comment(body)
    assert scan.examples == ()
    assert scan.blocks == (Block(SLICE, "step_id: s2", 3, 3, False),)


def test_unclosed_top_level_fence_runs_to_the_end_of_the_comment() -> None:
    body = lines("```", "<!-- frame-slice step_id: s1 -->", "", "<!-- frame-slice step_id: s2 -->")
    assert_code(body, [2, 3, 4])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 2), HeadRef(SLICE, 4))
    assert scan.blocks == ()


def test_bare_slice_payload_opening_a_fence_ends_at_its_closer() -> None:
    body = lines(
        "<!-- frame-slice -->",
        "step_id: s1",
        "~~~",
        "-->",
        "<!-- frame-slice step_id: s2 -->",
    )
    assert_code(body, [4, 5])
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\n~~~", 1, 2, True),)
    assert scan.examples == (HeadRef(SLICE, 5),)
    assert scan.unterminated == ()


def test_head_right_after_details_is_live() -> None:
    # An HTML block (<details> with no blank line after it) is not code.
    body = lines("<details>", "<summary>Spine</summary>", *REAL_SPINE, "</details>")
    assert_code(body, [])
    scan = scan_comment(body)
    assert scan.examples == ()
    assert scan.blocks == (Block(SPINE, "spine_schema_version: 2", 3, 4, False),)


def test_indented_head_after_details_and_a_blank_line_is_code() -> None:
    # The blank line ends the HTML block; the indented line after it is indented code.
    body = lines("<details>", "", "    <!-- frame-spine -->", "", "</details>")
    assert_code(body, [3])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SPINE, 3),)
    assert scan.unterminated == ()


def test_table_then_indented_line() -> None:
    body = lines("| a | b |", "|---|---|", "| c | d |", "", "    <!-- frame-spine -->")
    assert_code(body, [5])
    assert scan_comment(body).examples == (HeadRef(SPINE, 5),)


# --- footnote definitions (SPEC 2.4, revision 3) -----------------------------------------
# GitHub renders footnotes in comments: a definition's content is shown at the end of the
# comment, and cmark-gfm keeps its source positions. cmark-gfm drops a definition nothing
# references, so code_lines parses with one reference per label appended: its code is code
# whether or not the text references it.

TEMPLATE_S2 = ("<!-- frame-slice", "step_id: s2", "rc: the template's text", "-->")
S1 = "<!-- frame-slice step_id: s1 -->"


@pytest.mark.parametrize("reference", ["", "See the template[^note].\n\n"])
@pytest.mark.parametrize("blank", [True, False])
def test_fence_indented_in_a_footnote_definition_is_code(reference: str, blank: bool) -> None:
    # With or without a blank line (a fence interrupts the definition's paragraph), and
    # whether or not the text references the note.
    body = reference + lines(
        "[^note]: Template:",
        *([""] if blank else []),
        "    ```markdown",
        *("    " + x for x in TEMPLATE_S2),
        "    ```",
        "",
        S1,
    )
    first = reference.count("\n") + (4 if blank else 3)
    assert_code(body, list(range(first, first + 4)))
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, first),)
    assert scan.blocks == (Block(SLICE, "step_id: s1", first + 6, first + 6, False),)


def test_indented_code_in_a_footnote_definition_is_code() -> None:
    # The definition's content starts 4 columns in, so 8 spaces is indented code inside it.
    body = lines("[^n]: Example:", "", "        " + S1, "", "<!-- frame-slice step_id: s2 -->")
    assert_code(body, [3])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 3),)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 5, 5, False),)


@pytest.mark.parametrize("blank", [True, False])
def test_a_head_shown_as_html_in_a_footnote_definition_is_live(blank: bool) -> None:
    # Four spaces in a definition are its content column: the head is an HTML block there,
    # not indented code (it was read as indented code before footnotes were parsed).
    body = lines("[^note]: The step:", *([""] if blank else []), "    " + S1)
    assert_code(body, [])
    scan = scan_comment(body)
    assert scan.examples == ()
    head = 3 if blank else 2
    assert scan.blocks == (Block(SLICE, "step_id: s1", head, head, False),)


def test_nested_footnote_definitions() -> None:
    # An inner definition inside an outer one; GitHub shows both in the footnotes section.
    body = lines(
        "Plan.",
        "",
        "[^outer]: Outer.",
        "    [^inner]: Inner template:",
        "",
        "        ```",
        "        <!-- frame-slice step_id: s2 -->",
        "        ```",
        "",
        S1,
    )
    assert_code(body, [7])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 7),)
    assert scan.blocks == (Block(SLICE, "step_id: s1", 10, 10, False),)


def test_a_footnote_definition_in_a_list_item() -> None:
    body = lines(
        "- step one",
        "",
        "  [^n]: Template:",
        "",
        "      ~~~",
        "      <!-- frame-slice step_id: s2 -->",
        "      ~~~",
        "",
        S1,
    )
    assert_code(body, [6])
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SLICE, 6),)
    assert scan.blocks == (Block(SLICE, "step_id: s1", 9, 9, False),)


def test_a_footnote_definition_in_a_block_quote() -> None:
    body = lines("> [^n]: Template:", ">     ```", ">     x", ">     ```", "", S1)
    assert_code(body, [3])


@pytest.mark.parametrize("blank", [">", "  "])
def test_a_blank_line_that_is_not_empty_ends_a_footnote_definition(blank: str) -> None:
    # cmark-gfm continues a definition over a blank line only when the line is empty: a
    # quoted blank line (">") or one of spaces ends it, so the fence below is indented code
    # of the quote or of the comment (its content: the fence lines themselves).
    prefix = ">" if blank == ">" else ""
    body = lines(
        prefix + " [^n]: Template:", blank, *(prefix + "     " + x for x in ("```", "x", "```"))
    )
    assert_code(body, [3, 4, 5])


def test_a_footnote_definition_on_the_line_of_another() -> None:
    # "[^a]: [^b]: ..." opens b inside a. The oracle (tests/code_lines.py) finds labels only
    # after container markers at the start of a line, so it drops an unreferenced b; with a
    # reference to b it agrees with code_lines.
    body = lines("[^a]: [^b]: Template:", "", "            " + TEMPLATE_S2[0], "", S1)
    assert code_lines(body).lines() == [3]
    if oracle.available():
        assert sorted(oracle.code_lines(body)) == []
        assert sorted(oracle.code_lines(body + "\n\n[^b]")) == [3]
    assert scan_comment(body).examples == (HeadRef(SLICE, 3),)


def test_footnote_code_before_later_code_keeps_the_ranges_in_order() -> None:
    # The HTML holds definitions last; the ranges are still in line order.
    body = lines("```", "a", "```", "", "[^n]: T:", "", "        b", "", "```", "c", "```")
    regions = code_lines(body)
    assert regions == CodeLines(((2, 2), (7, 7), (10, 10)))
    assert [line for line in range(1, 12) if line in regions] == [2, 7, 10]
    assert_code(body, [2, 7, 10])


def test_a_nul_in_a_label() -> None:
    assert code_lines("[^a\x00]: Template:\n\n        " + S1).lines() == [3]


def test_a_reference_label_differs_in_case_from_its_definition() -> None:
    assert_code(lines("See[^NOTE].", "", "[^note]: T:", "", "        x"), [5])


# What GitHub never shows is not code, so a head in it is live: the same as the oracle.


def test_a_second_definition_of_a_label_is_not_shown() -> None:
    # The first definition of a label wins; GitHub drops the second, contents and all.
    body = lines("[^n]: First:", "", "        a", "", "[^n]: Second:", "", "        " + S1)
    assert_code(body, [3])
    assert scan_comment(body).blocks == (Block(SLICE, "step_id: s1", 7, 7, False),)


@pytest.mark.parametrize("label", ["a[b", "x" * 1001])
def test_a_definition_no_reference_can_name_is_not_shown(label: str) -> None:
    # A label holding "[" or longer than 1,000 characters cannot be referenced.
    body = lines(f"[^{label}]: Template:", "", "        " + S1)
    assert_code(body, [])
    assert scan_comment(body).blocks == (Block(SLICE, "step_id: s1", 3, 3, False),)


def test_a_body_ending_in_an_open_fence_swallows_the_references() -> None:
    # The appended references land inside the fence, so an unreferenced definition is
    # dropped (SPEC 2.4's procedure, and the oracle's); a referenced one is still shown.
    tail = ("[^n]: Template:", "", "        " + S1, "", "```", "unclosed")
    assert_code(lines(*tail), [6])
    assert scan_comment(lines(*tail)).blocks == (Block(SLICE, "step_id: s1", 3, 3, False),)
    assert_code(lines("See[^n].", "", *tail), [5, 8])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"no labels here", b"no labels here"),
        (b"a reference[^x] only", b"a reference[^x] only"),
        (b"[^b]: 1\n[^a]: 2\n[^b]: 3", b"[^b]: 1\n[^a]: 2\n[^b]: 3\n\n[^b] [^a]\n"),
        (b"- > [^q]: x\n[^a]: [^b]: y\n", b"- > [^q]: x\n[^a]: [^b]: y\n\n\n[^q] [^a] [^b]\n"),
        (b"`[^c]:` [^d e]: [^\xc3\xa9]:", b"`[^c]:` [^d e]: [^\xc3\xa9]:\n\n[^c] [^\xc3\xa9]\n"),
        (b"[^]: [^\t]: [^a b]: [^a\nb]:", b"[^]: [^\t]: [^a b]: [^a\nb]:"),
        # cmark reads a NUL as U+FFFD, in the definition and in the reference alike.
        (b"[^a\x00]:", b"[^a\x00]:\n\n[^a\x00]\n"),
    ],
)
def test_with_footnote_references(body: bytes, expected: bytes) -> None:
    # Every label cmark-gfm's scanner reads, in order of first appearance, once each; a label
    # found in a code span only adds a reference that renders as text.
    assert with_footnote_references(body) == expected
    if expected == body:
        assert with_footnote_references(body) is body


# --- GitHub's other comment extensions and options --------------------------------------
# Measured with the library on 2,022 bodies (the oracle test's generators and the shapes
# below): leaving out tasklist, strikethrough, autolink or tagfilter changes no body's code
# lines; leaving out table changes 124, footnotes 888. The render options GitHub may use
# (hard breaks, unsafe, smart, GitHub's <pre lang>) change the HTML, never the tree. Alerts
# ("> [!NOTE]") are block quotes to cmark-gfm; GitHub restyles them after rendering.


def test_the_extensions_are_the_oracles() -> None:
    assert tuple(oracle.EXTENSIONS[1::2]) == GFM_EXTENSIONS


@pytest.mark.parametrize(
    ("body", "expected", "examples"),
    [
        # The item's content starts after "- ", not after the box: 6 spaces is indented code.
        ("- [ ] Template:\n\n      " + S1 + "\n\n<!-- frame-slice step_id: s2 -->", [3], [3]),
        ("1. [ ] a\n   ```\n   x\n   ```", [3], []),
        ("- [ ]\n\n      code", [3], []),
        # After the box the line is the item's paragraph: neither a fence nor indented code.
        ("- [x] ```\n  " + S1 + "\n  ```", [], []),
        ("- [ ]     <!-- frame-spine -->", [], []),
    ],
)
def test_task_list_items_are_list_items(
    body: str, expected: list[int], examples: list[int]
) -> None:
    assert_code(body, expected)
    assert [head.line for head in scan_comment(body).examples] == examples


@pytest.mark.parametrize(
    ("body", "expected", "live"),
    [
        ("> [!NOTE]\n> ```\n> " + S1 + "\n> ```\n\n<!-- frame-slice step_id: s2 -->", [3], [6]),
        ("> [!TIP]\n>\n>     <!-- frame-spine -->", [3], []),
        # A lazy line continues the alert's paragraph: not code, so the head is live.
        ("> [!WARNING]\n    " + S1, [], [2]),
    ],
)
def test_alerts_are_block_quotes(body: str, expected: list[int], live: list[int]) -> None:
    assert_code(body, expected)
    assert [block.head_line for block in scan_comment(body).blocks] == live


@pytest.mark.parametrize(
    ("body", "expected", "live"),
    [
        # A head right under a table is one more row (live); an indented line after a table
        # needs no blank line to be indented code (a table is not a paragraph).
        ("| a | b |\n|---|---|\n" + S1 + "\n    <!-- frame-slice step_id: s2 -->", [4], [3]),
        ("<!-- x -->\n| a |\n|---|\n    <!-- frame-spine", [4], []),
        ("| a |\n|---|\n| <!-- frame-slice --> |\n\n    x", [5], []),
        ("| a | b |\n|---|---|\n```\n<!-- frame-slice -->\n```", [4], []),
    ],
)
def test_tables_around_html_comments(body: str, expected: list[int], live: list[int]) -> None:
    assert_code(body, expected)
    assert [block.head_line for block in scan_comment(body).blocks] == live


@pytest.mark.parametrize("tag", ["pre", "script", "style"])
def test_an_html_block_that_runs_over_blank_lines_holds_no_code(tag: str) -> None:
    # HTML blocks of <pre>, <script>, <style> end at their closing tag, not at a blank line:
    # the indented head inside is HTML (hidden by GitHub), so it is live.
    body = f"<{tag}>\n\n    {S1}\n</{tag}>"
    assert_code(body, [])
    assert scan_comment(body).blocks == (Block(SLICE, "step_id: s1", 3, 3, False),)


def test_textarea_is_an_html_block_that_runs_over_blank_lines() -> None:
    # cmark-gfm 0.29.0.gfm.13 (the library, as GitHub) ends a <textarea> block at its closing
    # tag; Debian's program (0.29.0.gfm.6) at the blank line, so it shows the line as code.
    # The second known version difference, after tables (see the oracle test).
    body = "<textarea>\n\n    x\n</textarea>"
    assert code_lines(body).lines() == []
    if oracle.available():
        assert sorted(oracle.code_lines(body)) == [3]


# --- marker lines in code -----------------------------------------------------------------


def test_marker_lines_in_code_are_not_markers() -> None:
    body = lines(
        "<!-- plan-issue-1 -->",
        "",
        "    <!-- plan-issue-2 -->",
        "",
        "1. item",
        "",
        "   ```",
        "   <!-- frame-slices-3 -->",
        "   <!-- frame-slices-generated-at: 2020-01-01T00:00:00Z -->",
        "   ```",
        "> ~~~",
        "> <!-- frame-slices-4 -->",
    )
    assert_code(body, [3, 8, 9, 12])
    assert scan_comment(body).markers == (MarkerLine("plan-issue", "1", 1),)


def test_plan_identity_marker_only_in_indented_code() -> None:
    body = plan(f"    <!-- plan-issue-{ISSUE} -->", spine_block(), slice_block("s1"), issue=None)
    assert_result(
        run(body),
        status_message(
            "plan-identity-mismatch",
            f"the plan comment carries no <!-- plan-issue-{ISSUE} --> line",
        ),
        1,
    )


def test_sibling_identity_marker_only_in_a_list_item_fence() -> None:
    example = f"1. Marker:\n\n   ```\n   <!-- frame-slices-{ISSUE} -->\n   ```"
    result = run(plan(spine_block(SPLIT)), sibling(example, slice_block("s1"), issue=None))
    assert_result(
        result,
        status_message(
            "sibling-identity-mismatch",
            f"the sibling comment carries no <!-- frame-slices-{ISSUE} --> line",
        ),
        1,
    )


def test_sibling_stamp_only_in_indented_code_is_unstamped() -> None:
    example = f"    <!-- frame-slices-generated-at: {TS} -->"
    result = run(plan(spine_block(SPLIT)), sibling(example, slice_block("s1"), stamp=None))
    assert result.status is Status.SIBLING_UNSTAMPED
    assert result.message == (
        "the sibling comment carries no <!-- frame-slices-generated-at: ... --> stamp line"
    )


def test_missing_spine_when_the_only_spine_is_in_indented_code() -> None:
    body = plan("Example:\n\n" + "\n".join("    " + x for x in EXAMPLE_SPINE))
    assert_result(
        run(body),
        status_message(
            "missing-spine",
            "no frame-spine block outside code: the frame-spine heads found are code examples "
            "(in fenced or indented code blocks), not blocks",
        ),
        1,
    )


# --- frontmatter (SPEC 10) -------------------------------------------------------------------


def test_frontmatter_variant_in_a_fence_inside_the_frontmatter_does_not_count() -> None:
    body = lines("---", "status: pending", "```", "plan-variant: brief", "```", "---")
    assert_code(body, [4])
    assert plan_variants(body) == []


def test_frontmatter_whose_closing_line_is_code_is_no_frontmatter() -> None:
    body = lines("---", "plan-variant: brief", "```", "---", "more")
    assert_code(body, [4, 5])
    assert plan_variants(body) == []


def test_frontmatter_whose_opening_line_is_code_is_no_frontmatter() -> None:
    # frontmatter.py skips the leading "HTML comment" lines 1-3; GitHub shows line 1 as
    # indented code and line 2 opens a fence that swallows the rest.
    body = lines(
        "    <!-- an indented note",
        "```",
        "-->",
        "---",
        "spine-omitted: plan-too-small",
        "---",
    )
    assert_code(body, [1, 3, 4, 5, 6])
    assert spine_omitted(body) is None


def test_frontmatter_outside_code_still_counts() -> None:
    body = lines(
        "<!-- plan-issue-7 -->", "", "---", "plan-variant: brief", "```", "x", "```", "---"
    )
    assert_code(body, [6])
    assert plan_variants(body) == [(4, "brief")]


# --- the code_regions module --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "possible"),
    [
        ("", False),
        ("plain <!-- frame-spine --> prose\n  two spaces", False),
        ("a ``` b", True),
        ("~~~", True),
        ("\tx", True),
        ("a    b", True),
    ],
)
def test_might_hold_code(text: str, possible: bool) -> None:
    assert might_hold_code(text) is possible


def test_code_lines_ranges_and_membership() -> None:
    body = lines("```", "a", "b", "```", "", "    c", "", "    d", "x")
    regions = code_lines(body)
    assert regions == CodeLines(((2, 3), (6, 8)))
    assert [line for line in range(0, 11) if line in regions] == [2, 3, 6, 7, 8]
    assert "2" not in regions


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # An indented block whose first line looks like a bare fence is still indented.
        ("    ```\n    x", [1, 2]),
        # A fence with an info string whose first content line repeats the opener.
        ("~~~ a\n~~~ a\n~~~", [2]),
        ("``` a\n``` a\n```", [2]),
        # Empty fenced blocks hold no line.
        ("```\n```", []),
        ("   ~~~\n   ~~~\nx", []),
        # Tabs that a container marker consumes only in part.
        (">\t\tcode", [1]),
        ("-\t\tcode", [1]),
        # A fence indented under its container, and the line after a long prefix of text.
        ("é\n\n    code\n", [3]),
        ("x\n" * 300 + "```\ny\n```\n" + "z\n" * 500 + "\n    q\n", [302, 805]),
    ],
)
def test_code_lines_edge_shapes(body: str, expected: list[int]) -> None:
    # The oracle reads a fence with an info string by its info attribute; tabs in container
    # prefixes are beyond it (see tests/code_lines.py), so only code_lines is checked here.
    assert code_lines(body).lines() == expected


def test_code_lines_never_raises_on_surrogates_and_nul() -> None:
    assert code_lines("\ud800\n\n    <!-- frame-spine -->\n\x00").lines() == [3]
    assert scan_comment("\ud83d\n\n    <!-- frame-spine -->").examples == (HeadRef(SPINE, 3),)


def test_a_body_without_heads_or_markers_outside_blocks_is_not_parsed() -> None:
    code_lines.cache_clear()
    # Code is possible (a fence, an indented line), but no line outside a block is a head or
    # a marker line: the HTML comment is neither, the mention is mid-line.
    body = lines("```", "see <!-- frame-spine --> here", "```", "<!-- a note -->", "    x")
    scan = scan_comment(body)
    assert (scan.blocks, scan.examples, scan.markers) == ((), (), ())
    assert code_lines.cache_info().misses == 0
    scan_comment(body + "\n<!-- plan-issue-1 -->")
    assert code_lines.cache_info().misses == 1


def test_the_parser_is_imported_only_when_code_is_possible() -> None:
    probe = (
        "import json, sys\n"
        "from frame_spine.core.blocks import scan_comment\n"
        "scan_comment(sys.argv[1])\n"
        "print(json.dumps('cmarkgfm' in sys.modules))\n"
    )
    no_code = "<!-- plan-issue-1 -->\n<!-- frame-spine\n  a: 1\n-->\n"
    with_code = no_code + "\n    indented\n"
    imported = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", probe, body], capture_output=True, check=True
            ).stdout
        )
        for body in (no_code, with_code)
    ]
    assert imported == [False, True]


def test_parsing_frees_what_the_parser_allocates() -> None:
    """The binding's helpers leak the document tree and the HTML (about 1 MB for this 16 KB
    body of lists and tables, per call); code_lines frees both, so 300 parses do not grow the
    process by anything near 300 MB."""
    import resource

    body = ("- item\n\n      <!-- frame-spine -->\n\n| a | b |\n|---|---|\n| c | d |\n" * 500)[
        : 16 * 1024
    ]
    code_lines.cache_clear()
    for index in range(20):
        code_lines(body + str(index))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for index in range(300):
        code_lines(body + str(index))
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    code_lines.cache_clear()
    assert grown_kib < 16 * 1024


@NEEDS_ORACLE
def test_oracle_runs() -> None:
    assert oracle.code_lines(lines("```", "<!-- frame-spine -->", "```")) == {2}


@pytest.mark.parametrize("hop", [0, 1, 3, 16, 17, 100, 255, 256, 257, 1000, 4999, 5000, 5001, 9999])
def test_line_hops_land_on_the_line_start(hop: int) -> None:
    from frame_spine.core.code_regions import _skip_lines

    lines_ = [("x" * (n % 7)) + ("é" if n % 5 == 0 else "") for n in range(5000)]
    data = "\n".join(lines_).encode()
    starts = [0]
    for line in lines_:
        starts.append(starts[-1] + len(line.encode()) + 1)
    for origin in (0, 1, 2500):
        expected = starts[origin + hop] if origin + hop < len(lines_) else len(data)
        assert _skip_lines(data, starts[origin], hop) == expected
