"""Block scanning: find ``frame-spine`` / ``frame-slice`` blocks and marker lines (SPEC 2).

Pure: text in, :class:`CommentScan` out. One pass over the comment, linear in its length even
for adversarial input (thousands of unclosed heads, one 64 KB line): the searches for closers
are memoised so no stretch of text is searched twice.

Code (SPEC 2.4) is what GitHub shows as code: :mod:`.code_regions` computes it for the whole
comment, on first need only (a body whose lines outside blocks hold no head and no marker line
is never parsed). It decides one thing: whether a head or marker line outside any block is an
example. Inside a block a payload line is payload and the closer search ignores code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .code_regions import CodeLines, code_lines

BlockName = Literal["frame-spine", "frame-slice"]
MarkerKind = Literal["plan-issue", "frame-slices", "stamp"]

SPINE: BlockName = "frame-spine"
SLICE: BlockName = "frame-slice"

# A line that can change the scanner's state: an HTML comment opener (head or marker line).
# Everything else is skipped at C speed.
_CANDIDATE = re.compile(r"^[ \t]*<!--", re.MULTILINE)
_HEAD = re.compile(r"[ \t]*<!--[ \t]*(frame-spine|frame-slice)(?=[ \t]|-->|$)")
_BARE_REST = re.compile(r"[ \t]*-->[ \t]*")
_BARE_CLOSER = re.compile(r"^[ \t]*-->", re.MULTILINE)
_ARROW = re.compile("-->")
_PLAN_ISSUE = "plan-issue-"
_FRAME_SLICES = "frame-slices-"
_STAMP = "frame-slices-generated-at:"


@dataclass(frozen=True, slots=True)
class Block:
    """One complete block found outside code (SPEC 2.4).

    Attributes:
        name: ``"frame-spine"`` or ``"frame-slice"``.
        payload: the payload of SPEC 2.6 (leading/trailing blank lines removed, trailing
            whitespace removed from its last line, everything else verbatim; LF line ends).
        head_line: 1-based line of the head in the LF-normalised comment.
        payload_line: 1-based line of the payload's first line (``head_line`` when the
            payload starts on the head line or is empty).
        bare: whether the head was the bare-marker form ``<!-- NAME -->`` (SPEC 2.5).
    """

    name: BlockName
    payload: str
    head_line: int
    payload_line: int
    bare: bool


@dataclass(frozen=True, slots=True)
class HeadRef:
    """A head that yields no block: unterminated (SPEC 2.7) or an example in code (SPEC 2.4).

    Attributes:
        name: ``"frame-spine"`` or ``"frame-slice"``.
        line: 1-based line of the head in the LF-normalised comment.
    """

    name: BlockName
    line: int


@dataclass(frozen=True, slots=True)
class MarkerLine:
    """A whole marker line outside code and blocks (SPEC 0, 2.4, 5 check 5, 6 steps 3-4).

    Attributes:
        kind: ``"plan-issue"`` (``<!-- plan-issue-N -->``), ``"frame-slices"``
            (``<!-- frame-slices-N -->``) or ``"stamp"``
            (``<!-- frame-slices-generated-at: T -->``).
        value: the issue number's digits, or the stamp's value as written (may be malformed).
        line: 1-based line in the LF-normalised comment.
    """

    kind: MarkerKind
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class CommentScan:
    """Everything the lookup and validate procedures need from one comment body.

    Attributes:
        text: the normalised body (SPEC 2.1).
        blocks: complete blocks in comment order.
        unterminated: heads without a closer, in comment order.
        examples: block heads outside blocks that GitHub shows as code (examples, not
            blocks: SPEC 2.4), in comment order.
        markers: marker lines outside code and blocks, in comment order.
    """

    text: str
    blocks: tuple[Block, ...]
    unterminated: tuple[HeadRef, ...]
    examples: tuple[HeadRef, ...]
    markers: tuple[MarkerLine, ...]

    def blocks_named(self, name: BlockName) -> list[Block]:
        """Return the blocks called ``name``, in comment order."""
        return [block for block in self.blocks if block.name == name]

    def holds_spine_head(self) -> bool:
        """Whether the comment holds a ``frame-spine`` head that is not an example: a
        complete block or an unterminated head (SPEC 2.4, 2.7)."""
        return any(block.name == SPINE for block in self.blocks) or any(
            head.name == SPINE for head in self.unterminated
        )

    def marker_values(self, kind: MarkerKind) -> list[str]:
        """Return the values of the marker lines of ``kind``, in comment order."""
        return [marker.value for marker in self.markers if marker.kind == kind]


def normalise_body(body: str) -> str:
    """Normalise a comment body (SPEC 2.1): drop one leading U+FEFF; CRLF, then lone CR, to LF.

    Args:
        body: the comment body as fetched or read (``str``; may be empty).

    Returns:
        The normalised body. Never raises.
    """
    if body.startswith("\ufeff"):
        body = body[1:]
    if "\r" in body:
        body = body.replace("\r\n", "\n").replace("\r", "\n")
    return body


class _FirstAtOrAfter:
    """Memoised "first match at or after ``pos``" for monotonically increasing ``pos``.

    Each call either reuses the previous answer (no match in between, by construction) or
    searches from ``pos``; consecutive searches never overlap, so the total work is linear.
    """

    __slots__ = ("_found", "_from", "_pattern", "_text")

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self._pattern = pattern
        self._text = text
        self._from = -1
        self._found = -1

    def __call__(self, pos: int) -> int:
        if self._from != -1 and self._from <= pos and (self._found == -1 or pos <= self._found):
            return self._found
        self._from = pos
        match = self._pattern.search(self._text, pos)
        self._found = -1 if match is None else match.start()
        return self._found


class _LineNumbers:
    """1-based line numbers of increasing offsets, counted incrementally (linear overall)."""

    __slots__ = ("_line", "_pos", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._pos = 0
        self._line = 1

    def at(self, pos: int) -> int:
        if pos > self._pos:
            self._line += self._text.count("\n", self._pos, pos)
            self._pos = pos
        return self._line


def _clean_payload(raw: str, first_line: int) -> tuple[str, int]:
    """Apply SPEC 2.6 to the raw text between head and closer.

    Returns the payload and the 1-based line of its first line.
    """
    lines = raw.split("\n")
    start = 0
    end = len(lines)
    while start < end and not lines[start].strip(" \t"):
        start += 1
    while end > start and not lines[end - 1].strip(" \t"):
        end -= 1
    if start == end:
        return "", first_line
    kept = lines[start:end]
    kept[-1] = kept[-1].rstrip(" \t")
    return "\n".join(kept), first_line + start


class _CodeCursor:
    """Whether increasing line numbers are code lines; computes the regions on first call.

    Walks the sorted ranges forward, so a scan's questions cost linear time in all.
    """

    __slots__ = ("_at", "_ranges", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._ranges: CodeLines | None = None
        self._at = 0

    def __call__(self, line: int) -> bool:
        if self._ranges is None:
            self._ranges = code_lines(self._text)
        ranges = self._ranges.ranges
        at = self._at
        while at < len(ranges) and ranges[at][1] < line:
            at += 1
        self._at = at
        return at < len(ranges) and ranges[at][0] <= line


def _marker_line(line: str, line_no: int) -> MarkerLine | None:
    """Read a whole-line marker ``<!-- plan-issue-N -->``, ``<!-- frame-slices-N -->`` or
    ``<!-- frame-slices-generated-at: T -->`` (spaces/tabs allowed around and inside).

    Plain string operations, so an adversarial line costs time linear in its length.
    """
    text = line.strip(" \t")
    if not (text.startswith("<!--") and text.endswith("-->")) or len(text) < 7:
        return None
    inner = text[4:-3].strip(" \t")
    if inner.startswith(_STAMP):
        return MarkerLine("stamp", inner[len(_STAMP) :].strip(" \t"), line_no)
    for prefix, kind in ((_PLAN_ISSUE, "plan-issue"), (_FRAME_SLICES, "frame-slices")):
        if inner.startswith(prefix):
            number = inner[len(prefix) :]
            if number.isascii() and number.isdigit():
                return MarkerLine(kind, number, line_no)  # type: ignore[arg-type]
    return None


def scan_comment(body: str) -> CommentScan:
    """Scan one comment body for blocks and marker lines (SPEC 2).

    Args:
        body: one comment body, raw or normalised (it is normalised here; SPEC 2.1).

    Returns:
        A :class:`CommentScan`. A head or marker line outside any block that GitHub shows as
        code (SPEC 2.4) is an example: heads are listed in ``examples``, marker lines are
        dropped. A head with no closer yields a :class:`HeadRef` in ``unterminated`` and
        scanning resumes on the next line; after a block closes, scanning resumes on the line
        after its closer. Payload lines and the closer search ignore code. Never raises; time
        is linear in ``len(body)`` (the code regions are computed once, only when a head or
        marker line outside blocks needs them).
    """
    text = normalise_body(body)
    length = len(text)
    next_arrow = _FirstAtOrAfter(_ARROW, text)
    next_bare_closer = _FirstAtOrAfter(_BARE_CLOSER, text)
    line_of = _LineNumbers(text)
    in_code = _CodeCursor(text)

    blocks: list[Block] = []
    unterminated: list[HeadRef] = []
    markers: list[MarkerLine] = []
    examples: list[HeadRef] = []
    pos = 0
    search = _CANDIDATE.search

    while True:
        candidate = search(text, pos)
        if candidate is None:
            break
        start = candidate.start()
        end = text.find("\n", start)
        if end == -1:
            end = length
        line = text[start:end]
        pos = end + 1

        head = _HEAD.match(line)
        if head is not None:
            name: BlockName = SPINE if head.group(1) == SPINE else SLICE
            head_line = line_of.at(start)
            if in_code(head_line):
                examples.append(HeadRef(name, head_line))
                continue
            rest = line[head.end() :]
            if _BARE_REST.fullmatch(rest):
                closer = next_bare_closer(pos) if pos <= length else -1
                if closer == -1:
                    unterminated.append(HeadRef(name, head_line))
                    continue
                raw = text[pos:closer]
                first_line = head_line + 1
                bare = True
            else:
                after_name = start + head.end()
                closer = next_arrow(after_name)
                if closer == -1:
                    unterminated.append(HeadRef(name, head_line))
                    continue
                raw = text[after_name:closer].lstrip(" \t")
                first_line = head_line
                bare = False
            payload, payload_line = _clean_payload(raw, first_line)
            if not payload:
                payload_line = head_line
            blocks.append(Block(name, payload, head_line, payload_line, bare))
            closer_end = text.find("\n", closer)
            pos = length + 1 if closer_end == -1 else closer_end + 1
            continue

        marker = _marker_line(line, line_of.at(start))
        if marker is not None and not in_code(marker.line):
            markers.append(marker)

    return CommentScan(text, tuple(blocks), tuple(unterminated), tuple(examples), tuple(markers))
