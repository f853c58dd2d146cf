"""Validate mode against the GitHub REST API (SPEC 10): find, fetch, then validate.

An edge: it fetches the plan (by id, or discovered as the newest ``plan-issue-N`` comment on
issue ``N``) and its sibling (the given id, else the spine's ``slice_comment_id``), turns
``issue_url`` disagreements and older plan comments into findings, and hands the bodies to
the pure :func:`frame_spine.validate.validate_scanned`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .blocks import scan_comment
from .comments import FetchedComment, recency
from .github_api import CommentFetcher, FetchFailure
from .lookup import CurrentSpine, ScannedComments, current_spine
from .models import LookupResult, Status
from .online_inputs import ValidateTarget
from .validate import Finding, ValidationResult, error, validate_scanned, warning


def failed_result(failure: FetchFailure | LookupResult) -> ValidationResult:
    """A fetch failure (or a refused input) as validate mode's result: its status and why."""
    return ValidationResult(status=failure.status.value, message=failure.message)


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
        if isinstance(page, FetchFailure):
            return failed_result(page)
        for comment in page:
            seen = newest.get(comment.id)
            if seen is None or recency(comment) > seen[0]:
                plan = comment if _is_plan_of(comment, issue_number) else None
                newest[comment.id] = (recency(comment), plan)
    plans = [plan for _when, plan in newest.values() if plan is not None]
    if not plans:
        return ValidationResult(
            status="invalid",
            errors=1,
            findings=(
                error(
                    "missing-spine",
                    f"no comment on issue #{issue_number} carries a "
                    f"<!-- plan-issue-{issue_number} --> line",
                ),
            ),
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
    extra: list[Finding] = []
    sibling: FetchedComment | None = None
    if target.plan_comment_id is None:
        assert target.issue_number is not None
        found = _discover(fetcher, target.issue_number)
        if isinstance(found, ValidationResult):
            return OnlineValidation(found)
        plan, older = found
        if older:
            ids = ", ".join(str(comment.id) for comment in older)
            extra.append(
                warning(
                    "older-plan-comments",
                    f"issue #{target.issue_number} also has {len(older)} older plan "
                    f"comment(s) ({ids}); validated the newest, {plan.id}",
                    comment="plan",
                )
            )
    else:
        wanted = [(target.plan_comment_id, "plan")]
        if target.slices_comment_id is not None:
            wanted.append((target.slices_comment_id, "sibling"))
        outcomes = fetcher.fetch_all(wanted)
        if isinstance(outcomes[0], FetchFailure):
            return OnlineValidation(failed_result(outcomes[0]))
        plan = outcomes[0]
        if len(outcomes) > 1:
            fetched = outcomes[1]
            if isinstance(fetched, FetchFailure):
                if fetched.status is not Status.COMMENT_NOT_FOUND:
                    return OnlineValidation(failed_result(fetched), plan)
                # Not found: the validator reports sibling-missing.
            else:
                sibling = fetched

    number = target.issue_number if target.issue_number is not None else plan.issue_number
    if target.issue_number is not None and plan.issue_number != target.issue_number:
        extra.append(
            error(
                "plan-identity-mismatch",
                f"plan comment {plan.id} belongs to issue #{plan.issue_number} (its issue_url), "
                f"not to issue #{target.issue_number}",
                comment="plan",
            )
        )

    plan_scan = scan_comment(plan.body)
    if target.slices_comment_id is None:
        spine = current_spine(ScannedComments(plan_scan))
        pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None
        if pointer is not None:
            fetched = fetcher.fetch(int(pointer), "sibling")
            if isinstance(fetched, FetchFailure):
                if fetched.status is not Status.COMMENT_NOT_FOUND:
                    return OnlineValidation(failed_result(fetched), plan)
            else:
                sibling = fetched

    if sibling is not None and number is not None and sibling.issue_number != number:
        extra.append(
            error(
                "sibling-identity-mismatch",
                f"sibling comment {sibling.id} belongs to issue #{sibling.issue_number} (its "
                f"issue_url), not to issue #{number}",
                comment="sibling",
            )
        )
    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    result = validate_scanned(
        comments, issue_number=number, sibling_id=target.slices_comment_id, extra=extra
    )
    return OnlineValidation(result, plan, sibling)
