"""The lookup decision procedure (SPEC 5, with the identity checks of SPEC 6 steps 3-4).

Pure: validated dispatch inputs and comment bodies in, a :class:`LookupResult` out.
Nothing here reads files, talks to the network or writes output.
"""

from __future__ import annotations

from dataclasses import dataclass

from .blocks import SLICE, SPINE, Block, CommentScan, HeadRef, scan_comment
from .digest import spine_digest
from .frontmatter import SPINELESS_VARIANTS, plan_variants, spine_omitted
from .identity import marker_problem, plan_identity_problem, sibling_identity_problem
from .models import CURRENT, LookupRequest, LookupResult, Status
from .slices import slice_step_id
from .spine import Spine, SpineProblem, parse_spine
from .timestamps import parse_instant

_QUOTE_LIMIT = 120
_STEP_LIST_LIMIT = 20


@dataclass(frozen=True, slots=True)
class ScannedComments:
    """The scanned plan and, when present, sibling (SPEC 2.2: plan blocks come first).

    Attributes:
        plan: the plan comment, or the one pre-concatenated body when ``single_body``.
        sibling: the sibling comment, or ``None``.
        single_body: whether ``plan`` is one pre-concatenated body (CLI
            ``--comment-body-path``): then the stamp may be anywhere in it.
    """

    plan: CommentScan
    sibling: CommentScan | None = None
    single_body: bool = False

    def comments(self) -> list[tuple[str, CommentScan]]:
        """``[("plan", scan), ("sibling", scan)]``, the sibling only when present."""
        named = [("plan", self.plan)]
        if self.sibling is not None:
            named.append(("sibling", self.sibling))
        return named

    def searched(self) -> str:
        """How messages name everything searched: "the plan comment or its sibling", ..."""
        if self.sibling is not None:
            return "the plan comment or its sibling"
        return self.label("plan")

    def label(self, comment: str) -> str:
        """How messages name a comment: "the plan comment", "the sibling comment", "the body"."""
        if self.single_body:
            return "the body"
        return f"the {comment} comment"


def scan_bodies(
    plan: str, sibling: str | None = None, *, single_body: bool = False
) -> ScannedComments:
    """Scan the plan (and sibling) bodies (SPEC 2).

    Args:
        plan: the plan comment body, or one pre-concatenated body when ``single_body``.
        sibling: the sibling comment body, or ``None`` when no sibling was supplied.
        single_body: ``plan`` is one pre-concatenated body (``sibling`` must be ``None``).

    Returns:
        :class:`ScannedComments`. Never raises.
    """
    return ScannedComments(
        plan=scan_comment(plan),
        sibling=None if sibling is None else scan_comment(sibling),
        single_body=single_body,
    )


def _quote(text: str) -> str:
    text = text.strip()
    if len(text) > _QUOTE_LIMIT:
        text = text[: _QUOTE_LIMIT - 3] + "..."
    return text


def _line_text(scan: CommentScan, line: int) -> str:
    lines = scan.text.split("\n", line)
    return lines[line - 1] if line - 1 < len(lines) else ""


def missing_spine_message(comments: ScannedComments) -> str:
    """Say why the comments hold no spine (SPEC 5 check 1): a spineless variant,
    ``spine-omitted``, code examples only (SPEC 2.4), an empty body, or no block at all."""
    text = comments.plan.text
    variants = [value for _line, value in plan_variants(text) if value in SPINELESS_VARIANTS]
    if variants:
        return (
            f"no frame-spine block: the plan is a {variants[0]} variant "
            f"(plan-variant: {variants[0]}), which carries no spine by design"
        )
    if spine_omitted(text) is not None:
        return "no frame-spine block: the plan says spine-omitted: plan-too-small"
    examples = [head for _name, scan in comments.comments() for head in scan.examples]
    if any(head.name == SPINE for head in examples):
        return (
            "no frame-spine block outside code: the frame-spine heads found are code "
            "examples (in fenced or indented code blocks), not blocks"
        )
    if not text.strip() and (comments.sibling is None or not comments.sibling.text.strip()):
        return "no frame-spine block: the comment body is empty"
    return f"no frame-spine block in {comments.searched()}"


def _unterminated_message(comments: ScannedComments, head: HeadRef, comment: str) -> str:
    return (
        f"unterminated frame-spine block: the head at line {head.line} of "
        f"{comments.label(comment)} has no closing -->"
    )


def _invalid_spine_message(
    comments: ScannedComments, scan: CommentScan, comment: str, problem: SpineProblem
) -> str:
    if problem.line is None:
        return f"invalid frame-spine in {comments.label(comment)}: {problem.message}"
    quoted = _quote(_line_text(scan, problem.line))
    return (
        f"invalid frame-spine: line {problem.line} of {comments.label(comment)}: "
        f"{problem.message}: {quoted!r}"
    )


