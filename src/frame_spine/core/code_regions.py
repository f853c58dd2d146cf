"""Code regions (SPEC 2.4): the lines of a comment that GitHub shows as code.

Found with cmark-gfm itself (through :mod:`frame_spine.cmarkgfm_adapter`), rendering HTML with
source positions (``<pre data-sourcepos="L:C-...">``) and counting each block's content lines
from its start line, as SPEC 2.4 says. Raw HTML is never rendered (no ``UNSAFE`` option) and a
footnote label holds no space, so a comment cannot fake that tag. A body that cannot hold code
never loads the binding.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from ..cmarkgfm_adapter import render_html

#: GitHub's comment extensions (``footnotes`` is the footnotes option), as the oracle's.
GFM_EXTENSIONS = ("table", "strikethrough", "autolink", "tagfilter", "tasklist", "footnotes")

# A code block's opening tag: start line, start column (bytes), whether it has an info string.
_CODE_BLOCK = re.compile(rb'<pre data-sourcepos="(\d+):(\d+)-[0-9:]*"><code( class="[^"]*")?>')
_CODE_END = b"</code></pre>"
_FENCE_RUNS = (b"```", b"~~~")
# A footnote definition's label, as cmark-gfm's scanner reads it: ``[^``, then anything but
# ``]``, space, tab or a line end, then ``]:`` (a NUL counts: cmark reads it as U+FFFD).
_FOOTNOTE_LABEL = re.compile(rb"\[\^([^\]\t\n\r ]+)\]:")
# Without a label the footnotes option changes nothing but costs 5-25% of a parse.
_WITHOUT_FOOTNOTES = tuple(name for name in GFM_EXTENSIONS if name != "footnotes")
# A fence opener without an info string, read from its start column.
_BARE_FENCE = re.compile(rb"(?:`{3,}|~{3,})[ \t]*")
# Hops up to this many lines step newline by newline; longer ones gallop from this window.
_SHORT_HOP = 16
_WINDOW = 256


@dataclass(frozen=True, slots=True)
class CodeLines:
    """The code lines of one comment: ``(first, last)`` 1-based inclusive ranges, in order."""

    ranges: tuple[tuple[int, int], ...]

    def __contains__(self, line: object) -> bool:
        """Whether 1-based ``line`` is a code line."""
        if not isinstance(line, int) or not self.ranges:
            return False
        index = bisect_right(self.ranges, (line, float("inf"))) - 1
        return index >= 0 and self.ranges[index][0] <= line <= self.ranges[index][1]

    def lines(self) -> list[int]:
        """Every code line, in order."""
        return [line for first, last in self.ranges for line in range(first, last + 1)]


NO_CODE = CodeLines(())


def might_hold_code(text: str) -> bool:
    """Whether ``text`` can hold a code block at all: a fence run, a tab or four spaces."""
    return "```" in text or "~~~" in text or "\t" in text or "    " in text


@lru_cache(maxsize=8)
def code_lines(text: str) -> CodeLines:
    """The lines GitHub shows as code in one normalised body (SPEC 2.4), memoised (the
    scanner and the frontmatter reader ask about the same body)."""
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
    """``data`` with one reference ``[^label]`` per footnote label appended after a blank line
    (SPEC 2.4), or ``data`` itself without a label. A label is found anywhere on a line, as
    cmark-gfm's scanner reads it; one where no definition is only adds text."""
    if b"[^" not in data:
        return data
    labels = dict.fromkeys(_FOOTNOTE_LABEL.findall(data))
    if not labels:
        return data
    return b"".join((data, b"\n\n", b" ".join(b"[^" + label + b"]" for label in labels), b"\n"))


def _code_ranges(data: bytes, html: bytes) -> list[tuple[int, int]]:
    """The code blocks' content lines, from one pass over the HTML (footnote definitions come
    last, so the blocks are sorted); the source is read only for blocks without an info
    string, by a cursor that only moves forward."""
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
    """Whether a block starting at ``source`` (its line from its start column) is fenced: an
    indented block's first line may look like a bare fence, but then it is its first content
    line, which a fenced block's never equals (it would close the fence)."""
    if _BARE_FENCE.fullmatch(source) is None:
        return False
    return source.rstrip(b" \t") != first_content.rstrip(b" \t")


def _skip_lines(data: bytes, pos: int, lines: int) -> int:
    """The offset of the line ``lines`` after the one at ``pos`` (``len(data)`` past the end);
    long hops gallop with ``bytes.count``, windows doubling then halving."""
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
