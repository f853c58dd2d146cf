"""The online lookup pipeline (SPEC 6): inputs -> fetch -> identity checks -> lookup.

Shared by the ``frame-spine lookup --repo`` command line and the action entrypoint. The only
I/O is through the :class:`~frame_spine.github_api.CommentFetcher` it is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .blocks import scan_comment
from .github_api import CommentFetcher, FetchedComment, FetchFailure
from .lookup import CurrentSpine, ScannedComments, current_spine, lookup_scanned
from .models import (
    LookupRequest,
    LookupResult,
    Status,
    error_result,
    first_error_message,
    parse_positive_id,
    validate_lookup_inputs,
)

_REPOSITORY = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}", re.ASCII)
_API_URL = re.compile(r"https?://[^\s/?#]+(?:/[^\s?#]*)?", re.ASCII)
_ISSUE_URL = re.compile(r"/issues/([0-9]+)/?$", re.ASCII)

AUTO = "auto"


class OnlineTarget(BaseModel):
    """Validated "where to fetch" inputs of an online lookup (SPEC 5 input checks, SPEC 8).

    Attributes:
        repository: ``OWNER/NAME``.
        plan_comment_id: the plan comment's id.
        slices_comment_id: the sibling's id, ``"auto"`` (follow the spine's
            ``slice_comment_id``) or ``None`` (no sibling).
        api_url: the REST API root (``http(s)://host[/path]``).
        timeout: seconds per request, 1-600. max_wait: seconds of rate-limit waiting, 0-3600.
    """

    model_config = ConfigDict(frozen=True)

    repository: str
    plan_comment_id: int
    slices_comment_id: int | Literal["auto"] | None = None
    api_url: str
    timeout: int = 10
    max_wait: int = 60

    @field_validator("repository", mode="before")
    @classmethod
    def _check_repository(cls, value: Any) -> str:
        text = str(value or "").strip()
        if not _REPOSITORY.fullmatch(text):
            raise ValueError(f"repository {text!r} is not OWNER/NAME")
        return text

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

    @field_validator("api_url", mode="before")
    @classmethod
    def _check_api_url(cls, value: Any) -> str:
        text = str(value or "").strip()
        if not _API_URL.fullmatch(text):
            raise ValueError(f"api-url {text!r} is not an http(s) URL")
        return text.rstrip("/")

    @field_validator("timeout", "max_wait", mode="before")
    @classmethod
    def _check_seconds(cls, value: Any, info: Any) -> int:
        name = "timeout" if info.field_name == "timeout" else "max-wait"
        low, high = (1, 600) if name == "timeout" else (0, 3600)
        text = str(value).strip()
        if not text.isdigit() or not low <= int(text) <= high:
            raise ValueError(f"{name} {text!r} is not a whole number of seconds in {low}..{high}")
        return int(text)


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


@dataclass(frozen=True, slots=True)
class OnlineLookup:
    """The outcome of :func:`lookup_online`.

    Attributes:
        result: the lookup result (a SPEC 5 or SPEC 6 status).
        plan, sibling: the comments fetched (``None`` when not fetched or when fetching
            failed), for links in the job summary.
    """

    result: LookupResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None


def issue_of(comment: FetchedComment) -> int | None:
    """The issue number in a comment's ``issue_url`` (``.../issues/N``), or ``None``."""
    match = _ISSUE_URL.search(comment.issue_url)
    return int(match.group(1)) if match else None


def _issue_url_problem(comment: FetchedComment, role: str, issue_number: int) -> str | None:
    actual = issue_of(comment)
    if actual == issue_number:
        return None
    named = f"issue #{actual}" if actual is not None else "no issue"
    return (
        f"{role} comment {comment.id} belongs to {named} (its issue_url), "
        f"not to issue #{issue_number}"
    )


def lookup_online(
    target: OnlineTarget, request: LookupRequest, fetcher: CommentFetcher
) -> OnlineLookup:
    """Fetch the plan (and sibling), check identities, and look up the step (SPEC 6).

    Args:
        target: where to fetch (see :func:`validate_online_inputs`).
        request: the validated dispatch inputs.
        fetcher: the :class:`CommentFetcher` for ``target.repository``.

    Returns:
        :class:`OnlineLookup`. Requests: one GET without a sibling; two, issued concurrently,
        with a sibling id; with ``auto``, a second GET after the plan only when its spine
        points at a sibling. Never raises.
    """
    explicit = target.slices_comment_id if isinstance(target.slices_comment_id, int) else None
    wanted = [(target.plan_comment_id, "plan")]
    if explicit is not None:
        wanted.append((explicit, "sibling"))
    outcomes = fetcher.fetch_all(wanted)
    plan = outcomes[0]
    if isinstance(plan, FetchFailure):
        return OnlineLookup(LookupResult(status=plan.status, message=plan.message))
    sibling: FetchedComment | FetchFailure | None = outcomes[1] if explicit is not None else None
    if isinstance(sibling, FetchFailure):
        return OnlineLookup(LookupResult(status=sibling.status, message=sibling.message), plan)

    number = request.issue_number
    if number is not None:
        problem = _issue_url_problem(plan, "plan", number)
        if problem is not None:
            return OnlineLookup(
                LookupResult(status=Status.PLAN_IDENTITY_MISMATCH, message=problem), plan
            )

    plan_scan = scan_comment(plan.body)
    spine: CurrentSpine | LookupResult = current_spine(ScannedComments(plan_scan))
    pointer = spine.spine.slice_comment_id if isinstance(spine, CurrentSpine) else None

    if target.slices_comment_id == AUTO and pointer is not None:
        fetched = fetcher.fetch(int(pointer), "sibling")
        if isinstance(fetched, FetchFailure):
            return OnlineLookup(LookupResult(status=fetched.status, message=fetched.message), plan)
        sibling = fetched

    if sibling is not None and number is not None:
        problem = _issue_url_problem(sibling, "sibling", number)
        if problem is not None:
            return OnlineLookup(
                LookupResult(status=Status.SIBLING_IDENTITY_MISMATCH, message=problem),
                plan,
                sibling,
            )
    if explicit is not None and pointer is not None and pointer != str(explicit):
        return OnlineLookup(
            LookupResult(
                status=Status.SIBLING_IDENTITY_MISMATCH,
                message=(
                    f"sibling comment {explicit} was dispatched, but the plan's spine points "
                    f"at sibling comment {pointer} (slice_comment_id)"
                ),
            ),
            plan,
            sibling,
        )

    comments = ScannedComments(plan_scan, None if sibling is None else scan_comment(sibling.body))
    known = spine if isinstance(spine, CurrentSpine) else None
    return OnlineLookup(lookup_scanned(request, comments, plan_spine=known), plan, sibling)
