"""The lookup decision (SPEC 5 checks 1-9, with SPEC 6 steps 3-4): the first check that hits
wins."""

from __future__ import annotations

from ...core.blocks import SLICE, Block
from ...core.identity import marker_problem
from ...core.plan import CurrentSpine, ScannedComments, current_spine, scan_bodies
from ...core.shown import cut, knob
from ...core.slices import slice_step_id
from ...core.spine_model import Spine
from ...core.stamps import StampKind, read_stamp, verdict_message
from ...core.status import Failure, Status
from ...core.timestamps import parse_instant
from ...inputs import CURRENT
from .models import LookupRequest, LookupResult, sibling_without_issue

_STEP_LIST_LIMIT = 20


def identity_problem(request: LookupRequest, comments: ScannedComments) -> LookupResult | None:
    """SPEC 6 steps 3-4 on the bodies: the sibling's and the plan's marker lines."""
    number = request.issue_number
    plan_label = comments.label("plan")
    if comments.sibling is not None:
        if number is None:
            return LookupResult.of_failure(sibling_without_issue())
        problem = marker_problem(comments.sibling, "frame-slices", number)
        if problem is not None:
            if marker_problem(comments.plan, "plan-issue", number) is not None:
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
        problem = marker_problem(comments.plan, "plan-issue", number, plan_label)
        if problem is not None:
            return LookupResult(status=Status.PLAN_IDENTITY_MISMATCH, message=problem)
    return None


def _stamp_check(spine: Spine, digest: str, comments: ScannedComments) -> LookupResult | str | None:
    """Checks 5-6: a result to report, the stamp (as written) when it passed, or ``None``
    when the spine has no sibling pointer."""
    pointer = spine.slice_comment_id
    if pointer is None:
        return None
    known = {"current_generated_at": spine.generated_at, "spine_digest": digest}
    holder = comments.plan if comments.single_body else comments.sibling
    if holder is None:
        sibling, issue = knob("slices-comment-id"), knob("issue-number")
        cli = sibling.startswith("--")
        setting = f"{sibling} {pointer}" if cli else f"{sibling}: {pointer}"
        local = " (local bodies: --slices-body)" if cli else ""
        message = (
            f"no sibling comment was supplied, but the spine's slices live in sibling comment "
            f"{pointer}: set {setting} (or auto) and {issue}{local}"
        )
    else:
        verdict = read_stamp(spine, holder)
        value = verdict.stamp.value if verdict.stamp is not None else ""
        if verdict.kind is StampKind.FRESH:
            return value
        where = "the body" if comments.single_body else "the sibling comment"
        message = verdict_message(verdict, holder, where, spine)
        if verdict.kind is StampKind.STALE:
            known["sibling_generated_at"] = value
            return LookupResult(status=Status.STALE_SPINE, message=message, **known)
    known["slice_comment_id"] = pointer
    return LookupResult(status=Status.SIBLING_UNSTAMPED, message=message, **known)


def _format_steps(steps: frozenset[str]) -> str:
    ordered = sorted(steps, key=lambda step: (len(step), step))
    shown = ", ".join(ordered[:_STEP_LIST_LIMIT])
    return shown + (f", ... ({len(ordered)} in all)" if len(ordered) > _STEP_LIST_LIMIT else "")


def _freshness(request: LookupRequest, current: CurrentSpine) -> tuple[str, bool] | LookupResult:
    """Check 4 (SPEC 7's elision included): the dispatched value (the spine's own for
    ``current``) and whether the digest saved it, or the ``stale-spine`` result."""
    spine = current.spine
    dispatched = request.generated_at
    if dispatched == CURRENT:
        return spine.generated_at, False
    if parse_instant(dispatched) == spine.instant:
        return dispatched, False
    if request.spine_digest == current.digest:
        return dispatched, True
    return LookupResult(
        status=Status.STALE_SPINE,
        dispatched_generated_at=dispatched,
        current_generated_at=spine.generated_at,
        spine_digest=current.digest,
        message=(
            f"the spine's generated_at is {spine.generated_at}, not the dispatched "
            f"{dispatched}: the plan changed after this step was dispatched; "
            "re-dispatch it from the current spine"
        ),
    )


def _the_slice(
    step: str, comments: ScannedComments, current: CurrentSpine, stamp: str | None
) -> Block | LookupResult:
    """Checks 7-8: the one slice block of a step in the spine."""
    spine = current.spine

    def failed(status: Status, message: str, count: int | None = None) -> LookupResult:
        return LookupResult(
            status=status,
            step_id=step,
            count=count,
            current_generated_at=spine.generated_at,
            sibling_generated_at=stamp,
            spine_digest=current.digest,
            message=message,
        )

    if step not in spine.steps:
        message = f"step {cut(step)} is not in the spine (its steps: {_format_steps(spine.steps)})"
        return failed(Status.MISSING_SLICE, message)
    matches = [
        candidate
        for _comment, scanned in comments.comments()
        for candidate in scanned.blocks
        if candidate.name == SLICE and slice_step_id(candidate.payload) == step
    ]
    if not matches:
        return failed(
            Status.MISSING_SLICE,
            f"step {cut(step)} is in the spine but no frame-slice block for it is in "
            f"{comments.searched()}",
        )
    if len(matches) > 1:
        count = len(matches)
        message = f"{count} frame-slice blocks carry step {cut(step)}; exactly one is allowed"
        return failed(Status.DUPLICATE_SLICE_ID, message, count)
    return matches[0]


def lookup_scanned(
    request: LookupRequest, comments: ScannedComments, *, plan_spine: CurrentSpine | None = None
) -> LookupResult:
    """SPEC 6 steps 3-4 and SPEC 5 checks 1-9 on scanned comments; ``plan_spine``: the plan's
    own spine, when the caller found it, reused when the sibling holds no spine head."""
    identity = identity_problem(request, comments)
    if identity is not None:
        return identity
    sibling = comments.sibling
    reusable = sibling is None or not sibling.holds_spine_head()
    current = plan_spine if plan_spine is not None and reusable else current_spine(comments)
    if isinstance(current, Failure):
        return LookupResult.of_failure(current)
    fresh = _freshness(request, current)
    if isinstance(fresh, LookupResult):
        return fresh
    dispatched, elided = fresh
    stamp = _stamp_check(current.spine, current.digest, comments)
    if isinstance(stamp, LookupResult):
        return stamp
    found = _the_slice(request.step_id, comments, current, stamp)
    if isinstance(found, LookupResult):
        return found
    return LookupResult(
        status=Status.OK,
        step_id=request.step_id,
        generated_at=dispatched,
        slice=found.payload,
        spine_digest=current.digest,
        generated_at_elided=True if elided else None,
        current_generated_at=current.spine.generated_at,
        sibling_generated_at=stamp,
    )


def lookup(
    request: LookupRequest, plan: str, sibling: str | None = None, *, single_body: bool = False
) -> LookupResult:
    """Look up one slice in raw comment bodies (SPEC 5, 6 steps 3-5)."""
    return lookup_scanned(request, scan_bodies(plan, sibling, single_body=single_body))
