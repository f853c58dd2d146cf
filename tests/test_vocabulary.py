"""The vocabularies are enums, and the user's tables say exactly what the enums hold: the
README's table of statuses, docs/action.md's tables of finding codes (with their severities)
and audit states, and the statuses of SPEC 5-6."""

from __future__ import annotations

import re

from frame_spine.core.status import Status
from frame_spine.modes.audit.models import AuditState, AuditStatus
from frame_spine.validation.models import Code, Severity, Verdict
from tests.conftest import REPO

README = (REPO / "README.md").read_text("utf-8")
ACTION = (REPO / "docs" / "action.md").read_text("utf-8")
SPEC = (REPO / "docs" / "SPEC.md").read_text("utf-8")
_TICKED = re.compile(r"`([a-z][a-z-]*)`")
_NOTES = re.compile(r"\([^)]*\)")


def table_after(text: str, header: str) -> list[list[str]]:
    """The rows (cells) of the Markdown table whose header line starts with ``header``."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_readme_statuses_table_lists_every_status_once() -> None:
    rows = table_after(README, "| status | exit | meaning |")
    listed = [_TICKED.fullmatch(row[0]).group(1) for row in rows]  # type: ignore[union-attr]
    # stale-spine has two rows (check 4 and check 6); every other status one.
    assert sorted(set(listed)) == sorted(status.value for status in Status)
    assert len(listed) == len(Status) + 1
    exits = {_TICKED.fullmatch(row[0]).group(1): row[1] for row in rows}  # type: ignore[union-attr]
    assert exits == {status.value: str(status.exit_code) for status in Status}


def test_every_status_is_in_the_spec() -> None:
    for status in Status:
        assert f"`{status.value}`" in SPEC, status


def test_the_action_docs_codes_table_lists_every_finding_code_with_its_severity() -> None:
    rows = table_after(ACTION, "| severity | codes |")
    # Each code is ticked; the parenthesised notes after some (ticked words too) are not codes.
    listed = {code: row[0] for row in rows for code in _TICKED.findall(_NOTES.sub("", row[1]))}
    assert listed == {code.value: code.severity.value for code in Code}
    assert {row[0] for row in rows} == {severity.value for severity in Severity}


def test_the_action_docs_audit_states_table_lists_every_state_in_order() -> None:
    rows = table_after(ACTION, "| state | meaning |")
    listed = [_TICKED.fullmatch(row[0]).group(1) for row in rows]  # type: ignore[union-attr]
    assert listed == [state.value for state in AuditState]


def test_mode_outcomes_are_named_in_the_readme() -> None:
    for word in [*Verdict, *AuditStatus]:
        assert f"`{word.value}`" in README, word
        assert f"`{word.value}`" in ACTION, word
