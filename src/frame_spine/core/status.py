"""The statuses of SPEC 5 and 6, and :class:`Failure`: a status and why, which each mode turns
into its own result (``of_failure``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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
        """The status's exit code (SPEC 5)."""
        return 0 if self in (Status.OK, Status.STALE_SPINE) else 1


@dataclass(frozen=True, slots=True)
class Failure:
    """A status other than success, and why in words (never a library's exception text)."""

    status: Status
    message: str


def error(message: str) -> Failure:
    """An ``error`` failure with ``message``."""
    return Failure(Status.ERROR, message)
