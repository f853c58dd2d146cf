"""SPEC 2: finding ``frame-spine`` / ``frame-slice`` blocks and marker lines in one comment."""

from __future__ import annotations

import pytest

from frame_spine.core.blocks import (
    Block,
    CommentScan,
    HeadRef,
    MarkerLine,
    normalise_body,
    scan_comment,
)

SPINE = "frame-spine"
SLICE = "frame-slice"


def lines(*items: str) -> str:
    """Join lines with LF (no trailing newline)."""
    return "\n".join(items)


# --- 2.1 normalisation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", ""),
        ("a\nb", "a\nb"),
        ("a\r\nb\r\n", "a\nb\n"),
        ("a\rb\r", "a\nb\n"),
        ("a\r\r\nb", "a\n\nb"),
        ("a\n\rb", "a\n\nb"),
        ("a\r\n\r\nb", "a\n\nb"),
        ("\ufeffa\r\nb", "a\nb"),
        ("\ufeff\ufeffa", "\ufeffa"),
        ("a\ufeffb", "a\ufeffb"),
        ("\ufeff", ""),
    ],
)
def test_normalise_body(raw: str, expected: str) -> None:
    assert normalise_body(raw) == expected


def test_scan_reports_normalised_text() -> None:
    scan = scan_comment("\ufeffx\r\ny\rz")
    assert scan.text == "x\ny\nz"
    assert scan == CommentScan("x\ny\nz", (), (), (), ())


def test_bom_before_head_on_first_line() -> None:
    scan = scan_comment("\ufeff<!-- frame-slice step_id: s1 -->")
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 1, False),)


SLICE_LF = lines(
    "<!-- frame-slices-9 -->",
    "",
    "<!-- frame-slice",
    "step_id: s1",
    "rc: x",
    "-->",
    "",
    "<!-- frame-slice -->",
    "step_id: s2",
    "-->",
)


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_bodies_scan_like_lf(newline: str) -> None:
    lf = scan_comment(SLICE_LF)
    other = scan_comment(SLICE_LF.replace("\n", newline))
    assert other == lf
    assert lf.blocks == (
        Block(SLICE, "step_id: s1\nrc: x", 3, 4, False),
        Block(SLICE, "step_id: s2", 8, 9, True),
    )
    assert lf.markers == (MarkerLine("frame-slices", "9", 1),)


def test_crlf_payload_has_no_carriage_returns() -> None:
    scan = scan_comment("<!-- frame-spine\r\na: 1\r\nb: 2\r\n-->\r\n")
    assert scan.blocks == (Block(SPINE, "a: 1\nb: 2", 1, 2, False),)


# --- 2.5 bare marker form ------------------------------------------------------------------


def test_bare_marker_block() -> None:
    body = lines("intro", "<!-- frame-slice -->", "step_id: s1", "provides: [x]", "-->", "outro")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\nprovides: [x]", 2, 3, True),)
    assert scan.unterminated == ()
    assert scan.examples == ()
    assert scan.markers == ()


@pytest.mark.parametrize(
    "head",
    [
        "<!-- frame-spine -->",
        "<!--frame-spine-->",
        "<!--   frame-spine   -->   ",
        "<!--\tframe-spine\t-->\t",
        "  <!-- frame-spine -->",
        "   <!-- frame-spine -->",
    ],
)
def test_bare_marker_head_variants(head: str) -> None:
    scan = scan_comment(lines(head, "a: 1", "-->"))
    assert scan.blocks == (Block(SPINE, "a: 1", 1, 2, True),)


def test_bare_payload_mid_line_arrow_does_not_close() -> None:
    body = lines("<!-- frame-slice -->", "step_id: s1", "note: a --> b", "-->", "after")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\nnote: a --> b", 1, 2, True),)


def test_bare_closer_after_leading_whitespace_with_trailing_text() -> None:
    body = lines("<!-- frame-slice -->", "step_id: s1", "  \t--> trailing words", "x")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 2, True),)


