"""SPEC 2.4 (revision 3), end to end through lookup: code inside a footnote definition is code.

GitHub renders footnotes in comments, so a template written in a fence inside a footnote
definition is an example, whether or not the text references the note; and a head that the
definition's content column makes an HTML block (not indented code) is live. Through the
library's lookup and the installed command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.modes.lookup.test_rules import (
    ISSUE,
    NO_BLOCK,
    TS,
    assert_result,
    duplicate,
    missing_slice,
    ok,
    plan,
    run,
    slice_block,
    spine_block,
)

REFERENCES = ["", "The template is in a note[^template]."]


def footnote_template(step: str, *, blank: bool = False) -> str:
    """``[^template]: Template for planners:`` and, indented under it (after a blank line or
    not: a fence interrupts the definition's paragraph), a fence holding a slice."""
    # The step id on the head line: under the definition every line is indented, and an
    # indented step_id key would address nothing (SPEC 4) whether or not it were code.
    template = [f"<!-- frame-slice step_id: {step}", "rc: the template's text", "-->"]
    fenced = ["```markdown", *template, "```"]
    head = ["[^template]: Template for planners:", *([""] if blank else [])]
    return "\n".join([*head, *("    " + x for x in fenced)])


@pytest.mark.parametrize("blank", [False, True])
@pytest.mark.parametrize("reference", REFERENCES)
def test_a_template_in_a_footnote_is_no_slice(reference: str, blank: bool) -> None:
    body = plan(spine_block(), slice_block("s1"), reference, footnote_template("s2", blank=blank))
    assert_result(
        run(body, step="s2"),
        missing_slice("s2", NO_BLOCK.format(step="s2", where="the plan comment")),
        1,
    )


@pytest.mark.parametrize("blank", [False, True])
@pytest.mark.parametrize("reference", REFERENCES)
def test_a_template_in_a_footnote_beside_the_real_slice_is_no_duplicate(
    reference: str, blank: bool
) -> None:
    body = plan(spine_block(), slice_block("s1"), reference, footnote_template("s1", blank=blank))
    assert_result(run(body), ok("s1"), 0)


def test_a_head_a_footnote_shows_as_html_is_live() -> None:
    # Four spaces under "[^note]:" are the definition's content column: GitHub shows the head
    # as an HTML block there (hidden, like any block), not as indented code, so it is read.
    note = "[^note]: Step two:\n\n    <!-- frame-slice step_id: s2 -->"
    body = plan(spine_block(), slice_block("s1"), note)
    assert_result(run(body, step="s2"), ok("s2", slice_text="step_id: s2"), 0)


def test_a_live_head_in_a_footnote_beside_the_real_slice_is_a_duplicate() -> None:
    note = "[^note]: Again:\n\n    <!-- frame-slice step_id: s1 -->"
    assert_result(run(plan(spine_block(), slice_block("s1"), note)), duplicate("s1", 2), 1)


def test_through_the_command(tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.md"
    plan_file.write_text(
        plan(spine_block(), slice_block("s1"), footnote_template("s2")), encoding="utf-8"
    )
    common = ["--plan-body", str(plan_file), "--issue-number", str(ISSUE), "--generated-at", TS]
    missing = run_cli(["lookup", *common, "--step-id", "s2", "--format", "json"])
    expected = missing_slice("s2", NO_BLOCK.format(step="s2", where="the plan comment"))
    assert (missing.returncode, missing.stderr) == (1, b"")
    assert list(json.loads(missing.stdout).items()) == list(expected.items())
    found = run_cli(["lookup", *common, "--step-id", "s1", "--format", "json"])
    assert (found.returncode, found.stderr) == (0, b"")
    assert list(json.loads(found.stdout).items()) == list(ok("s1").items())
