"""Code regions: the lines of a comment that GitHub shows as code (SPEC 2.4).

Pure: normalised text in, line ranges out. GitHub renders comments with cmark-gfm (CommonMark
plus its extensions); the fenced and indented code blocks of that rendering, at any nesting
(list items, block quotes), are the code regions. They are found with ``cmarkgfm``, the Python
binding of that same C library, rendering HTML with source positions
(``<pre data-sourcepos="L:C-...">``): a block's content lines are counted from its start line
(a fenced block's content starts on the line after its opening fence, an indented block's on
its own start line), as many as its text has lines. End positions are not used (cmark's are
unreliable for unclosed fences and trailing blank lines).

The binding is imported on first use, so a body without any possible code (no fence run, no
tab, no four spaces in a row) never loads it. Raw HTML is never rendered (no ``UNSAFE``
option), so a comment cannot fake a ``<pre data-sourcepos`` tag.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

#: GitHub's comment extensions (the oracle, ``tests/code_lines.py``, runs the same set).
GFM_EXTENSIONS = ("table", "strikethrough", "autolink", "tagfilter", "tasklist")

# The opening tags of a code block in cmark's HTML with source positions (never raw HTML:
# the UNSAFE option is off): start line, start column (in bytes), and whether there is an info
# string (the class attribute).
_CODE_BLOCK = re.compile(rb'<pre data-sourcepos="(\d+):(\d+)-[0-9:]*"><code( class="[^"]*")?>')
_CODE_END = b"</code></pre>"
_FENCE_RUNS = (b"```", b"~~~")
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
        :class:`CodeLines`. Never raises for any text; time is about linear in its length
        (cmark-gfm's own bounds: see the README's "Code examples" and the benchmarks).
    """
    if not might_hold_code(text):
        return NO_CODE
    data = text.encode("utf-8", "surrogatepass")
    html = _render_html(data)
    return CodeLines(tuple(_code_ranges(data, html)))


def _code_ranges(data: bytes, html: bytes) -> list[tuple[int, int]]:
    """Read the code blocks' content lines from cmark-gfm's HTML with source positions.

    One regular-expression pass over the HTML (code text is escaped, so it never holds the
    tag searched for); the source is looked at only for blocks without an info string, on
    lines reached by a cursor that only moves forward.
    """
    ranges: list[tuple[int, int]] = []
    line_no, line_start = 1, 0  # the cursor over ``data``
    for match in _CODE_BLOCK.finditer(html):
        content = match.end()
        end = html.index(_CODE_END, content)
        count = html.count(b"\n", content, end)
        if count == 0:
            continue
        line = int(match[1])
        fenced = match[3] is not None  # only a fence has an info string
        if not fenced:
            line_start = _skip_lines(data, line_start, line - line_no)
            line_no = line
            at = line_start + int(match[2]) - 1  # sourcepos columns count bytes from 1
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


class _Binding(NamedTuple):
    """The parts of cmarkgfm used here, loaded once."""

    ffi: Any
    lib: Any
    extensions: tuple[Any, ...]
    options: int
    free_node: Callable[[int], None]
    free_buffer: Callable[[int], None]


_BINDING_LOCK = threading.Lock()


def _binding() -> _Binding:
    """The loaded binding (thread-safe first use: cmark registers its extensions globally)."""
    with _BINDING_LOCK:
        return _load_binding()


@cache
def _load_binding() -> _Binding:
    """Import cmarkgfm and look up GitHub's extensions (first use only).

    The binding's own helpers never free the document tree nor the rendered HTML (a leak of
    a few times the body's size per call, which audit mode would pay once per comment), so
    both are freed here with cmark's own ``cmark_node_free`` and allocator, which the
    binding's shared library exports but does not declare.
    """
    import ctypes

    from cmarkgfm import cmark  # type: ignore[import-untyped]

    class Mem(ctypes.Structure):
        """cmark's ``cmark_mem`` allocator: the functions that allocated what it hands back."""

        _fields_ = (
            ("calloc", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)),
            ("realloc", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)),
            ("free", ctypes.CFUNCTYPE(None, ctypes.c_void_p)),
        )

    ffi, lib = cmark._cmark.ffi, cmark._cmark.lib
    cmark.core_extensions_ensure_registered()
    extensions = tuple(cmark.find_syntax_extension(name) for name in GFM_EXTENSIONS)
    if any(extension is None for extension in extensions):
        raise RuntimeError(f"cmarkgfm lacks one of the extensions {GFM_EXTENSIONS}")
    shared = ctypes.CDLL(cmark._cmark.__file__)
    node_free = shared.cmark_node_free
    node_free.argtypes = (ctypes.c_void_p,)
    node_free.restype = None
    allocator = shared.cmark_get_default_mem_allocator
    allocator.argtypes = ()
    allocator.restype = ctypes.POINTER(Mem)
    buffer_free = allocator().contents.free
    return _Binding(
        ffi=ffi,
        lib=lib,
        extensions=extensions,
        options=int(lib.CMARK_OPT_SOURCEPOS | lib.CMARK_OPT_VALIDATE_UTF8),
        free_node=node_free,
        free_buffer=buffer_free,
    )


def _render_html(data: bytes) -> bytes:
    """Parse UTF-8 ``data`` with GitHub's extensions; return the HTML with source positions."""
    binding = _binding()
    ffi, lib = binding.ffi, binding.lib
    parser = lib.cmark_parser_new(binding.options)
    root = ffi.NULL
    try:
        for extension in binding.extensions:
            lib.cmark_parser_attach_syntax_extension(parser, extension)
        lib.cmark_parser_feed(parser, data, len(data))
        root = lib.cmark_parser_finish(parser)
        rendered = lib.cmark_render_html(
            root, binding.options, lib.cmark_parser_get_syntax_extensions(parser)
        )
        try:
            html: bytes = ffi.string(rendered)
        finally:
            binding.free_buffer(int(ffi.cast("uintptr_t", rendered)))
        return html
    finally:
        if root != ffi.NULL:
            binding.free_node(int(ffi.cast("uintptr_t", root)))
        lib.cmark_parser_free(parser)
