"""Audit's rules (SPEC 11): collect each issue's newest plan from a listing, classify it.

Pure: pages of issue comments in (streamed, so only plan and sibling bodies are kept, as
UTF-8 bytes), a typed :class:`~.models.AuditReport` out. The fetching edge is :mod:`.online`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from ...core.blocks import CommentScan, scan_comment
from ...core.plan import CurrentSpine, ScannedComments, current_spine
from ...core.spine_model import Spine
from ...core.stamps import shown_stamp
from ...core.status import Failure
from ...github.payloads import FetchedComment, recency
from ...validation.models import Code, Finding, Severity, ValidationResult, error
from ...validation.rules import validate_scanned
from .models import QUIET_STATES, AuditedPlan, AuditReport, AuditState, AuditStatus

_SIBLING_CODES = {
    Code.SIBLING_MISSING: AuditState.SIBLING_MISSING,
    Code.SIBLING_UNSTAMPED: AuditState.SIBLING_UNSTAMPED,
    Code.STALE_SIBLING: AuditState.STALE_SIBLING,
}


def _interned(text: str | None) -> str | None:
    return None if text is None else sys.intern(text)


@dataclass(frozen=True, slots=True)
class KeptComment:
    """A listed comment kept until the audit reads it (a plan or sibling candidate), in the
    least memory that gives it back whole (SPEC 11 revision 3: peak memory above that of the
    same audit without plans at most 3x the UTF-8 bytes of the plan and sibling bodies it
    needs; benchmarks/bench_audit.py measures it).

    A Python ``str`` of mostly-ASCII text with one ``—`` in it takes 2 bytes a character, and
    a scan holds copies of its blocks' payloads; so the body is kept as its UTF-8 bytes
    (``surrogatepass``: any ``str`` comes back as it was) and scanned again when read. The
    author's login and association, the same few words for most comments, are interned.

    Attributes:
        comment: the comment as listed, but with an empty ``body``.
        body: its body, UTF-8.
    """

    comment: FetchedComment
    body: bytes

    @classmethod
    def of(cls, comment: FetchedComment) -> KeptComment:
        """Keep ``comment`` (its body encoded as UTF-8)."""
        listed = replace(
            comment,
            body="",
            author_login=_interned(comment.author_login),
            author_association=_interned(comment.author_association),
        )
        return cls(listed, comment.body.encode("utf-8", "surrogatepass"))

    @property
    def id(self) -> int:
        """The comment id."""
        return self.comment.id

    def fetched(self) -> FetchedComment:
        """The comment as it was listed, body and all."""
        return replace(self.comment, body=self.body.decode("utf-8", "surrogatepass"))

    def scanned(self) -> tuple[FetchedComment, CommentScan]:
        """The comment as listed, and the scan of its body (SPEC 2)."""
        comment = self.fetched()
        return comment, scan_comment(comment.body)


@dataclass(slots=True)
class IssuePlans:
    """An issue's newest plan comment, kept, and the ids of all its plan comments.

    Attributes:
        newest: the newest plan comment (by ``updated_at``, then id).
        first: the id of the first plan comment seen. others: the ids of the issue's other
            distinct plan comments seen in the listing, ``None`` while there are none (most
            issues have one plan comment: no set for them).
    """

    newest: KeptComment
    first: int
    others: set[int] | None = None

    @property
    def count(self) -> int:
        """How many distinct plan comments the issue has (SPEC 11 ``duplicate_plans``)."""
        return 1 + len(self.others or ())

    def add(self, comment_id: int) -> None:
        """Count plan comment ``comment_id`` (once, however often it is listed)."""
        if comment_id != self.first:
            if self.others is None:
                self.others = set()
            self.others.add(comment_id)

    def opened(self) -> OpenedPlan:
        """The newest plan read back: its comment, its scan and its spine."""
        comment, scan = self.newest.scanned()
        found = current_spine(ScannedComments(scan))
        spine = found.spine if isinstance(found, CurrentSpine) else None
        return OpenedPlan(comment, scan, spine, self.count)


@dataclass(frozen=True, slots=True)
class OpenedPlan:
    """An issue's newest plan comment as classification reads it (one at a time).

    Attributes:
        comment: the plan comment. scan: its scan. spine: its one valid spine, or ``None``.
        count: how many distinct plan comments the issue has (SPEC 11 ``duplicate_plans``).
    """

    comment: FetchedComment
    scan: CommentScan
    spine: Spine | None
    count: int = 1

    @property
    def pointer(self) -> int | None:
        """The spine's ``slice_comment_id``, or ``None``."""
        if self.spine is None or self.spine.slice_comment_id is None:
            return None
        return int(self.spine.slice_comment_id)


