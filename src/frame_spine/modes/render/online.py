"""Render against GitHub (SPEC 13): the mode's network edge.

:func:`render_online` fetches the plan (by id, or the newest ``plan-issue-N`` comment of the
issue) and its sibling exactly as validate does (:func:`~frame_spine.plan_fetch.fetch_plan`),
validates them, and hands everything to the pure :func:`.rules.render_scanned`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...github.authors import Walk
from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from ...plan_fetch import NotFetched, fetch_plan, validate_fetched
from ...validation.models import ValidateTarget
from .models import RenderResult
from .rules import render_scanned


@dataclass(frozen=True, slots=True)
class OnlineRendering:
    """The outcome of :func:`render_online`: the result and the comments drawn (for links in
    the summary; ``None`` when not fetched)."""

    result: RenderResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None


def _walk_counts(walked: Walk | None) -> dict[str, int | None]:
    """The result's counts of the comments discovery passed over (SPEC 6.1)."""
    if walked is None:
        return {}
    return {
        "untrusted_plan_comments": len(walked.passed_over),
        "hidden_plan_comments": len(walked.hidden),
    }


def render_online(
    target: ValidateTarget, fetcher: CommentFetcher, canonical: frozenset[str] | None
) -> OnlineRendering:
    """Fetch (or discover) a plan and its sibling, validate them, and decide the picture
    (SPEC 13). Requests: those of :func:`~frame_spine.plan_fetch.fetch_plan`.

    Returns:
        :class:`OnlineRendering`; a fetch failure is the result's SPEC 6 status; an issue
        without a plan comment by a trusted author is ``comment-not-found`` (counting the
        plan-like comments passed over); an untrusted plan given by id is
        ``plan-identity-mismatch`` (no table); an untrusted sibling is left out, with its
        ``sibling-identity-mismatch`` finding (SPEC 6.1). Never raises.
    """
    fetched = fetch_plan(target, fetcher)
    if isinstance(fetched, NotFetched):
        failed = RenderResult.of_failure(
            fetched.failure, issue=target.issue_number, plan_comment_id=target.plan_comment_id
        )
        failed = failed.model_copy(update={**_walk_counts(fetched.walked), **fetched.keys()})
        return OnlineRendering(failed, fetched.plan)
    findings = validate_fetched(fetched)
    result = render_scanned(
        fetched.comments,
        findings=findings,
        issue=fetched.issue_number,
        plan_comment_id=fetched.plan.id,
        canonical=canonical,
    )
    result = result.model_copy(update=_walk_counts(fetched.walked))
    return OnlineRendering(result, fetched.plan, fetched.sibling or fetched.withheld)