def test_bare_closer_line_must_start_with_arrow() -> None:
    # "--->" does not start with "-->"; "x -->" has the arrow mid-line.
    body = lines("<!-- frame-slice -->", "step_id: s1", "--->", "x -->", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\n--->\nx -->", 1, 2, True),)


def test_bare_payload_contains_open_head_line_as_text() -> None:
    body = lines("<!-- frame-slice -->", "step_id: s1", "<!-- frame-slice", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\n<!-- frame-slice", 1, 2, True),)
    assert scan.unterminated == ()


def test_bare_payload_contains_bare_head_line_as_text() -> None:
    body = lines("<!-- frame-slice -->", "step_id: s1", "<!-- frame-slice -->", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\n<!-- frame-slice -->", 1, 2, True),)
    assert scan.unterminated == ()


# --- 2.5 open head form --------------------------------------------------------------------


def test_open_head_multi_line() -> None:
    body = lines("prose", "<!-- frame-spine", "spine_schema_version: 2", "generated_at: T", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SPINE, "spine_schema_version: 2\ngenerated_at: T", 2, 3, False),)


def test_open_head_one_line() -> None:
    scan = scan_comment("<!-- frame-slice step_id: s1 -->")
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 1, False),)


def test_open_head_text_after_name_is_first_payload_line() -> None:
    body = lines("<!-- frame-slice step_id: s1", "provides: [x]", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\nprovides: [x]", 1, 1, False),)


def test_open_head_separator_whitespace_dropped_tabs_and_spaces() -> None:
    scan = scan_comment(lines("<!-- frame-slice \t  step_id: s1", "-->"))
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 1, False),)


def test_open_head_closes_mid_line_on_later_line() -> None:
    body = lines("<!-- frame-slice", "step_id: s1", "rc: done --> trailing prose", "next")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\nrc: done", 1, 2, False),)


def test_open_head_closes_at_first_arrow_even_inside_a_value() -> None:
    body = lines("<!-- frame-slice", "step_id: s1", "note: a --> b", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\nnote: a", 1, 2, False),)


def test_open_head_arrow_right_after_name_with_text_gives_empty_payload() -> None:
    scan = scan_comment("<!-- frame-slice--> step_id: s1")
    assert scan.blocks == (Block(SLICE, "", 1, 1, False),)


def test_open_head_whitespace_between_comment_opener_and_name_optional() -> None:
    body = lines("<!--frame-spine", "a: 1", "-->", "<!--\t\tframe-slice step_id: s1 -->")
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SPINE, "a: 1", 1, 2, False),
        Block(SLICE, "step_id: s1", 4, 4, False),
    )


@pytest.mark.parametrize("indent", [" ", "  ", "   "])
def test_heads_after_up_to_three_spaces(indent: str) -> None:
    body = lines(
        f"{indent}<!-- frame-spine",
        "a: 1",
        "-->",
        f"{indent}<!-- frame-slice -->",
        "step_id: s1",
        "-->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SPINE, "a: 1", 1, 2, False),
        Block(SLICE, "step_id: s1", 4, 5, True),
    )
    assert scan.examples == ()


@pytest.mark.parametrize("indent", ["    ", "\t", " \t", " \t ", "        ", "\t\t", "   \t"])
def test_heads_indented_four_columns_are_indented_code(indent: str) -> None:
    # SPEC 2.4 (revision 2): four columns of indentation (a tab counts as reaching the next
    # multiple of four) start an indented code block, unless the line continues a paragraph.
    # Line 1 is code, so lines 2-3 are a paragraph, and line 4 (indented the same) continues
    # that paragraph: it is no code, so its head is live.
    body = lines(
        f"{indent}<!-- frame-spine",
        "a: 1",
        "-->",
        f"{indent}<!-- frame-slice -->",
        "step_id: s1",
        "-->",
    )
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SPINE, 1),)
    assert scan.blocks == (Block(SLICE, "step_id: s1", 4, 5, True),)
    assert scan.unterminated == ()


# --- 2.3 what is (not) a head --------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "see `<!-- frame-spine ... -->` for details",
        "The spine lives in <!-- frame-spine",
        "x <!-- frame-slice -->",
        "> <!-- frame-slice step_id: s1 -->",
        "- <!-- frame-spine",
    ],
)
def test_mid_line_mention_is_not_a_head(line: str) -> None:
    scan = scan_comment(lines("prose", line, "step_id: s1", "-->", "more"))
    assert scan.blocks == ()
    assert scan.unterminated == ()
    assert scan.examples == ()


