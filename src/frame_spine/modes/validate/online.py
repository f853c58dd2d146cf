"""Validate against GitHub (SPEC 10, 6.1): :func:`~frame_spine.plan_fetch.fetch_plan`, then
the pure rules and the dispatch matrix."""

from __future__ import annotations

from collections.abc import Collection

from ...github.client import CommentFetcher
from ...plan_fetch import NotFetched, fetch_plan, validate_fetched, walk_findings
from ...validation.dispatch import DispatchIds
from ...validation.models import (
    Code,
    ValidateTarget,
    ValidationResult,
    finding,
    result_of,
    with_dispatch,
)
from .. import Online


def validate_online(
    target: ValidateTarget, fetcher: CommentFetcher, completed: Collection[str] | None = None
) -> Online[ValidationResult]:
    """Fetch (or discover) a plan and its sibling, validate them (SPEC 10, 6.1) and add the
    dispatch matrix (SPEC 14; ``completed``: the steps done)."""
    fetched = fetch_plan(target, fetcher)
    if isinstance(fetched, NotFetched):
        if fetched.no_plan and fetched.walked is not None:
            assert target.issue_number is not None
            findings = [finding(Code.MISSING_SPINE, fetched.failure.message)]
            findings += walk_findings(
                fetched.walked, target.issue_number, target.trusted_authors.shown
            )
            return Online(result_of(findings))
        result = ValidationResult.of_failure(fetched.failure).model_copy(update=fetched.keys())
        return Online(result, fetched.plan)
    sibling_id = fetched.sibling.id if fetched.sibling is not None else None
    ids = DispatchIds(fetched.issue_number, fetched.plan.id, sibling_id)
    result = with_dispatch(validate_fetched(fetched), fetched.comments, ids, completed)
    return Online(result, fetched.plan, fetched.sibling or fetched.withheld)
