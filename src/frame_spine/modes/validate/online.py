"""Validate against GitHub (SPEC 10, 6.1): :func:`~frame_spine.plan_fetch.fetch_plan`, then
the pure rules."""

from __future__ import annotations

from dataclasses import dataclass

from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from ...plan_fetch import FetchedPlan, NotFetched, fetch_plan, validate_fetched, walk_findings
from ...validation.models import Code, ValidateTarget, ValidationResult, error, result_of


@dataclass(frozen=True, slots=True)
class OnlineValidation:
    """The outcome of :func:`validate_online`: the result, the comments validated (for links)
    and what was fetched (for the dispatch matrix; ``None`` when fetching failed)."""

    result: ValidationResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None
    fetched: FetchedPlan | None = None


def validate_online(target: ValidateTarget, fetcher: CommentFetcher) -> OnlineValidation:
    """Fetch (or discover) a plan and its sibling, then validate them (SPEC 10, 6.1)."""
    fetched = fetch_plan(target, fetcher)
    if isinstance(fetched, NotFetched):
        if fetched.no_plan and fetched.walked is not None:
            assert target.issue_number is not None
            findings = [error(Code.MISSING_SPINE, fetched.failure.message)]
            findings += walk_findings(
                fetched.walked, target.issue_number, target.trusted_authors.shown
            )
            return OnlineValidation(result_of(findings))
        result = ValidationResult.of_failure(fetched.failure).model_copy(update=fetched.keys())
        return OnlineValidation(result, fetched.plan)
    result = validate_fetched(fetched)
    sibling = fetched.sibling or fetched.withheld
    return OnlineValidation(result, fetched.plan, sibling, fetched)