@pytest.mark.parametrize(
    ("line", "marker"),
    [
        ("<!-- frame-slices-878 -->", MarkerLine("frame-slices", "878", 1)),
        (
            "<!-- frame-slices-generated-at: 2026-07-18T22:20:00Z -->",
            MarkerLine("stamp", "2026-07-18T22:20:00Z", 1),
        ),
    ],
)
def test_sibling_marker_lines_are_never_slice_heads(line: str, marker: MarkerLine) -> None:
    scan = scan_comment(lines(line, "step_id: s1", "-->"))
    assert scan == CommentScan(lines(line, "step_id: s1", "-->"), (), (), (), (marker,))


@pytest.mark.parametrize(
    "line",
    [
        "<!-- frame-slicer -->",
        "<!-- frame-spines",
        "<!-- frame-spine-x -->",
        "<!-- frame-slice_1 step_id: s1 -->",
        "<!-- frame-slice:s1 -->",
    ],
)
def test_longer_names_are_not_heads(line: str) -> None:
    scan = scan_comment(lines(line, "step_id: s1", "-->"))
    assert scan.blocks == ()
    assert scan.unterminated == ()


def test_sibling_comment_shape_from_spec_section_1() -> None:
    body = lines(
        "<!-- frame-slices-878 -->",
        "<!-- frame-slices-generated-at: 2026-07-18T22:20:00Z -->",
        "",
        "<!-- frame-slice",
        "step_id: s1",
        "provides: [implement-docs]",
        "depends-on: []",
        "ac-refs: [AC4]",
        "requirement-contract: |",
        "  Indented free text, kept verbatim.",
        "-->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(
            SLICE,
            "step_id: s1\nprovides: [implement-docs]\ndepends-on: []\nac-refs: [AC4]\n"
            "requirement-contract: |\n  Indented free text, kept verbatim.",
            4,
            5,
            False,
        ),
    )
    assert scan.markers == (
        MarkerLine("frame-slices", "878", 1),
        MarkerLine("stamp", "2026-07-18T22:20:00Z", 2),
    )
    assert scan.unterminated == ()
    assert scan.examples == ()


# --- 2.4 fences ----------------------------------------------------------------------------


def _fenced_example(opener: str, closer: str) -> str:
    return lines(
        "intro",
        opener,
        "<!-- frame-spine",
        "a: example",
        "-->",
        closer,
        "<!-- frame-spine",
        "a: real",
        "-->",
    )


@pytest.mark.parametrize(
    ("opener", "closer"),
    [
        ("```", "```"),
        ("~~~", "~~~"),
        ("````", "````"),
        ("```", "`````"),
        ("~~~", "~~~~~~"),
        ("```", "```   "),
        ("```", "```\t"),
        ("~~~~", "~~~~ \t "),
        ("```markdown", "```"),
        ("``` html title='x'", "```"),
        ("~~~ info with ` backtick", "~~~"),
        ("   ```", "```"),
        ("```", "   ```"),
        (" ~~~", "  ~~~"),
    ],
)
def test_fenced_heads_are_examples(opener: str, closer: str) -> None:
    scan = scan_comment(_fenced_example(opener, closer))
    assert scan.examples == (HeadRef(SPINE, 3),)
    assert scan.blocks == (Block(SPINE, "a: real", 7, 8, False),)
    assert scan.unterminated == ()


@pytest.mark.parametrize(
    ("opener", "not_a_closer"),
    [
        ("````", "```"),
        ("~~~~~", "~~~~"),
        ("```", "~~~"),
        ("~~~", "```"),
        ("```", "``` python"),
        ("```", "```x"),
        ("```", "    ```"),
        ("~~~", "~~~ ~"),
    ],
)
def test_non_closers_keep_the_fence_open(opener: str, not_a_closer: str) -> None:
    body = lines(
        opener,
        not_a_closer,
        "<!-- frame-spine",
        "a: example",
        "-->",
        opener,
        "<!-- frame-slice step_id: s1 -->",
    )
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SPINE, 3),)
    assert scan.blocks == (Block(SLICE, "step_id: s1", 7, 7, False),)
    assert scan.unterminated == ()


@pytest.mark.parametrize(
    "not_an_opener",
    [
        "    ```",
        "\t```",
        "``` a`b",
        "```js`",
        "``",
        "~~",
        "x ```",
    ],
)
def test_non_openers_do_not_start_a_fence(not_an_opener: str) -> None:
    body = lines(not_an_opener, "<!-- frame-spine", "a: 1", "-->", "```")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SPINE, "a: 1", 2, 3, False),)
    assert scan.examples == ()


