"""Audit's rules (SPEC 11): collect each issue's newest plan from a listing, classify it.

Pure: pages of issue comments in (streamed, so only plan and sibling bodies are kept), a
typed :class:`~.models.AuditReport` out. The fetching edge is :mod:`.online`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ...core.blocks import CommentScan, scan_comment
from ...core.plan import CurrentSpine, ScannedComments, current_spine
from ...core.spine_model import Spine
from ...core.status import Failure
from ...github.payloads import FetchedComment, recency
from ..validate.models import Code, Finding, Severity, ValidationResult, error
from ..validate.rules import validate_scanned
from .models import QUIET_STATES, AuditedPlan, AuditReport, AuditState, AuditStatus

_SIBLING_CODES = {
    Code.SIBLING_MISSING: AuditState.SIBLING_MISSING,
    Code.SIBLING_UNSTAMPED: AuditState.SIBLING_UNSTAMPED,
    Code.STALE_SIBLING: AuditState.STALE_SIBLING,
}


@dataclass
class IssuePlans:
    """An issue's newest plan comment (and its scan), and the ids of all its plan comments.

    Attributes:
        newest: the newest plan comment (by ``updated_at``, then id). scan: its scan.
        ids: the ids of every distinct plan comment of the issue seen in the listing.
    """

    newest: FetchedComment
    scan: CommentScan
    ids: set[int] = field(default_factory=set)
    _spine: tuple[Spine | None] | None = None

    @property
    def count(self) -> int:
        """How many distinct plan comments the issue has (SPEC 11 ``duplicate_plans``)."""
        return len(self.ids)

    def spine(self) -> Spine | None:
        """The newest plan's one valid spine, or ``None`` (parsed once, then remembered)."""
        if self._spine is None:
            found = current_spine(ScannedComments(self.scan))
            self._spine = (found.spine if isinstance(found, CurrentSpine) else None,)
        return self._spine[0]

    def pointer(self) -> int | None:
        """The spine's ``slice_comment_id``, or ``None``."""
        spine = self.spine()
        if spine is None or spine.slice_comment_id is None:
            return None
        return int(spine.slice_comment_id)


#: Whether a comment's author is trusted (SPEC 6.1), or the failure of asking GitHub.
TrustJudge = Callable[[FetchedComment], "bool | Failure"]


@dataclass
class PlanCollector:
    """Collects, page by page, what an audit needs from a repository's comment listing.

    Keeps, per issue, only the newest plan comment by a trusted author (by ``updated_at``,
    then id) and the ids of its plan comments by trusted authors; the ids of plan-like
    comments by others (never kept as plans, SPEC 6.1); and every comment carrying a
    ``frame-slices-N`` marker line (a sibling candidate, judged when a plan points at it), by
    id. Everything else is dropped as soon as its page is read, so memory is bounded by the
    plan and sibling bodies kept. The listing is offset-paginated over live data, so a
    comment edited during the scan can come twice: each comment id counts once, in its
    newest version (SPEC 11).

    Attributes:
        issues: when not ``None``, only comments on these issue numbers are kept.
        trusts: judges each plan-like comment's author (the online edge's trust policy);
            ``None`` trusts every author (for callers that judged them already).
        passed_over: per issue, the ids of plan-like comments whose authors are not trusted.
        failure: the failure of a judgement (a permission request that failed); once set,
            nothing more is collected and the audit reports it.
    """

    issues: set[int] | None = None
    trusts: TrustJudge | None = None
    plans: dict[int, IssuePlans] = field(default_factory=dict)
    siblings: dict[int, tuple[FetchedComment, CommentScan]] = field(default_factory=dict)
    passed_over: dict[int, set[int]] = field(default_factory=dict)
    failure: Failure | None = None
    seen: int = 0

    @property
    def passed_over_count(self) -> int:
        """How many distinct plan-like comments were passed over, in all issues."""
        return sum(len(ids) for ids in self.passed_over.values())

    def _trusted(self, comment: FetchedComment, issue: int) -> bool:
        if self.trusts is None:
            return True
        judged = self.trusts(comment)
        if isinstance(judged, Failure):
            self.failure = judged
            return False
        if not judged:
            self.passed_over.setdefault(issue, set()).add(comment.id)
        return judged

    def add(self, page: Iterable[FetchedComment]) -> None:
        """Take one page of comments (any order)."""
        for comment in page:
            if self.failure is not None:
                return
            self.seen += 1
            issue = comment.issue_number
            if issue is None or (self.issues is not None and issue not in self.issues):
                continue
            body = comment.body
            if "plan-issue-" not in body and "frame-slices-" not in body:
                continue
            scan = scan_comment(body)
            if scan.marker_values("frame-slices"):
                listed = self.siblings.get(comment.id)
                if listed is None or recency(comment) >= recency(listed[0]):
                    self.siblings[comment.id] = (comment, scan)
            if scan.marker_values("plan-issue") and self._trusted(comment, issue):
                known = self.plans.get(issue)
                if known is None:
                    self.plans[issue] = IssuePlans(comment, scan, {comment.id})
                else:
                    known.ids.add(comment.id)
                    if recency(comment) > recency(known.newest):
                        self.plans[issue] = IssuePlans(comment, scan, known.ids)

    def pointers(self) -> dict[int, int]:
        """Each issue's spine pointer (``slice_comment_id``) that the listing does not hold,
        for fetching by id: ``{issue: sibling id}``."""
        missing = {}
        for issue, plans in self.plans.items():
            pointer = plans.pointer()
            if pointer is not None and pointer not in self.siblings:
                missing[issue] = pointer
        return missing


