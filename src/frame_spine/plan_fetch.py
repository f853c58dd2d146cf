"""A plan and its sibling from GitHub (SPEC 10, 13, 6.1): find, fetch, check who wrote it.

The network edge validate and render share: it fetches the plan (by id, or discovered as
the newest ``plan-issue-N`` comment by a trusted author on issue ``N``) and its sibling (the
given id, else the spine's ``slice_comment_id``), judges their authors by
``trusted-authors``, turns ``issue_url`` disagreements, untrusted siblings, passed-over and
older plan comments into findings, and keeps the bodies of trusted comments only (the modes
hand them to the pure :func:`~frame_spine.validation.rules.validate_scanned`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .core.blocks import scan_comment
from .core.plan import CurrentSpine, ScannedComments, current_spine
from .core.status import Failure, Status
from .github.authors import AuthorCheck, Untrusted, passed_over_words
from .github.client import CommentFetcher, not_found_as_none
from .github.payloads import FetchedComment, recency
from .validation.models import Code, Finding, ValidateTarget, ValidationResult, error, warning
from .validation.rules import validate_scanned


def _is_plan_of(comment: FetchedComment, issue_number: int) -> bool:
    if "plan-issue-" not in comment.body:
        return False
    return str(issue_number) in scan_comment(comment.body).marker_values("plan-issue")


@dataclass(frozen=True, slots=True)
class Discovered:
    """What discovery found on an issue (SPEC 10, 6.1): the newest plan comment by a trusted
    author, the older ones by trusted authors, and the plan-like comments passed over
    (newest first)."""

    plan: FetchedComment
    older: list[FetchedComment]
    passed_over: tuple[Untrusted, ...]


def _discover(
    fetcher: CommentFetcher, authors: AuthorCheck, issue_number: int
) -> Discovered | NotFetched:
    """The newest plan comment of the issue by a trusted author (by ``updated_at``, then id)
    and the older ones; plan-like comments by others are passed over (SPEC 6.1).

    The listing is offset-paginated over live data, so a comment edited during the listing
    can come twice: each comment id counts once, in its newest version. Each plan-like
    comment's author is judged, newest first (a permission request per distinct author only
    when the policy's ``write`` term must decide).
    """
    repository = fetcher.repository
    newest: dict[int, tuple[tuple[datetime, int], FetchedComment | None]] = {}
    for page in fetcher.pages(
        f"issues/{issue_number}/comments",
        f"the comments of issue #{issue_number} in {repository}",
        issue_number=issue_number,
    ):
        if isinstance(page, Failure):
            return NotFetched(page)
        for comment in page:
            seen = newest.get(comment.id)
            if seen is None or recency(comment) > seen[0]:
                plan = comment if _is_plan_of(comment, issue_number) else None
                newest[comment.id] = (recency(comment), plan)
    plans = [plan for _when, plan in newest.values() if plan is not None]
    trusted: list[FetchedComment] = []
    passed: list[Untrusted] = []
    for comment in sorted(plans, key=recency, reverse=True):
        judged = authors.untrusted(comment)
        if isinstance(judged, Failure):
            return NotFetched(judged)
        if judged is None:
            trusted.append(comment)
        else:
            passed.append(judged)
    if not trusted:
        message = (
            f"no comment on issue #{issue_number} carries a <!-- plan-issue-{issue_number} --> line"
        )
        if passed:
            message = (
                f"no comment by a trusted author on issue #{issue_number} carries a "
                f"<!-- plan-issue-{issue_number} --> line: "
                + passed_over_words(passed, authors.policy)
            )
        return NotFetched(
            Failure(Status.COMMENT_NOT_FOUND, message), no_plan=True, passed_over=tuple(passed)
        )
    return Discovered(trusted[0], trusted[1:], tuple(passed))


@dataclass(frozen=True, slots=True)
class NotFetched:
    """Why there is no plan to look at: a failed fetch or listing; (``no_plan``) an issue
    without any plan comment by a trusted author (``passed_over``: the plan-like comments
    by others); (``untrusted``) a plan comment given by id whose author is not trusted
    (``plan-identity-mismatch``, SPEC 6.1). ``plan`` when the plan was fetched (for links)."""

    failure: Failure
    plan: FetchedComment | None = None
    no_plan: bool = False
    passed_over: tuple[Untrusted, ...] = ()
    untrusted: Untrusted | None = None


@dataclass(frozen=True, slots=True)
class FetchedPlan:
    """A plan and its sibling as fetched for validate and render (SPEC 10, 13).

    Attributes:
        plan: the plan comment. sibling: the sibling read, or ``None``.
        comments: both, scanned.
        issue_number: the given issue number, else the plan's own (from its ``issue_url``).
        sibling_id: the sibling id given (checked against the spine's pointer), or ``None``.
        extra: findings of the fetching (``issue_url`` mismatches, an untrusted sibling,
            passed-over and older plan comments).
        withheld: the sibling fetched whose author is not trusted (SPEC 6.1): left out of
            ``comments`` (``sibling`` is then ``None``), reported by ``extra``.
        passed_over: the plan-like comments discovery passed over (SPEC 6.1); ``None`` when
            the plan was given by id (no discovery ran).
    """

    plan: FetchedComment
    sibling: FetchedComment | None
    comments: ScannedComments
    issue_number: int | None
    sibling_id: int | None
    extra: tuple[Finding, ...]
    withheld: FetchedComment | None = None
    passed_over: tuple[Untrusted, ...] | None = None


_Fetched = tuple[FetchedComment, FetchedComment | None, list[Finding]]


def passed_over_findings(
    passed: tuple[Untrusted, ...], issue_number: int, policy_shown: str
) -> list[Finding]:
    """One ``untrusted-plan-comment`` warning per plan-like comment discovery passed over
    (SPEC 6.1, 10): its id, login and association."""
    return [
        warning(
            Code.UNTRUSTED_PLAN_COMMENT,
            f"comment {item.comment.id} carries a <!-- plan-issue-{issue_number} --> line but "
            f"was written by {item.who}, not a trusted author (trusted-authors is "
            f"{policy_shown}): passed over, it is not the plan",
        )
        for item in passed
    ]


def _by_discovery(
    fetcher: CommentFetcher, authors: AuthorCheck, issue_number: int
) -> tuple[_Fetched, tuple[Untrusted, ...]] | NotFetched:
    """The newest plan comment of the issue by a trusted author, an ``older-plan-comments``
    warning, and an ``untrusted-plan-comment`` warning per comment passed over."""
    found = _discover(fetcher, authors, issue_number)
    if isinstance(found, NotFetched):
        return found
    plan, older = found.plan, found.older
    extra = passed_over_findings(found.passed_over, issue_number, authors.policy.shown)
    if older:
        ids = ", ".join(str(comment.id) for comment in older)
        extra.append(
            warning(
                Code.OLDER_PLAN_COMMENTS,
                f"issue #{issue_number} also has {len(older)} older plan "
                f"comment(s) ({ids}); validated the newest, {plan.id}",
                comment="plan",
            )
        )
    return (plan, None, extra), found.passed_over


def _by_id(target: ValidateTarget, fetcher: CommentFetcher) -> _Fetched | NotFetched:
    """The plan comment and, when an id was given, the sibling, fetched concurrently; a
    sibling that is not found is ``None`` (the validator reports ``sibling-missing``)."""
    assert target.plan_comment_id is not None
    wanted = [(target.plan_comment_id, "plan")]
    if target.slices_comment_id is not None:
        wanted.append((target.slices_comment_id, "sibling"))
    outcomes = fetcher.fetch_all(wanted)
    plan = outcomes[0]
    if isinstance(plan, Failure):
        return NotFetched(plan)
    sibling = not_found_as_none(outcomes[1]) if len(outcomes) > 1 else None
    if isinstance(sibling, Failure):
        return NotFetched(sibling, plan)
    return plan, sibling, []


def _pointed_sibling(
    fetcher: CommentFetcher, plan_scan: ScannedComments
) -> FetchedComment | Failure | None:
    """The sibling the plan's spine points at (``None`` when none, or not found)."""
    spine = current_spine(plan_scan)
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None
    return None if pointer is None else fetcher.fetch_if_exists(int(pointer), "sibling")


def fetch_plan(target: ValidateTarget, fetcher: CommentFetcher) -> FetchedPlan | NotFetched:
    """Fetch (or discover) a plan and its sibling (SPEC 10, 13): the part of validate that
    render mode shares.

    Order (SPEC 6.1), for the plan and then the sibling: the answer is the comment asked
    for; its ``issue_url`` (a finding); its author: an untrusted plan stops here
    (``plan-identity-mismatch``: nothing of it is read, no sibling is fetched); an untrusted
    sibling is left out of the comments, with the error finding
    ``sibling-identity-mismatch``.

    Requests: with a plan id, one GET (two, concurrent, with a sibling id), plus one for the
    spine's sibling when no sibling id was given; with only an issue number, the issue's
    comment listing (``per_page=100``, every page) plus the sibling's GET; plus one
    permission GET per distinct author that only the policy's ``write`` term can decide.

    Returns:
        :class:`FetchedPlan`, with the ``issue_url`` disagreements, an untrusted sibling,
        passed-over and older plan comments as findings; or :class:`NotFetched` for a fetch
        failure of the plan, the listing, the sibling or a permission (a sibling that is not
        found, 404/410, is ``None`` instead: validate reports ``sibling-missing``), an issue
        without a plan comment by a trusted author, or an untrusted plan given by id. Never
        raises.
    """
    authors = AuthorCheck(target.trusted_authors, fetcher)
    passed_over: tuple[Untrusted, ...] | None = None
    if target.plan_comment_id is None:
        assert target.issue_number is not None
        discovered = _by_discovery(fetcher, authors, target.issue_number)
        if isinstance(discovered, NotFetched):
            return discovered
        fetched, passed_over = discovered
    else:
        by_id = _by_id(target, fetcher)
        if isinstance(by_id, NotFetched):
            return by_id
        fetched = by_id
    plan, sibling, extra = fetched
    number = target.issue_number if target.issue_number is not None else plan.issue_number
    problem = plan.issue_problem("plan", target.issue_number)
    if problem is not None:
        extra.append(error(Code.PLAN_IDENTITY_MISMATCH, problem, comment="plan"))
    untrusted = authors.untrusted(plan)
    if isinstance(untrusted, Failure):
        return NotFetched(untrusted, plan)
    if untrusted is not None:
        message = untrusted.message if problem is None else f"{problem}; {untrusted.message}"
        failure = Failure(Status.PLAN_IDENTITY_MISMATCH, message)
        return NotFetched(failure, plan, untrusted=untrusted)
    plan_scan = scan_comment(plan.body)
    if target.slices_comment_id is None:
        pointed = _pointed_sibling(fetcher, ScannedComments(plan_scan))
        if isinstance(pointed, Failure):
            return NotFetched(pointed, plan)
        sibling = pointed
    problem = sibling.issue_problem("sibling", number) if sibling is not None else None
    if problem is not None:
        extra.append(error(Code.SIBLING_IDENTITY_MISMATCH, problem, comment="sibling"))
    withheld: FetchedComment | None = None
    if sibling is not None:
        untrusted = authors.untrusted(sibling)
        if isinstance(untrusted, Failure):
            return NotFetched(untrusted, plan)
        if untrusted is not None:
            extra.append(
                error(Code.SIBLING_IDENTITY_MISMATCH, untrusted.message, comment="sibling")
            )
            withheld, sibling = sibling, None
    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    return FetchedPlan(
        plan,
        sibling,
        comments,
        number,
        target.slices_comment_id,
        tuple(extra),
        withheld,
        passed_over,
    )


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
