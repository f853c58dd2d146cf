"""Validate's vocabulary (SPEC 10): finding codes with their severities, findings, the result,
and the inputs of an online validation."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..core.blocks import Block
from ..core.plan import ScannedComments
from ..core.shown import knob
from ..core.status import Failure, Status
from ..core.status import error as error_failure
from ..inputs import ApiTarget, OptionalId, PointerId, parse_inputs
from ..result import ModeResult
from .dispatch import Dispatch, DispatchIds, plan_dispatch

_COMMENT_ORDER = {"plan": 0, "sibling": 1, None: 2}


class Severity(StrEnum):
    """How much a finding matters: errors fail validation; warnings and notices do not."""

    ERROR = "error"
    WARNING = "warning"
    NOTICE = "notice"


class Code(StrEnum):
    """Every finding code (SPEC 10; docs/action.md's table lists them by severity)."""

    severity: Severity  #: the code's one severity

    def __new__(cls, value: str, severity: Severity = Severity.ERROR) -> Code:
        code = str.__new__(cls, value)
        code._value_ = value
        code.severity = severity
        return code

    MISSING_SPINE = "missing-spine"
    VARIANT_WITH_SPINE = "variant-with-spine"
    AMBIGUOUS_VARIANT = "ambiguous-variant"
    UNKNOWN_VARIANT = "unknown-variant"
    VARIANT_WITH_SLICES = "variant-with-slices"
    MULTIPLE_SPINES = "multiple-spines"
    INVALID_SPINE = "invalid-spine"
    UNTERMINATED_BLOCK = "unterminated-block"
    SLICE_WITHOUT_ID = "slice-without-id"
    SIBLING_MISSING = "sibling-missing"
    SIBLING_IDENTITY_MISMATCH = "sibling-identity-mismatch"
    PLAN_IDENTITY_MISMATCH = "plan-identity-mismatch"
    SIBLING_UNSTAMPED = "sibling-unstamped"
    STALE_SIBLING = "stale-sibling"
    UNRESOLVED_STEP = "unresolved-step"
    DUPLICATE_SLICE_ID = "duplicate-slice-id"
    PORT_NOT_PROVIDED = "port-not-provided"
    SLICE_WITHOUT_PROVIDES = "slice-without-provides"
    UNKNOWN_DEPENDENCY = "unknown-dependency"
    DEPENDENCY_CYCLE = "dependency-cycle"
    INVALID_COVERAGE = "invalid-coverage"
    NON_CANONICAL_ORDER = "non-canonical-order", Severity.WARNING
    TRAILING_WHITESPACE = "trailing-whitespace", Severity.WARNING
    ORPHAN_SLICE = "orphan-slice", Severity.WARNING
    UNROUTED_STEP = "unrouted-step", Severity.WARNING
    EXPLORATORY_SLICE = "exploratory-slice", Severity.WARNING
    TERMINAL_MISMATCH = "terminal-mismatch", Severity.WARNING
    LANE_ORDER_CONFLICT = "lane-order-conflict", Severity.WARNING
    OLDER_PLAN_COMMENTS = "older-plan-comments", Severity.WARNING
    UNTRUSTED_PLAN_COMMENT = "untrusted-plan-comment", Severity.WARNING
    HIDDEN_PLAN_COMMENT = "hidden-plan-comment", Severity.NOTICE
    SPINE_OMITTED_WITH_SPINE = "spine-omitted-with-spine", Severity.WARNING
    UNREACHABLE_SLICE = "unreachable-slice", Severity.WARNING
    UNCOVERED_AC = "uncovered-ac", Severity.WARNING
    NO_SPINE_BY_DESIGN = "no-spine-by-design", Severity.NOTICE


class Verdict(StrEnum):
    """A validation's own outcome (a fetch failure reports its SPEC 6 status instead)."""

    VALID = "valid"  #: no error finding
    INVALID = "invalid"  #: at least one


class Finding(BaseModel):
    """One finding (SPEC 10): ``comment`` is ``"plan"``, ``"sibling"`` or ``None``."""

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: Code
    message: str
    comment: str | None = None
    line: int | None = None
    step: str | None = None
    port: str | None = None


class ValidationResult(ModeResult):
    """The result of validate mode (SPEC 10): ``valid``, ``invalid`` or a SPEC 6 status; the
    untrusted author or editor of a plan given by id (SPEC 6.1); the matrix (SPEC 14)."""

    EXIT_ZERO = (Verdict.VALID,)

    status: Verdict | Status
    errors: int = 0
    warnings: int = 0
    findings: tuple[Finding, ...] = ()
    message: str | None = None
    author: str | None = None
    author_association: str | None = None
    editor: str | None = None
    dispatch: Dispatch | None = None


def finding(code: Code, message: str, **where: Any) -> Finding:
    """A finding of ``code``, with the code's one severity (``where``: comment, line, step,
    port)."""
    return Finding(severity=code.severity, code=code, message=message, **where)


def at_block(code: Code, message: str, comment: str, block: Block, **where: str | None) -> Finding:
    """A finding of ``code`` at a block's head line (``where``: step, port)."""
    return finding(code, message, comment=comment, line=block.head_line, **where)


def result_of(findings: Iterable[Finding]) -> ValidationResult:
    """The findings in comment order (plan, sibling, neither; by line; stable), counted."""
    kept = tuple(
        sorted(findings, key=lambda found: (_COMMENT_ORDER.get(found.comment, 2), found.line or 0))
    )
    errors = sum(finding.severity is Severity.ERROR for finding in kept)
    warnings = sum(finding.severity is Severity.WARNING for finding in kept)
    status = Verdict.INVALID if errors else Verdict.VALID
    return ValidationResult(status=status, errors=errors, warnings=warnings, findings=kept)


class ValidateTarget(ApiTarget):
    """Validated inputs of an online validation (SPEC 9, 10)."""

    plan_comment_id: OptionalId = None
    slices_comment_id: PointerId = None
    issue_number: OptionalId = None


def parse_target(raw: Mapping[str, Any]) -> ValidateTarget | Failure:
    """Check the raw inputs of an online validation, by input name (SPEC 9, 10)."""
    target = parse_inputs(ValidateTarget, raw)
    if isinstance(target, Failure):
        return target
    if target.plan_comment_id is None and target.issue_number is None:
        return Failure(
            Status.COMMENT_ID_MISSING,
            f"give a plan comment id ({knob('plan-comment-id')}), or an issue number "
            f"({knob('issue-number')}) to find the newest plan comment on",
        )
    if target.plan_comment_id is None and target.slices_comment_id is not None:
        return error_failure(
            f"{knob('slices-comment-id')} needs {knob('plan-comment-id')} (discovery follows "
            "the spine)"
        )
    return target


def with_dispatch(
    result: ValidationResult,
    comments: ScannedComments,
    ids: DispatchIds,
    completed: Collection[str] | None = None,
) -> ValidationResult:
    """``result`` with its dispatch matrix (SPEC 14), empty unless ``result`` is ``valid``."""
    valid = result.errors == 0 and result.status == "valid"
    dispatch = plan_dispatch(comments, valid=valid, ids=ids, completed=completed)
    return result.model_copy(update={"dispatch": dispatch})
