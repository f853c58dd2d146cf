"""Validate against GitHub (SPEC 10): find, fetch, then validate.

An edge: it fetches the plan (by id, or discovered as the newest ``plan-issue-N`` comment on
issue ``N``) and its sibling (the given id, else the spine's ``slice_comment_id``), turns
``issue_url`` disagreements and older plan comments into findings, and hands the bodies to
the pure :func:`.rules.validate_scanned`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ...core.blocks import scan_comment
from ...core.plan import CurrentSpine, ScannedComments, current_spine
from ...core.status import Failure, Status
from ...github.client import CommentFetcher, not_found_as_none
from ...github.payloads import FetchedComment, recency
from .models import Code, Finding, ValidateTarget, ValidationResult, error, result_of, warning
from .rules import validate_scanned


def _is_plan_of(comment: FetchedComment, issue_number: int) -> bool:
    if "plan-issue-" not in comment.body:
        return False
    return str(issue_number) in scan_comment(comment.body).marker_values("plan-issue")


def _discover(
    fetcher: CommentFetcher, issue_number: int
) -> tuple[FetchedComment, list[FetchedComment]] | NotFetched:
    """The newest plan comment of the issue (by ``updated_at``, then id) and the older ones.

    The listing is offset-paginated over live data, so a comment edited during the listing
    can come twice: each comment id counts once, in its newest version.
    """
    repository = fetcher.repository
    newest: dict[int, tuple[tuple[datetime, int], FetchedComment | None]] = {}
    for page in fetcher.pages(
        f"issues/{issue_number}/comments",
        f"the comments of issue #{issue_number} in {repository}",
        issue_number=issue_number,
    ):
        if isinstance(page, Failure):
            return NotFetched(page)
        for comment in page:
            seen = newest.get(comment.id)
            if seen is None or recency(comment) > seen[0]:
                plan = comment if _is_plan_of(comment, issue_number) else None
                newest[comment.id] = (recency(comment), plan)
    plans = [plan for _when, plan in newest.values() if plan is not None]
    if not plans:
        return NotFetched(
            Failure(
                Status.COMMENT_NOT_FOUND,
                f"no comment on issue #{issue_number} carries a "
                f"<!-- plan-issue-{issue_number} --> line",
            ),
            no_plan=True,
        )
    newest_first = sorted(plans, key=recency, reverse=True)
    return newest_first[0], newest_first[1:]


@dataclass(frozen=True, slots=True)
class NotFetched:
    """Why there is no plan to look at: a failed fetch or listing, or (``no_plan``) an issue
    without any plan comment; ``plan`` when the plan was fetched but its sibling failed."""

    failure: Failure
    plan: FetchedComment | None = None
    no_plan: bool = False


@dataclass(frozen=True, slots=True)
class FetchedPlan:
    """A plan and its sibling as fetched for validate and render (SPEC 10, 13).

    Attributes:
        plan: the plan comment. sibling: the sibling read, or ``None``.
        comments: both, scanned.
        issue_number: the given issue number, else the plan's own (from its ``issue_url``).
        sibling_id: the sibling id given (checked against the spine's pointer), or ``None``.
        extra: findings of the fetching (``issue_url`` mismatches, older plan comments).
    """

    plan: FetchedComment
    sibling: FetchedComment | None
    comments: ScannedComments
    issue_number: int | None
    sibling_id: int | None
    extra: tuple[Finding, ...]


@dataclass(frozen=True, slots=True)
class OnlineValidation:
    """The outcome of :func:`validate_online`: the result and the comments validated (for
    links in the job summary; ``None`` when not fetched), and what was fetched (``None`` when
    fetching failed), for the dispatch matrix."""

    result: ValidationResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None
    fetched: FetchedPlan | None = None


_Fetched = tuple[FetchedComment, FetchedComment | None, list[Finding]]


def _by_discovery(fetcher: CommentFetcher, issue_number: int) -> _Fetched | NotFetched:
    """The newest plan comment of the issue, and an ``older-plan-comments`` warning."""
    found = _discover(fetcher, issue_number)
    if isinstance(found, NotFetched):
        return found
    plan, older = found
    extra: list[Finding] = []
    if older:
        ids = ", ".join(str(comment.id) for comment in older)
        extra.append(
            warning(
                Code.OLDER_PLAN_COMMENTS,
                f"issue #{issue_number} also has {len(older)} older plan "
                f"comment(s) ({ids}); validated the newest, {plan.id}",
                comment="plan",
            )
        )
    return plan, None, extra


def _by_id(target: ValidateTarget, fetcher: CommentFetcher) -> _Fetched | NotFetched:
    """The plan comment and, when an id was given, the sibling, fetched concurrently; a
    sibling that is not found is ``None`` (the validator reports ``sibling-missing``)."""
    assert target.plan_comment_id is not None
    wanted = [(target.plan_comment_id, "plan")]
    if target.slices_comment_id is not None:
        wanted.append((target.slices_comment_id, "sibling"))
    outcomes = fetcher.fetch_all(wanted)
    plan = outcomes[0]
    if isinstance(plan, Failure):
        return NotFetched(plan)
    sibling = not_found_as_none(outcomes[1]) if len(outcomes) > 1 else None
    if isinstance(sibling, Failure):
        return NotFetched(sibling, plan)
    return plan, sibling, []


def _pointed_sibling(
    fetcher: CommentFetcher, plan_scan: ScannedComments
) -> FetchedComment | Failure | None:
    """The sibling the plan's spine points at (``None`` when none, or not found)."""
    spine = current_spine(plan_scan)
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None
    return None if pointer is None else fetcher.fetch_if_exists(int(pointer), "sibling")


def fetch_plan(target: ValidateTarget, fetcher: CommentFetcher) -> FetchedPlan | NotFetched:
    """Fetch (or discover) a plan and its sibling (SPEC 10, 13): the part of validate that
    render mode shares.

    Requests: with a plan id, one GET (two, concurrent, with a sibling id), plus one for the
    spine's sibling when no sibling id was given; with only an issue number, the issue's
    comment listing (``per_page=100``, every page) plus the sibling's GET.

    Returns:
        :class:`FetchedPlan`, with the ``issue_url`` disagreements and older plan comments as
        findings; or :class:`NotFetched` for a fetch failure of the plan, the listing or the
        sibling (a sibling that is not found, 404/410, is ``None`` instead: validate reports
        ``sibling-missing``), or an issue without a plan comment. Never raises.
    """
    if target.plan_comment_id is None:
        assert target.issue_number is not None
        fetched = _by_discovery(fetcher, target.issue_number)
    else:
        fetched = _by_id(target, fetcher)
    if isinstance(fetched, NotFetched):
        return fetched
    plan, sibling, extra = fetched
    number = target.issue_number if target.issue_number is not None else plan.issue_number
    problem = plan.issue_problem("plan", target.issue_number)
    if problem is not None:
        extra.append(error(Code.PLAN_IDENTITY_MISMATCH, problem, comment="plan"))
    plan_scan = scan_comment(plan.body)
    if target.slices_comment_id is None:
        pointed = _pointed_sibling(fetcher, ScannedComments(plan_scan))
        if isinstance(pointed, Failure):
            return NotFetched(pointed, plan)
        sibling = pointed
    problem = sibling.issue_problem("sibling", number) if sibling is not None else None
    if problem is not None:
        extra.append(error(Code.SIBLING_IDENTITY_MISMATCH, problem, comment="sibling"))
    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    return FetchedPlan(plan, sibling, comments, number, target.slices_comment_id, tuple(extra))


def validate_online(target: ValidateTarget, fetcher: CommentFetcher) -> OnlineValidation:
    """Fetch (or discover) a plan and its sibling (:func:`fetch_plan`), then validate them
    (SPEC 10).

    Returns:
        :class:`OnlineValidation`; a fetch failure of the plan or the listing is the result's
        SPEC 6 status; an issue without a plan comment is the ``missing-spine`` finding. A
        sibling that is not found (404/410) is the ``sibling-missing`` finding. Never raises.
    """
    fetched = fetch_plan(target, fetcher)
    if isinstance(fetched, NotFetched):
        if fetched.no_plan:
            return OnlineValidation(result_of([error(Code.MISSING_SPINE, fetched.failure.message)]))
        return OnlineValidation(ValidationResult.of_failure(fetched.failure), fetched.plan)
    result = validate_scanned(
        fetched.comments,
        issue_number=fetched.issue_number,
        sibling_id=fetched.sibling_id,
        extra=fetched.extra,
    )
    return OnlineValidation(result, fetched.plan, fetched.sibling, fetched)
