"""What validate's rules read, computed once per validation (SPEC 10)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.acceptance import AcceptanceCriterion, acceptance_criteria
from ..core.blocks import SPINE, Block
from ..core.frontmatter import SPINELESS_VARIANTS, frontmatter_lines, plan_variants, spine_omitted
from ..core.plan import ScannedComments
from ..core.slices import slice_ports, slice_step_id
from ..core.spine import parse_spine
from ..core.spine_model import Spine, SpineParse, SpineProblem
from .models import Code, Finding, finding


@dataclass(frozen=True, slots=True)
class PlanFacts:
    """What the rules read: blocks by comment, in comment order; the frontmatter's lines;
    the criteria; and the one spine block's problems, or its spine when valid."""

    comments: ScannedComments
    issue_number: int | None
    sibling_id: int | None
    spines: tuple[tuple[str, Block], ...]
    slices: tuple[tuple[str, Block, str], ...]
    unaddressed: tuple[tuple[str, Block], ...]
    by_step: dict[str, list[tuple[str, Block]]]
    variants: tuple[tuple[int, str], ...]
    omitted_line: int | None
    criteria: tuple[AcceptanceCriterion, ...]
    problems: tuple[SpineProblem, ...]
    spine: Spine | None
    _ports: dict[str, tuple[str, ...] | None] = field(default_factory=dict, compare=False)

    def slice_ports(self, payload: str) -> tuple[str, ...] | None:
        """:func:`~frame_spine.core.slices.slice_ports`, read once per payload."""
        if payload not in self._ports:
            self._ports[payload] = slice_ports(payload)
        return self._ports[payload]

    @property
    def spine_comment(self) -> str:
        """The comment holding the one spine (``"plan"`` or ``"sibling"``)."""
        return self.spines[0][0] if self.spines else "plan"

    def at_spine(self, code: Code, message: str, line: int | None, **where: str) -> Finding:
        """A finding of ``code`` at ``line`` of the spine's comment (``where``: step, port)."""
        return finding(code, message, comment=self.spine_comment, line=line, **where)

    @property
    def unknown_variants(self) -> tuple[tuple[int, str], ...]:
        """The ``plan-variant:`` lines whose value is neither ``brief`` nor ``goal-contract``."""
        return tuple(item for item in self.variants if item[1] not in SPINELESS_VARIANTS)


def plan_facts(
    comments: ScannedComments, *, issue_number: int | None, sibling_id: int | None = None
) -> PlanFacts:
    """Read once what the rules need."""
    spines: list[tuple[str, Block]] = []
    slices: list[tuple[str, Block, str]] = []
    unaddressed: list[tuple[str, Block]] = []
    by_step: dict[str, list[tuple[str, Block]]] = {}
    for comment, scan in comments.comments():
        for block in scan.blocks:
            if block.name == SPINE:
                spines.append((comment, block))
            elif (step := slice_step_id(block.payload)) is None:
                unaddressed.append((comment, block))
            else:
                slices.append((comment, block, step))
                by_step.setdefault(step, []).append((comment, block))
    parsed = SpineParse(None, ())
    if len(spines) == 1:
        parsed = parse_spine(spines[0][1].payload, spines[0][1].payload_line)
    text = comments.plan.text
    frontmatter = frontmatter_lines(text)
    return PlanFacts(
        comments=comments,
        issue_number=issue_number,
        sibling_id=sibling_id,
        spines=tuple(spines),
        slices=tuple(slices),
        unaddressed=tuple(unaddressed),
        by_step=by_step,
        variants=tuple(plan_variants(text, frontmatter)),
        omitted_line=spine_omitted(text, frontmatter),
        criteria=acceptance_criteria(text),
        problems=parsed.problems,
        spine=parsed.spine,
    )
