"""Render mode's decision (SPEC 13): what the picture of a plan holds, the spine found as every
mode finds it and the steps ranked as the dispatch matrix ranks them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...core.blocks import SLICE, SPINE
from ...core.plan import (
    CurrentSpine,
    NoSpine,
    ScannedComments,
    current_spine,
    no_spine_wording,
    spineless_variant,
)
from ...core.slices import slice_step_id
from ...core.spine import parse_spine
from ...core.spine_model import PortRoute, Spine, SpineParse, SpineSlice
from ...core.stamps import shown_stamp
from ...core.status import Status
from ...validation.dispatch import ranked_steps
from ...validation.models import ValidationResult
from .models import UNKNOWN_PORT, PortRow, RenderResult, StepNode


def _spine_head_line(comments: ScannedComments) -> tuple[str, int] | None:
    """The comment and line of the first real ``frame-spine`` head (complete or not)."""
    for comment, scan in comments.comments():
        lines = [block.head_line for block in scan.blocks if block.name == SPINE]
        lines += [head.line for head in scan.unterminated if head.name == SPINE]
        if lines:
            return comment, min(lines)
    return None


def ambiguous_message(comments: ScannedComments) -> str | None:
    """Why a spineless variant that also carries a spine is not drawn, or ``None``."""
    variant = spineless_variant(comments)
    head = _spine_head_line(comments) if variant is not None else None
    if head is None:
        return None
    comment, line = head
    return (
        f"no spine drawn: a {variant} plan (plan-variant: {variant}) has no spine by design, "
        f"but {comments.label(comment)} also carries a frame-spine block (line {line}): "
        "ambiguous"
    )


#: :func:`no_spine_message`'s wording of each reason (SPEC 13; ``{variant}``, ``{searched}``:
#: see :func:`~frame_spine.core.plan.no_spine_wording`).
_NO_SPINE = {
    NoSpine.VARIANT: "no spine: a {variant} plan (plan-variant: {variant}) has none by design",
    NoSpine.OMITTED: "no spine: the plan says spine-omitted: plan-too-small (none by design)",
    NoSpine.EXAMPLES: "no spine: the only frame-spine heads are code examples (in fenced or "
    "indented code blocks)",
    NoSpine.EMPTY: "no spine: the comment body is empty",
    NoSpine.UNKNOWN_VARIANT: "no spine: plan-variant {variant!r} is not a plan variant (brief "
    "or goal-contract), and the plan carries no frame-spine block",
    NoSpine.ABSENT: "no spine: a legacy prose plan (no frame-spine block in {searched})",
}


def no_spine_message(comments: ScannedComments) -> str:
    """Why a plan has no spine, in render's words (SPEC 13)."""
    return no_spine_wording(comments, _NO_SPINE)


def _slice_steps(comments: ScannedComments) -> frozenset[str]:
    """The step ids that have a slice block, in the plan or the sibling."""
    return frozenset(
        step
        for _comment, scan in comments.comments()
        for block in scan.blocks
        if block.name == SLICE and (step := slice_step_id(block.payload)) is not None
    )


def port_rows(
    routes: Iterable[PortRoute], slices: Iterable[SpineSlice], canonical: frozenset[str] | None
) -> list[PortRow]:
    """One row per port token, in spine order (SPEC 13); ``canonical``: lower-cased port
    names, ``None`` to check none."""
    entries = {entry.step: entry for entry in slices}
    rows = []
    for route in routes:
        unknown = canonical is not None and route.name.lower() not in canonical
        warning = UNKNOWN_PORT if unknown else None
        for token in route.tokens:
            entry = entries.get(token.step)
            cycle = token.cycle if token.cycle is not None or entry is None else entry.cycle
            terminal = token.terminal or (entry is not None and entry.terminal is True)
            row = PortRow(
                port=route.name, step=token.step, cycle=cycle, terminal=terminal, warning=warning
            )
            rows.append(row)
    return rows


def step_nodes(
    routes: Sequence[PortRoute], slices: Sequence[SpineSlice], with_slice: frozenset[str]
) -> list[StepNode]:
    """Every spine step in rank order, as a node of the graph."""
    terminal = {token.step for route in routes for token in route.tokens if token.terminal}
    terminal.update(entry.step for entry in slices if entry.terminal)
    return [
        StepNode(
            step=ranked.step,
            ports=ranked.ports,
            depends_on=ranked.depends_on,
            lanes=ranked.lanes,
            has_slice=ranked.step in with_slice,
            terminal=ranked.step in terminal,
        )
        for ranked in ranked_steps(routes, slices)
    ]


def render_scanned(
    comments: ScannedComments,
    *,
    findings: ValidationResult | None,
    issue: int | None,
    plan_comment_id: int | None = None,
    canonical: frozenset[str] | None,
) -> RenderResult:
    """Decide the picture of a plan (SPEC 13); ``findings``: validate's result on the same
    comments, ``canonical``: the lower-cased port names (``None``: check none)."""
    shared = {
        "issue": issue,
        "plan_comment_id": plan_comment_id,
        "findings": findings,
        "ports_checked": canonical is not None,
        "sibling_generated_at": shown_stamp(comments.sibling),
    }
    ambiguous = ambiguous_message(comments)
    if ambiguous is not None:
        return RenderResult(status=Status.MISSING_SPINE, message=ambiguous, **shared)
    found = current_spine(comments)
    parsed: Spine | SpineParse
    if isinstance(found, CurrentSpine):
        parsed = found.spine
        shared |= {"generated_at": parsed.generated_at, "spine_digest": found.digest}
        status, message = Status.OK, None
    elif found.status is Status.MISSING_SPINE:
        return RenderResult(status=found.status, message=no_spine_message(comments), **shared)
    else:  # invalid: what parsed of the one spine block
        spines = [
            block for _name, scan in comments.comments() for block in scan.blocks_named(SPINE)
        ]
        parsed = SpineParse(None, ())
        if len(spines) == 1:
            parsed = parse_spine(spines[0].payload, spines[0].payload_line)
        status, message = found.status, found.message
    ports = tuple(port_rows(parsed.ports, parsed.slices, canonical))
    steps = tuple(step_nodes(parsed.ports, parsed.slices, _slice_steps(comments)))
    return RenderResult(status=status, ports=ports, steps=steps, message=message, **shared)
