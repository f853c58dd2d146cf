"""Audit mode against the GitHub REST API (SPEC 11, 6.1): stream, judge authors, resolve
siblings, classify.

An edge. Requests: with a state filter, the issue listing (``max(1, ceil(issues / 100))``
pages); the repository's comment listing (``max(1, ceil(comments / 100))`` pages, ``since``
passed through); one GET per sibling that the listing does not hold; one permission GET per
distinct author of a plan-like comment or sibling that only the policy's ``write`` term can
decide. Pages are streamed into a :class:`~.rules.PlanCollector`, so memory holds only the
bodies of trusted plans and of sibling candidates, as UTF-8 bytes; each plan and its sibling
are scanned again, one issue at a time, when classified (SPEC 11 revision 3).
"""

from __future__ import annotations

from typing import Any

from ...core.blocks import scan_comment
from ...core.status import Failure
from ...github.authors import AuthorCheck
from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from .models import AuditReport, AuditTarget
from .rules import PlanCollector, audit_plan, report_of


def audit_online(target: AuditTarget, fetcher: CommentFetcher) -> AuditReport:
    """Audit every plan of ``target.repository`` (SPEC 11).

    Only plan comments by trusted authors are plans (SPEC 6.1): the others are counted
    (``untrusted_plan_comments``, per plan and in all) and never classified; an issue whose
    only plan-like comments are untrusted has no row. An untrusted sibling is left out with
    the ``sibling-identity-mismatch`` finding (the plan is ``invalid``).

    Returns:
        The :class:`AuditReport`; a listing, sibling or permission fetch that fails (other
        than a sibling that is not found, which is the ``sibling-missing`` state) makes the
        whole report that SPEC 6 status. Never raises.
    """
    repository = target.repository
    issues: set[int] | None = None
    if target.issue_state != "all":
        issues = set()
        for numbers in fetcher.issue_numbers(
            target.issue_state, f"the {target.issue_state} issues of {repository}"
        ):
            if isinstance(numbers, Failure):
                return AuditReport.of_failure(numbers, repository, fetcher.requests_made)
            issues.update(numbers)

    authors = AuthorCheck(target.trusted_authors, fetcher)

    def trusts(comment: FetchedComment) -> bool | Failure:
        judged = authors.untrusted(comment)
        return judged if isinstance(judged, Failure) else judged is None

    collector = PlanCollector(issues, trusts)
    parameters: dict[str, Any] = {"since": target.since} if target.since else {}
    for page in fetcher.pages("issues/comments", f"the issue comments of {repository}", parameters):
        if isinstance(page, Failure):
            return AuditReport.of_failure(page, repository, fetcher.requests_made)
        collector.add(page)
        if collector.failure is not None:
            return AuditReport.of_failure(collector.failure, repository, fetcher.requests_made)

    audited = []
    for issue in sorted(collector.plans):
        plan = collector.take(issue)
        pointer = plan.pointer
        sibling = collector.sibling(pointer) if pointer is not None else None
        if pointer is not None and sibling is None:
            fetched = fetcher.fetch_if_exists(pointer, "sibling")
            if isinstance(fetched, Failure):
                return AuditReport.of_failure(fetched, repository, fetcher.requests_made)
            if fetched is not None:
                sibling = (fetched, scan_comment(fetched.body))
        untrusted = authors.untrusted(sibling[0]) if sibling is not None else None
        if isinstance(untrusted, Failure):
            return AuditReport.of_failure(untrusted, repository, fetcher.requests_made)
        audited.append(
            audit_plan(
                issue,
                plan,
                sibling,
                untrusted_sibling=untrusted.message if untrusted is not None else None,
                passed_over=len(collector.passed_over.get(issue, ())),
            )
        )
    return report_of(repository, fetcher.requests_made, audited, collector.passed_over_count)
