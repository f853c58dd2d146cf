"""Lookup against GitHub (SPEC 6, 6.1): fetch, the identity checks, then the lookup decision.
The only I/O is through the :class:`~frame_spine.github.client.CommentFetcher` given."""

from __future__ import annotations

from ...core.blocks import scan_comment
from ...core.identity import pointer_problem
from ...core.plan import CurrentSpine, ScannedComments, current_spine
from ...core.status import Failure, Status
from ...github.authors import AuthorCheck, untrusted_edits
from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from ...inputs import AUTO
from .. import Online
from .models import LookupRequest, LookupResult, OnlineTarget
from .rules import identity_problem, lookup_scanned


def _plan_mismatch(message: str, **known: str | None) -> LookupResult:
    """A ``plan-identity-mismatch`` result (``known``: who is not trusted, SPEC 6.1)."""
    return LookupResult(status=Status.PLAN_IDENTITY_MISMATCH, message=message, **known)


def _sibling_mismatch(
    message: str, spine: CurrentSpine | Failure, **known: str | None
) -> LookupResult:
    """A ``sibling-identity-mismatch`` result, with the plan's spine values when known."""
    if isinstance(spine, CurrentSpine):
        known |= {"spine_digest": spine.digest, "current_generated_at": spine.spine.generated_at}
    return LookupResult(status=Status.SIBLING_IDENTITY_MISMATCH, message=message, **known)


def lookup_online(
    target: OnlineTarget, request: LookupRequest, fetcher: CommentFetcher
) -> Online[LookupResult]:
    """Fetch the plan (and sibling), check identities in SPEC 6.1's order (an untrusted plan
    is read no further), and look up the step (SPEC 6)."""
    explicit = target.slices_comment_id if isinstance(target.slices_comment_id, int) else None
    wanted = [(target.plan_comment_id, "plan")]
    if explicit is not None:
        wanted.append((explicit, "sibling"))
    plan, *rest = fetcher.fetch_all(wanted)
    if isinstance(plan, Failure):
        return Online(LookupResult.of_failure(plan))
    sibling: FetchedComment | Failure | None = rest[0] if rest else None
    if isinstance(sibling, Failure):
        return Online(LookupResult.of_failure(sibling), plan)
    problem = plan.issue_problem("plan", request.issue_number) or plan.hidden_problem
    if problem is not None:
        return Online(_plan_mismatch(problem), plan)
    authors = AuthorCheck(target.trusted_authors, fetcher)
    untrusted = authors.untrusted(plan)
    if isinstance(untrusted, Failure):
        return Online(LookupResult.of_failure(untrusted), plan)
    if untrusted is not None:
        return Online(_plan_mismatch(untrusted.message, **untrusted.keys()), plan, sibling)

    plan_scan = scan_comment(plan.body)
    spine = current_spine(ScannedComments(plan_scan))
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None
    if target.slices_comment_id == AUTO and pointer is not None:
        sibling = fetcher.fetch(int(pointer), "sibling")
        if isinstance(sibling, Failure):
            return Online(LookupResult.of_failure(sibling), plan)

    stopped = _sibling_problem(request, authors, sibling, spine, explicit)
    if stopped is not None:
        return Online(stopped, plan, sibling)
    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    stopped = identity_problem(request, comments) or _edits_problem(authors, plan, sibling, spine)
    if stopped is None:
        known = spine if isinstance(spine, CurrentSpine) else None
        stopped = lookup_scanned(request, comments, plan_spine=known)
    return Online(stopped, plan, sibling)


def _sibling_problem(
    request: LookupRequest,
    authors: AuthorCheck,
    sibling: FetchedComment | None,
    spine: CurrentSpine | Failure,
    given: int | None,
) -> LookupResult | None:
    """The sibling's ``issue_url``, hidden state and author, then the spine's pointer (SPEC 6.1)."""
    if sibling is not None:
        problem = sibling.issue_problem("sibling", request.issue_number) or sibling.hidden_problem
        if problem is not None:
            return _sibling_mismatch(problem, spine)
        untrusted = authors.untrusted(sibling)
        if isinstance(untrusted, Failure):
            return LookupResult.of_failure(untrusted)
        if untrusted is not None:
            return _sibling_mismatch(untrusted.message, spine, **untrusted.keys())
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None
    problem = pointer_problem(given, pointer)
    return None if problem is None else _sibling_mismatch(problem, spine)


def _edits_problem(
    authors: AuthorCheck,
    plan: FetchedComment,
    sibling: FetchedComment | None,
    spine: CurrentSpine | Failure,
) -> LookupResult | None:
    """Whether someone no term trusts edited the plan or the sibling (SPEC 6.1)."""
    edits = untrusted_edits(authors, (plan, sibling))
    if isinstance(edits, Failure):
        return LookupResult.of_failure(edits)
    if plan.id in edits:
        found = edits[plan.id]
        return _plan_mismatch(found.message, editor=found.editor)
    if sibling is not None and sibling.id in edits:
        found = edits[sibling.id]
        return _sibling_mismatch(found.message, spine, editor=found.editor)
    return None
