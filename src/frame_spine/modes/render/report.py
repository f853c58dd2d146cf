"""Render in the action (SPEC 8, 13): inputs, the canonical ports, fetch, validate and decide
(:mod:`.online`); the summary is also the ``markdown`` output."""

from __future__ import annotations

from ...core.status import Failure, Status
from ...core.utf8 import utf8_size
from ...inputs import parse_inputs
from ...markdown import plural
from ...step.context import StepContext, link_of
from ...step.report import OUTPUT_LIMIT, Annotation, StepReport
from ...validation.models import parse_target
from ...workflow_commands import json_line
from .. import Online
from .models import RenderResult, RenderSettings
from .online import render_online
from .ports import canonical_ports
from .render import render_dict, render_markdown


def _rendered(step: StepContext) -> tuple[Online[RenderResult], str | None, str | None]:
    """Inputs -> canonical ports -> fetch, validate, decide; the repository (``None`` when the
    inputs were refused) and the ports directory as shown (``None``: no port checked)."""
    target = parse_target(step.resolved_inputs())
    settings = parse_inputs(RenderSettings, step.inputs)
    if isinstance(target, Failure):
        return Online(RenderResult.of_failure(target)), None, None
    ids = {"issue": target.issue_number, "plan_comment_id": target.plan_comment_id}
    if isinstance(settings, Failure):
        return Online(RenderResult.of_failure(settings, **ids)), target.repository, None
    canonical = canonical_ports(step.workspace(), settings.ports_dir, contained=True)
    if isinstance(canonical, Failure):
        return Online(RenderResult.of_failure(canonical, **ids)), target.repository, None
    rendered = render_online(target, step.fetcher(target), canonical.names)
    return rendered, target.repository, canonical.directory


def _result_output(result: RenderResult) -> str:
    """SPEC 13's JSON within the output limit (SPEC 8): over it, without the lists."""
    shown = render_dict(result)
    text = json_line(shown)
    if utf8_size(text) <= OUTPUT_LIMIT:
        return text
    omitted = {f"{key}_omitted": len(shown[key]) for key in ("ports", "steps")}
    return json_line(shown | {"ports": [], "steps": []} | omitted)


def _annotations(result: RenderResult, ports_dir: str | None) -> list[Annotation]:
    """An error for a status that fails (``missing-spine``: a notice), and a warning per port
    token routed through an unknown port."""
    annotations = []
    if result.status is not Status.OK:
        command = "notice" if result.exit_code == 0 else "error"
        title = f"frame-spine render: {result.status.value}"
        annotations.append(Annotation(command, title, result.message or ""))
    annotations.extend(
        Annotation(
            "warning",
            "frame-spine render: unknown-port",
            f"port {row.port} (step {row.step}) has no file {row.port}.yaml, .yml or .md in "
            f"{ports_dir or 'ports-dir'}",
        )
        for row in result.ports
        if row.warning
    )
    return annotations


def report(step: StepContext) -> StepReport:
    """Render a plan for the action (SPEC 13, 8)."""
    outcome, repository, ports_dir = _rendered(step)
    result = outcome.result
    plan, sibling = link_of(outcome.plan), link_of(outcome.sibling)
    markdown = render_markdown(
        result,
        repository=repository,
        plan=plan,
        sibling=sibling,
        ports_dir=ports_dir,
        limit=OUTPUT_LIMIT,
    )
    findings = result.findings
    return step.report_of(
        result,
        _result_output(result),
        summary=markdown,
        log_line=(
            f"frame-spine render: status {result.status.value} (exit code {result.exit_code}) "
            f"for plan comment {result.plan_comment_id or '-'}: "
            f"{plural(len(result.ports), 'port token')}, {plural(len(result.steps), 'step')}"
        ),
        annotations=_annotations(result, ports_dir),
        full_list="the job summary and the `result` output list them",
        current_generated_at=result.generated_at or "",
        sibling_generated_at=result.sibling_generated_at or "",
        spine_digest=result.spine_digest or "",
        error_count="" if findings is None else str(findings.errors),
        warning_count="" if findings is None else str(findings.warnings),
        markdown=markdown,
    )
