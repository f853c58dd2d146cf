"""Findings in words (SPEC 10): as a JSON object, where one applies, and the summary's table of
findings that validate and render both show.

Pure: findings in, strings out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..markdown import escape_cell
from .models import Finding


def finding_dict(finding: Finding) -> dict[str, Any]:
    """One finding as a JSON object: ``severity, code, message``, then where it applies
    (``comment, line, step, port``; unset keys omitted)."""
    return finding.model_dump(mode="json", exclude_none=True)


def _where_parts(finding: Finding, comment: str, comment_line: str) -> list[str]:
    """The places a finding applies, in order: its comment (``comment``, or with a line
    ``comment_line``: templates with ``{comment}`` and ``{line}``), else ``line N``, then
    ``step sN`` and ``port NAME``; empty when it applies nowhere in particular."""
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
    """Where a finding applies, in words for the summary: ``plan comment line 36, step s2``
    (GitHub has no line anchors in comments, so ``plan:36`` would read as a link target)."""
    parts = _where_parts(finding, "{comment} comment", "{comment} comment line {line}")
    return ", ".join(parts) or "—"


def findings_table(findings: Sequence[Finding], note: str, limit: int) -> tuple[str, list[str]]:
    """The findings as a table (SPEC 10 summary): its head and one row per finding, errors
    first, then warnings, then notices (each in comment and line order), for
    :func:`~frame_spine.markdown.table_within` with ``note``."""
    ordered = sorted(findings, key=lambda finding: _SEVERITY_ORDER[finding.severity.value])
    head = "| Severity | Finding | Where |\n|:-:|:--|:--|\n"
    rows = [
        f"| {_SEVERITY_ICONS[finding.severity.value]} | **{escape_cell(finding.code)}**: "
        f"{escape_cell(finding.message)} | {escape_cell(_where_shown(finding))} |\n"
        for finding in ordered
    ]
    return head, rows
