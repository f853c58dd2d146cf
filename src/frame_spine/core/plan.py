"""A plan and its sibling, scanned (SPEC 2.2), and the one spine they hold (SPEC 5 checks 1-3),
found the same way by every mode."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .blocks import SPINE, Block, CommentScan, scan_comment
from .digest import spine_digest
from .frontmatter import SPINELESS_VARIANTS, plan_variants, spine_omitted
from .shown import cut
from .spine import parse_spine
from .spine_model import Spine, SpineProblem
from .status import Failure, Status


@dataclass(frozen=True, slots=True)
class ScannedComments:
    """The scanned plan (or the one pre-concatenated body, ``single_body``) and sibling."""

    plan: CommentScan
    sibling: CommentScan | None = None
    single_body: bool = False

    def comments(self) -> list[tuple[str, CommentScan]]:
        """``[("plan", scan), ("sibling", scan)]``, the sibling only when present."""
        return [("plan", self.plan)] + ([] if self.sibling is None else [("sibling", self.sibling)])

    def scan(self, comment: str) -> CommentScan:
        """The scan of ``"plan"`` or ``"sibling"`` (which must be present)."""
        if comment == "sibling" and self.sibling is not None:
            return self.sibling
        return self.plan

    def holds_spine_head(self) -> bool:
        """Whether any comment holds a ``frame-spine`` head that is not an example."""
        return any(scan.holds_spine_head() for _comment, scan in self.comments())

    def searched(self) -> str:
        """How messages name everything searched: "the plan comment or its sibling", ..."""
        return "the plan comment or its sibling" if self.sibling is not None else self.label("plan")

    def label(self, comment: str) -> str:
        """How messages name a comment: "the plan comment", "the sibling comment", "the body"."""
        return "the body" if self.single_body else f"the {comment} comment"


def scan_bodies(
    plan: str, sibling: str | None = None, *, single_body: bool = False
) -> ScannedComments:
    """Scan the plan (and sibling) bodies (SPEC 2)."""
    scanned = None if sibling is None else scan_comment(sibling)
    return ScannedComments(scan_comment(plan), scanned, single_body)


def shorten(text: str) -> str:
    """``text`` stripped, cut to 120 characters (with ``...``) for quoting in a message."""
    return cut(text.strip())


class NoSpine(Enum):
    """Why scanned comments hold no spine, the first that applies in this order."""

    VARIANT = "variant"  #: a spineless-by-design variant
    OMITTED = "omitted"  #: ``spine-omitted: plan-too-small``
    EXAMPLES = "examples"  #: every ``frame-spine`` head is a code example
    EMPTY = "empty"  #: the comment bodies are empty
    UNKNOWN_VARIANT = "unknown-variant"  #: a ``plan-variant:`` that names no variant
    ABSENT = "absent"  #: no ``frame-spine`` block at all (a legacy prose plan)


def spineless_variant(comments: ScannedComments) -> str | None:
    """The first ``brief``/``goal-contract`` value of the plan's frontmatter, if any."""
    variants = plan_variants(comments.plan.text)
    return next((value for _line, value in variants if value in SPINELESS_VARIANTS), None)


def no_spine_reason(comments: ScannedComments) -> NoSpine:
    """Why comments that hold no spine block hold none (each mode words it its own way)."""
    if spineless_variant(comments) is not None:
        return NoSpine.VARIANT
    if spine_omitted(comments.plan.text) is not None:
        return NoSpine.OMITTED
    if any(head.name == SPINE for _name, scan in comments.comments() for head in scan.examples):
        return NoSpine.EXAMPLES
    if not any(scan.text.strip() for _name, scan in comments.comments()):
        return NoSpine.EMPTY
    if plan_variants(comments.plan.text):  # none is brief/goal-contract (checked first)
        return NoSpine.UNKNOWN_VARIANT
    return NoSpine.ABSENT


