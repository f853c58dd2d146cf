"""Lookup against GitHub (SPEC 6, 6.1): fetch -> identity checks (``issue_url``, the author,
the pointer, the marker lines) -> the lookup decision.

An edge, shared by ``frame-spine lookup --repo`` and the action. The only I/O is through the
:class:`~frame_spine.github.client.CommentFetcher` it is given (comments, and the
permission requests of the trust policy's ``write`` term).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.blocks import scan_comment
from ...core.identity import pointer_problem
from ...core.plan import CurrentSpine, ScannedComments, current_spine
from ...core.status import Failure, Status
from ...github.authors import AuthorCheck, Untrusted, untrusted_edits
from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from ...inputs import AUTO
from .models import LookupRequest, LookupResult, OnlineTarget
from .rules import identity_problem, lookup_scanned


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


def _sibling_mismatch(
    message: str, spine: CurrentSpine | Failure, untrusted: Untrusted | None = None
) -> LookupResult:
    """A ``sibling-identity-mismatch`` result, carrying the plan's spine values when known
    (and the sibling's author when it is not trusted)."""
    known = (
        {"spine_digest": spine.digest, "current_generated_at": spine.spine.generated_at}
        if isinstance(spine, CurrentSpine)
        else {}
    )
    return LookupResult(
        status=Status.SIBLING_IDENTITY_MISMATCH,
        message=message,
        **(untrusted.keys() if untrusted is not None else {}),
        **known,
    )


def lookup_online(
    target: OnlineTarget, request: LookupRequest, fetcher: CommentFetcher
) -> OnlineLookup:
    """Fetch the plan (and sibling), check identities, and look up the step (SPEC 6).

    Args:
        target: where to fetch (see :func:`.models.parse_online_inputs`).
        request: the validated dispatch inputs.
        fetcher: the :class:`CommentFetcher` for ``target.repository``.

    Order (SPEC 6.1), the first that fails decides: each answer is the comment asked for;
    the plan's ``issue_url``, then its author (``plan-identity-mismatch``: an untrusted
    plan is never read further, so an ``auto`` sibling is not fetched); the sibling's
    ``issue_url``, then its author, then the spine's pointer (``sibling-identity-mismatch``);
    then the marker lines and the blocks (:func:`.rules.lookup_scanned`).

    Returns:
        :class:`OnlineLookup`. Requests: one GET without a sibling; two, issued concurrently,
        with a sibling id; with ``auto``, a second GET after the plan only when its spine
        points at a sibling; plus, only when the policy's ``write`` term must decide, one
        permission GET per distinct author (plan and sibling by one author: one). Never
        raises.
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
    problem = plan.issue_problem("plan", number) or plan.hidden_problem
    if problem is not None:
        return OnlineLookup(
            LookupResult(status=Status.PLAN_IDENTITY_MISMATCH, message=problem), plan
        )
    authors = AuthorCheck(target.trusted_authors, fetcher)
    untrusted = authors.untrusted(plan)
    if isinstance(untrusted, Failure):
        return OnlineLookup(LookupResult.of_failure(untrusted), plan)
    if untrusted is not None:
        refused = LookupResult(
            status=Status.PLAN_IDENTITY_MISMATCH,
            message=untrusted.message,
            **untrusted.keys(),
        )
        return OnlineLookup(refused, plan, sibling)

    plan_scan = scan_comment(plan.body)
    spine = current_spine(ScannedComments(plan_scan))
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None

    if target.slices_comment_id == AUTO and pointer is not None:
        fetched = fetcher.fetch(int(pointer), "sibling")
        if isinstance(fetched, Failure):
            return OnlineLookup(LookupResult.of_failure(fetched), plan)
        sibling = fetched

    problem = None
    if sibling is not None:
        problem = sibling.issue_problem("sibling", number) or sibling.hidden_problem
    if problem is not None:
        return OnlineLookup(_sibling_mismatch(problem, spine), plan, sibling)
    if sibling is not None:
        untrusted = authors.untrusted(sibling)
        if isinstance(untrusted, Failure):
            return OnlineLookup(LookupResult.of_failure(untrusted), plan, sibling)
        if untrusted is not None:
            mismatch = _sibling_mismatch(untrusted.message, spine, untrusted)
            return OnlineLookup(mismatch, plan, sibling)
    problem = pointer_problem(explicit, pointer)
    if problem is not None:
        return OnlineLookup(_sibling_mismatch(problem, spine), plan, sibling)

    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    stopped = identity_problem(request, comments) or _edits_problem(authors, plan, sibling, spine)
    if stopped is not None:
        return OnlineLookup(stopped, plan, sibling)
    known = spine if isinstance(spine, CurrentSpine) else None
    return OnlineLookup(lookup_scanned(request, comments, plan_spine=known), plan, sibling)


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
        return LookupResult(
            status=Status.PLAN_IDENTITY_MISMATCH, message=found.message, editor=found.editor
        )
    if sibling is not None and sibling.id in edits:
        found = edits[sibling.id]
        return _sibling_mismatch(found.message, spine).model_copy(update={"editor": found.editor})
    return None
