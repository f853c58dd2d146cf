"""Lookup's inputs and result (SPEC 5, 6): the dispatch inputs, where to fetch, the result.

Pure: raw inputs in (through :func:`frame_spine.inputs.parse_inputs`), validated models out;
every malformed input becomes a :class:`~frame_spine.core.status.Failure` naming it, never an
exception, and no request is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

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


class LookupResult(BaseModel):
    """The result of one lookup (SPEC 5). Which fields are set depends on ``status``.

    Attributes (all optional but ``status``):
        step_id: the requested step (``ok``, ``missing-slice``, ``duplicate-slice-id``).
        generated_at: the dispatched value (``ok``; the spine's own for ``current``).
        slice: the slice payload verbatim (``ok``).
        spine_digest: ``sha256:<hex>`` of the current spine, whenever one was parsed.
        generated_at_elided: ``True`` when the digest saved a differing instant (SPEC 7).
        dispatched_generated_at: the dispatched value (``stale-spine``, check 4).
        current_generated_at: the spine's ``generated_at``, whenever a spine was parsed.
        sibling_generated_at: the sibling's stamp as written, whenever one was read.
        slice_comment_id: the spine's sibling pointer, a decimal string
            (``sibling-unstamped``).
        count: how many blocks carry the step (``duplicate-slice-id``).
        message: why, for every status but ``ok``.
        author, author_association: the login (``ghost`` for a deleted account) and the
            ``author_association`` of a comment whose author is not trusted (SPEC 6.1:
            ``plan-identity-mismatch``, ``sibling-identity-mismatch``); editor: likewise,
            the newest editor not trusted.

    Render with :func:`frame_spine.modes.lookup.render.result_json` (SPEC 5's key order)
    or :func:`frame_spine.modes.lookup.render.result_text`.
    """

    model_config = ConfigDict(frozen=True)

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

    @property
    def exit_code(self) -> int:
        """The process exit code of this result (SPEC 5)."""
        return self.status.exit_code

    @classmethod
    def of_failure(cls, failure: Failure) -> LookupResult:
        """The result of a lookup that stopped at ``failure`` (a refused input, a failed
        fetch, a plan without a single valid spine): its status and message."""
        return cls(status=failure.status, message=failure.message)


class LookupRequest(Inputs):
    """Validated dispatch inputs of a lookup (SPEC 5 input checks); see :func:`parse_request`.

    Attributes:
        step_id: ``s<digits>``, lower-cased.
        generated_at: a contract timestamp as given, or ``"current"``.
        spine_digest: ``"sha256:<64 lowercase hex>"`` or ``None``.
        issue_number: a positive integer or ``None``.
    """

    step_id: StepId
    generated_at: DispatchedAt
    spine_digest: SpineDigest = None
    issue_number: OptionalId = None


class OnlineTarget(ApiTarget):
    """Where an online lookup fetches (SPEC 6, 8): the shared :class:`ApiTarget` inputs, then
    the plan comment's id and the sibling's (an id, ``"auto"`` to follow the spine's
    ``slice_comment_id``, or ``None``)."""

    plan_comment_id: RequiredId
    slices_comment_id: SiblingId = None


def sibling_without_issue() -> Failure:
    """A sibling (an id, ``auto`` or a body) without an issue number (SPEC 5: it cannot be
    identity-checked), in the words of every place that refuses it."""
    return error(
        "a sibling comment was supplied without an issue number: "
        f"{knob('issue-number')} is required to check the sibling's identity"
    )


def parse_request(raw: Mapping[str, Any], *, has_sibling: bool = False) -> LookupRequest | Failure:
    """Run the input checks of SPEC 5 on raw dispatch inputs.

    Args:
        raw: ``step-id``, ``generated-at``, ``spine-digest``, ``issue-number`` (by input or
            field name): strings from a CLI or ``INPUT_*`` variables, empty or ``None`` for an
            absent optional input.
        has_sibling: whether a sibling (id or body) was supplied; a sibling without an issue
            number cannot be identity-checked and is an ``error``.

    Returns:
        A :class:`LookupRequest`, or an ``error`` failure naming the first malformed input.
    """
    request = parse_inputs(LookupRequest, raw)
    if isinstance(request, LookupRequest) and has_sibling and request.issue_number is None:
        return sibling_without_issue()
    return request


def parse_online_inputs(raw: Mapping[str, Any]) -> tuple[OnlineTarget, LookupRequest] | Failure:
    """Run SPEC 5's input checks for an online lookup; no request is made.

    Args:
        raw: the action's inputs (or the CLI's flags) by input name: the dispatch inputs of
            :func:`parse_request`, then ``repository``, ``api-url``, ``timeout``,
            ``max-wait``, ``plan-comment-id``, ``slices-comment-id``.

    Order: a missing plan comment id is ``comment-id-missing``; then the dispatch inputs
    (step id, ``generated_at``, digest, issue number), then where to fetch (repository, API
    URL, timeout, max-wait, comment ids), each malformed value an ``error`` naming the
    input; a sibling (an id or ``auto``) without an issue number is an ``error``.

    Returns:
        ``(target, request)`` or the first failing check's failure. Never raises.
    """
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