def test_unclosed_fence_runs_to_end_of_comment() -> None:
    body = lines(
        "```markdown",
        "<!-- frame-spine",
        "a: 1",
        "-->",
        "<!-- frame-slice -->",
        "step_id: s1",
        "-->",
        "<!-- frame-slice step_id: s2 -->",
        "<!-- plan-issue-5 -->",
    )
    scan = scan_comment(body)
    assert scan.blocks == ()
    assert scan.unterminated == ()
    assert scan.markers == ()
    assert scan.examples == (HeadRef(SPINE, 2), HeadRef(SLICE, 5), HeadRef(SLICE, 8))


def test_unclosed_fence_does_not_leak_into_another_comment() -> None:
    plan = scan_comment(lines("```", "<!-- frame-spine", "a: 1", "-->"))
    sibling = scan_comment(lines("<!-- frame-slice step_id: s1 -->"))
    assert plan.examples == (HeadRef(SPINE, 2),)
    assert plan.blocks == ()
    assert sibling.blocks == (Block(SLICE, "step_id: s1", 1, 1, False),)


def test_fenced_heads_of_both_names_and_forms() -> None:
    body = lines(
        "~~~",
        "<!-- frame-spine -->",
        "  <!-- frame-slice step_id: s1 -->",
        "<!--frame-slice",
        "<!-- frame-slices-3 -->",
        "see <!-- frame-spine",
        "~~~",
    )
    scan = scan_comment(body)
    assert scan.examples == (HeadRef(SPINE, 2), HeadRef(SLICE, 3), HeadRef(SLICE, 4))
    assert scan.blocks == ()
    assert scan.unterminated == ()
    assert scan.markers == ()


def test_fence_line_inside_block_payload_is_payload() -> None:
    # The payload line ``` is payload (never a fence for the scanner), and the open head's
    # HTML comment runs to its -->, so GitHub shows no code here.
    body = lines(
        "<!-- frame-slice",
        "step_id: s1",
        "```",
        "-->",
        "<!-- frame-slice -->",
        "step_id: s2",
        "-->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SLICE, "step_id: s1\n```", 1, 2, False),
        Block(SLICE, "step_id: s2", 5, 6, True),
    )
    assert scan.examples == ()


def test_bare_payload_opening_an_unclosed_fence_still_closes_and_later_heads_are_examples() -> None:
    # SPEC 2.4: a bare-marker head is a one-line HTML comment for GitHub, so its payload is
    # Markdown: the ``` line opens a fence that never closes. The block still ends at its
    # --> (the closer search ignores code), and the head after it, which GitHub shows
    # inside that fence, is an example.
    body = lines(
        "<!-- frame-slice -->",
        "step_id: s1",
        "```",
        "-->",
        "<!-- frame-slice -->",
        "step_id: s2",
        "-->",
        "<!-- frame-slices-5 -->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\n```", 1, 2, True),)
    assert scan.examples == (HeadRef(SLICE, 5),)
    assert scan.unterminated == ()
    assert scan.markers == ()


def test_open_block_closes_at_arrow_in_what_looks_like_a_fence() -> None:
    body = lines(
        "<!-- frame-spine",
        "a: 1",
        "```",
        "x --> y",
        "```",
        "<!-- frame-slice step_id: s1 -->",
        "```",
    )
    scan = scan_comment(body)
    # The block swallows the first ``` line; scanning resumes on line 5, which opens a fence.
    assert scan.blocks == (Block(SPINE, "a: 1\n```\nx", 1, 2, False),)
    assert scan.examples == (HeadRef(SLICE, 6),)


def test_fence_opened_after_a_block() -> None:
    body = lines(
        "<!-- frame-slice step_id: s1 -->",
        "```",
        "<!-- frame-slice step_id: s2 -->",
        "```",
        "<!-- frame-slice step_id: s3 -->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SLICE, "step_id: s1", 1, 1, False),
        Block(SLICE, "step_id: s3", 5, 5, False),
    )
    assert scan.examples == (HeadRef(SLICE, 3),)


