"""A plan's acceptance criteria (SPEC 10 ``uncovered-ac``): the bold-id list items of its
``## Acceptance Criteria`` section.

Pure: a normalised comment body in, the criteria (id and line) out. What counts, read line by
line outside code (SPEC 2.4) and outside HTML comments:

- a **heading** is an ATX heading: up to 3 spaces, then 1 to 6 ``#`` followed by a space, a
  tab or the end of the line; an optional closing run of ``#`` is dropped. Only level-1 and
  level-2 headings (``#``, ``##``) open or end the section; setext headings (text underlined
  with ``===`` or ``---``) are not read;
- the **section** starts after a level-1 or level-2 heading whose text is "Acceptance
  Criteria" (any case, any run of spaces or tabs between the words) and ends at the next
  level-1 or level-2 heading (a ``###`` subheading does not end it); a plan may have several;
- a **criterion** is a list item of the section (``-``, ``*`` or ``+``, or ``1.`` / ``1)``, at
  any indentation, optionally a task box ``[ ]`` / ``[x]``) whose text starts with a bold id:
  ``**AC4**`` or ``__AC4__``, a ``:`` or ``.`` allowed just inside the closing delimiter
  (``**AC4:**``);
- an **id** is ``AC`` (any case) followed by ASCII digits; it is compared upper-cased, so
  ``ac4`` and ``AC4`` are one criterion, while ``AC04`` and ``AC-4`` are other ids (``AC-4``
  is not an id at all);
- a line inside an HTML comment (from a line that starts with ``<!--``, after any spaces or
  tabs, to the line holding its ``-->``) is neither: a block's payload is not prose.
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
    """One acceptance criterion of a plan.

    Attributes:
        id: the criterion's id, upper-cased (``"AC4"``).
        line: the 1-based line of its list item in the normalised comment.
    """

    id: str
    line: int


def _heading(line: str) -> tuple[int, str] | None:
    """The level and text of an ATX heading line, or ``None`` when the line is none."""
    match = _ATX.match(line)
    if match is None:
        return None
    text = line[match.end() :].strip(" \t")
    closed = text.rstrip("#")
    if closed != text and (not closed or closed[-1] in " \t"):
        text = closed.rstrip(" \t")
    return len(match.group(1)), text


def _opens_section(text: str) -> bool:
    return " ".join(text.split()).lower() == _SECTION_TITLE


def acceptance_criteria(text: str) -> tuple[AcceptanceCriterion, ...]:
    """Return the acceptance criteria of a plan comment (SPEC 10; the module docstring says
    what counts as a heading, a section, an item and an id).

    Args:
        text: a normalised comment body (SPEC 2.1).

    Returns:
        One :class:`AcceptanceCriterion` per id, at its first item, in comment order; ``()``
        when the comment has no such section or no criterion in it. Never raises; time is
        linear in ``len(text)`` (the code regions are computed only when the word
        "acceptance" occurs).
    """
    if _HINT.search(text) is None:
        return ()
    code = code_lines(text)
    found: dict[str, AcceptanceCriterion] = {}
    in_section = False
    in_comment = False
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
            in_section = _opens_section(heading[1])
            continue
        if in_section:
            item = _ITEM.match(line)
            if item is not None:
                ident = item.group(2).upper()
                found.setdefault(ident, AcceptanceCriterion(ident, number))
    return tuple(found.values())
