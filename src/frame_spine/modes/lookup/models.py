"""Lookup's inputs and result (SPEC 5, 6); a malformed input is a
:class:`~frame_spine.core.status.Failure` naming it, and no request is made."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.shown import knob
from ...core.status import Failure, Status, error
from ...inputs import (
    ApiTarget,
    DispatchedAt,
    Inputs,
    OptionalId,
    RequiredId,
    SiblingId,
    SpineDigest,
    StepId,
    parse_inputs,
)
from ...result import ModeResult


class LookupResult(ModeResult):
    """The result of one lookup (SPEC 5; the untrusted author or editor, SPEC 6.1). Which fields
    are set depends on ``status``; :mod:`.render` gives SPEC 5's key order."""

    EXIT_ZERO = (Status.OK, Status.STALE_SPINE)

    status: Status
    step_id: str | None = None
    generated_at: str | None = None
    slice: str | None = None
    spine_digest: str | None = None
    generated_at_elided: bool | None = None
    dispatched_generated_at: str | None = None
    current_generated_at: str | None = None
    sibling_generated_at: str | None = None
    slice_comment_id: str | None = None
    count: int | None = None
    message: str | None = None
    author: str | None = None
    author_association: str | None = None
    editor: str | None = None


class LookupRequest(Inputs):
    """Validated dispatch inputs of a lookup (SPEC 5 input checks)."""

    step_id: StepId
    generated_at: DispatchedAt
    spine_digest: SpineDigest = None
    issue_number: OptionalId = None


class OnlineTarget(ApiTarget):
    """Where an online lookup fetches (SPEC 6, 8): the plan comment, and the sibling's id,
    ``"auto"`` or ``None``."""

    plan_comment_id: RequiredId
    slices_comment_id: SiblingId = None


def sibling_without_issue() -> Failure:
    """A sibling without an issue number (SPEC 5: it cannot be identity-checked)."""
    return error(
        "a sibling comment was supplied without an issue number: "
        f"{knob('issue-number')} is required to check the sibling's identity"
    )


def parse_request(raw: Mapping[str, Any], *, has_sibling: bool = False) -> LookupRequest | Failure:
    """SPEC 5's input checks on raw dispatch inputs, by input name; ``has_sibling``: a sibling
    was supplied, which needs an issue number."""
    request = parse_inputs(LookupRequest, raw)
    if isinstance(request, LookupRequest) and has_sibling and request.issue_number is None:
        return sibling_without_issue()
    return request


def parse_online_inputs(raw: Mapping[str, Any]) -> tuple[OnlineTarget, LookupRequest] | Failure:
    """SPEC 5's input checks for an online lookup, in order: the plan comment id, the dispatch
    inputs, then where to fetch."""
    plan_comment_id = raw.get("plan-comment-id")
    if plan_comment_id is None or not str(plan_comment_id).strip():
        missing = f"no plan comment id was given ({knob('plan-comment-id')})"
        return Failure(Status.COMMENT_ID_MISSING, missing)
    request = parse_request(raw)
    if isinstance(request, Failure):
        return request
    target = parse_inputs(OnlineTarget, raw)
    if isinstance(target, Failure):
        return target
    if target.slices_comment_id is not None and request.issue_number is None:
        return sibling_without_issue()
    return target, request
