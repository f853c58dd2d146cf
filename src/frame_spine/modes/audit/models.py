"""Audit mode's vocabulary (SPEC 11): plan states, the report, and the audit's inputs.

Pure.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from ...core.status import Failure, Status
from ...inputs import ApiTarget, IssueState, Since


class AuditStatus(StrEnum):
    """An audit's own outcome (a fetch failure reports its SPEC 6 status instead)."""

    CLEAN = "clean"  #: every plan fresh or no-spine
    FINDINGS = "findings"  #: some plan is not


class AuditState(StrEnum):
    """A plan's state, in SPEC 11's order (the first that applies wins)."""

    HIDDEN = "hidden"
    UNTRUSTED_EDIT = "untrusted-edit"
    UNDETERMINED = "undetermined"
    NO_SPINE = "no-spine"
    INVALID = "invalid"
    SIBLING_MISSING = "sibling-missing"
    SIBLING_UNSTAMPED = "sibling-unstamped"
    STALE_SIBLING = "stale-sibling"
    FRESH = "fresh"


#: States that are not findings: the overall status is ``clean`` when every plan is in one.
QUIET_STATES = (AuditState.FRESH, AuditState.NO_SPINE)


class AuditedPlan(BaseModel):
    """One plan's row in the report (SPEC 11).

    Attributes:
        issue: the issue number. plan_comment_id, plan_url: the newest plan comment.
        sibling_comment_id: the spine's ``slice_comment_id``, or ``None``.
        state: the :class:`AuditState`. generated_at: the spine's ``generated_at``.
        sibling_generated_at: the sibling's stamp as written, when read.
        duplicate_plans: whether the issue has more than one plan comment.
        errors, warnings: how many validate findings of each severity the plan has.
        untrusted_plan_comments, hidden_plan_comments: how many plan-like comments of the
            issue the walk passed over because their authors are not trusted, or hidden
            (SPEC 6.1).
        message: why the newest trusted plan cannot be used (``hidden``, ``untrusted-edit``,
            ``undetermined``), else ``None``.
    """

    model_config = ConfigDict(frozen=True)

    issue: int
    plan_comment_id: int
    plan_url: str | None
    sibling_comment_id: int | None
    state: AuditState
    generated_at: str | None
    sibling_generated_at: str | None
    duplicate_plans: bool
    errors: int
    warnings: int
    untrusted_plan_comments: int = 0
    hidden_plan_comments: int = 0
    message: str | None = None


class AuditReport(BaseModel):
    """The audit of one repository (SPEC 11).

    Attributes:
        status: ``clean`` (every plan fresh or no-spine), ``findings``, or the SPEC 6 status
            of a fetch failure. repository: ``OWNER/NAME``. requests: GETs made.
        plans: one row per plan, by issue number. counts: plans per state (every state).
        untrusted_plan_comments, hidden_plan_comments: how many plan-like comments the walks
            passed over in all, on issues with a plan and without (SPEC 6.1).
        since: the timestamp the listing started from (``since``, a duration resolved).
        message: why, for a fetch failure.
    """

    model_config = ConfigDict(frozen=True)

    status: AuditStatus | Status
    repository: str
    requests: int
    plans: tuple[AuditedPlan, ...] = ()
    counts: dict[str, int] = {}
    untrusted_plan_comments: int = 0
    hidden_plan_comments: int = 0
    since: str | None = None
    message: str | None = None

    @property
    def exit_code(self) -> int:
        """0 when clean, 1 otherwise (SPEC 11)."""
        return 0 if self.status == AuditStatus.CLEAN else 1

    @classmethod
    def of_failure(cls, failure: Failure, repository: str, requests: int = 0) -> AuditReport:
        """An audit that could not run to the end (a refused input, a failed fetch): the
        failure's status and message, no plans."""
        return cls(
            status=failure.status,
            repository=repository,
            requests=requests,
            message=failure.message,
        )


class AuditTarget(ApiTarget):
    """Validated inputs of an audit (SPEC 9 ``frame-spine audit``, SPEC 11).

    Attributes:
        repository, api_url, timeout, max_wait: as for the other online modes.
        issue_state: ``open`` (default), ``closed`` or ``all`` (``all`` lists no issues).
        since: a contract timestamp: only comments updated since then are listed.
    """

    issue_state: IssueState = "open"
    since: Since = None
