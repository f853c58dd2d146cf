"""What the help and the documents show an agent (SPEC 9, revision 4): every example keeps
every check on, or says what it turns off. An agent copies the first example that looks like
its case, so:

- no example in any help text turns a check off: the dispatched ``--generated-at`` is a
  placeholder, never ``current``; ``--trusted-authors`` is never relaxed (``any``, or an
  association beyond ``OWNER``, ``MEMBER``, ``COLLABORATOR``; naming a bot with ``@login`` is
  not relaxing); no plan that lives on GitHub is read from a local body (``gh api ... |``);
- in README.md and docs/*.md (the contract, docs/SPEC.md, aside: it defines the forms) every
  fenced example that does one of these stands right after a line
  ``<!-- unsafe-example: what it turns off -->``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

DOCUMENTS = sorted([REPO / "README.md", *(REPO / "docs").glob("*.md")], key=lambda path: path.name)
DOCUMENTS.remove(REPO / "docs" / "SPEC.md")
COMMANDS = [None, "lookup", "digest", "validate", "render", "audit", "help"]
RELAXED = re.compile(
    r"(?:--trusted-authors[ =]|trusted-authors:\s*)[\"']?[^\n\"']*"
    r"\b(?:any|CONTRIBUTOR|FIRST_TIME_CONTRIBUTOR|FIRST_TIMER|MANNEQUIN|NONE)\b",
    re.IGNORECASE,
)
CURRENT = re.compile(r"generated[-_]at(?:\s*[:=]\s*|\s+)[\"']?current\b")
LOCAL_COPY = re.compile(r"gh api [^\n]*(?:\n[^\n]*)*?frame-spine", re.MULTILINE)
_FENCE = re.compile(r"^(?P<fence>```+|~~~+)[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S)
_MARK = re.compile(r"<!-- unsafe-example: [^>]+ -->\s*\Z")


_NEVER = re.compile(r"[Nn]ever pass `[^`]*`( or `[^`]*`)?")


def turned_off(text: str) -> list[str]:
    """The checks ``text`` turns off (a form it says never to pass aside)."""
    text = _NEVER.sub("", text)
    found = []
    if CURRENT.search(text):
        found.append("the freshness check (generated-at current)")
    if RELAXED.search(text):
        found.append("the trust policy (a relaxed trusted-authors)")
    if LOCAL_COPY.search(text):
        found.append("the trust policy (a plan read from a local copy)")
    return found


def examples(path: Path) -> list[tuple[int, str, bool]]:
    """Each fenced block of ``path``: its line, its text, whether the marker precedes it."""
    text = path.read_text("utf-8")
    return [
        (
            text.count("\n", 0, match.start()) + 1,
            match.group("body"),
            bool(_MARK.search(text[: match.start()])),
        )
        for match in _FENCE.finditer(text)
    ]


@pytest.mark.parametrize("path", DOCUMENTS, ids=[path.name for path in DOCUMENTS])
def test_every_unsafe_document_example_says_what_it_turns_off(path: Path) -> None:
    unmarked = [
        (line, turned_off(body))
        for line, body, marked in examples(path)
        if turned_off(body) and not marked
    ]
    assert unmarked == []


@pytest.mark.parametrize("command", COMMANDS, ids=[str(c) for c in COMMANDS])
def test_no_help_example_turns_a_check_off(cli: Any, command: str | None) -> None:
    ran = cli(["--help"] if command is None else [command, "--help"])
    assert ran.code == 0
    epilog = ran.stdout.decode().split("examples:", 1)[-1]
    assert "$ frame-spine" in epilog or command == "help"
    assert turned_off(epilog) == []


@pytest.mark.parametrize(
    "example",
    [
        "frame-spine lookup --generated-at current",
        "generated-at: current",
        'generated-at: "current"',
        "--trusted-authors any",
        "--trusted-authors=OWNER,NONE",
        'trusted-authors: "OWNER,CONTRIBUTOR"',
        "gh api repos/o/r/issues/comments/1 --jq .body | frame-spine lookup --plan-body -",
    ],
)
def test_the_check_finds_each_unsafe_form(example: str) -> None:
    assert turned_off(example) != []


@pytest.mark.parametrize(
    "example",
    [
        "frame-spine lookup --generated-at GENERATED_AT",
        'trusted-authors: "OWNER,MEMBER,COLLABORATOR,write,@planner-app[bot]"',
        "--trusted-authors @my-planner[bot]",
        "generated-at: ${{ inputs.generated_at }}",
    ],
)
def test_safe_forms_pass(example: str) -> None:
    assert turned_off(example) == []