def test_fenced_spine_example_before_real_spine() -> None:
    body = lines(
        "<!-- plan-issue-878 -->",
        "Example:",
        "```markdown",
        "<!-- frame-spine",
        "spine_schema_version: 2",
        "-->",
        "```",
        "<!-- frame-spine",
        "spine_schema_version: 1",
        "-->",
    )
    scan = scan_comment(body)
    assert scan == CommentScan(
        body,
        (Block(SPINE, "spine_schema_version: 1", 8, 9, False),),
        (),
        (HeadRef(SPINE, 4),),
        (MarkerLine("plan-issue", "878", 1),),
    )


# --- 2.7 unterminated blocks ---------------------------------------------------------------


def test_unterminated_open_head() -> None:
    body = lines("<!-- frame-spine", "spine_schema_version: 2", "generated_at: T")
    scan = scan_comment(body)
    assert scan == CommentScan(body, (), (HeadRef(SPINE, 1),), (), ())


@pytest.mark.parametrize(
    "body", ["<!-- frame-spine -->", "<!-- frame-spine -->\n", "x\n<!-- frame-spine -->\n\n"]
)
def test_unterminated_bare_head_without_payload_lines(body: str) -> None:
    scan = scan_comment(body)
    line = 2 if body.startswith("x") else 1
    assert scan.blocks == ()
    assert scan.unterminated == (HeadRef(SPINE, line),)


def test_unterminated_bare_head_then_later_complete_block() -> None:
    body = lines(
        "<!-- frame-spine -->",
        "spine_schema_version: 2",
        "<!-- frame-slice",
        "step_id: s1 -->",
        "after",
    )
    scan = scan_comment(body)
    assert scan == CommentScan(
        body,
        (Block(SLICE, "step_id: s1", 3, 4, False),),
        (HeadRef(SPINE, 1),),
        (),
        (),
    )


def test_unterminated_bare_head_scanning_continues_on_next_line() -> None:
    # The head on line 2 is found even though it sits where the unterminated payload would be.
    body = lines(
        "<!-- frame-slice -->",
        "<!-- frame-slice step_id: s2 -->",
        "<!-- frame-slices-generated-at: 2026-01-01T00:00:00Z -->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 2, 2, False),)
    assert scan.unterminated == (HeadRef(SLICE, 1),)
    assert scan.markers == (MarkerLine("stamp", "2026-01-01T00:00:00Z", 3),)


def test_unterminated_bare_head_next_line_opens_fence() -> None:
    body = lines(
        "<!-- frame-spine -->",
        "```",
        "<!-- frame-slice step_id: s1 -->",
        "```",
        "<!-- frame-slice step_id: s2 -->",
    )
    scan = scan_comment(body)
    assert scan.unterminated == (HeadRef(SPINE, 1),)
    assert scan.examples == (HeadRef(SLICE, 3),)
    assert scan.blocks == (Block(SLICE, "step_id: s2", 5, 5, False),)


def test_several_unterminated_heads_in_order() -> None:
    body = lines(
        "<!-- frame-slice step_id: s1 -->",
        "<!-- frame-spine -->",
        "text",
        "<!-- frame-slice -->",
        "<!-- frame-slice step_id: s9",
        "no closer",
    )
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 1, False),)
    assert scan.unterminated == (HeadRef(SPINE, 2), HeadRef(SLICE, 4), HeadRef(SLICE, 5))


def test_open_head_is_closed_by_arrow_of_a_later_bare_head() -> None:
    # Closing at the first "-->" anywhere: a later bare head line ends the open block.
    body = lines(
        "<!-- frame-spine",
        "a: 1",
        "<!-- frame-slice -->",
        "step_id: s1",
        "-->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (Block(SPINE, "a: 1\n<!-- frame-slice", 1, 2, False),)
    assert scan.unterminated == ()


# --- 2.8 no overlap ------------------------------------------------------------------------


def test_blocks_never_overlap_bare_then_bare() -> None:
    body = lines(
        "<!-- frame-slice -->",
        "step_id: s1",
        "-->",
        "<!-- frame-slice -->",
        "step_id: s2",
        "-->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SLICE, "step_id: s1", 1, 2, True),
        Block(SLICE, "step_id: s2", 4, 5, True),
    )


def test_open_block_on_head_line_then_next_head() -> None:
    body = lines(
        "<!-- frame-slice step_id: s1 -->",
        "<!-- frame-slice step_id: s2 -->",
        "<!-- frame-spine a: 1 -->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SLICE, "step_id: s1", 1, 1, False),
        Block(SLICE, "step_id: s2", 2, 2, False),
        Block(SPINE, "a: 1", 3, 3, False),
    )


def test_text_after_closer_on_same_line_is_not_a_head() -> None:
    # A head is a line; what follows a closer on its line is never one (SPEC 2.3, 2.8).
    scan = scan_comment("<!-- frame-slice step_id: s1 --> <!-- frame-slice step_id: s2 -->")
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 1, False),)
    assert scan.unterminated == ()


