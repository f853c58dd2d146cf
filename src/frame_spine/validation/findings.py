"""Findings in words (SPEC 10): where each applies, and the table validate and render show."""

from __future__ import annotations

from collections.abc import Sequence

from ..markdown import escape_cell, table_within
from .models import Finding


def _where_parts(finding: Finding, comment: str, comment_line: str) -> list[str]:
    """The places a finding applies, its comment worded by ``comment`` (or ``comment_line``,
    with a line): templates with ``{comment}`` and ``{line}``."""
    parts = []
    if finding.comment is not None:
        template = comment if finding.line is None else comment_line
        parts.append(template.format(comment=finding.comment, line=finding.line))
    elif finding.line is not None:
        parts.append(f"line {finding.line}")
    if finding.step is not None:
        parts.append(f"step {finding.step}")
    if finding.port is not None:
        parts.append(f"port {finding.port}")
    return parts


def where(finding: Finding) -> str:
    """Where a finding applies, e.g. ``"plan:36 step s2 port review"`` (``"-"`` if nowhere)."""
    return " ".join(_where_parts(finding, "{comment}", "{comment}:{line}")) or "-"


_SEVERITY_ICONS = {"error": "❌", "warning": "⚠️", "notice": "💬"}
_SEVERITY_ORDER = {"error": 0, "warning": 1, "notice": 2}


def _where_shown(finding: Finding) -> str:
    """Where a finding applies, in words for the summary (``plan:36`` would read as a link)."""
    parts = _where_parts(finding, "{comment} comment", "{comment} comment line {line}")
    return ", ".join(parts) or "—"


def with_findings_table(text: str, findings: Sequence[Finding], rest: str, limit: int) -> str:
    """``text`` and the summary's findings table, errors first, within ``limit`` bytes; a note
    counts the rows left out and says, in ``rest``, where they all are."""
    ordered = sorted(findings, key=lambda finding: _SEVERITY_ORDER[finding.severity.value])
    head = "| Severity | Finding | Where |\n|:-:|:--|:--|\n"
    rows = (
        f"| {_SEVERITY_ICONS[finding.severity.value]} | **{escape_cell(finding.code)}**: "
        f"{escape_cell(finding.message)} | {escape_cell(_where_shown(finding))} |\n"
        for finding in ordered
    )
    note = f"{{left}} not shown here; {rest}."
    return table_within(text + head, rows, len(ordered), note, limit, noun="more finding")
