"""Rendering validate-mode results (SPEC 10) as JSON and text.

Pure: a :class:`~frame_spine.validate.ValidationResult` in, a string out.
"""

from __future__ import annotations

from typing import Any

from .render import json_line
from .validate import Finding, Severity, ValidationResult

_WHERE_KEYS = ("comment", "line", "step", "port")


def finding_dict(finding: Finding) -> dict[str, Any]:
    """One finding as a JSON object: ``severity, code, message``, then where it applies
    (``comment, line, step, port``; unset keys omitted)."""
    found: dict[str, Any] = {
        "severity": finding.severity.value,
        "code": finding.code,
        "message": finding.message,
    }
    for key in _WHERE_KEYS:
        value = getattr(finding, key)
        if value is not None:
            found[key] = value
    return found


def validation_dict(result: ValidationResult) -> dict[str, Any]:
    """The result as a JSON object: ``status, errors, warnings, findings`` (then ``message``
    for a fetch failure)."""
    shown: dict[str, Any] = {
        "status": result.status,
        "errors": result.errors,
        "warnings": result.warnings,
        "findings": [finding_dict(finding) for finding in result.findings],
    }
    if result.message is not None:
        shown["message"] = result.message
    return shown


def validation_json(result: ValidationResult) -> str:
    """One compact JSON line (workflow-command sequences escaped, see ``render.json_line``)."""
    return json_line(validation_dict(result))


def where(finding: Finding) -> str:
    """Where a finding applies, e.g. ``"plan:36 step s2 port review"`` (``"-"`` if nowhere)."""
    parts = []
    if finding.comment is not None:
        parts.append(
            finding.comment if finding.line is None else f"{finding.comment}:{finding.line}"
        )
    elif finding.line is not None:
        parts.append(f"line {finding.line}")
    if finding.step is not None:
        parts.append(f"step {finding.step}")
    if finding.port is not None:
        parts.append(f"port {finding.port}")
    return " ".join(parts) or "-"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def validation_text(result: ValidationResult) -> str:
    """The text format: one line per finding (``severity code where: message``), then a
    count line (``invalid: 8 errors, 1 warning, 0 notices``); for a fetch failure,
    ``status:`` and ``message:`` lines. Ends with a newline."""
    if result.status not in ("valid", "invalid"):
        return f"status: {result.status}\nmessage: {result.message or ''}\n"
    lines = [
        f"{finding.severity.value} {finding.code} {where(finding)}: {finding.message}"
        for finding in result.findings
    ]
    notices = sum(finding.severity is Severity.NOTICE for finding in result.findings)
    lines.append(
        f"{result.status}: {_count(result.errors, 'error')}, "
        f"{_count(result.warnings, 'warning')}, {_count(notices, 'notice')}"
    )
    return "\n".join(lines) + "\n"
