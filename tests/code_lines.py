#!/usr/bin/env python3
"""Lines that GitHub's renderer (cmark-gfm) shows as code-block content: the test oracle of SPEC 2.4.

Copied from the team's shared tool ``shared/tools/code_lines.py`` (CI runs on a clean clone
where ``../shared`` may be absent; revision 3: footnotes, and a fenced block recognised by its
``info`` attribute), with two additions: ``available()`` says whether the program is installed,
``table_count()`` serves the oracle test's table comparison, and the module has type
annotations.

usage: code_lines.py FILE   -> prints the file with C before every code-content line.
As a module: code_lines(text) -> set of 1-based line numbers.
Needs the cmark-gfm program (Debian package cmark-gfm); runs it with GitHub's comment extensions,
footnotes included (GitHub renders footnotes in comments: code inside a footnote definition is code).
It is an oracle for tests on ordinary bodies: on some hostile inputs the program is slow or aborts.
Known limit (shared with the original): a tab that a list or block-quote marker consumes only
partly makes an indented block's first line differ from its source, so such a block is read
as fenced; tests keep tabs out of container prefixes.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys

EXTENSIONS = [
    "-e",
    "table",
    "-e",
    "strikethrough",
    "-e",
    "autolink",
    "-e",
    "tagfilter",
    "-e",
    "tasklist",
    "-e",
    "footnotes",
]
_NODE = re.compile(
    r'<code_block sourcepos="(\d+):(\d+)-\d+:\d+"([^>]*?)(?:/>|>(.*?)</code_block>)', re.S
)

_FOOTNOTE_DEF = re.compile(r"(?m)^[ \t>*+\-0-9.)]*\[\^([^\]\s]+)\]:")


def available() -> bool:
    """Whether the ``cmark-gfm`` program is on ``PATH``."""
    return shutil.which("cmark-gfm") is not None


def _xml(text: str, *options: str) -> str:
    """The program's XML rendering of ``text`` with GitHub's comment extensions."""
    return subprocess.run(
        ["cmark-gfm", "--to", "xml", *options, *EXTENSIONS],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout


def with_footnote_references(text: str) -> str:
    """``text`` with one reference per footnote label appended after a blank line.

    cmark-gfm drops a definition nothing references (contents and all), and SPEC 2.4 counts its
    code as code anyway. No earlier line moves.
    """
    labels = sorted(set(_FOOTNOTE_DEF.findall(text)))
    return text if not labels else text + "\n\n" + " ".join(f"[^{x}]" for x in labels) + "\n"


def code_lines(text: str) -> set[int]:
    """1-based numbers of the lines that are code-block content (fenced: after the opening fence)."""
    xml = _xml(with_footnote_references(text), "--sourcepos")
    lines = text.split("\n")
    out: set[int] = set()
    for m in _NODE.finditer(xml):
        sl, sc = int(m.group(1)), int(m.group(2))
        literal = html.unescape(m.group(4) or "")
        n = literal.count("\n")
        source = lines[sl - 1][sc - 1 :] if sl - 1 < len(lines) else ""
        first_content = literal.split("\n", 1)[0]
        # An indented block starts on its first content line; a fenced one on its fence line
        # (a fence with an info string is always fenced, whatever its first content line says).
        has_info = " info=" in m.group(3)
        indented = n > 0 and not has_info and source.rstrip() == first_content.rstrip()
        first = sl if indented else sl + 1
        out.update(range(first, first + n))
    return out


def table_count(text: str) -> int:
    """How many tables the program finds in ``text`` (the oracle test's ``same_tables``)."""
    return _xml(with_footnote_references(text)).count("<table>")


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        t = handle.read()
    cl = code_lines(t)
    for i, line in enumerate(t.split("\n"), 1):
        print(("C " if i in cl else "  ") + f"{i:3} {line}")