def test_open_block_swallows_marker_line_up_to_its_arrow() -> None:
    body = lines(
        "<!-- frame-slice", "step_id: s1", "<!-- plan-issue-9 -->", "<!-- plan-issue-7 -->"
    )
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1\n<!-- plan-issue-9", 1, 2, False),)
    assert scan.markers == (MarkerLine("plan-issue", "7", 4),)


# --- 2.6 payload cleaning ------------------------------------------------------------------


def test_payload_leading_and_trailing_blank_lines_removed() -> None:
    body = lines("<!-- frame-slice -->", "", "  ", "\t", "step_id: s1", "", " \t ", "", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 5, True),)


def test_payload_trailing_whitespace_only_on_last_line() -> None:
    body = lines("<!-- frame-slice -->", "step_id: s1  ", "rc: x\t", "last: y \t ", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1  \nrc: x\t\nlast: y", 1, 2, True),)


def test_payload_keeps_interior_blank_lines_indentation_and_non_ascii() -> None:
    body = lines(
        "<!-- frame-slice",
        "step_id: s1",
        "requirement-contract: |",
        "    Indented — café ✓ 日本語",
        "",
        "  ",
        "\tTabbed line",
        "-->",
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(
            SLICE,
            "step_id: s1\nrequirement-contract: |\n"
            "    Indented — café ✓ 日本語\n\n  \n\tTabbed line",
            1,
            2,
            False,
        ),
    )


def test_payload_first_line_indentation_kept_after_leading_blank_lines() -> None:
    body = lines("<!-- frame-spine", "", "  ports:", "    a: [s1]", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SPINE, "  ports:\n    a: [s1]", 1, 3, False),)


def test_open_head_first_line_trailing_whitespace_is_interior() -> None:
    body = lines("<!-- frame-slice   step_id: s1   ", "  x: 1  ", "", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "step_id: s1   \n  x: 1", 1, 1, False),)


def test_open_head_mid_line_closer_trailing_whitespace_removed() -> None:
    scan = scan_comment("<!-- frame-slice step_id: s1 \t -->")
    assert scan.blocks == (Block(SLICE, "step_id: s1", 1, 1, False),)


def test_empty_open_payloads() -> None:
    body = lines("<!-- frame-slice -->x", "<!-- frame-spine", "", "  ", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SLICE, "", 1, 1, False),
        Block(SPINE, "", 2, 2, False),
    )


def test_empty_bare_payload_line_is_head_line() -> None:
    # Block.payload_line docstring: head_line "when the payload ... is empty".
    body = lines("x", "<!-- frame-slice -->", "", "-->")
    scan = scan_comment(body)
    assert scan.blocks == (Block(SLICE, "", 2, 2, True),)


# --- line numbers --------------------------------------------------------------------------


def test_line_numbers_are_one_based_in_normalised_text() -> None:
    body = (
        "\ufeff<!-- plan-issue-4 -->\r\n"
        "\r\n"
        "prose\r"
        "<!-- frame-spine\r\n"
        "\r\n"
        "a: 1\r\n"
        "-->\r\n"
        "<!-- frame-slice -->\r\n"
        "\r\n"
        "\r\n"
        "step_id: s1\r\n"
        "-->\r\n"
        "<!-- frame-slice step_id: s2 -->"
    )
    scan = scan_comment(body)
    assert scan.blocks == (
        Block(SPINE, "a: 1", 4, 6, False),
        Block(SLICE, "step_id: s1", 8, 11, True),
        Block(SLICE, "step_id: s2", 13, 13, False),
    )
    assert scan.markers == (MarkerLine("plan-issue", "4", 1),)


