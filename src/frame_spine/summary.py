"""The job summary of a lookup (SPEC 8): Markdown for ``GITHUB_STEP_SUMMARY``.

Pure: a result and the comments' links in, Markdown out. Comment-derived text outside the
slice's code fence is escaped (HTML special characters, ``|``, backticks, newlines); the
slice sits in a collapsed section inside a fence longer than any backtick run in it; the
whole summary stays under :data:`SUMMARY_LIMIT` bytes, with a visible truncation note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .emitted_text import utf8_size
from .models import LookupResult, Status
from .validate import ValidationResult

if TYPE_CHECKING:
    from .audit import AuditReport

#: GitHub refuses step summaries over 1 MiB; stay well below it.
SUMMARY_LIMIT = 1_000_000
_BACKTICK_RUN = re.compile(r"`+")
_SAFE_URL = re.compile(r"https?://[^\s<>()\[\]\"'`|]+", re.ASCII)
_ESCAPES = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        '"': "&quot;",
        "|": "&#124;",
        "`": "&#96;",
        "\r": " ",
        "\n": " ",
        # Markdown punctuation: no links, images, emphasis or strikethrough from comments.
        "\\": "\\\\",
        "[": "\\[",
        "]": "\\]",
        "(": "\\(",
        ")": "\\)",
        "!": "\\!",
        "*": "\\*",
        "_": "\\_",
        "~": "\\~",
    }
)


def escape_cell(text: str) -> str:
    """Escape untrusted text for a Markdown table cell or inline HTML (SPEC 8).

    HTML special characters become entities, ``|`` and backticks become numeric entities,
    line breaks become spaces, and Markdown's link, image and emphasis punctuation is
    backslash-escaped, so the text can neither break the table nor inject HTML, links,
    images or code spans. It renders as the original text.
    """
    return text.translate(_ESCAPES)


def code_fence(text: str) -> str:
    """Return a backtick fence longer than any backtick run in ``text`` (at least 3)."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    return "`" * max(3, longest + 1)


@dataclass(frozen=True, slots=True)
class CommentLink:
    """A comment shown in the summary: its id and web URL (linked only if it is a plain URL)."""

    id: int
    html_url: str | None


def _link(comment: CommentLink | None) -> str:
    if comment is None:
        return "—"
    if comment.html_url and _SAFE_URL.fullmatch(comment.html_url):
        return f"[{comment.id}]({comment.html_url})"
    return str(comment.id)


def _icon(status: Status) -> str:
    if status is Status.OK:
        return "✅"
    if status is Status.STALE_SPINE:
        return "⚠️"
    return "❌"


def _clip_utf8(text: str, limit: int) -> str:
    """The longest prefix of ``text`` within ``limit`` UTF-8 bytes, cut at a character
    boundary (a lone surrogate, which the write turns into U+FFFD, counts as 3 bytes)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    cut = max(0, limit)
    while cut > 0 and data[cut] & 0xC0 == 0x80:  # a continuation byte: back to a boundary
        cut -= 1
    return data[:cut].decode("utf-8", "surrogatepass")


def lookup_summary(
    result: LookupResult,
    *,
    repository: str | None,
    plan: CommentLink | None,
    sibling: CommentLink | None,
    dispatched_generated_at: str | None,
    step_id: str | None = None,
    whole_slice: str = "in the `slice` output (and in `slice-file` when set)",
    limit: int = SUMMARY_LIMIT,
) -> str:
    """Render the job summary of one lookup (SPEC 8).

    Args:
        result: the lookup result.
        repository: ``OWNER/NAME`` (validated), or ``None`` when the input was invalid.
        plan, sibling: the comments fetched, for links (``None`` when not fetched).
        dispatched_generated_at: the dispatched ``generated-at`` input (validated), if any.
        step_id: the dispatched step (validated), shown when the result does not name it.
        whole_slice: where the whole slice is, for the truncation note (e.g. ``"in the
            `slice` output"``).
        limit: the most UTF-8 bytes the summary may take.

    Returns:
        Markdown ending with a newline, at most ``limit`` bytes. When the slice does not fit
        it is cut and a visible note says how much is shown.
    """
    status = result.status
    shown_step = result.step_id or step_id
    rows = [
        ("Status", f"{_icon(status)} `{status.value}` (exit code {status.exit_code})"),
        ("Repository", escape_cell(repository) if repository else "—"),
        ("Plan comment", _link(plan)),
        ("Sibling comment", _link(sibling)),
        ("Step", escape_cell(shown_step) if shown_step else "—"),
    ]
    timestamps = (
        ("Dispatched generated_at", result.dispatched_generated_at or dispatched_generated_at),
        ("Spine generated_at", result.current_generated_at),
        ("Sibling stamp", result.sibling_generated_at),
        ("Spine digest", result.spine_digest),
    )
    rows.extend((label, escape_cell(value)) for label, value in timestamps if value)
    if result.generated_at_elided:
        rows.append(("Freshness", "generated_at differs, spine digest matches (elided)"))
    if result.count is not None:
        rows.append(("Slice blocks for the step", str(result.count)))
    if result.message:
        rows.append(("Message", escape_cell(result.message)))
    table = "\n".join(f"| {label} | {value} |" for label, value in rows)
    head = f"### frame-spine lookup: `{status.value}`\n\n| | |\n|---|---|\n{table}\n"
    if result.slice is None:
        return _clip_utf8(head, limit)

    text = result.slice
    fence = code_fence(text)
    total = utf8_size(text)
    lines = text.count("\n") + 1
    opening = (
        f"\n<details><summary>Slice {escape_cell(result.step_id or '')} "
        f"({lines} lines, {total} bytes)</summary>\n\n{fence}text\n"
    )
    closing = f"\n{fence}\n\n</details>\n"
    room = limit - utf8_size(head + opening + closing)
    if total <= room:
        return head + opening + text + closing

    def note(shown: int) -> str:
        return (
            "\n> [!WARNING]\n> The slice is truncated in this summary: "
            f"{shown} of {total} bytes are shown. The whole slice is {whole_slice}.\n"
        )

    room -= utf8_size(note(total)) + 40
    shown = _clip_utf8(text, room)
    return head + opening + shown + closing + note(utf8_size(shown))


_SEVERITY_ICONS = {"error": "❌ error", "warning": "⚠️ warning", "notice": "💬 notice"}


def validation_summary(
    result: ValidationResult,
    *,
    repository: str | None,
    plan: CommentLink | None,
    sibling: CommentLink | None,
    rest: str = "the `result` output has all",
    limit: int = SUMMARY_LIMIT,
) -> str:
    """Render the job summary of validate mode (SPEC 10): the outcome, links to the comments,
    and a table of findings (severity, code, where, message), under ``limit`` bytes.

    Findings that do not fit are left out with a visible note saying how many and, in
    ``rest``, where they all are.
    """
    from .render_findings import where

    if result.status in ("valid", "invalid"):
        headline = (
            f"### frame-spine validate: `{result.status}` ({result.errors} errors, "
            f"{result.warnings} warnings)\n\n"
        )
    else:
        headline = f"### frame-spine validate: `{escape_cell(result.status)}`\n\n"
    facts = [
        ("Repository", escape_cell(repository) if repository else "—"),
        ("Plan comment", _link(plan)),
        ("Sibling comment", _link(sibling)),
    ]
    if result.message:
        facts.append(("Message", escape_cell(result.message)))
    head = headline + "| | |\n|---|---|\n" + "".join(f"| {k} | {v} |\n" for k, v in facts)
    if not result.findings:
        return _clip_utf8(head, limit)
    table = "\n| Severity | Code | Where | Message |\n|---|---|---|---|\n"
    rows = (
        f"| {_SEVERITY_ICONS[finding.severity.value]} | {escape_cell(finding.code)} | "
        f"{escape_cell(where(finding))} | {escape_cell(finding.message)} |\n"
        for finding in result.findings
    )
    note = "{left} more findings are not shown here; " + rest + "."
    return _table_within(head + table, rows, len(result.findings), note, limit)


def audit_summary(
    report: AuditReport, *, rest: str = "the report has all", limit: int = SUMMARY_LIMIT
) -> str:
    """Render the job summary of audit mode (SPEC 11): the outcome, the counts per state,
    and one table row per plan (linked), under ``limit`` bytes.

    Rows that do not fit are left out with a visible note saying how many and, in ``rest``,
    where they all are.
    """
    from .audit import AuditState

    if report.message is not None:
        return _clip_utf8(
            f"### frame-spine audit: `{escape_cell(report.status)}`\n\n"
            f"| | |\n|---|---|\n| Repository | {escape_cell(report.repository)} |\n"
            f"| Message | {escape_cell(report.message)} |\n",
            limit,
        )
    counts = " · ".join(
        f"{state.value} {report.counts.get(state.value, 0)}" for state in AuditState
    )
    head = (
        f"### frame-spine audit: `{report.status}` ({len(report.plans)} plans in "
        f"{escape_cell(report.repository)})\n\n{counts} · {report.requests} requests\n"
    )
    if not report.plans:
        return _clip_utf8(head, limit)
    table = (
        "\n| Issue | Plan comment | State | Spine generated_at | Sibling stamp | Duplicates "
        "| Errors | Warnings |\n|---|---|---|---|---|---|---|---|\n"
    )
    icons = {"fresh": "✅", "no-spine": "💤"}
    rows = (
        f"| #{plan.issue} | {_link(CommentLink(plan.plan_comment_id, plan.plan_url))} | "
        f"{icons.get(plan.state.value, '⚠️')} {plan.state.value} | "
        f"{escape_cell(plan.generated_at or '—')} | "
        f"{escape_cell(plan.sibling_generated_at or '—')} | "
        f"{'yes' if plan.duplicate_plans else 'no'} | {plan.errors} | {plan.warnings} |\n"
        for plan in report.plans
    )
    note = "{left} more plans are not shown here; " + rest + "."
    return _table_within(head + table, rows, len(report.plans), note, limit)


def _table_within(head: str, rows: Iterable[str], total: int, note: str, limit: int) -> str:
    """``head`` and as many ``rows`` as fit in ``limit`` UTF-8 bytes; when some do not fit,
    a visible warning (``note``, with ``{left}``) says how many are left out."""
    warning = "\n> [!WARNING]\n> " + note + "\n"
    room = limit - utf8_size(head) - utf8_size(warning) - 20
    kept: list[str] = []
    for row in rows:
        size = utf8_size(row)
        if size > room:
            return head + "".join(kept) + warning.replace("{left}", str(total - len(kept)))
        room -= size
        kept.append(row)
    return head + "".join(kept)
