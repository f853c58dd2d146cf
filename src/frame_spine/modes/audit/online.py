"""Audit against GitHub (SPEC 11, 6.1): list, walk each issue, fetch what was not kept,
classify, within SPEC 11's request budget."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.blocks import scan_comment
from ...core.plan import plan_pointer
from ...core.status import Failure, Status
from ...github.authors import AuthorCheck, UntrustedEdit, Walk, edited, untrusted_edit, walk
from ...github.client import CommentFetcher
from ...inputs import resolved_since
from ...plan_fetch import sibling_refusal
from .models import AuditedPlan, AuditReport, AuditState, AuditTarget
from .rules import Chosen, Kept, Listing, audit_plan, report_of, unusable_plan


def audit_online(target: AuditTarget, fetcher: CommentFetcher) -> AuditReport:
    """Audit every plan of ``target.repository`` (SPEC 11, 6.1): a failed listing, fetch or
    edit history fails the report; a failed permission request makes that issue
    ``undetermined``."""
    repository = target.repository
    since = resolved_since(target.since, fetcher.session.now())
    listed = _listed(target, since, fetcher)
    if isinstance(listed, Failure):
        return AuditReport.of_failure(listed, repository=repository, requests=fetcher.requests_made)
    authors = AuthorCheck(target.trusted_authors, fetcher)
    walked = _walked(listed, authors, fetcher)
    if isinstance(walked, Failure):
        return AuditReport.of_failure(walked, repository=repository, requests=fetcher.requests_made)
    rows, chosen, checks, passed, hidden = walked
    judged = _judge_edits(chosen, checks, None if target.trusted_authors.trust_all else fetcher)
    if isinstance(judged, Failure):
        return AuditReport.of_failure(judged, repository=repository, requests=fetcher.requests_made)
    chosen = judged[0][::-1]
    rows += judged[1]
    while chosen:  # one plan read at a time, each let go as its row is made
        rows.append(audit_plan(chosen.pop()))
    report = report_of(repository, fetcher.requests_made, rows, passed, hidden)
    return report.model_copy(update={"since": since})


def _listed(target: AuditTarget, since: str | None, fetcher: CommentFetcher) -> Listing | Failure:
    """The repository's comment listing (after the issue listing, for a state)."""
    repository = target.repository
    issues: set[int] | None = None
    if target.issue_state != "all":
        issues = set()
        for numbers in fetcher.issue_numbers(
            target.issue_state, f"the {target.issue_state} issues of {repository}"
        ):
            if isinstance(numbers, Failure):
                return numbers
            issues.update(numbers)
    listing = Listing(target.trusted_authors, issues)
    parameters: dict[str, Any] = {"since": since} if since else {}
    for page in fetcher.pages("issues/comments", f"the issue comments of {repository}", parameters):
        if isinstance(page, Failure):
            return page
        listing.add(page)
    return listing


_Walked = tuple[list[AuditedPlan], list[Chosen], dict[int, AuthorCheck], int, int]


def _walked(listing: Listing, authors: AuthorCheck, fetcher: CommentFetcher) -> _Walked | Failure:
    """Each issue walked (SPEC 6.1): the rows of unusable plans, the plans to classify, each
    issue's check, and the plan-like comments passed over in all."""
    rows: list[AuditedPlan] = []
    chosen: list[Chosen] = []
    checks: dict[int, AuthorCheck] = {}
    passed = hidden = 0
    for issue, plan_like in listing.plan_like().items():
        check = checks[issue] = authors.for_issue(issue)
        walked = walk(plan_like, check)
        passed, hidden = passed + len(walked.passed_over), hidden + len(walked.hidden)
        if walked.stopped is not None and walked.at is not None:
            hid = walked.stopped.status is Status.PLAN_IDENTITY_MISMATCH
            state = AuditState.HIDDEN if hid else AuditState.UNDETERMINED
            rows.append(unusable_plan(issue, walked.at, state, walked.stopped.message, walked))
            continue
        if walked.plan is None:
            continue
        found = _chosen(issue, walked, listing, fetcher, check)
        if isinstance(found, Failure):
            return found
        if isinstance(found, AuditedPlan):
            rows.append(found)
            continue
        chosen.append(Chosen(issue, *found, walked))
    return rows, chosen, checks, passed, hidden


def _judge_edits(
    chosen: list[Chosen], checks: dict[int, AuthorCheck], fetcher: CommentFetcher | None
) -> tuple[list[Chosen], list[AuditedPlan]] | Failure:
    """The chosen plans left after judging their editors (SPEC 6.1; ``ceil(n / 100)`` GraphQL
    requests, none without a ``fetcher``), and the rows of those refused; an untrusted
    sibling edit leaves only the sibling out."""
    touched = {
        kept.comment.id: kept.comment
        for plan in chosen
        for kept in (plan.plan, plan.sibling)
        if kept is not None and edited(kept.comment)
    }
    if not touched or fetcher is None:
        return chosen, []
    histories = fetcher.edits(list(touched.values()))
    if isinstance(histories, Failure):
        return histories
    kept: list[Chosen] = []
    rows: list[AuditedPlan] = []
    for plan in chosen:
        check, comment = checks[plan.issue], plan.plan.comment
        found = None
        if comment.id in histories:
            found = untrusted_edit(check, comment, histories[comment.id])
        sibling = plan.sibling.comment if plan.sibling is not None else None
        if found is None and sibling is not None and sibling.id in histories:
            edit = untrusted_edit(check, sibling, histories[sibling.id])
            if isinstance(edit, UntrustedEdit):
                plan = replace(plan, sibling_refused=plan.sibling_refused or edit.message)
            found = edit if isinstance(edit, Failure) else None
        if found is None:
            kept.append(plan)
            continue
        state = AuditState.UNDETERMINED if isinstance(found, Failure) else AuditState.UNTRUSTED_EDIT
        rows.append(unusable_plan(plan.issue, comment, state, found.message, plan.walked))
    return kept, rows


_Found = tuple[Kept, Kept | None, str | None]


def _chosen(
    issue: int, walked: Walk, listing: Listing, fetcher: CommentFetcher, check: AuthorCheck
) -> _Found | AuditedPlan | Failure:
    """The plan the walk chose and its sibling (kept, else fetched by id) with why the sibling
    is left out; an ``undetermined`` row; or a fetch's failure."""
    assert walked.plan is not None
    plan_id = walked.plan.id
    taken = listing.take(plan_id)
    if taken is not None:
        plan, pointer = taken
    else:
        fetched = fetcher.fetch(plan_id, "plan")
        if isinstance(fetched, Failure):
            return fetched
        plan, pointer = Kept.of(fetched), plan_pointer(scan_comment(fetched.body))
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
    refused = sibling_refusal(sibling.comment, check)
    if isinstance(refused, Failure):
        return unusable_plan(issue, plan.comment, AuditState.UNDETERMINED, refused.message, walked)
    return plan, sibling, refused
