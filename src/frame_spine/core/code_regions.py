"""Code regions: the lines of a comment that GitHub shows as code (SPEC 2.4).

Pure: normalised text in, line ranges out. GitHub renders comments with cmark-gfm (CommonMark
plus its extensions, footnotes included); the fenced and indented code blocks of that
rendering, at any nesting (list items, block quotes, footnote definitions), are the code
regions. They are found with cmark-gfm itself (through :mod:`frame_spine.cmarkgfm_adapter`,
the one module that touches the ``cmarkgfm`` binding), rendering HTML with source positions
(``<pre data-sourcepos="L:C-...">``): a block's content lines are counted from its start line
(a fenced block's content starts on the line after its opening fence, an indented block's on
its own start line), as many as its text has lines. End positions are not used (cmark's are
unreliable for unclosed fences and trailing blank lines). A footnote definition that nothing
references is dropped by cmark-gfm, so the body is parsed with one reference per definition
label appended (:func:`with_footnote_references`); the definitions' code blocks keep their
source positions and come last in the HTML. A body without any label cannot hold a
definition, and is parsed without the footnotes option (the same tree, 5-25% faster).

The binding is loaded on first use, so a body without any possible code (no fence run, no
tab, no four spaces in a row) never loads it. Raw HTML is never rendered (no ``UNSAFE``
option), and a footnote label holds no space, so a comment cannot fake a
``<pre data-sourcepos`` tag.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from ..cmarkgfm_adapter import render_html

#: GitHub's comment extensions (the oracle, ``tests/code_lines.py``, runs the same set);
#: ``footnotes`` is the footnotes option, as the ``cmark-gfm`` program's ``-e footnotes``.
GFM_EXTENSIONS = ("table", "strikethrough", "autolink", "tagfilter", "tasklist", "footnotes")

# The opening tags of a code block in cmark's HTML with source positions (never raw HTML:
# the UNSAFE option is off): start line, start column (in bytes), and whether there is an info
# string (the class attribute).
_CODE_BLOCK = re.compile(rb'<pre data-sourcepos="(\d+):(\d+)-[0-9:]*"><code( class="[^"]*")?>')
_CODE_END = b"</code></pre>"
_FENCE_RUNS = (b"```", b"~~~")
# A footnote definition's label, as cmark-gfm's scanner reads it: ``[^``, then anything but
# ``]``, space, tab or a line end, then ``]:`` (a NUL counts: cmark reads it as U+FFFD).
_FOOTNOTE_LABEL = re.compile(rb"\[\^([^\]\t\n\r ]+)\]:")
# Without any label no footnote definition is possible, and the footnotes option changes
# nothing of the block tree; it costs 5-25% of a parse, so such a body is parsed without it.
_WITHOUT_FOOTNOTES = tuple(name for name in GFM_EXTENSIONS if name != "footnotes")
# A fence opener without an info string, read from its start column (sourcepos points at the
# first fence character; the rest of the line may only be spaces and tabs).
_BARE_FENCE = re.compile(rb"(?:`{3,}|~{3,})[ \t]*")
# Line hops up to this many lines step newline by newline; longer ones gallop from a window
# of this many bytes.
_SHORT_HOP = 16
_WINDOW = 256


@dataclass(frozen=True, slots=True)
class CodeLines:
    """The lines GitHub shows as code-block content in one comment.

    Attributes:
        ranges: ``(first, last)`` pairs of 1-based line numbers (inclusive) in the
            LF-normalised comment, in order and disjoint; one pair per non-empty code block.
    """

    ranges: tuple[tuple[int, int], ...]

    def __contains__(self, line: object) -> bool:
        """Whether 1-based ``line`` is a code line (O(log blocks))."""
        if not isinstance(line, int) or not self.ranges:
            return False
        index = bisect_right(self.ranges, (line, float("inf"))) - 1
        return index >= 0 and self.ranges[index][0] <= line <= self.ranges[index][1]

    def lines(self) -> list[int]:
        """Every code line, in order (for tests and small bodies: one int per line)."""
        return [line for first, last in self.ranges for line in range(first, last + 1)]


NO_CODE = CodeLines(())


def might_hold_code(text: str) -> bool:
    """Whether ``text`` can hold a code block at all (a cheap necessary condition).

    A fenced block needs a run of three backticks or tildes; an indented one needs four
    columns of indentation beyond its container, i.e. a tab or four spaces in a row.

    Args:
        text: a normalised comment body (SPEC 2.1).

    Returns:
        ``False`` only when no code block is possible; never raises.
    """
    return "```" in text or "~~~" in text or "\t" in text or "    " in text


@lru_cache(maxsize=8)
def code_lines(text: str) -> CodeLines:
    """Return the lines GitHub shows as code in one normalised comment body (SPEC 2.4).

    Memoised on the text (the scanner and the frontmatter reader ask about the same body).

    Args:
        text: a comment body normalised as SPEC 2.1 says (LF line ends, no leading BOM).
            Any ``str`` is accepted (lone surrogates are passed to the parser as bytes it
            replaces; they do not move lines).

    Returns:
        :class:`CodeLines`. Time is about linear in the text's length (cmark-gfm's own
        bounds: see docs/action.md's "Limits" and the benchmarks).

    Raises:
        frame_spine.cmarkgfm_adapter.CmarkgfmChanged: only when the installed cmarkgfm no
            longer provides what the adapter uses (never because of the text).
    """
    if not might_hold_code(text):
        return NO_CODE
    data = text.encode("utf-8", "surrogatepass")
    parsed = with_footnote_references(data)
    extensions = _WITHOUT_FOOTNOTES if parsed is data else GFM_EXTENSIONS
    ranges = _code_ranges(data, render_html(parsed, extensions))
    if parsed is not data and ranges and ranges[-1][1] > (last := data.count(b"\n") + 1):
        # The references ran on inside a block the body leaves open (a fence, at the end).
        ranges = [(first, min(end, last)) for first, end in ranges if first <= last]
    return CodeLines(tuple(ranges))


def with_footnote_references(data: bytes) -> bytes:
    """``data`` with one reference ``[^label]`` per footnote definition label appended.

    cmark-gfm drops a footnote definition that nothing references, contents and all, and
    SPEC 2.4 counts a definition's code as code whether or not the text references it; so the
    references go after the body, after a blank line (no line of the body moves, and what the
    body's lines are does not change). A label is what cmark-gfm's scanner reads after ``[^``
    up to ``]:`` (no ``]``, space, tab or line end), found anywhere on a line: a definition
    can follow a list or quote marker, or another definition's ``]:`` on the same line. A
    label found where no definition is (in code, in prose) only adds a reference that renders
    as text.

    Args:
        data: a normalised comment body as UTF-8 bytes.

    Returns:
        ``data`` itself when it holds no label, else ``data + b"\\n\\n" + references + b"\\n"``
        (labels in order of first appearance, each once).
    """
    if b"[^" not in data:
        return data
    labels = dict.fromkeys(_FOOTNOTE_LABEL.findall(data))
    if not labels:
        return data
    return b"".join((data, b"\n\n", b" ".join(b"[^" + label + b"]" for label in labels), b"\n"))


def _code_ranges(data: bytes, html: bytes) -> list[tuple[int, int]]:
    """Read the code blocks' content lines from cmark-gfm's HTML with source positions.

    One regular-expression pass over the HTML (code text is escaped, so it never holds the
    tag searched for). The HTML holds footnote definitions last, in the order they are
    referenced, so the blocks are sorted by start line; then the source is looked at only for
    blocks without an info string, on lines reached by a cursor that only moves forward.
    """
    # (start line, start column, content lines, has an info string, content offset in html)
    blocks: list[tuple[int, int, int, bool, int]] = []
    for match in _CODE_BLOCK.finditer(html):
        content = match.end()
        count = html.count(b"\n", content, html.index(_CODE_END, content))
        if count:
            blocks.append((int(match[1]), int(match[2]), count, match[3] is not None, content))
    blocks.sort()
    ranges: list[tuple[int, int]] = []
    line_no, line_start = 1, 0  # the cursor over ``data``
    for line, column, count, fenced, content in blocks:
        if not fenced:  # only a fence has an info string; without one, look at the source
            line_start = _skip_lines(data, line_start, line - line_no)
            line_no = line
            at = line_start + column - 1  # sourcepos columns count bytes from 1
            if data.startswith(_FENCE_RUNS, at):
                eol = data.find(b"\n", at)
                source = data[at : len(data) if eol == -1 else eol]
                first = html[content : html.index(b"\n", content)]
                fenced = _opens_bare_fence(source, first)
        first_line = line + 1 if fenced else line
        ranges.append((first_line, first_line + count - 1))
    return ranges


def _opens_bare_fence(source: bytes, first_content: bytes) -> bool:
    """Whether a code block starting at ``source`` (its line from its start column) is fenced.

    A fenced block without an info string starts on a bare fence line. An indented block
    starts on its first content line, which may look like a bare fence too; then that line
    *is* its first content line. A fenced block's first content line never equals its bare
    opener (such a line would close the fence), so the comparison decides.
    """
    if _BARE_FENCE.fullmatch(source) is None:
        return False
    return source.rstrip(b" \t") != first_content.rstrip(b" \t")


def _skip_lines(data: bytes, pos: int, lines: int) -> int:
    """Return the offset of the line ``lines`` lines after the one starting at ``pos``.

    Short hops step newline by newline; long ones gallop with ``bytes.count`` (windows
    doubling, then halving), so a hop costs C-speed work proportional to the bytes it
    crosses. Past the last line: ``len(data)``.
    """
    size = len(data)
    if lines <= _SHORT_HOP:
        for _ in range(lines):
            found = data.find(b"\n", pos)
            if found == -1:
                return size
            pos = found + 1
        return pos
    window = _WINDOW
    while True:
        stop = min(size, pos + window)
        found = data.count(b"\n", pos, stop)
        if found >= lines:
            break
        lines -= found
        pos = stop
        if stop == size:
            return size
        window *= 2
    while window > _WINDOW:
        window //= 2
        stop = min(size, pos + window)
        found = data.count(b"\n", pos, stop)
        if found < lines:
            lines -= found
            pos = stop
    for _ in range(lines):
        pos = data.index(b"\n", pos) + 1
    return pos
