"""Input validation of the online modes (SPEC 5 input checks, SPEC 8, SPEC 9, SPEC 10).

Pure: raw inputs (CLI flags or ``INPUT_*`` values) in, validated models out; every malformed
value becomes a result naming the input, and no request is made.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator

from .api_urls import Origin
from .models import (
    LookupRequest,
    LookupResult,
    Status,
    error_result,
    first_error_message,
    parse_positive_id,
    validate_lookup_inputs,
)
from .timestamps import is_timestamp

_REPOSITORY = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\.\.?$)[A-Za-z0-9._-]{1,100}", re.ASCII
)
_API_URL = re.compile(r"https?://[^\s/?#]+(?:/[^\s?#]*)?", re.ASCII)
_SECONDS = re.compile(r"[0-9]{1,6}", re.ASCII)

AUTO = "auto"


def check_repository(value: Any) -> str:
    """``OWNER/NAME`` (GitHub's characters; ``.`` and ``..`` are not names).

    Raises:
        ValueError: naming the input.
    """
    text = str(value or "").strip()
    if not _REPOSITORY.fullmatch(text):
        raise ValueError(f"repository {text!r} is not OWNER/NAME")
    return text


def check_api_url(value: Any) -> str:
    """An ``http(s)://host[:port][/path]`` API root that requests can be sent to, without a
    trailing slash (SPEC 6: a URL that parses but cannot be used is refused here, before any
    request: a port outside 1..65535, a broken IPv6 literal).

    Raises:
        ValueError: naming the input and saying why. A URL with a user name or password is
            refused without quoting it.
    """
    text = str(value or "").strip()
    if not _API_URL.fullmatch(text):
        raise ValueError(f"api-url {text!r} is not an http(s) URL")
    if "@" in text.split("/", 3)[2]:
        raise ValueError("api-url carries a user name or password: give the token as the token")
    try:
        Origin.of(text)
    except ValueError as exc:
        raise ValueError(f"api-url {text!r} cannot be used: {exc}") from None
    return text.rstrip("/")


def check_seconds(value: Any, field: str) -> int:
    """Whole seconds: ``timeout`` in 1..600, ``max_wait`` in 0..3600 (ASCII digits only).

    Raises:
        ValueError: naming the input.
    """
    name = "timeout" if field == "timeout" else "max-wait"
    low, high = (1, 600) if name == "timeout" else (0, 3600)
    text = str(value).strip()
    if not _SECONDS.fullmatch(text) or not low <= int(text) <= high:
        raise ValueError(f"{name} {text!r} is not a whole number of seconds in {low}..{high}")
    return int(text)


class ApiTarget(BaseModel):
    """Where an online mode fetches from: the inputs every online mode shares.

    Attributes:
        repository: ``OWNER/NAME``. api_url: the REST API root (``http(s)://host[/path]``).
        timeout: seconds per request, 1-600. max_wait: seconds of rate-limit waiting, 0-3600.
    """

    model_config = ConfigDict(frozen=True)

    repository: str
    api_url: str
    timeout: int = 10
    max_wait: int = 60

    @field_validator("repository", mode="before")
    @classmethod
    def _check_repository(cls, value: Any) -> str:
        return check_repository(value)

    @field_validator("api_url", mode="before")
    @classmethod
    def _check_api_url(cls, value: Any) -> str:
        return check_api_url(value)

    @field_validator("timeout", "max_wait", mode="before")
    @classmethod
    def _check_seconds(cls, value: Any, info: ValidationInfo) -> int:
        return check_seconds(value, info.field_name or "")


class OnlineTarget(ApiTarget):
    """Validated "where to fetch" inputs of an online lookup (SPEC 5 input checks, SPEC 8).

    Attributes:
        repository: ``OWNER/NAME``.
        plan_comment_id: the plan comment's id.
        slices_comment_id: the sibling's id, ``"auto"`` (follow the spine's
            ``slice_comment_id``) or ``None`` (no sibling).
        api_url: the REST API root (``http(s)://host[/path]``).
        timeout: seconds per request, 1-600. max_wait: seconds of rate-limit waiting, 0-3600.
    """

    plan_comment_id: int
    slices_comment_id: int | Literal["auto"] | None = None

    @field_validator("plan_comment_id", mode="before")
    @classmethod
    def _check_plan_id(cls, value: Any) -> int:
        number = parse_positive_id(value, "plan-comment-id")
        if number is None:
            raise ValueError("plan-comment-id is empty")
        return number

    @field_validator("slices_comment_id", mode="before")
    @classmethod
    def _check_sibling_id(cls, value: Any) -> int | str | None:
        if isinstance(value, str) and value.strip().lower() == AUTO:
            return AUTO
        return parse_positive_id(value, "slices-comment-id")


def validate_online_inputs(
    *,
    repository: Any,
    plan_comment_id: Any,
    slices_comment_id: Any,
    api_url: Any,
    step_id: Any,
    generated_at: Any,
    spine_digest: Any = None,
    issue_number: Any = None,
    timeout: Any = 10,
    max_wait: Any = 60,
) -> tuple[OnlineTarget, LookupRequest] | LookupResult:
    """Run SPEC 5's input checks for an online lookup; no request is made.

    Order: a missing plan comment id is ``comment-id-missing``; then step id,
    ``generated_at``, digest, issue number, repository, comment ids, API URL, timeout and
    max-wait, each malformed value an ``error`` naming the input; a sibling (an id or
    ``auto``) without an issue number is an ``error``.

    Returns:
        ``(target, request)`` or the first failing check's result. Never raises.
    """
    if plan_comment_id is None or not str(plan_comment_id).strip():
        return LookupResult(
            status=Status.COMMENT_ID_MISSING,
            message="no plan comment id was given (plan-comment-id)",
        )
    request = validate_lookup_inputs(
        step_id=step_id,
        generated_at=generated_at,
        spine_digest=spine_digest,
        issue_number=issue_number,
    )
    if isinstance(request, LookupResult):
        return request
    try:
        target = OnlineTarget(
            repository=repository,
            plan_comment_id=plan_comment_id,
            slices_comment_id=slices_comment_id,
            api_url=api_url,
            timeout=timeout,
            max_wait=max_wait,
        )
    except ValidationError as exc:
        return error_result(first_error_message(exc))
    if target.slices_comment_id is not None and request.issue_number is None:
        return error_result(
            "a sibling comment (slices-comment-id) was given without an issue number: "
            "issue-number is required to check the sibling's identity"
        )
    return target, request


class ValidateTarget(ApiTarget):
    """Validated inputs of an online validation (SPEC 9 ``frame-spine validate --repo``).

    Either ``plan_comment_id`` (with an optional ``slices_comment_id``) or ``issue_number``
    alone (discovery) must be given; ``issue_number`` may accompany a plan id.
    """

    plan_comment_id: int | None = None
    slices_comment_id: int | None = None
    issue_number: int | None = None

    @field_validator("plan_comment_id", "slices_comment_id", "issue_number", mode="before")
    @classmethod
    def _check_ids(cls, value: Any, info: ValidationInfo) -> int | None:
        return parse_positive_id(value, (info.field_name or "").replace("_", "-"))


def validate_target_inputs(**inputs: Any) -> ValidateTarget | LookupResult:
    """Check the inputs of an online validation (SPEC 9, 10); no request is made.

    Args:
        inputs: ``repository``, ``api_url``, ``plan_comment_id``, ``slices_comment_id``,
            ``issue_number``, ``timeout``, ``max_wait`` as raw values.

    Returns:
        The :class:`ValidateTarget`, or an ``error`` / ``comment-id-missing`` result naming
        the input. Never raises.
    """
    try:
        target = ValidateTarget(**inputs)
    except ValidationError as exc:
        return error_result(first_error_message(exc))
    if target.plan_comment_id is None and target.issue_number is None:
        return LookupResult(
            status=Status.COMMENT_ID_MISSING,
            message="give a plan comment id (plan-comment-id), or an issue number to find "
            "the newest plan comment on",
        )
    if target.plan_comment_id is None and target.slices_comment_id is not None:
        return error_result("slices-comment-id needs plan-comment-id (discovery follows the spine)")
    return target


class AuditTarget(ApiTarget):
    """Validated inputs of an audit (SPEC 9 ``frame-spine audit``, SPEC 11).

    Attributes:
        repository, api_url, timeout, max_wait: as for the other online modes.
        state: ``open`` (default), ``closed`` or ``all`` (``all`` lists no issues).
        since: a contract timestamp: only comments updated since then are listed.
    """

    state: Literal["open", "closed", "all"] = "open"
    since: str | None = None

    @field_validator("state", mode="before")
    @classmethod
    def _check_state(cls, value: Any) -> str:
        text = str(value or "open").strip()
        if text not in ("open", "closed", "all"):
            raise ValueError(f"issue-state {text!r} is not one of open, closed, all")
        return text

    @field_validator("since", mode="before")
    @classmethod
    def _check_since(cls, value: Any) -> str | None:
        text = str(value or "").strip()
        if not text:
            return None
        if not is_timestamp(text):
            raise ValueError(f"since {text!r} is not a timestamp (YYYY-MM-DDTHH:MM:SSZ)")
        return text


def validate_audit_inputs(**inputs: Any) -> AuditTarget | LookupResult:
    """Check the inputs of an audit (SPEC 9, 11); no request is made.

    Returns:
        The :class:`AuditTarget`, or an ``error`` result naming the input. Never raises.
    """
    try:
        return AuditTarget(**inputs)
    except ValidationError as exc:
        return error_result(first_error_message(exc))
