"""SPEC 2.4, differential: the scanner's examples are exactly the heads GitHub shows as code.

Hypothesis generates ordinary comment bodies that mix lists (bullets, numbered and task-list
items, nested), block quotes (some of them alerts), footnote definitions (referenced or not, nested in lists, quotes and each other,
with continuation lines indented fully, partly or not at all), tables, fences (backtick and
tilde, indented, unclosed, with lines that look like closers but are not), indented code,
HTML blocks like ``<details>``, paragraphs and frame blocks (both head forms, payloads that
open fences, unterminated heads, marker lines, stamps). The oracle is the ``cmark-gfm`` program (``tests/code_lines.py``). For every head and
marker line outside any block:

- a head is an example exactly when the oracle says its line is code, and live otherwise;
- a marker line counts exactly when its line is not code.

The program is slow or aborts on hostile inputs (deep nesting, long bracket runs), so bodies
are of ordinary shapes and bounded size. Tabs are used only at the start of top-level lines:
the oracle cannot place an indented block whose first tab a container marker consumes in
part (see ``tests/code_lines.py``). A footnote definition never starts on the line of another
one (``[^a]: [^b]: x``): the oracle finds labels only after container markers at the start of
a line, so it drops such an inner definition that nothing references, where ``code_lines``
keeps it (pinned in ``tests/core/test_code_regions.py``).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from frame_spine.cmarkgfm_adapter import render_html
from frame_spine.core.blocks import CommentScan, scan_comment
from frame_spine.core.code_regions import GFM_EXTENSIONS, code_lines, with_footnote_references
from tests import code_lines as oracle


def binding_table_count(text: str) -> int:
    """How many tables the library (cmarkgfm's cmark-gfm, the parser ``code_lines`` uses) finds,
    parsing as ``code_lines`` does (footnote references appended)."""
    data = with_footnote_references(text.encode("utf-8", "surrogatepass"))
    return render_html(data, GFM_EXTENSIONS).count(b"<table ")


def footnote_code_blocks(text: str) -> int:
    """How many code blocks the library shows inside footnote definitions (for statistics)."""
    data = with_footnote_references(text.encode("utf-8", "surrogatepass"))
    _, _, footnotes = render_html(data, GFM_EXTENSIONS).partition(b'<section class="footnotes"')
    return footnotes.count(b"<pre ")


def same_tables(body: str) -> bool:
    """Whether the program and the library agree on how many tables ``body`` holds.

    Debian's program is cmark-gfm 0.29.0.gfm.6; the library bundles a newer cmark-gfm, the one
    GitHub follows. They differ in one known way: in a paragraph that holds a line shaped like
    a delimiter row that did not start a table (``x`` / ``|---|---|`` / ``| a | b |`` /
    ``|---|---|``), the older one still starts a table at a later header row, the newer one
    never does. Where a table ends decides whether an indented line after it is code, so
    bodies where the two versions see different tables are not evidence either way: they are
    left out (and counted), any other disagreement fails."""
    return oracle.table_count(body) == binding_table_count(body)


pytestmark = pytest.mark.skipif(
    not oracle.available(),
    reason="the cmark-gfm program (Debian package cmark-gfm) is not installed, so the SPEC 2.4 "
    "differential tests cannot run; `make test` installs it when apt-get can",
)

# derandomize: the same 150 bodies in every run, so a landing is not decided by chance. A random
# run found the body of test_an_open_fence_in_a_task_footnote_at_the_end (a known miss, xfail).
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# SPEC 2.3, transcribed: a head is a line whose content, after spaces/tabs, is "<!--",
# optional whitespace, the name, then whitespace, "-->" or the end of the line.
HEAD = re.compile(r"[ \t]*<!--[ \t]*(?:frame-spine|frame-slice)(?=[ \t]|-->|$)")

HEADS = (
    "<!-- frame-spine",
    "<!-- frame-spine -->",
    "<!-- frame-slice",
    "<!-- frame-slice -->",
    "<!-- frame-slice step_id: s1 -->",
    "<!--frame-spine a: 1 -->",
)
MARKERS = (
    "<!-- plan-issue-7 -->",
    "<!-- frame-slices-7 -->",
    "<!-- frame-slices-generated-at: 2026-05-04T14:30:00Z -->",
)
PROSE = (
    "Some prose.",
    "see `<!-- frame-spine -->` here",
    "step_id: s1",
    "a: 1",
    "-->",
    "x --> y",
    "**bold** and _it_",
    "<!-- a note -->",
    "plan-variant: brief",
    "[a link](https://example.com)",
    "see the note[^note].",
    "both[^n1] [^x]",
)
FOOTNOTE_LABELS = ("note", "note", "n1", "Note", "x-2")
FENCE_INFO = ("", "", "markdown", "yaml title", " text")
# Task-list items among them: the tasklist extension marks an item, it opens no block.
LIST_MARKERS = ("- ", "* ", "+ ", "1. ", "10. ", "2) ", "-   ", "- [ ] ", "* [x] ", "1. [X] ")
# GitHub shows a block quote whose first line is one of these as an alert; to cmark-gfm it is
# a block quote like any other.
ALERTS = ("[!NOTE]", "[!WARNING]", "[!TIP]")


@st.composite
def leaf(draw: st.DrawFn, *, top: bool) -> str:
    """One line of content: a head (maybe indented), a marker line, prose or a blank."""
    kind = draw(st.sampled_from(["head", "head", "marker", "prose", "prose", "blank"]))
    if kind == "blank":
        return ""
    text = draw(st.sampled_from({"head": HEADS, "marker": MARKERS, "prose": PROSE}[kind]))
    indents = ["", "", "", " ", "  ", "   ", "    ", "     "] + (["\t"] if top else [])
    return draw(st.sampled_from(indents)) + text


def leaves(*, top: bool, min_size: int = 1, max_size: int = 3) -> st.SearchStrategy[list[str]]:
    return st.lists(leaf(top=top), min_size=min_size, max_size=max_size)


@st.composite
def fence(draw: st.DrawFn, *, top: bool) -> list[str]:
    char = draw(st.sampled_from("`~"))
    width = draw(st.integers(3, 5))
    indent = " " * draw(st.integers(0, 3))
    info = draw(st.sampled_from(FENCE_INFO))
    lines = [indent + char * width + info, *draw(leaves(top=top, min_size=0))]
    ending = draw(st.sampled_from(["closed", "closed", "unclosed", "short", "other-char"]))
    if ending == "closed":
        lines.append(" " * draw(st.integers(0, 3)) + char * draw(st.integers(width, 6)))
    elif ending == "short":
        lines.append(char * (width - 1))
    elif ending == "other-char":
        lines.append(("~" if char == "`" else "`") * width)
    return lines


@st.composite
def indented_code(draw: st.DrawFn, *, top: bool) -> list[str]:
    prefix = draw(st.sampled_from(["    ", "    ", "      "] + (["\t"] if top else [])))
    body = draw(st.lists(leaf(top=False), min_size=1, max_size=3))
    return ["", *(prefix + line if line else "" for line in body)]


@st.composite
def html_block(draw: st.DrawFn, *, top: bool) -> list[str]:
    lines = ["<details>"]
    if draw(st.booleans()):
        lines.append("<summary>Spine</summary>")
    if draw(st.booleans()):
        lines.append("")
    return [*lines, *draw(leaves(top=top)), "</details>"]


@st.composite
def table(draw: st.DrawFn, *, top: bool) -> list[str]:
    rows = ["| a | b |", "|---|---|", *(["| c | d |"] * draw(st.integers(0, 2)))]
    return rows + draw(leaves(top=top, min_size=0, max_size=2))


@st.composite
def frame_block(draw: st.DrawFn, *, top: bool) -> list[str]:
    form = draw(st.sampled_from(["open", "bare", "bare", "unterminated"]))
    payload = draw(
        st.lists(
            st.sampled_from(["step_id: s1", "  rc: x", "```", "~~~", "    indented", ""]),
            max_size=3,
        )
    )
    if form == "open":
        return ["<!-- frame-slice", *payload, "-->"]
    if form == "bare":
        return ["<!-- frame-slice -->", *payload, draw(st.sampled_from(["-->", "  -->"]))]
    return [draw(st.sampled_from(["<!-- frame-spine", "<!-- frame-spine -->"])), *payload]


@st.composite
def footnote_block(draw: st.DrawFn, depth: int) -> list[str]:
    """A footnote definition: ``[^label]:``, maybe text on its line, then its content (code,
    HTML, frame blocks, prose; nested definitions, lists and quotes while ``depth`` lasts).

    Content lines are indented by 4 (the definition's content column), sometimes less (a
    lazy paragraph line, or a line that ends the definition); blank lines stay empty.
    """
    head = f"[^{draw(st.sampled_from(FOOTNOTE_LABELS))}]:"
    text = draw(st.sampled_from(["", "", " Template:", " Note:", " <!-- frame-slice"]))
    kinds = [fence(top=False), fence(top=False), indented_code(top=False), html_block(top=False)]
    kinds += [frame_block(top=False), leaves(top=False), st.just([""])]
    if depth > 0:
        kinds += [footnote_block(depth - 1), list_block(depth - 1), quote_block(depth - 1)]
    parts = draw(st.lists(st.one_of(*kinds), min_size=1, max_size=3))
    inner = [line for part in parts for line in part]
    indent = " " * draw(st.sampled_from([4, 4, 4, 4, 0, 2]))
    return [head + text, *(indent + line if line else "" for line in inner)]


def chunk(depth: int, *, top: bool) -> st.SearchStrategy[list[str]]:
    kinds: list[st.SearchStrategy[list[str]]] = [
        leaves(top=top),
        fence(top=top),
        indented_code(top=top),
        html_block(top=top),
        table(top=top),
        frame_block(top=top),
        st.just([""]),
    ]
    if depth > 0:
        kinds += [list_block(depth - 1), quote_block(depth - 1), footnote_block(depth - 1)]
    return st.one_of(*kinds)


def chunks(depth: int, *, top: bool, max_size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(chunk(depth, top=top), min_size=1, max_size=max_size).map(
        lambda parts: [line for part in parts for line in part]
    )


@st.composite
def list_block(draw: st.DrawFn, depth: int) -> list[str]:
    marker = draw(st.sampled_from(LIST_MARKERS))
    out: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        item = draw(chunks(depth, top=False, max_size=3))
        # Continuation lines are indented to the item's content, sometimes less (lazy lines,
        # or lines that end the item).
        indent = " " * draw(st.sampled_from([len(marker), len(marker), 0, 1]))
        out.append(marker + item[0])
        out += [indent + line if line else "" for line in item[1:]]
    return out


@st.composite
def quote_block(draw: st.DrawFn, depth: int) -> list[str]:
    prefix = draw(st.sampled_from(["> ", "> ", ">"]))
    inner = draw(chunks(depth, top=False, max_size=3))
    if draw(st.booleans()):
        inner = [draw(st.sampled_from(ALERTS)), *inner]
    out = [prefix + line for line in inner]
    if draw(st.booleans()):
        out.append(draw(leaf(top=False)))  # a lazy line, or one that ends the quote
    return out


BODIES = chunks(2, top=True, max_size=8).map("\n".join)


def block_spans(scan: CommentScan) -> list[tuple[int, int]]:
    """(head line, closer line) of each block, found from the text as SPEC 2.5 says."""
    text = scan.text
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    spans = []
    for block in scan.blocks:
        if block.bare:
            closer = next(
                n
                for n in range(block.head_line + 1, len(lines) + 1)
                if lines[n - 1].lstrip(" \t").startswith("-->")
            )
        else:
            head = HEAD.match(lines[block.head_line - 1])
            assert head is not None
            offset = text.index("-->", starts[block.head_line - 1] + head.end())
            closer = text.count("\n", 0, offset) + 1
        spans.append((block.head_line, closer))
    return spans


def check_heads_and_markers(body: str) -> None:
    """Every head and marker line outside blocks is read as the oracle's code lines say."""
    scan = scan_comment(body)
    code = oracle.code_lines(scan.text)
    spans = block_spans(scan)
    examples = {head.line for head in scan.examples}
    live = {block.head_line for block in scan.blocks} | {head.line for head in scan.unterminated}
    markers = {marker.line for marker in scan.markers}
    for number, line in enumerate(scan.text.split("\n"), 1):
        if any(first <= number <= last for first, last in spans):
            continue
        if HEAD.match(line):
            assert (number in examples) == (number in code), (number, line)
            assert (number in live) == (number not in code), (number, line)
            event("example head" if number in code else "live head")
        elif line.strip(" \t") in MARKERS:
            assert (number in markers) == (number not in code), (number, line)
            event("marker in code" if number in code else "marker counted")


def check_code_lines(body: str) -> None:
    """``code_lines`` gives exactly the oracle's code lines (those of the body: when the body
    ends inside an open fence, the oracle also counts the footnote references it appended)."""
    lines = body.count("\n") + 1
    expected = sorted(line for line in oracle.code_lines(body) if line <= lines)
    assert code_lines(body).lines() == expected
    event("has code" if expected else "no code")
    event(f"code blocks in footnote definitions: {min(footnote_code_blocks(body), 2)}")


@SETTINGS
@given(BODIES)
def test_examples_and_markers_are_exactly_the_code_lines_of_the_oracle(body: str) -> None:
    assume(same_tables(body))
    check_heads_and_markers(body)


@SETTINGS
@given(BODIES)
def test_code_lines_agree_with_the_oracle_on_every_line(body: str) -> None:
    assume(same_tables(body))
    check_code_lines(body)


# Bodies made mostly of footnote definitions, nested up to three levels (in each other, in
# list items and block quotes), so that many of them hold code inside a definition; no
# unterminated head at the top level (its HTML block would swallow the rest).
FOOTNOTE_BODIES = st.lists(
    st.one_of(
        footnote_block(2),
        footnote_block(2),
        footnote_block(1),
        leaves(top=True),
        list_block(1),
        quote_block(1),
    ),
    min_size=1,
    max_size=5,
).map(lambda parts: "\n".join(line for part in parts for line in part))


@SETTINGS
@given(FOOTNOTE_BODIES)
def test_footnote_definitions_agree_with_the_oracle(body: str) -> None:
    assume(same_tables(body))
    check_code_lines(body)
    check_heads_and_markers(body)


# The version difference same_tables() leaves out, pinned: the case hypothesis found, where
# the old program sees a table and then an indented code line, and GitHub's parser (the
# library) sees one paragraph. Our code_lines follows the library.
VERSION_DIFFERENCE = (
    "<!-- frame-spine\n<!-- frame-slice -->\n-->\n2) | a | b |\n   |---|---|\n2) \n"
    "   | a | b |\n   |---|---|\n    <!-- frame-spine"
)


def test_the_known_version_difference_is_only_about_tables() -> None:
    assert (oracle.table_count(VERSION_DIFFERENCE), binding_table_count(VERSION_DIFFERENCE)) == (
        1,
        0,
    )
    assert sorted(oracle.code_lines(VERSION_DIFFERENCE)) == [9]
    assert code_lines(VERSION_DIFFERENCE).lines() == []
    assert not same_tables(VERSION_DIFFERENCE)
    assert same_tables("para\n\n| a | b |\n|---|---|\n\n    code")


@pytest.mark.xfail(
    strict=True,
    reason="known miss, found by a random run: an unclosed fence inside a footnote definition "
    "inside a task-list item at the end of the body; code_lines counts the empty last line, "
    "the oracle does not",
)
def test_an_open_fence_in_a_task_footnote_at_the_end() -> None:
    check_code_lines(
        "<!-- frame-spine\n<!-- frame-slice -->\n```\n-->\n- [ ] [^note]:\n          ```\n"
    )
