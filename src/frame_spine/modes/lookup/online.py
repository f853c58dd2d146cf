"""Lookup against GitHub (SPEC 6): fetch -> identity checks -> the lookup decision.

An edge, shared by ``frame-spine lookup --repo`` and the action. The only I/O is through the
:class:`~frame_spine.github.client.CommentFetcher` it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.blocks import scan_comment
from ...core.plan import CurrentSpine, ScannedComments, current_spine
from ...core.status import Failure, Status
from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from ...inputs import AUTO
from .models import LookupRequest, LookupResult, OnlineTarget
from .rules import lookup_scanned


@dataclass(frozen=True, slots=True)
class OnlineLookup:
    """The outcome of :func:`lookup_online`.

    Attributes:
        result: the lookup result (a SPEC 5 or SPEC 6 status).
        plan, sibling: the comments fetched (``None`` when not fetched or when fetching
            failed), for links in the job summary.
    """

    result: LookupResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None


def _sibling_mismatch(message: str, spine: CurrentSpine | Failure) -> LookupResult:
    """A ``sibling-identity-mismatch`` result, carrying the plan's spine values when known."""
    if isinstance(spine, CurrentSpine):
        return LookupResult(
            status=Status.SIBLING_IDENTITY_MISMATCH,
            message=message,
            spine_digest=spine.digest,
            current_generated_at=spine.spine.generated_at,
        )
    return LookupResult(status=Status.SIBLING_IDENTITY_MISMATCH, message=message)


def lookup_online(
    target: OnlineTarget, request: LookupRequest, fetcher: CommentFetcher
) -> OnlineLookup:
    """Fetch the plan (and sibling), check identities, and look up the step (SPEC 6).

    Args:
        target: where to fetch (see :func:`.models.parse_online_inputs`).
        request: the validated dispatch inputs.
        fetcher: the :class:`CommentFetcher` for ``target.repository``.

    Returns:
        :class:`OnlineLookup`. Requests: one GET without a sibling; two, issued concurrently,
        with a sibling id; with ``auto``, a second GET after the plan only when its spine
        points at a sibling. Never raises.
    """
    explicit = target.slices_comment_id if isinstance(target.slices_comment_id, int) else None
    wanted = [(target.plan_comment_id, "plan")]
    if explicit is not None:
        wanted.append((explicit, "sibling"))
    outcomes = fetcher.fetch_all(wanted)
    plan = outcomes[0]
    if isinstance(plan, Failure):
        return OnlineLookup(LookupResult.of_failure(plan))
    sibling: FetchedComment | Failure | None = outcomes[1] if explicit is not None else None
    if isinstance(sibling, Failure):
        return OnlineLookup(LookupResult.of_failure(sibling), plan)

    number = request.issue_number
    problem = plan.issue_problem("plan", number)
    if problem is not None:
        return OnlineLookup(
            LookupResult(status=Status.PLAN_IDENTITY_MISMATCH, message=problem), plan
        )

    plan_scan = scan_comment(plan.body)
    spine = current_spine(ScannedComments(plan_scan))
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None

    if target.slices_comment_id == AUTO and pointer is not None:
        fetched = fetcher.fetch(int(pointer), "sibling")
        if isinstance(fetched, Failure):
            return OnlineLookup(LookupResult.of_failure(fetched), plan)
        sibling = fetched

    problem = sibling.issue_problem("sibling", number) if sibling is not None else None
    if problem is not None:
        return OnlineLookup(_sibling_mismatch(problem, spine), plan, sibling)
    if explicit is not None and pointer is not None and pointer != str(explicit):
        problem = (
            f"sibling comment {explicit} was dispatched, but the plan's spine points at "
            f"sibling comment {pointer} (slice_comment_id)"
        )
        return OnlineLookup(_sibling_mismatch(problem, spine), plan, sibling)

    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    known = spine if isinstance(spine, CurrentSpine) else None
    return OnlineLookup(lookup_scanned(request, comments, plan_spine=known), plan, sibling)
