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
from ...core.status import Failure
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
) -> tuple[FetchedComment, list[FetchedComment]] | ValidationResult:
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
            return ValidationResult.of_failure(page)
        for comment in page:
            seen = newest.get(comment.id)
            if seen is None or recency(comment) > seen[0]:
                plan = comment if _is_plan_of(comment, issue_number) else None
                newest[comment.id] = (recency(comment), plan)
    plans = [plan for _when, plan in newest.values() if plan is not None]
    if not plans:
        return result_of(
            [
                error(
                    Code.MISSING_SPINE,
                    f"no comment on issue #{issue_number} carries a "
                    f"<!-- plan-issue-{issue_number} --> line",
                )
            ]
        )
    newest_first = sorted(plans, key=recency, reverse=True)
    return newest_first[0], newest_first[1:]


@dataclass(frozen=True, slots=True)
class OnlineValidation:
    """The outcome of :func:`validate_online`: the result and the comments validated (for
    links in the job summary; ``None`` when not fetched)."""

    result: ValidationResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None


_Fetched = tuple[FetchedComment, FetchedComment | None, list[Finding]]


def _by_discovery(fetcher: CommentFetcher, issue_number: int) -> _Fetched | OnlineValidation:
    """The newest plan comment of the issue, and an ``older-plan-comments`` warning."""
    found = _discover(fetcher, issue_number)
    if isinstance(found, ValidationResult):
        return OnlineValidation(found)
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


def _by_id(target: ValidateTarget, fetcher: CommentFetcher) -> _Fetched | OnlineValidation:
    """The plan comment and, when an id was given, the sibling, fetched concurrently; a
    sibling that is not found is ``None`` (the validator reports ``sibling-missing``)."""
    assert target.plan_comment_id is not None
    wanted = [(target.plan_comment_id, "plan")]
    if target.slices_comment_id is not None:
        wanted.append((target.slices_comment_id, "sibling"))
    outcomes = fetcher.fetch_all(wanted)
    plan = outcomes[0]
    if isinstance(plan, Failure):
        return OnlineValidation(ValidationResult.of_failure(plan))
    sibling = not_found_as_none(outcomes[1]) if len(outcomes) > 1 else None
    if isinstance(sibling, Failure):
        return OnlineValidation(ValidationResult.of_failure(sibling), plan)
    return plan, sibling, []


def _pointed_sibling(
    fetcher: CommentFetcher, plan_scan: ScannedComments
) -> FetchedComment | Failure | None:
    """The sibling the plan's spine points at (``None`` when none, or not found)."""
    spine = current_spine(plan_scan)
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None
    return None if pointer is None else fetcher.fetch_if_exists(int(pointer), "sibling")


def validate_online(target: ValidateTarget, fetcher: CommentFetcher) -> OnlineValidation:
    """Fetch (or discover) a plan and its sibling, then validate them (SPEC 10).

    Requests: with a plan id, one GET (two, concurrent, with a sibling id), plus one for the
    spine's sibling when no sibling id was given; with only an issue number, the issue's
    comment listing (``per_page=100``, every page) plus the sibling's GET.

    Returns:
        :class:`OnlineValidation`; a fetch failure of the plan or the listing is the result's
        SPEC 6 status. A sibling that is not found (404/410) is the ``sibling-missing``
        finding. Never raises.
    """
    if target.plan_comment_id is None:
        assert target.issue_number is not None
        fetched = _by_discovery(fetcher, target.issue_number)
    else:
        fetched = _by_id(target, fetcher)
    if isinstance(fetched, OnlineValidation):
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
            return OnlineValidation(ValidationResult.of_failure(pointed), plan)
        sibling = pointed
    problem = sibling.issue_problem("sibling", number) if sibling is not None else None
    if problem is not None:
        extra.append(error(Code.SIBLING_IDENTITY_MISMATCH, problem, comment="sibling"))
    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    result = validate_scanned(
        comments, issue_number=number, sibling_id=target.slices_comment_id, extra=extra
    )
    return OnlineValidation(result, plan, sibling)