#: Whether a comment's author is trusted (SPEC 6.1), or the failure of asking GitHub.
TrustJudge = Callable[[FetchedComment], "bool | Failure"]


@dataclass
class PlanCollector:
    """Collects, page by page, what an audit needs from a repository's comment listing.

    Keeps, per issue, only the newest plan comment by a trusted author (by ``updated_at``,
    then id) and the ids of its plan comments by trusted authors; the ids of plan-like
    comments by others (never kept as plans, SPEC 6.1); and every comment carrying a
    ``frame-slices-N`` marker line (a sibling candidate, judged when a plan points at it), by
    id. Each kept comment is a :class:`KeptComment` (its body as UTF-8 bytes, no scan);
    everything else is dropped as soon as its page is read, so memory is bounded by the plan
    and sibling bodies kept (SPEC 11). The listing is offset-paginated over live data, so a
    comment edited during the scan can come twice: each comment id counts once, in its
    newest version (SPEC 11).

    Attributes:
        issues: when not ``None``, only comments on these issue numbers are kept.
        trusts: judges each plan-like comment's author (the online edge's trust policy);
            ``None`` trusts every author (for callers that judged them already).
        plans: per issue number, its plans. siblings: the sibling candidates, by id.
        passed_over: per issue, the ids of plan-like comments whose authors are not trusted.
        failure: the failure of a judgement (a permission request that failed); once set,
            nothing more is collected and the audit reports it.
        seen: how many listed comments were read.
    """

    issues: set[int] | None = None
    trusts: TrustJudge | None = None
    plans: dict[int, IssuePlans] = field(default_factory=dict)
    siblings: dict[int, KeptComment] = field(default_factory=dict)
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
            kept = None
            if scan.marker_values("frame-slices"):
                listed = self.siblings.get(comment.id)
                if listed is None or recency(comment) >= recency(listed.comment):
                    kept = KeptComment.of(comment)
                    self.siblings[comment.id] = kept
            if scan.marker_values("plan-issue") and self._trusted(comment, issue):
                known = self.plans.get(issue)
                if known is None:
                    self.plans[issue] = IssuePlans(kept or KeptComment.of(comment), comment.id)
                else:
                    known.add(comment.id)
                    if recency(comment) > recency(known.newest.comment):
                        known.newest = kept or KeptComment.of(comment)

    def take(self, issue: int) -> OpenedPlan:
        """Issue ``issue``'s newest plan read back (:meth:`IssuePlans.opened`), and no longer
        kept: classifying the plans one by one lets go of each plan's body as the report's
        rows grow (sibling candidates stay: several plans may point at one).

        Raises:
            KeyError: when the collector holds no plan of ``issue``.
        """
        return self.plans.pop(issue).opened()

    def sibling(self, comment_id: int) -> tuple[FetchedComment, CommentScan] | None:
        """The listed sibling candidate ``comment_id`` read back with its scan, or ``None``
        when the listing does not hold it (then it is fetched by id)."""
        kept = self.siblings.get(comment_id)
        return kept.scanned() if kept is not None else None


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
    plan: OpenedPlan,
    sibling: tuple[FetchedComment, CommentScan] | None,
    *,
    untrusted_sibling: str | None = None,
    passed_over: int = 0,
) -> AuditedPlan:
    """Validate one issue's newest plan with its sibling (SPEC 10) and classify it.

    Args:
        issue: the issue number. plan: its newest plan, read back. sibling: the sibling
            the spine points at, when there is one.
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
    comments = ScannedComments(plan.scan, sibling_scan)
    result = validate_scanned(
        comments,
        issue_number=issue,
        extra=extra,
        sibling_withheld=untrusted_sibling is not None,
    )
    spine = plan.spine
    return AuditedPlan(
        issue=issue,
        plan_comment_id=plan.comment.id,
        plan_url=plan.comment.html_url,
        sibling_comment_id=plan.pointer,
        state=classify(comments, result),
        generated_at=spine.generated_at if spine is not None else None,
        sibling_generated_at=shown_stamp(sibling_scan),
        duplicate_plans=plan.count > 1,
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