def _find_spine(comments: ScannedComments) -> tuple[Block, CommentScan, str] | LookupResult:
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
        return LookupResult(
            status=Status.INVALID_SPINE,
            message=f"{len(found)} frame-spine blocks ({where}); exactly one is allowed",
        )
    for comment, scan in comments.comments():
        for head in scan.unterminated:
            if head.name == SPINE:
                return LookupResult(
                    status=Status.INVALID_SPINE,
                    message=_unterminated_message(comments, head, comment),
                )
    return LookupResult(status=Status.MISSING_SPINE, message=missing_spine_message(comments))


def _identity(request: LookupRequest, comments: ScannedComments) -> LookupResult | None:
    number = request.issue_number
    plan_label = comments.label("plan")
    if comments.sibling is not None:
        if number is None:
            return LookupResult(
                status=Status.ERROR,
                message="a sibling comment was supplied without an issue number",
            )
        problem = sibling_identity_problem(comments.sibling, number)
        if problem is not None:
            if plan_identity_problem(comments.plan, number) is not None:
                problem += (
                    f"; the plan comment does not belong to issue #{number} either: check the "
                    "issue number"
                )
            return LookupResult(status=Status.SIBLING_IDENTITY_MISMATCH, message=problem)
    elif comments.single_body and number is not None:
        problem = marker_problem(comments.plan, "frame-slices", number, plan_label, required=False)
        if problem is not None:
            return LookupResult(status=Status.SIBLING_IDENTITY_MISMATCH, message=problem)
    if number is not None:
        problem = plan_identity_problem(comments.plan, number, plan_label)
        if problem is not None:
            return LookupResult(status=Status.PLAN_IDENTITY_MISMATCH, message=problem)
    return None


def _stamp_check(spine: Spine, digest: str, comments: ScannedComments) -> LookupResult | str | None:
    """Checks 5-6. Returns a result to report, the stamp (as written) when it passed, or
    ``None`` when the spine has no sibling pointer."""
    pointer = spine.slice_comment_id
    if pointer is None:
        return None

    def unstamped(message: str) -> LookupResult:
        return LookupResult(
            status=Status.SIBLING_UNSTAMPED,
            slice_comment_id=pointer,
            current_generated_at=spine.generated_at,
            spine_digest=digest,
            message=message,
        )

    holder = comments.plan if comments.single_body else comments.sibling
    if holder is None:
        return unstamped(
            f"no sibling comment was supplied, but the spine's slices live in sibling "
            f"comment {pointer}: pass its id (or body) and the issue number"
        )
    stamps = holder.marker_values("stamp")
    where = "the body" if comments.single_body else "the sibling comment"
    if not stamps:
        return unstamped(f"{where} carries no <!-- frame-slices-generated-at: ... --> stamp line")
    instants = [parse_instant(value) for value in stamps]
    for value, instant in zip(stamps, instants, strict=True):
        if instant is None:
            return unstamped(f"the stamp of {where} is not a timestamp: {_quote(value)!r}")
    if len(set(instants)) > 1:
        return unstamped(f"{where} carries {len(stamps)} stamps that name different instants")
    if instants[0] != spine.instant:
        return LookupResult(
            status=Status.STALE_SPINE,
            current_generated_at=spine.generated_at,
            sibling_generated_at=stamps[0],
            spine_digest=digest,
            message=(
                f"the sibling is stamped {stamps[0]}, but the spine's generated_at is "
                f"{spine.generated_at}: its slices were written for another spine; re-run "
                "the planner's persist step so plan and sibling match"
            ),
        )
    return stamps[0]


def _format_steps(steps: frozenset[str]) -> str:
    ordered = sorted(steps, key=lambda step: (len(step), step))
    shown = ", ".join(ordered[:_STEP_LIST_LIMIT])
    if len(ordered) > _STEP_LIST_LIMIT:
        shown += f", ... ({len(ordered)} in all)"
    return shown


@dataclass(frozen=True, slots=True)
class CurrentSpine:
    """The one valid spine of a plan (SPEC 5 checks 1-3 passed).

    Attributes:
        spine: the parsed spine; block: its block; comment: ``"plan"`` or ``"sibling"``;
        digest: its SPEC 7 digest (``sha256:<hex>``).
    """

    spine: Spine
    block: Block
    comment: str
    digest: str