_MISSING_SPINE = {
    NoSpine.VARIANT: "no frame-spine block: the plan is a {variant} variant "
    "(plan-variant: {variant}), which carries no spine by design",
    NoSpine.OMITTED: "no frame-spine block: the plan says spine-omitted: plan-too-small",
    NoSpine.EXAMPLES: "no frame-spine block outside code: the frame-spine heads found are "
    "code examples (in fenced or indented code blocks), not blocks",
    NoSpine.EMPTY: "no frame-spine block: the comment body is empty",
    NoSpine.UNKNOWN_VARIANT: "no frame-spine block in {searched}",
    NoSpine.ABSENT: "no frame-spine block in {searched}",
}


def no_spine_wording(comments: ScannedComments, wording: dict[NoSpine, str]) -> str:
    """:func:`no_spine_reason` in ``wording`` (``{variant}``: the variant or the unknown value,
    ``{searched}``: :meth:`ScannedComments.searched`)."""
    reason = no_spine_reason(comments)
    variant = None
    if reason is NoSpine.VARIANT:
        variant = spineless_variant(comments)
    elif reason is NoSpine.UNKNOWN_VARIANT:
        variant = shorten(plan_variants(comments.plan.text)[0][1])
    return wording[reason].format(variant=variant, searched=comments.searched())


def missing_spine_message(comments: ScannedComments) -> str:
    """Why the comments hold no spine, in lookup's and validate's words (SPEC 5 check 1)."""
    return no_spine_wording(comments, _MISSING_SPINE)


def _invalid_spine_message(
    comments: ScannedComments, scan: CommentScan, comment: str, problem: SpineProblem
) -> str:
    if problem.line is None:
        return f"invalid frame-spine in {comments.label(comment)}: {problem.message}"
    lines = scan.text.split("\n", problem.line)
    quoted = shorten(lines[problem.line - 1] if problem.line - 1 < len(lines) else "")
    return (
        f"invalid frame-spine: line {problem.line} of {comments.label(comment)}: "
        f"{problem.message}: {quoted!r}"
    )


def _find_spine(comments: ScannedComments) -> tuple[Block, CommentScan, str] | Failure:
    found = [
        (block, scan, comment)
        for comment, scan in comments.comments()
        for block in scan.blocks
        if block.name == SPINE
    ]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        where = ", ".join(
            f"line {block.head_line} of {comments.label(comment)}"
            for block, _scan, comment in found
        )
        message = f"{len(found)} frame-spine blocks ({where}); exactly one is allowed"
        return Failure(Status.INVALID_SPINE, message)
    for comment, scan in comments.comments():
        for head in scan.unterminated:
            if head.name == SPINE:
                message = (
                    f"unterminated frame-spine block: the head at line {head.line} of "
                    f"{comments.label(comment)} has no closing -->"
                )
                return Failure(Status.INVALID_SPINE, message)
    return Failure(Status.MISSING_SPINE, missing_spine_message(comments))


@dataclass(frozen=True, slots=True)
class CurrentSpine:
    """The one valid spine of a plan, its block, comment and digest (SPEC 5 checks 1-3 passed)."""

    spine: Spine
    block: Block
    comment: str
    digest: str


def current_spine(comments: ScannedComments) -> CurrentSpine | Failure:
    """Find and parse the one spine (SPEC 5 checks 1-3), or say why there is none."""
    found = _find_spine(comments)
    if isinstance(found, Failure):
        return found
    block, scan, comment = found
    parsed = parse_spine(block.payload, block.payload_line)
    if parsed.spine is None:
        message = _invalid_spine_message(comments, scan, comment, parsed.problems[0])
        return Failure(Status.INVALID_SPINE, message)
    return CurrentSpine(parsed.spine, block, comment, spine_digest(block.payload))


def plan_pointer(scan: CommentScan) -> int | None:
    """The ``slice_comment_id`` of the one valid spine in a plan comment, or ``None``."""
    found = current_spine(ScannedComments(scan))
    pointer = found.spine.slice_comment_id if isinstance(found, CurrentSpine) else None
    return None if pointer is None else int(pointer)
