"""Render mode's result rendered (SPEC 13): JSON, and the Markdown of the job summary and the
``markdown`` output. Comment-derived text is escaped (table cells, graph labels)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...core.shown import knob
from ...core.status import Status
from ...core.utf8 import utf8_size
from ...markdown import (
    SUMMARY_LIMIT,
    CommentLink,
    clip_utf8,
    comment_rows,
    escape_cell,
    mermaid_text,
    plural,
    summary_head,
    table_within,
)
from ...validation.findings import with_findings_table
from ...validation.models import ValidationResult
from ...workflow_commands import json_line
from .models import RenderResult, StepNode

#: Above this many steps the graph is left out (the table stays): SPEC 13.
MAX_GRAPH_STEPS = 100
#: Mermaid's default ``maxTextSize``: a longer diagram is not drawn (SPEC 13).
MAX_GRAPH_CHARACTERS = 50_000
_NODE_ID = re.compile(r"s[0-9]+", re.ASCII)
_ICONS = {Status.OK: "✅", Status.MISSING_SPINE: "\u2139\ufe0f"}  # information source


def render_dict(result: RenderResult) -> dict[str, Any]:
    """The result as SPEC 13's JSON object (the SPEC 6.1 keys only when set)."""
    return result.shown(
        "untrusted_plan_comments", "hidden_plan_comments", "author", "author_association", "editor"
    )


def render_json(result: RenderResult) -> str:
    """One compact JSON line."""
    return json_line(render_dict(result))


def _node_ids(steps: Sequence[StepNode]) -> dict[str, str]:
    """Each step's Mermaid node id: the step id when safe, else ``n<index>``."""
    return {
        node.step: node.step if _NODE_ID.fullmatch(node.step) else f"n{index}"
        for index, node in enumerate(steps)
    }


def _node(node_id: str, node: StepNode) -> str:
    """One node: the step id and its ports; a terminal step as a stadium."""
    lines = [f"<b>{mermaid_text(node.step)}</b>", *(mermaid_text(port) for port in node.ports)]
    if node.terminal:
        lines.append("⏹ terminal")
    label = "<br>".join(lines)
    return f'  {node_id}(["{label}"])' if node.terminal else f'  {node_id}["{label}"]'


def _lane_edges(steps: Sequence[StepNode], ids: dict[str, str]) -> list[tuple[str, str]]:
    """The lane edges no ``depends_on`` edge draws, as node ids, in step order."""
    return [
        (ids[before], ids[node.step])
        for node in steps
        for before in node.lanes
        if before in ids and before not in node.depends_on
    ]


def mermaid_graph(steps: Sequence[StepNode]) -> str:
    """The step graph as a Mermaid ``flowchart`` (SPEC 13), without the fence."""
    ids = _node_ids(steps)
    lines = ["flowchart TD", *(_node(ids[node.step], node) for node in steps)]
    for node in steps:
        for dependency in dict.fromkeys(node.depends_on):
            if dependency in ids:
                lines.append(f"  {ids[dependency]} --> {ids[node.step]}")
    lines.extend(f"  {before} -.-> {after}" for before, after in _lane_edges(steps, ids))
    dashed = [ids[node.step] for node in steps if not node.has_slice]
    if dashed:
        lines.append("  classDef noslice stroke-dasharray: 6 4,stroke:#888,fill:#fafafa")
        lines.append(f"  class {','.join(dashed)} noslice")
    return "".join(f"{line}\n" for line in lines)


def graph_section(steps: Sequence[StepNode]) -> str:
    """The step graph fenced, with its legend, or a note saying why it is left out."""
    if not steps:
        return ""
    heading = "\n#### Step graph\n\n"
    if len(steps) > MAX_GRAPH_STEPS:
        return heading + (
            f"The graph is left out: {plural(len(steps), 'step')}, more than the "
            f"{MAX_GRAPH_STEPS} it draws; the table above lists every port.\n"
        )
    graph = mermaid_graph(steps)
    if len(graph) > MAX_GRAPH_CHARACTERS:
        return heading + (
            f"The graph is left out: its {len(graph):,} characters are over Mermaid's "
            f"{MAX_GRAPH_CHARACTERS:,}-character limit; the table above lists every port.\n"
        )
    legend = _legend(steps)
    return f"{heading}```mermaid\n{graph}```\n" + (f"\n{legend}" if legend else "")


def _legend(steps: Sequence[StepNode]) -> str:
    """The legend under the graph: a line for each kind of thing the graph shows."""
    ids = _node_ids(steps)
    lines = []
    if any(dependency in ids for node in steps for dependency in node.depends_on):
        lines.append(
            "- solid arrow: from a step to the steps that depend on it (`depends_on`: the "
            "context a step needs)"
        )
    if _lane_edges(steps, ids):
        lines.append(
            "- dotted arrow: from a step to the next step its port lists (the port's lane: "
            "the later step is dispatched after it)"
        )
    if any(not node.has_slice for node in steps):
        lines.append("- dashed grey outline: no frame-slice block carries the step")
    if any(node.terminal for node in steps):
        lines.append(
            "- ⏹ terminal (rounded): the step that produces its port's terminal credit (a "
            "`#terminal` token or `terminal: true`); steps may still come after it"
        )
    return "".join(f"{line}\n" for line in lines)


