"""Typed inputs and results of a lookup (SPEC 5): the status enumeration and pydantic models.

Pure: no I/O. Input validation lives here so every edge (CLI, action) reports a malformed
input the same way: as an ``error`` result naming the input, never as an exception.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .digest import normalise_digest
from .timestamps import is_timestamp

_STEP_ID = re.compile(r"[sS][0-9]+", re.ASCII)
_DIGITS = re.compile(r"[0-9]{1,20}", re.ASCII)  # ids are 64-bit on GitHub

#: The ``generated-at`` keyword that skips check 4 (SPEC 5).
CURRENT = "current"


class Status(StrEnum):
    """Every status a lookup can report (SPEC 5, 6). ``value`` is the wire spelling."""

    OK = "ok"
    STALE_SPINE = "stale-spine"
    MISSING_SPINE = "missing-spine"
    INVALID_SPINE = "invalid-spine"
    MISSING_SLICE = "missing-slice"
    DUPLICATE_SLICE_ID = "duplicate-slice-id"
    SIBLING_UNSTAMPED = "sibling-unstamped"
    SIBLING_IDENTITY_MISMATCH = "sibling-identity-mismatch"
    PLAN_IDENTITY_MISMATCH = "plan-identity-mismatch"
    COMMENT_ID_MISSING = "comment-id-missing"
    COMMENT_NOT_FOUND = "comment-not-found"
    GH_AUTH_EXPIRED = "gh-auth-expired"
    GH_RATE_LIMITED = "gh-rate-limited"
    ERROR = "error"

    @property
    def exit_code(self) -> int:
        """The status's own exit code: 0 for ``ok`` and ``stale-spine``, else 1 (SPEC 5)."""
        return 0 if self in (Status.OK, Status.STALE_SPINE) else 1


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

    Render with :func:`frame_spine.render.result_json` (fixed key order) or
    :func:`frame_spine.render.result_text`.
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

    @property
    def exit_code(self) -> int:
        """The process exit code of this result (SPEC 5)."""
        return self.status.exit_code


def error_result(message: str) -> LookupResult:
    """Build an ``error`` result with ``message`` (SPEC 5: malformed inputs, I/O failures)."""
    return LookupResult(status=Status.ERROR, message=message)


class LookupRequest(BaseModel):
    """Validated dispatch inputs of a lookup (SPEC 5 input checks).

    Build it with :func:`validate_lookup_inputs`, which turns every malformed input into an
    ``error`` result instead of raising.

    Attributes:
        step_id: ``s<digits>``, lower-cased.
        generated_at: a contract timestamp as given, or ``"current"``.
        spine_digest: ``"sha256:<64 lowercase hex>"`` or ``None``.
        issue_number: a positive integer or ``None``.
    """

    model_config = ConfigDict(frozen=True)

    step_id: str
    generated_at: str
    spine_digest: str | None = None
    issue_number: int | None = None

    @field_validator("step_id", mode="before")
    @classmethod
    def _check_step_id(cls, value: Any) -> str:
        text = str(value).strip() if value is not None else ""
        if not _STEP_ID.fullmatch(text):
            raise ValueError(f"step-id {text!r} is not a step id (expected s<digits>, e.g. s4)")
        return text.lower()

    @field_validator("generated_at", mode="before")
    @classmethod
    def _check_generated_at(cls, value: Any) -> str:
        text = str(value).strip() if value is not None else ""
        if text != CURRENT and not is_timestamp(text):
            raise ValueError(
                f"generated-at {text!r} is not a timestamp "
                "(expected YYYY-MM-DDTHH:MM:SS[.fraction]Z, or 'current')"
            )
        return text

    @field_validator("spine_digest", mode="before")
    @classmethod
    def _check_digest(cls, value: Any) -> str | None:
        text = str(value).strip() if value is not None else ""
        if not text:
            return None
        digest = normalise_digest(text)
        if digest is None:
            raise ValueError(
                f"spine-digest {text!r} is not a digest (expected sha256:<64 hex digits>)"
            )
        return digest

    @field_validator("issue_number", mode="before")
    @classmethod
    def _check_issue_number(cls, value: Any) -> int | None:
        return parse_positive_id(value, "issue-number")


def parse_positive_id(value: Any, name: str) -> int | None:
    """Parse an id input (issue number, comment id): a positive decimal integer or empty.

    Args:
        value: ``None``, an ``int`` or a string (surrounding whitespace ignored).
        name: the input's name, used in the error message.

    Returns:
        The integer, or ``None`` for ``None``/empty.

    Raises:
        ValueError: naming the input, when the value is not a positive integer.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"{name} {value!r} is not a positive integer")
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if not text:
            return None
        if not _DIGITS.fullmatch(text):
            raise ValueError(f"{name} {text!r} is not a positive integer")
        number = int(text)
    if number <= 0:
        raise ValueError(f"{name} {value!r} is not a positive integer")
    return number


def first_error_message(exc: ValidationError) -> str:
    """Return the message of the first error in a pydantic ``ValidationError``.

    For errors raised by this module's validators that is the ``ValueError`` text itself
    (which names the input); otherwise pydantic's own message prefixed by the field name.
    """
    error = exc.errors()[0]
    original = error.get("ctx", {}).get("error")
    if original is not None:
        return str(original)
    location = ".".join(str(part) for part in error.get("loc", ()))
    return f"{location}: {error.get('msg', 'invalid value')}"


def validate_lookup_inputs(
    *,
    step_id: Any,
    generated_at: Any,
    spine_digest: Any = None,
    issue_number: Any = None,
    has_sibling: bool = False,
) -> LookupRequest | LookupResult:
    """Run the input checks of SPEC 5 on raw dispatch inputs.

    Args:
        step_id, generated_at, spine_digest, issue_number: raw values (strings from a CLI or
            ``INPUT_*`` variables; empty or ``None`` for an absent optional input).
        has_sibling: whether a sibling (id or body) was supplied; a sibling without an issue
            number cannot be identity-checked and is an ``error``.

    Returns:
        A :class:`LookupRequest`, or an ``error`` :class:`LookupResult` whose ``message``
        names the first malformed input. Never raises.
    """
    try:
        request = LookupRequest(
            step_id=step_id,
            generated_at=generated_at,
            spine_digest=spine_digest,
            issue_number=issue_number,
        )
    except ValidationError as exc:
        return error_result(first_error_message(exc))
    if has_sibling and request.issue_number is None:
        return error_result(
            "a sibling comment was supplied without an issue number: "
            "issue-number is required to check the sibling's identity"
        )
    return request
