"""Audit mode against the GitHub REST API (SPEC 11, 6.1): list, walk each issue, fetch what
was not kept, classify.

An edge. Requests: SPEC 11's budget (the issue listing with a state filter, the comment
listing, one GET per chosen plan or sibling whose body was not kept, the permission requests
of the walks).
"""

from __future__ import annotations

from typing import Any

from ...core.blocks import scan_comment
from ...core.status import Failure, Status
from ...github.authors import AuthorCheck, Untrusted, walk
from ...github.client import CommentFetcher
from .models import AuditedPlan, AuditReport, AuditState, AuditTarget
from .rules import Chosen, Kept, Listing, audit_plan, pointer_of, report_of, unusable_plan


def audit_online(target: AuditTarget, fetcher: CommentFetcher) -> AuditReport:
    """Audit every plan of ``target.repository`` (SPEC 11, 6.1).

    Returns:
        The :class:`AuditReport`; a listing or a fetch of a plan or sibling by id that fails
        (other than a sibling that is not found: ``sibling-missing``) makes the whole report
        that SPEC 6 status; a permission request that fails, or one too many, makes that
        issue ``undetermined``. Never raises.
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
    listing = Listing(target.trusted_authors, issues)
    parameters: dict[str, Any] = {"since": target.since} if target.since else {}
    for page in fetcher.pages("issues/comments", f"the issue comments of {repository}", parameters):
        if isinstance(page, Failure):
            return AuditReport.of_failure(page, repository, fetcher.requests_made)
        listing.add(page)
    authors = AuthorCheck(target.trusted_authors, fetcher)
    rows: list[AuditedPlan] = []
    chosen: list[Chosen] = []
    passed = hidden = 0
    for issue, plan_like in listing.plan_like().items():
        check = authors.for_issue(issue)
        walked = walk(plan_like, check)
        passed += len(walked.passed_over)
        hidden += len(walked.hidden)
        counts = {
            "untrusted_plan_comments": len(walked.passed_over),
            "hidden_plan_comments": len(walked.hidden),
        }
        if walked.stopped is not None and walked.at is not None:
            state = (
                AuditState.HIDDEN
                if walked.stopped.status is Status.PLAN_IDENTITY_MISMATCH
                else AuditState.UNDETERMINED
            )
            rows.append(unusable_plan(issue, walked.at, state, walked.stopped.message, **counts))
        elif walked.plan is not None:
            found = _chosen(issue, walked.plan.id, listing, fetcher, check)
            if isinstance(found, Failure):
                return AuditReport.of_failure(found, repository, fetcher.requests_made)
            if isinstance(found, AuditedPlan):
                rows.append(found)
            else:
                chosen.append(
                    Chosen(
                        issue,
                        found[0],
                        found[1],
                        found[2],
                        len(walked.passed_over),
                        len(walked.hidden),
                        1 + len(walked.older),
                    )
                )
    chosen.reverse()
    while chosen:  # one plan read at a time, each let go as its row is made
        rows.append(audit_plan(chosen.pop()))
    return report_of(repository, fetcher.requests_made, rows, passed, hidden)


_Found = tuple[Kept, Kept | None, str | None]


def _chosen(
    issue: int, plan_id: int, listing: Listing, fetcher: CommentFetcher, check: AuthorCheck
) -> _Found | AuditedPlan | Failure:
    """The chosen plan with its body (kept, else fetched by id), its sibling (kept, else
    fetched by id) and why the sibling is left out; an ``undetermined`` row when judging the
    sibling's author failed; or the failure of a fetch."""
    taken = listing.take(plan_id)
    if taken is not None:
        plan, pointer = taken
    else:
        fetched = fetcher.fetch(plan_id, "plan")
        if isinstance(fetched, Failure):
            return fetched
        plan, pointer = Kept.of(fetched), pointer_of(scan_comment(fetched.body))
    if pointer is None:
        return plan, None, None
    taken = listing.take(pointer)
    if taken is not None:
        sibling = taken[0]
    else:
        found = fetcher.fetch_if_exists(pointer, "sibling")
        if found is None or isinstance(found, Failure):
            return found if isinstance(found, Failure) else (plan, None, None)
        sibling = Kept.of(found)
    refused = sibling.comment.hidden_problem
    if refused is None:
        untrusted = check.untrusted(sibling.comment)
        if isinstance(untrusted, Failure):
            return unusable_plan(issue, plan.comment, AuditState.UNDETERMINED, untrusted.message)
        refused = untrusted.message if isinstance(untrusted, Untrusted) else None
    return plan, sibling, refused
