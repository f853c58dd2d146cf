"""Plan frontmatter: the plan variant and ``spine-omitted`` (SPEC 1, 10).

Pure: normalised text in, values out. The frontmatter is read outside code (SPEC 2.4): what
GitHub shows as code is never frontmatter.
"""

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
    """One line inside the frontmatter: its 1-based line number and text (trailing ws kept)."""

    line: int
    text: str


def _unquote(value: str) -> str:
    value = value.strip(" \t")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1].strip()
    return value


def frontmatter_lines(text: str) -> list[FrontmatterLine]:
    """Return the lines of the plan's frontmatter block, or ``[]`` when it has none.

    The frontmatter is the first ``---`` ... ``---`` block after any leading blank lines and
    HTML-comment lines (a comment spanning several lines is skipped whole), outside code, as
    SPEC 10 says: when GitHub shows the opening ``---`` as code there is no frontmatter, the
    block ends at the first later ``---`` line that is not code, and lines inside it that are
    code (a fence within the frontmatter) are not frontmatter lines.

    Args:
        text: a normalised comment body (SPEC 2.1).

    Returns:
        The lines strictly between the two ``---`` lines that are not code, with their
        1-based line numbers. Never raises; the code regions are computed only when an
        opening ``---`` line is found.
    """
    # The leading lines, read from the text (a comment of many lines is skipped at once).
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
    count = len(lines)
    index = text.count("\n", 0, pos)
    code = code_lines(text)
    if index + 1 in code:
        return []
    for end in range(index + 1, count):
        if lines[end].rstrip() == "---" and end + 1 not in code:
            return [
                FrontmatterLine(n + 1, lines[n]) for n in range(index + 1, end) if n + 1 not in code
            ]
    return []


def plan_variants(
    text: str, frontmatter: list[FrontmatterLine] | None = None
) -> list[tuple[int, str]]:
    """Return every ``plan-variant:`` value in the frontmatter (quotes removed) with its line.

    Args:
        text: a normalised comment body.
        frontmatter: its :func:`frontmatter_lines`, when already read.

    Returns:
        ``[(line, value), ...]`` in order; empty when there is no frontmatter or no variant.
    """
    found: list[tuple[int, str]] = []
    for item in frontmatter_lines(text) if frontmatter is None else frontmatter:
        match = _VARIANT.fullmatch(item.text)
        if match is not None:
            found.append((item.line, _unquote(match.group(1))))
    return found


def spine_omitted(text: str, frontmatter: list[FrontmatterLine] | None = None) -> int | None:
    """Return the line of ``spine-omitted: plan-too-small`` (quoted or not) in the frontmatter
    (``frontmatter``: its :func:`frontmatter_lines`, when already read).

    Returns:
        Its 1-based line number, or ``None`` when the frontmatter does not say so.
    """
    for item in frontmatter_lines(text) if frontmatter is None else frontmatter:
        match = _SPINE_OMITTED.fullmatch(item.text)
        if match is not None and _unquote(match.group(1)) == "plan-too-small":
            return item.line
    return None