def _port_rows(result: RenderResult, ports_dir: str | None) -> list[str]:
    """The ports table's rows; the Warning cell empty, or ``⚠️ unknown-port`` and why."""
    rows = []
    for row in result.ports:
        warning = f"⚠️ {escape_cell(row.warning)}" if row.warning else ""
        if row.warning and ports_dir is not None:
            warning += f": no {escape_cell(row.port)}.yaml/.yml/.md in {escape_cell(ports_dir)}"
        cycle = "" if row.cycle is None else str(row.cycle)
        terminal = "yes" if row.terminal else "no"
        cells = (escape_cell(row.port), escape_cell(row.step), cycle, terminal, warning)
        rows.append(f"| {' | '.join(cells)} |\n")
    return rows


def _spine_counts(result: RenderResult) -> str:
    """``9 steps (8 without a slice block), 5 ports, 9 port tokens``."""
    without = sum(not node.has_slice for node in result.steps)
    steps = len(result.steps)
    if without == 0:
        slices = "each with a slice block" if steps > 1 else "with a slice block"
    elif without == steps:
        slices = "none with a slice block" if steps > 1 else "without a slice block"
    else:
        slices = f"{without:,} without a slice block"
    ports = len(dict.fromkeys(row.port for row in result.ports))
    return (
        f"{plural(steps, 'step')} ({slices}), {plural(ports, 'port')}, "
        f"{plural(len(result.ports), 'port token')}"
    )


def _head(
    result: RenderResult,
    repository: str | None,
    plan: CommentLink | None,
    sibling: CommentLink | None,
) -> str:
    """The top of the summary (:func:`~frame_spine.markdown.summary_head`), naming the issue
    and the spine's ``generated_at``, with its facts table."""
    detail = f"issue #{result.issue}" if result.issue is not None else "a plan"
    if result.generated_at is not None:
        detail += f", spine generated_at {escape_cell(result.generated_at)}"
    rows: list[tuple[str, str]] = []
    if repository is not None or result.plan_comment_id is not None:  # not local bodies
        given = CommentLink(int(result.plan_comment_id), None) if result.plan_comment_id else None
        rows += comment_rows(repository, plan or given, sibling)
    if passed := result.untrusted_plan_comments:  # by discovery (SPEC 6.1)
        who = f"{'an author' if passed == 1 else 'authors'} outside {knob('trusted-authors')}"
        passed_line = f"{plural(passed, 'plan-like comment')} by {who} (never the plan)"
        rows.append(("Passed over", passed_line))
    if hidden := result.hidden_plan_comments:
        hidden_line = f"{plural(hidden, 'hidden plan-like comment')} passed over (never the plan)"
        rows.append(("Hidden", hidden_line))
    if result.spine_digest:
        rows.append(("Spine digest", f"`{escape_cell(result.spine_digest)}`"))
    if result.steps:
        rows.append(("Spine", _spine_counts(result)))
    status, icon = result.status.value, _ICONS.get(result.status, "❌")
    return summary_head(
        "render", status, result.exit_code, icon, detail=detail, message=result.message, facts=rows
    )


def render_markdown(
    result: RenderResult,
    *,
    repository: str | None = None,
    plan: CommentLink | None = None,
    sibling: CommentLink | None = None,
    ports_dir: str | None = None,
    limit: int = SUMMARY_LIMIT,
) -> str:
    """The picture of a plan as Markdown (SPEC 13), under ``limit`` bytes (rows that do not
    fit are counted in a note; the graph is left out rather than cut)."""
    text = clip_utf8(_head(result, repository, plan, sibling), limit // 4)
    if result.ports:
        checked = ""
        if not result.ports_checked:
            checked = " (no ports-dir: port names not checked)"
        elif ports_dir is not None:
            checked = f" (names checked against the port files in {escape_cell(ports_dir)})"
        table = (
            f"\n#### Ports{checked}\n\n| Port | Step | Cycle | Terminal | Warning |\n"
            "|:--|:--|--:|:--|:--|\n"
        )
        note = "{left} not shown here; the `result` output has all."
        rows = _port_rows(result, ports_dir)
        text = table_within(text + table, rows, len(rows), note, limit // 2, noun="more port row")
        if any(row.warning for row in result.ports):
            text += (
                "\n`unknown-port` is render's own check of port names against the port files; "
                "validate does not read them, so a plan can be valid with unknown ports.\n"
            )
    graph = graph_section(result.steps)
    if utf8_size(text + graph) < limit * 3 // 4:
        text += graph
    elif graph:
        text += "\n#### Step graph\n\nThe graph is left out: the summary has no room for it.\n"
    return _with_findings(text, result.findings, limit)


def _with_findings(text: str, findings: ValidationResult | None, limit: int) -> str:
    """``text`` and validate's findings (SPEC 13) when there are errors or warnings."""
    if findings is None or not (findings.errors or findings.warnings):
        return text
    notices = len(findings.findings) - findings.errors - findings.warnings
    counts = [plural(findings.errors, "error"), plural(findings.warnings, "warning")]
    if notices:
        counts.append(plural(notices, "notice"))
    title = f"\n#### Findings (validate): {', '.join(counts)}\n\n"
    return with_findings_table(
        text + title, findings.findings, "`frame-spine validate` prints all", limit
    )
