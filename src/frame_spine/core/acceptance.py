"""A plan's acceptance criteria (SPEC 10 ``uncovered-ac``), read line by line outside code and
HTML comments (a line starting ``<!--`` up to the line holding its ``-->``):

- a **heading** is ATX (up to 3 spaces, 1-6 ``#`` then a space, tab or line end; a closing run
  of ``#`` dropped); setext headings are not read;
- the **section** starts after a level-1 or -2 heading "Acceptance Criteria" (any case and
  spacing) and ends at the next level-1 or -2 heading; a plan may have several;
- a **criterion** is a list item there (``-``, ``*``, ``+``, ``1.``, ``1)``, any indentation,
  an optional task box) starting with a bold id, ``**AC4**`` or ``__AC4__`` (``:`` or ``.``
  allowed inside the closing delimiter);
- an **id** is ``AC`` (any case) and ASCII digits, compared upper-cased (``AC04`` is another id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .code_regions import code_lines

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?(\*\*|__)([Aa][Cc][0-9]+)[:.]?\1",
    re.ASCII,
)
_SECTION_TITLE = "acceptance criteria"
_HINT = re.compile(r"acceptance", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class AcceptanceCriterion:
    """One acceptance criterion: its id, upper-cased, and the line of its list item."""

    id: str
    line: int


def _heading(line: str) -> tuple[int, str] | None:
    match = _ATX.match(line)
    if match is None:
        return None
    text = line[match.end() :].strip(" \t")
    closed = text.rstrip("#")
    if closed != text and (not closed or closed[-1] in " \t"):
        text = closed.rstrip(" \t")
    return len(match.group(1)), text


def acceptance_criteria(text: str) -> tuple[AcceptanceCriterion, ...]:
    """The criteria of a normalised plan body, each id once at its first item, in order."""
    if _HINT.search(text) is None:
        return ()
    code = code_lines(text)
    found: dict[str, AcceptanceCriterion] = {}
    in_section = in_comment = False
    for number, line in enumerate(text.split("\n"), start=1):
        if in_comment:
            in_comment = "-->" not in line
            continue
        if number in code:
            continue
        stripped = line.lstrip(" \t")
        if stripped.startswith("<!--"):
            in_comment = "-->" not in stripped[4:]
            continue
        heading = _heading(line)
        if heading is not None and heading[0] <= 2:
            in_section = " ".join(heading[1].split()).lower() == _SECTION_TITLE
            continue
        item = _ITEM.match(line) if in_section else None
        if item is not None:
            ident = item.group(2).upper()
            found.setdefault(ident, AcceptanceCriterion(ident, number))
    return tuple(found.values())