def current_spine(comments: ScannedComments) -> CurrentSpine | LookupResult:
    """Find and parse the one spine (SPEC 5 checks 1-3).

    Returns:
        The :class:`CurrentSpine`, or a ``missing-spine`` / ``invalid-spine`` result whose
        message says why (no block, code examples only, a spineless variant, an
        unterminated head, several spines, or the first offending line). Never raises.
    """
    found = _find_spine(comments)
    if isinstance(found, LookupResult):
        return found
    block, scan, comment = found
    parsed = parse_spine(block.payload, block.payload_line)
    if parsed.spine is None:
        return LookupResult(
            status=Status.INVALID_SPINE,
            message=_invalid_spine_message(comments, scan, comment, parsed.problems[0]),
        )
    return CurrentSpine(parsed.spine, block, comment, spine_digest(block.payload))


def lookup_scanned(
    request: LookupRequest,
    comments: ScannedComments,
    *,
    plan_spine: CurrentSpine | None = None,
) -> LookupResult:
    """Run SPEC 6 steps 3-4 and SPEC 5 checks 1-9 on scanned comments.

    Args:
        request: validated dispatch inputs (see :func:`frame_spine.models.validate_lookup_inputs`).
        comments: the scanned plan and sibling (see :func:`scan_bodies`).
        plan_spine: the plan's own spine, when the caller has already found it with
            :func:`current_spine` on the plan alone; it is reused (not parsed again) when the
            sibling holds no spine head.

    Returns:
        The :class:`LookupResult`; the first check that hits wins. Never raises.
    """
    identity = _identity(request, comments)
    if identity is not None:
        return identity

    sibling = comments.sibling
    reusable = sibling is None or not (
        any(block.name == SPINE for block in sibling.blocks)
        or any(head.name == SPINE for head in sibling.unterminated)
    )
    current = plan_spine if plan_spine is not None and reusable else current_spine(comments)
    if isinstance(current, LookupResult):
        return current
    spine = current.spine
    digest = current.digest

    elided = False
    dispatched = request.generated_at
    if dispatched == CURRENT:
        dispatched = spine.generated_at
    elif parse_instant(dispatched) != spine.instant:
        if request.spine_digest == digest:
            elided = True
        else:
            return LookupResult(
                status=Status.STALE_SPINE,
                dispatched_generated_at=dispatched,
                current_generated_at=spine.generated_at,
                spine_digest=digest,
                message=(
                    f"the spine's generated_at is {spine.generated_at}, not the dispatched "
                    f"{dispatched}: the plan changed after this step was dispatched; "
                    "re-dispatch it from the current spine"
                ),
            )

    stamp = _stamp_check(spine, digest, comments)
    if isinstance(stamp, LookupResult):
        return stamp

    step = request.step_id
    if step not in spine.steps:
        return LookupResult(
            status=Status.MISSING_SLICE,
            step_id=step,
            current_generated_at=spine.generated_at,
            sibling_generated_at=stamp,
            spine_digest=digest,
            message=f"step {step} is not in the spine (its steps: {_format_steps(spine.steps)})",
        )
    matches = [
        candidate
        for _comment, scanned in comments.comments()
        for candidate in scanned.blocks
        if candidate.name == SLICE and slice_step_id(candidate.payload) == step
    ]
    if not matches:
        where = comments.searched()
        return LookupResult(
            status=Status.MISSING_SLICE,
            step_id=step,
            current_generated_at=spine.generated_at,
            sibling_generated_at=stamp,
            spine_digest=digest,
            message=f"step {step} is in the spine but no frame-slice block for it is in {where}",
        )
    if len(matches) > 1:
        return LookupResult(
            status=Status.DUPLICATE_SLICE_ID,
            step_id=step,
            count=len(matches),
            current_generated_at=spine.generated_at,
            sibling_generated_at=stamp,
            spine_digest=digest,
            message=f"{len(matches)} frame-slice blocks carry step {step}; exactly one is allowed",
        )
    return LookupResult(
        status=Status.OK,
        step_id=step,
        generated_at=dispatched,
        slice=matches[0].payload,
        spine_digest=digest,
        generated_at_elided=True if elided else None,
        current_generated_at=spine.generated_at,
        sibling_generated_at=stamp,
    )


def lookup(
    request: LookupRequest,
    plan: str,
    sibling: str | None = None,
    *,
    single_body: bool = False,
) -> LookupResult:
    """Look up one slice in comment bodies (SPEC 5, 6 steps 3-5).

    Args:
        request: validated dispatch inputs.
        plan: the plan comment body (raw: BOM and CRLF/CR are normalised here), or one
            pre-concatenated body when ``single_body``.
        sibling: the sibling comment body, or ``None``.
        single_body: see :class:`ScannedComments`.

    Returns:
        The :class:`LookupResult`. Never raises.
    """
    return lookup_scanned(request, scan_bodies(plan, sibling, single_body=single_body))
