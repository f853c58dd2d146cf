"""Block scanning (SPEC 2): ``frame-spine`` / ``frame-slice`` blocks and marker lines.

One pass, linear in the comment's length even for adversarial input (thousands of unclosed
heads, one 64 KB line): the closer searches are memoised so no stretch of text is searched
twice, and code regions are computed on first need only.
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

# A line that can change the scanner's state (head or marker line); the rest is skipped.
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
    """One complete block outside code (SPEC 2.4-2.6); lines are 1-based in the normalised
    comment, ``payload_line`` is ``head_line`` for an empty payload."""

    name: BlockName
    payload: str
    head_line: int
    payload_line: int
    bare: bool


@dataclass(frozen=True, slots=True)
class HeadRef:
    """A head that yields no block: unterminated (SPEC 2.7) or an example in code (SPEC 2.4)."""

    name: BlockName
    line: int


@dataclass(frozen=True, slots=True)
class MarkerLine:
    """A whole marker line outside code and blocks (SPEC 0): ``value`` is the issue number's
    digits, or the stamp's value as written."""

    kind: MarkerKind
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class CommentScan:
    """One normalised comment body and what it holds, each in comment order."""

    text: str
    blocks: tuple[Block, ...]
    unterminated: tuple[HeadRef, ...]
    examples: tuple[HeadRef, ...]
    markers: tuple[MarkerLine, ...]

    def blocks_named(self, name: BlockName) -> list[Block]:
        """The blocks called ``name``."""
        return [block for block in self.blocks if block.name == name]

    def holds_spine_head(self) -> bool:
        """Whether the comment holds a ``frame-spine`` head that is not an example."""
        return any(block.name == SPINE for block in self.blocks) or any(
            head.name == SPINE for head in self.unterminated
        )

    def marker_values(self, kind: MarkerKind) -> list[str]:
        """The values of the marker lines of ``kind``."""
        return [marker.value for marker in self.markers if marker.kind == kind]


def normalise_body(body: str) -> str:
    """A comment body normalised (SPEC 2.1)."""
    return body.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


class _FirstAtOrAfter:
    """Memoised "first match at or after ``pos``" for increasing ``pos``: searches never
    overlap, so the total work is linear."""

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
    """The payload (SPEC 2.6) of the raw text between head and closer, and its first line."""
    lines = raw.split("\n")
    start, end = 0, len(lines)
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
    """Whether increasing line numbers are code lines (regions computed on the first call)."""

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
    """A whole-line marker, by plain string operations (linear in the line's length)."""
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
    """Scan one comment body, raw or normalised, for blocks and marker lines (SPEC 2)."""
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

    while (candidate := search(text, pos)) is not None:
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
            bare = _BARE_REST.fullmatch(line[head.end() :]) is not None
            if bare:
                raw_start = pos
                closer = next_bare_closer(pos) if pos <= length else -1
            else:
                raw_start = start + head.end()
                closer = next_arrow(raw_start)
            if closer == -1:
                unterminated.append(HeadRef(name, head_line))
                continue
            raw = text[raw_start:closer] if bare else text[raw_start:closer].lstrip(" \t")
            payload, payload_line = _clean_payload(raw, head_line + 1 if bare else head_line)
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
