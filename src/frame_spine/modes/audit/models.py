"""Audit mode's vocabulary (SPEC 11): plan states, the report, and the audit's inputs."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from ...core.status import Status
from ...inputs import ApiTarget, IssueState, Since
from ...result import ModeResult


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
    """One plan's row in the report (SPEC 11); ``message``: why the newest trusted plan
    cannot be used (``hidden``, ``untrusted-edit``, ``undetermined``)."""

    model_config = ConfigDict(frozen=True)

    issue: int
    plan_comment_id: int
    plan_url: str | None
    sibling_comment_id: int | None = None
    state: AuditState
    generated_at: str | None = None
    sibling_generated_at: str | None = None
    duplicate_plans: bool = False
    errors: int = 0
    warnings: int = 0
    untrusted_plan_comments: int = 0
    hidden_plan_comments: int = 0
    message: str | None = None


class AuditReport(ModeResult):
    """The audit of one repository (SPEC 11): ``requests`` counts the GETs made, ``since``
    is the listing's start (a duration resolved)."""

    EXIT_ZERO = (AuditStatus.CLEAN,)

    status: AuditStatus | Status
    repository: str
    requests: int = 0
    plans: tuple[AuditedPlan, ...] = ()
    counts: dict[str, int] = Field(default_factory=dict)
    untrusted_plan_comments: int = 0
    hidden_plan_comments: int = 0
    since: str | None = None
    message: str | None = None


class AuditTarget(ApiTarget):
    """Validated inputs of an audit (SPEC 9, 11)."""

    issue_state: IssueState = "open"
    since: Since = None
