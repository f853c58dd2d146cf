"""Render against GitHub (SPEC 13): the plan fetched as validate fetches it, validated, then
the pure :func:`.rules.render_scanned`."""

from __future__ import annotations

from ...github.client import CommentFetcher
from ...plan_fetch import NotFetched, fetch_plan, validate_fetched
from ...validation.models import ValidateTarget
from .. import Online
from .models import RenderResult
from .rules import render_scanned


def render_online(
    target: ValidateTarget, fetcher: CommentFetcher, canonical: frozenset[str] | None
) -> Online[RenderResult]:
    """Fetch (or discover) a plan and its sibling, validate them, and decide the picture."""
    fetched = fetch_plan(target, fetcher)
    counts = fetched.walked.counts() if fetched.walked is not None else {}
    if isinstance(fetched, NotFetched):
        failed = RenderResult.of_failure(
            fetched.failure, issue=target.issue_number, plan_comment_id=target.plan_comment_id
        )
        failed = failed.model_copy(update={**counts, **fetched.keys()})
        return Online(failed, fetched.plan)
    result = render_scanned(
        fetched.comments,
        findings=validate_fetched(fetched),
        issue=fetched.issue_number,
        plan_comment_id=fetched.plan.id,
        canonical=canonical,
    )
    result = result.model_copy(update=counts)
    return Online(result, fetched.plan, fetched.sibling or fetched.withheld)
