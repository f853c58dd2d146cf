"""Plan frontmatter (SPEC 10): its lines, the plan variant and ``spine-omitted``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .code_regions import code_lines

_VARIANT = re.compile(r"plan-variant[ \t]*:(.*)")
_SPINE_OMITTED = re.compile(r"spine-omitted[ \t]*:(.*)")

#: Plan variants that carry no spine by design.
SPINELESS_VARIANTS = ("brief", "goal-contract")


@dataclass(frozen=True, slots=True)
class FrontmatterLine:
    """One line inside the frontmatter: its 1-based line number and text."""

    line: int
    text: str


def _unquote(value: str) -> str:
    value = value.strip(" \t")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1].strip()
    return value


def frontmatter_lines(text: str) -> list[FrontmatterLine]:
    """The lines of a normalised body's frontmatter (SPEC 10) that are not code, or ``[]``
    (code regions are computed only once an opening ``---`` line is found)."""
    length = len(text)
    pos = 0
    while True:
        end = text.find("\n", pos)
        if end == -1:
            end = length
        stripped = text[pos:end].strip()
        if stripped.startswith("<!--") and "-->" not in stripped[4:]:
            closer = text.find("-->", end + 1)  # in a later line: skipped with it
            if closer == -1:
                return []
            end = text.find("\n", closer)
            if end == -1:
                return []
        elif stripped and not stripped.startswith("<!--"):
            break
        if end == length:
            return []
        pos = end + 1
    if text[pos:end].rstrip() != "---":
        return []
    lines = text.split("\n")
    first = text.count("\n", 0, pos) + 1  # the opener's line number, the next line's index
    code = code_lines(text)
    if first in code:
        return []
    for end in range(first, len(lines)):
        if lines[end].rstrip() == "---" and end + 1 not in code:
            return [
                FrontmatterLine(n + 1, lines[n]) for n in range(first, end) if n + 1 not in code
            ]
    return []


def plan_variants(
    text: str, frontmatter: list[FrontmatterLine] | None = None
) -> list[tuple[int, str]]:
    """Every ``plan-variant:`` value (unquoted) with its line, in order (``frontmatter``: the
    body's :func:`frontmatter_lines`, when already read)."""
    lines = frontmatter_lines(text) if frontmatter is None else frontmatter
    matches = ((item.line, _VARIANT.fullmatch(item.text)) for item in lines)
    return [(line, _unquote(match.group(1))) for line, match in matches if match is not None]


def spine_omitted(text: str, frontmatter: list[FrontmatterLine] | None = None) -> int | None:
    """The line of ``spine-omitted: plan-too-small`` (quoted or not) in the frontmatter, or
    ``None``."""
    for item in frontmatter_lines(text) if frontmatter is None else frontmatter:
        match = _SPINE_OMITTED.fullmatch(item.text)
        if match is not None and _unquote(match.group(1)) == "plan-too-small":
            return item.line
    return None
