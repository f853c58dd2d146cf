"""A plan and its sibling from GitHub (SPEC 10, 13, 6.1): find, fetch, check who wrote it.

The network edge validate and render share: the plan by id, or discovered by the walk of
SPEC 6.1 over issue ``N``'s plan-like comments; its sibling (the given id, else the spine's
``slice_comment_id``); the checks of SPEC 6.1 in their order, as findings or a status. Only
trusted comments reach the pure :func:`~frame_spine.validation.rules.validate_scanned`. Audit
(SPEC 11) shares the sibling's refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .core.blocks import scan_comment
from .core.plan import ScannedComments, plan_pointer
from .core.shown import knob
from .core.status import Failure, Status
from .github.authors import AuthorCheck, Untrusted, Walk, passed_over_words, untrusted_edits, walk
from .github.client import CommentFetcher, not_found_as_none
from .github.payloads import FetchedComment, recency
from .validation.models import Code, Finding, ValidateTarget, ValidationResult, finding
from .validation.rules import validate_scanned


def _is_plan_of(comment: FetchedComment, issue_number: int) -> bool:
    if "plan-issue-" not in comment.body:
        return False
    return str(issue_number) in scan_comment(comment.body).marker_values("plan-issue")


def _plan_like(fetcher: CommentFetcher, issue_number: int) -> list[FetchedComment] | Failure:
    """The issue's plan-like comments, each in its newest listed version, newest first
    (SPEC 10, 11: a comment listed twice counts once, the later page winning a tie)."""
    newest: dict[int, tuple[tuple[datetime, int], FetchedComment | None]] = {}
    for page in fetcher.pages(
        f"issues/{issue_number}/comments",
        f"the comments of issue #{issue_number} in {fetcher.repository}",
        issue_number=issue_number,
    ):
        if isinstance(page, Failure):
            return page
        for comment in page:
            seen = newest.get(comment.id)
            if seen is None or recency(comment) >= seen[0]:
                plan = comment if _is_plan_of(comment, issue_number) else None
                newest[comment.id] = (recency(comment), plan)
    plans = [plan for _when, plan in newest.values() if plan is not None]
    return sorted(plans, key=recency, reverse=True)


@dataclass(frozen=True, slots=True)
class NotFetched:
    """Why there is no plan to look at: a failed fetch, listing or permission request; an
    issue without a plan by a trusted author (``no_plan``); a plan that is untrusted or
    hidden (``plan-identity-mismatch``, with ``untrusted`` for an author). ``plan`` when the
    plan was fetched (for links); ``walked``: the discovery walk, when one ran."""

    failure: Failure
    plan: FetchedComment | None = None
    no_plan: bool = False
    walked: Walk | None = None
    untrusted: Untrusted | None = None
    editor: str | None = None

    def keys(self) -> dict[str, str | None]:
        """The result keys that name who is not trusted (SPEC 6.1): ``author`` and
        ``author_association``, or ``editor``; none when neither applies."""
        keys = self.untrusted.keys() if self.untrusted is not None else {}
        return {**keys, "editor": self.editor} if self.editor is not None else keys


@dataclass(frozen=True, slots=True)
class FetchedPlan:
    """A plan and its sibling as fetched for validate and render (SPEC 10, 13).

    Attributes:
        plan: the plan comment. sibling: the sibling read, or ``None``.
        comments: both, scanned.
        issue_number: the given issue number, else the plan's own (from its ``issue_url``).
        sibling_id: the sibling id given (checked against the spine's pointer), or ``None``.
        extra: findings of the fetching (SPEC 6.1, 10).
        withheld: a sibling left out of ``comments`` (untrusted or hidden), reported by
            ``extra``.
        walked: the discovery walk (SPEC 6.1); ``None`` when the plan was given by id.
    """

    plan: FetchedComment
    sibling: FetchedComment | None
    comments: ScannedComments
    issue_number: int | None
    sibling_id: int | None
    extra: tuple[Finding, ...]
    withheld: FetchedComment | None = None
    walked: Walk | None = None


def walk_findings(walked: Walk, issue_number: int, policy_shown: str) -> list[Finding]:
    """What the walk found besides the plan (SPEC 6.1, 10): an ``untrusted-plan-comment``
    warning per comment passed over, a ``hidden-plan-comment`` notice per hidden one."""
    marker = f"<!-- plan-issue-{issue_number} --> line"
    found = [
        finding(
            Code.UNTRUSTED_PLAN_COMMENT,
            f"comment {item.comment.id} carries a {marker} but was written by {item.who}, not "
            f"a trusted author ({knob('trusted-authors')} is {policy_shown}): passed over, it is "
            "not the plan",
        )
        for item in walked.passed_over
    ]
    return found + [
        finding(
            Code.HIDDEN_PLAN_COMMENT,
            f"{comment.hidden_problem or ''}; it carries a {marker} but is passed over",
        )
        for comment in walked.hidden
    ]


def _discovered(
    fetcher: CommentFetcher, authors: AuthorCheck, issue_number: int
) -> tuple[FetchedComment, list[Finding], Walk] | NotFetched:
    """The plan the walk of SPEC 6.1 chose on the issue, with its findings (the walk's, and
    ``older-plan-comments``), or why there is none."""
    plans = _plan_like(fetcher, issue_number)
    if isinstance(plans, Failure):
        return NotFetched(plans)
    walked = walk(plans, authors)
    if walked.stopped is not None:
        return NotFetched(walked.stopped, walked.at, walked=walked)
    if walked.plan is None:
        marker = f"<!-- plan-issue-{issue_number} --> line"
        message = f"no comment on issue #{issue_number} carries a {marker}"
        if walked.passed_over:
            message = (
                f"no comment by a trusted author on issue #{issue_number} carries a {marker}: "
                + passed_over_words(walked.passed_over, authors.policy)
            )
        failure = Failure(Status.COMMENT_NOT_FOUND, message)
        return NotFetched(failure, no_plan=True, walked=walked)
    extra = walk_findings(walked, issue_number, authors.policy.shown)
    if walked.older:
        ids = ", ".join(str(comment.id) for comment in walked.older)
        extra.append(
            finding(
                Code.OLDER_PLAN_COMMENTS,
                f"issue #{issue_number} also has {len(walked.older)} older plan "
                f"comment(s) ({ids}); validated the newest, {walked.plan.id}",
                comment="plan",
            )
        )
    return walked.plan, extra, walked


def _plan(
    target: ValidateTarget, fetcher: CommentFetcher, authors: AuthorCheck
) -> tuple[FetchedComment, FetchedComment | None, list[Finding], Walk | None] | NotFetched:
    """The plan (by id, with the sibling id's comment fetched concurrently; or discovered)
    and the findings so far."""
    if target.plan_comment_id is None:
        assert target.issue_number is not None
        found = _discovered(fetcher, authors, target.issue_number)
        return found if isinstance(found, NotFetched) else (found[0], None, found[1], found[2])
    wanted = [(target.plan_comment_id, "plan")]
    if target.slices_comment_id is not None:
        wanted.append((target.slices_comment_id, "sibling"))
    plan, *rest = fetcher.fetch_all(wanted)
    if isinstance(plan, Failure):
        return NotFetched(plan)
    sibling = not_found_as_none(rest[0]) if rest else None
    if isinstance(sibling, Failure):
        return NotFetched(sibling, plan)
    return plan, sibling, [], None


def fetch_plan(target: ValidateTarget, fetcher: CommentFetcher) -> FetchedPlan | NotFetched:
    """Fetch (or discover) a plan and its sibling, with the checks of SPEC 6.1 in their
    order (SPEC 10, 13): a plan that fails one is :class:`NotFetched`
    (``plan-identity-mismatch`` for its author or hiding, its issue a finding); a sibling
    that fails one is left out with a finding. Requests: SPEC 6's budget. Never raises."""
    authors = AuthorCheck(target.trusted_authors, fetcher, target.issue_number)
    found = _plan(target, fetcher, authors)
    if isinstance(found, NotFetched):
        return found
    plan, sibling, extra, walked = found

    def stop(
        failure: Failure, untrusted: Untrusted | None = None, editor: str | None = None
    ) -> NotFetched:
        """A failure past the plan's fetch or discovery (with the walk, when one ran: SPEC 6.1)."""
        return NotFetched(failure, plan, walked=walked, untrusted=untrusted, editor=editor)

    number = target.issue_number if target.issue_number is not None else plan.issue_number
    problem = plan.issue_problem("plan", target.issue_number)
    if problem is not None:
        extra.append(finding(Code.PLAN_IDENTITY_MISMATCH, problem, comment="plan"))
    if plan.hidden_problem is not None:
        return stop(Failure(Status.PLAN_IDENTITY_MISMATCH, plan.hidden_problem))
    untrusted = authors.untrusted(plan)
    if isinstance(untrusted, Failure):
        return stop(untrusted)
    if untrusted is not None:
        message = untrusted.message if problem is None else f"{problem}; {untrusted.message}"
        failure = Failure(Status.PLAN_IDENTITY_MISMATCH, message)
        return stop(failure, untrusted=untrusted)
    plan_scan = scan_comment(plan.body)
    pointer = plan_pointer(plan_scan) if target.slices_comment_id is None else None
    if pointer is not None:
        pointed = fetcher.fetch_if_exists(pointer, "sibling")
        if isinstance(pointed, Failure):
            return stop(pointed)
        sibling = pointed
    withheld: FetchedComment | None = None
    if sibling is not None:
        refused = sibling_refusal(sibling, authors)
        if isinstance(refused, Failure):
            return stop(refused)
        problem = sibling.issue_problem("sibling", number)
        for why in (problem, refused):
            if why is not None:
                extra.append(finding(Code.SIBLING_IDENTITY_MISMATCH, why, comment="sibling"))
        if refused is not None:
            withheld, sibling = sibling, None
    edits = untrusted_edits(authors, (plan, sibling))
    if isinstance(edits, Failure):
        return stop(edits)
    if plan.id in edits:
        failure = Failure(Status.PLAN_IDENTITY_MISMATCH, edits[plan.id].message)
        return stop(failure, editor=edits[plan.id].editor)
    if sibling is not None and sibling.id in edits:
        message = edits[sibling.id].message
        extra.append(finding(Code.SIBLING_IDENTITY_MISMATCH, message, comment="sibling"))
        withheld, sibling = sibling, None
    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    return FetchedPlan(
        plan, sibling, comments, number, target.slices_comment_id, tuple(extra), withheld, walked
    )


def sibling_refusal(sibling: FetchedComment, authors: AuthorCheck) -> str | Failure | None:
    """Why a sibling is left out (SPEC 6.1: hidden, or its author untrusted), ``None`` when
    it is not, or the failure of asking, as validate, render and audit decide. Never raises."""
    if sibling.hidden_problem is not None:
        return sibling.hidden_problem
    untrusted = authors.untrusted(sibling)
    return untrusted.message if isinstance(untrusted, Untrusted) else untrusted


def validate_fetched(fetched: FetchedPlan) -> ValidationResult:
    """Validate what :func:`fetch_plan` fetched (SPEC 10), as validate and render both do: the
    pure :func:`~frame_spine.validation.rules.validate_scanned` of the trusted comments, with
    the issue number, the sibling id given and the fetching's findings. Never raises."""
    return validate_scanned(
        fetched.comments,
        issue_number=fetched.issue_number,
        sibling_id=fetched.sibling_id,
        extra=fetched.extra,
        sibling_withheld=fetched.withheld is not None,
    )
