"""Validate's rules on the plan's variant (SPEC 10): the frontmatter's ``plan-variant:`` and
``spine-omitted:`` lines against the blocks the plan carries."""

from __future__ import annotations

from ..core.blocks import SLICE
from ..core.frontmatter import SPINELESS_VARIANTS
from ..core.plan import shorten
from ..core.slices import slice_step_id
from .facts import PlanFacts
from .models import Code, Finding, at_block, finding


def variant_rule(facts: PlanFacts) -> list[Finding]:
    """``ambiguous-variant`` and ``unknown-variant``."""
    variants = facts.variants
    found: list[Finding] = []
    if len(variants) > 1:
        named = ", ".join(value for _line, value in variants)
        message = (
            f"{len(variants)} plan-variant lines in the frontmatter ({named}); at most one is "
            "allowed"
        )
        found.append(finding(Code.AMBIGUOUS_VARIANT, message, comment="plan", line=variants[1][0]))
    for line, value in facts.unknown_variants:
        message = (
            f"plan-variant {shorten(value)!r} is not a plan variant (brief or goal-contract); a "
            "plan with a spine has no plan-variant line"
        )
        found.append(finding(Code.UNKNOWN_VARIANT, message, comment="plan", line=line))
    return found


def _with_spine(facts: PlanFacts, variant: str | None) -> list[Finding]:
    """``variant-with-spine`` and ``spine-omitted-with-spine``."""
    comment, block = facts.spines[0]
    found = []
    if variant is not None:
        message = (
            f"a {variant} plan (plan-variant: {variant}) carries no spine by design, but a "
            f"frame-spine block is at line {block.head_line}"
        )
        found.append(at_block(Code.VARIANT_WITH_SPINE, message, comment, block))
    if (line := facts.omitted_line) is not None:
        message = (
            "the plan says spine-omitted: plan-too-small, but a frame-spine block is at line "
            f"{block.head_line}: the spine is validated as usual (drop the spine-omitted line)"
        )
        found.append(finding(Code.SPINE_OMITTED_WITH_SPINE, message, comment="plan", line=line))
    return found


def design_rule(facts: PlanFacts) -> list[Finding]:
    """For a plan without a spine by design: with one, :func:`_with_spine`; without, the
    ``no-spine-by-design`` notice (unless ambiguous) and ``variant-with-slices`` or
    ``unreachable-slice``."""
    spineless = [value for _line, value in facts.variants if value in SPINELESS_VARIANTS]
    if facts.spines:
        return _with_spine(facts, spineless[0] if spineless else None)
    if spineless:
        line = next(line for line, value in facts.variants if value == spineless[0])
        reason = f"a {spineless[0]} plan (plan-variant: {spineless[0]})"
        code = Code.VARIANT_WITH_SLICES if spineless[0] == "brief" else Code.UNREACHABLE_SLICE
    elif facts.omitted_line is not None:
        line, reason = facts.omitted_line, "a plan that says spine-omitted: plan-too-small"
        code = Code.UNREACHABLE_SLICE
    else:
        return []
    found = []
    if len(facts.variants) <= 1:
        message = f"no spine: {reason} has none by design"
        found.append(finding(Code.NO_SPINE_BY_DESIGN, message, comment="plan", line=line))
    for comment, scan in facts.comments.comments():
        for block in scan.blocks_named(SLICE):
            step = slice_step_id(block.payload)
            name = f"slice {step}" if step else f"the frame-slice block at line {block.head_line}"
            message = f"{name} is in {reason}, which has no spine: nothing routes to it"
            found.append(at_block(code, message, comment, block, step=step))
    return found
