"""Audit's rules (SPEC 11): what a listing keeps of each comment (streamed: a body only when
SPEC 11 says so, as UTF-8 bytes), and each plan classified."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ...core.blocks import scan_comment
from ...core.plan import CurrentSpine, ScannedComments, current_spine, plan_pointer
from ...core.stamps import shown_stamp
from ...core.trust import TrustPolicy, Verdict, judge
from ...github.payloads import FetchedComment, recency
from ...validation.models import Code, Severity, ValidationResult, finding
from ...validation.rules import validate_scanned
from .models import QUIET_STATES, AuditedPlan, AuditReport, AuditState, AuditStatus

if TYPE_CHECKING:
    from ...github.authors import Walk

_SIBLING_CODES = {
    Code.SIBLING_MISSING: AuditState.SIBLING_MISSING,
    Code.SIBLING_UNSTAMPED: AuditState.SIBLING_UNSTAMPED,
    Code.STALE_SIBLING: AuditState.STALE_SIBLING,
}


def _interned(text: str | None) -> str | None:
    return None if text is None else sys.intern(text)


@dataclass(slots=True)
class Listed:
    """A listed plan-like or sibling-like comment as the audit keeps it (SPEC 11): the comment
    without its body, the body only while it may be needed, a kept plan's pointer."""

    comment: FetchedComment
    plan: bool
    sibling: bool
    body: bytes | None = None
    pointer: int | None = None


@dataclass
class Listing:
    """A repository's comment listing, collected page by page (SPEC 11): of each comment, in
    its newest listed version, what deciding needs."""

    policy: TrustPolicy
    issues: set[int] | None = None
    listed: dict[int, Listed] = field(default_factory=dict)
    versions: dict[int, str] = field(default_factory=dict)
    kept_plans: dict[int, int] = field(default_factory=dict)
    seen: int = 0

    def add(self, page: Iterable[FetchedComment]) -> None:
        """Take one page of comments (any order)."""
        for comment in page:
            self.seen += 1
            issue = comment.issue_number
            if issue is None or (self.issues is not None and issue not in self.issues):
                continue
            updated = comment.updated_at or ""
            if updated < self.versions.get(comment.id, ""):
                continue
            self.versions[comment.id] = updated
            self._take(comment, issue)

    def _take(self, comment: FetchedComment, issue: int) -> None:
        body = comment.body
        scan = scan_comment(body) if "plan-issue-" in body or "frame-slices-" in body else None
        plan = scan is not None and str(issue) in scan.marker_values("plan-issue")
        sibling = scan is not None and bool(scan.marker_values("frame-slices"))
        old = self.listed.pop(comment.id, None)
        if old is not None and self.kept_plans.get(issue) == comment.id:
            del self.kept_plans[issue]
        if not (plan or sibling):
            return
        login, association = _interned(comment.author_login), _interned(comment.author_association)
        bare = replace(comment, body="", author_login=login, author_association=association)
        listed = self.listed[comment.id] = Listed(bare, plan, sibling)
        trusted = not comment.hidden and judge(self.policy, comment.author) is Verdict.TRUSTED
        keep = trusted and sibling
        if trusted and plan:
            kept = self.listed.get(self.kept_plans.get(issue, 0))
            if kept is None or recency(comment) > recency(kept.comment):
                if kept is not None and not kept.sibling:
                    kept.body = None
                self.kept_plans[issue] = comment.id
                listed.pointer = plan_pointer(scan) if scan is not None else None
                keep = True
        if keep:
            listed.body = body.encode("utf-8", "surrogatepass")

    def plan_like(self) -> dict[int, list[FetchedComment]]:
        """Each issue's plan-like comments, newest first, by issue number in order."""
        by_issue: dict[int, list[FetchedComment]] = {}
        for listed in self.listed.values():
            if listed.plan:
                by_issue.setdefault(listed.comment.issue_number or 0, []).append(listed.comment)
        return {
            issue: sorted(comments, key=recency, reverse=True)
            for issue, comments in sorted(by_issue.items())
        }

    def take(self, comment_id: int) -> tuple[Kept, int | None] | None:
        """A kept comment (and a plan's pointer), a plan taken once; ``None`` when not kept."""
        listed = self.listed.get(comment_id)
        if listed is None or listed.body is None:
            return None
        kept = Kept(listed.comment, listed.body)
        if not listed.sibling:  # a sibling stays: another plan may point at it
            listed.body = None
        return kept, listed.pointer


