"""Validate against GitHub (SPEC 10, 6.1): the plan and its sibling fetched (or discovered)
by :func:`~frame_spine.plan_fetch.fetch_plan`, then validated by the pure
:func:`~frame_spine.validation.rules.validate_scanned`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from ...plan_fetch import FetchedPlan, NotFetched, fetch_plan, validate_fetched, walk_findings
from ...validation.models import Code, ValidateTarget, ValidationResult, error, result_of


@dataclass(frozen=True, slots=True)
class OnlineValidation:
    """The outcome of :func:`validate_online`: the result and the comments validated (for
    links in the job summary; ``None`` when not fetched; ``sibling`` also when its author is
    not trusted), and what was fetched (``None`` when fetching failed or the plan is not
    trusted), for the dispatch matrix."""

    result: ValidationResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None
    fetched: FetchedPlan | None = None


def validate_online(target: ValidateTarget, fetcher: CommentFetcher) -> OnlineValidation:
    """Fetch (or discover) a plan and its sibling (:func:`fetch_plan`), then validate them
    (SPEC 10).

    Returns:
        :class:`OnlineValidation`; a fetch failure of the plan or the listing is the result's
        SPEC 6 status, and so is an untrusted plan given by id (``plan-identity-mismatch``,
        with ``author`` and ``author_association``; no findings); an issue without a plan
        comment by a trusted author is the ``missing-spine`` finding (with an
        ``untrusted-plan-comment`` warning per comment passed over). A sibling that is not
        found (404/410) is the ``sibling-missing`` finding; an untrusted one the
        ``sibling-identity-mismatch`` finding. Never raises.
    """
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