# --- marker lines --------------------------------------------------------------------------


def test_marker_lines_outside_fences_and_blocks() -> None:
    body = lines(
        "<!-- plan-issue-878 -->",
        "<!-- frame-slices-878 -->",
        "<!-- frame-slices-generated-at: 2026-07-18T22:20:00Z -->",
        "<!-- frame-slices-generated-at:   yesterday   -->",
        "```",
        "<!-- plan-issue-1 -->",
        "<!-- frame-slices-1 -->",
        "<!-- frame-slices-generated-at: 2020-01-01T00:00:00Z -->",
        "```",
        "<!-- frame-slice -->",
        "step_id: s1",
        "<!-- plan-issue-2 -->",
        "<!-- frame-slices-generated-at: 2021-01-01T00:00:00Z -->",
        "-->",
        "see <!-- plan-issue-3 --> in prose",
        "<!-- plan-issue-4 --> trailing",
        "<!-- frame-slices-5 -->",
    )
    scan = scan_comment(body)
    assert scan.markers == (
        MarkerLine("plan-issue", "878", 1),
        MarkerLine("frame-slices", "878", 2),
        MarkerLine("stamp", "2026-07-18T22:20:00Z", 3),
        MarkerLine("stamp", "yesterday", 4),
        MarkerLine("frame-slices", "5", 17),
    )
    assert scan.blocks == (
        Block(
            SLICE,
            "step_id: s1\n<!-- plan-issue-2 -->\n"
            "<!-- frame-slices-generated-at: 2021-01-01T00:00:00Z -->",
            10,
            11,
            True,
        ),
    )
    assert scan.marker_values("plan-issue") == ["878"]
    assert scan.marker_values("frame-slices") == ["878", "5"]
    assert scan.marker_values("stamp") == ["2026-07-18T22:20:00Z", "yesterday"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<!--plan-issue-12-->", MarkerLine("plan-issue", "12", 1)),
        ("  <!-- frame-slices-7 -->  ", MarkerLine("frame-slices", "7", 1)),
        (
            "<!--frame-slices-generated-at:2026-07-18T22:20:00.5Z-->",
            MarkerLine("stamp", "2026-07-18T22:20:00.5Z", 1),
        ),
        ("<!-- frame-slices-generated-at: -->", MarkerLine("stamp", "", 1)),
    ],
)
def test_marker_line_spacing(line: str, expected: MarkerLine) -> None:
    assert scan_comment(line).markers == (expected,)


@pytest.mark.parametrize(
    "line",
    [
        "<!-- plan-issue- -->",
        "<!-- plan-issue-12a -->",
        "<!-- plan-issue-12",
        "text <!-- frame-slices-7 -->",
        "<!-- frame-slices-7 --> text",
        "<!-- frame-slices-generated-at 2026-07-18T22:20:00Z -->",
    ],
)
def test_not_marker_lines(line: str) -> None:
    assert scan_comment(line).markers == ()


def test_blocks_named() -> None:
    body = lines(
        "<!-- frame-slice step_id: s1 -->",
        "<!-- frame-spine a: 1 -->",
        "<!-- frame-slice step_id: s2 -->",
    )
    scan = scan_comment(body)
    assert scan.blocks_named("frame-slice") == [
        Block(SLICE, "step_id: s1", 1, 1, False),
        Block(SLICE, "step_id: s2", 3, 3, False),
    ]
    assert scan.blocks_named("frame-spine") == [Block(SPINE, "a: 1", 2, 2, False)]


def test_empty_body() -> None:
    assert scan_comment("") == CommentScan("", (), (), (), ())


def test_marker_like_lines_of_64_kb_are_read_in_one_pass() -> None:
    """A stamp or plan-variant head followed by 64 KB of blanks and no closer (an input that
    made the earlier regular expressions backtrack for hours) is simply not a marker."""
    from frame_spine.core.frontmatter import plan_variants

    stamp = "<!-- frame-slices-generated-at:" + " \t" * 32_000
    assert scan_comment(stamp).markers == ()
    closed = stamp + "x -->"
    assert scan_comment(closed).markers == (MarkerLine("stamp", "x", 1),)
    variant = "---\nplan-variant: x" + " " * 64_000 + "y\n---\n"
    assert plan_variants(variant) == [(2, "x" + " " * 64_000 + "y")]