def classify(comments: ScannedComments, result: ValidationResult) -> AuditState:
    """A plan's state (SPEC 11), the first that applies: ``no-spine`` (no spine block at all),
    ``invalid`` (validate errors other than the sibling ones), ``sibling-missing``,
    ``sibling-unstamped``, ``stale-sibling``, ``fresh``.

    ``unresolved-step`` errors are not counted as ``invalid`` when the sibling is missing,
    unstamped or stale: they follow from the sibling's state, which is the finding to report.
    """
    if not comments.holds_spine_head():
        return AuditState.NO_SPINE
    codes = {finding.code for finding in result.findings if finding.severity is Severity.ERROR}
    sibling_states = [state for code, state in _SIBLING_CODES.items() if code in codes]
    others = codes - set(_SIBLING_CODES)
    if sibling_states:
        others.discard(Code.UNRESOLVED_STEP)
    if others:
        return AuditState.INVALID
    return sibling_states[0] if sibling_states else AuditState.FRESH


def audit_plan(
    issue: int,
    plans: IssuePlans,
    sibling: tuple[FetchedComment, CommentScan] | None,
    *,
    untrusted_sibling: str | None = None,
    passed_over: int = 0,
) -> AuditedPlan:
    """Validate one issue's newest plan with its sibling (SPEC 10) and classify it.

    Args:
        issue: the issue number. plans: its plans. sibling: the sibling the spine points
            at, when there is one.
        untrusted_sibling: why the sibling's author is not trusted (SPEC 6.1), when it is
            not: the sibling is then left out, and the error finding
            ``sibling-identity-mismatch`` makes the plan ``invalid``.
        passed_over: how many plan-like comments of the issue were passed over (SPEC 6.1).
    """
    extra: list[Finding] = []
    sibling_scan = None
    if sibling is not None:
        sibling_comment, sibling_scan = sibling
        problem = sibling_comment.issue_problem("sibling", issue)
        if problem is not None:
            extra.append(error(Code.SIBLING_IDENTITY_MISMATCH, problem, comment="sibling"))
    if untrusted_sibling is not None:
        extra.append(error(Code.SIBLING_IDENTITY_MISMATCH, untrusted_sibling, comment="sibling"))
        sibling_scan = None
    comments = ScannedComments(plans.scan, sibling_scan)
    result = validate_scanned(
        comments,
        issue_number=issue,
        extra=extra,
        sibling_withheld=untrusted_sibling is not None,
    )
    spine = plans.spine()
    stamps = sibling_scan.marker_values("stamp") if sibling_scan is not None else []
    return AuditedPlan(
        issue=issue,
        plan_comment_id=plans.newest.id,
        plan_url=plans.newest.html_url,
        sibling_comment_id=plans.pointer(),
        state=classify(comments, result),
        generated_at=spine.generated_at if spine is not None else None,
        sibling_generated_at=stamps[0] if stamps else None,
        duplicate_plans=plans.count > 1,
        errors=result.errors,
        warnings=result.warnings,
        untrusted_plan_comments=passed_over,
    )


def report_of(
    repository: str, requests: int, plans: Iterable[AuditedPlan], passed_over: int = 0
) -> AuditReport:
    """Assemble the report: plans by issue number, counts for every state, the status, and
    how many plan-like comments were passed over in all (SPEC 6.1, ``passed_over``)."""
    ordered = tuple(sorted(plans, key=lambda plan: plan.issue))
    counts = {state.value: 0 for state in AuditState}
    for plan in ordered:
        counts[plan.state.value] += 1
    clean = all(plan.state in QUIET_STATES for plan in ordered)
    return AuditReport(
        status=AuditStatus.CLEAN if clean else AuditStatus.FINDINGS,
        repository=repository,
        requests=requests,
        plans=ordered,
        counts=counts,
        untrusted_plan_comments=passed_over,
    )