@dataclass(frozen=True, slots=True)
class Kept:
    """A comment held until it is classified: without its body, and the body as UTF-8."""

    comment: FetchedComment
    body: bytes

    @classmethod
    def of(cls, comment: FetchedComment) -> Kept:
        """Hold ``comment``."""
        return cls(replace(comment, body=""), comment.body.encode("utf-8", "surrogatepass"))

    def whole(self) -> FetchedComment:
        """The comment, body and all."""
        return replace(self.comment, body=self.body.decode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class Chosen:
    """An issue's plan as the audit classifies it, with its sibling and the walk that chose it."""

    issue: int
    plan: Kept
    sibling: Kept | None
    sibling_refused: str | None
    walked: Walk


def classify(comments: ScannedComments, result: ValidationResult) -> AuditState:
    """A plan's state (SPEC 11). ``unresolved-step`` does not make it ``invalid`` when the
    sibling is missing, unstamped or stale: it follows from the sibling's state."""
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


def audit_plan(chosen: Chosen) -> AuditedPlan:
    """Validate one issue's plan with its sibling (SPEC 10) and classify it (SPEC 11)."""
    plan = chosen.plan.comment
    plan_scan = scan_comment(chosen.plan.whole().body)
    sibling = chosen.sibling.whole() if chosen.sibling is not None else None
    refused = chosen.sibling_refused
    problem = sibling.issue_problem("sibling", chosen.issue) if sibling is not None else None
    extra = [
        finding(Code.SIBLING_IDENTITY_MISMATCH, why, comment="sibling")
        for why in (problem, refused)
        if why is not None
    ]
    sibling_scan = scan_comment(sibling.body) if sibling is not None and refused is None else None
    comments = ScannedComments(plan_scan, sibling_scan)
    result = validate_scanned(
        comments, issue_number=chosen.issue, extra=extra, sibling_withheld=refused is not None
    )
    found = current_spine(ScannedComments(plan_scan))
    return AuditedPlan(
        issue=chosen.issue,
        plan_comment_id=plan.id,
        plan_url=plan.html_url,
        sibling_comment_id=plan_pointer(plan_scan),
        state=classify(comments, result),
        generated_at=found.spine.generated_at if isinstance(found, CurrentSpine) else None,
        sibling_generated_at=shown_stamp(sibling_scan),
        duplicate_plans=bool(chosen.walked.older),
        errors=result.errors,
        warnings=result.warnings,
        **chosen.walked.counts(),
    )


def unusable_plan(
    issue: int, comment: FetchedComment, state: AuditState, message: str, walked: Walk
) -> AuditedPlan:
    """The row of an issue whose newest trusted plan cannot be used (SPEC 11), with what the
    walk met."""
    return AuditedPlan(
        issue=issue,
        plan_comment_id=comment.id,
        plan_url=comment.html_url,
        state=state,
        message=message,
        duplicate_plans=bool(walked.older),
        **walked.counts(),
    )


def report_of(
    repository: str, requests: int, plans: Iterable[AuditedPlan], passed_over: int, hidden: int
) -> AuditReport:
    """The report: plans by issue number, counts for every state, the status."""
    ordered = tuple(sorted(plans, key=lambda plan: plan.issue))
    counts = {state.value: sum(plan.state is state for plan in ordered) for state in AuditState}
    clean = all(plan.state in QUIET_STATES for plan in ordered)
    return AuditReport(
        status=AuditStatus.CLEAN if clean else AuditStatus.FINDINGS,
        repository=repository,
        requests=requests,
        plans=ordered,
        counts=counts,
        untrusted_plan_comments=passed_over,
        hidden_plan_comments=hidden,
    )
