"""What to do when a GitHub REST request fails: retry after a wait, or give up with a status.

Pure (SPEC 6 "HTTP failures become statuses"): a failure description, the attempt number and
the time already waited in, a :class:`RetryAfter` or a :class:`GiveUp` out. The clock is a
parameter, so every rule is testable without sleeping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from .models import Status

#: Backoff before the 2nd and 3rd attempt after a 5xx or a connection failure (SPEC 6).
BACKOFF_SECONDS = (1.0, 2.0)
#: Attempts in all for 5xx answers and connection failures (SPEC 6).
MAX_ATTEMPTS = 3
#: A safety cap on rate-limit retries (each waited out within max-wait), e.g. for a server
#: that keeps answering ``retry-after: 0``.
MAX_RATE_LIMIT_RETRIES = 10
#: GitHub's advice for a rate limit without retry-after or reset: wait a minute.
DEFAULT_RATE_LIMIT_WAIT = 60.0
_MESSAGE_LIMIT = 200

FailureKind = Literal["http", "connection", "timeout", "malformed"]


@dataclass(frozen=True, slots=True)
class RequestFailure:
    """One failed request.

    Attributes:
        kind: ``"http"`` (an error status), ``"connection"`` (refused, reset, DNS),
            ``"timeout"`` (no answer within the timeout) or ``"malformed"`` (a 2xx answer that
            is not the expected JSON).
        status: the HTTP status for ``"http"``, else ``None``.
        headers: response headers with lower-case names (empty when there was no response).
        detail: the API's ``message`` or the transport error, as a short string.
    """

    kind: FailureKind
    status: int | None = None
    headers: Mapping[str, str] | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class RetryAfter:
    """Retry the request after ``seconds`` of waiting; ``rate_limit`` says whether the wait
    counts against the rate-limit budget (``max-wait``) or is a 5xx/connection backoff."""

    seconds: float
    rate_limit: bool = False


@dataclass(frozen=True, slots=True)
class GiveUp:
    """Stop: report ``status`` (a SPEC 6 status) with ``message``."""

    status: Status
    message: str


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MESSAGE_LIMIT else text[: _MESSAGE_LIMIT - 3] + "..."


def _iso(epoch_seconds: float) -> str:
    moment = datetime.fromtimestamp(int(epoch_seconds), tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _is_seconds(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also accepts ``²``), at most 12 of them."""
    return 0 < len(text) <= 12 and text.isascii() and text.isdigit()


def _rate_limit_wait(headers: Mapping[str, str], now: float) -> tuple[float, float]:
    """Return (seconds to wait, epoch second when the limit clears) per GitHub's advice."""
    retry_after = headers.get("retry-after", "").strip()
    if _is_seconds(retry_after):
        seconds = float(retry_after)
        return seconds, now + seconds
    reset = headers.get("x-ratelimit-reset", "").strip()
    if headers.get("x-ratelimit-remaining", "").strip() == "0" and _is_seconds(reset):
        return max(0.0, float(reset) - now), float(reset)
    return DEFAULT_RATE_LIMIT_WAIT, now + DEFAULT_RATE_LIMIT_WAIT


def _is_rate_limited(failure: RequestFailure, headers: Mapping[str, str]) -> bool:
    return (
        failure.status == 429
        or headers.get("x-ratelimit-remaining", "").strip() == "0"
        or "retry-after" in headers
        or "rate limit" in failure.detail.lower()
    )


def decide(
    failure: RequestFailure,
    *,
    what: str,
    attempt: int,
    rate_limit_retries: int,
    rate_limit_waited: float,
    max_wait: float,
    timeout: float,
    now: float,
) -> RetryAfter | GiveUp:
    """Decide between retrying and giving up after a failed request (SPEC 6).

    Args:
        failure: what went wrong.
        what: how messages name the request, e.g. ``"plan comment 123 in octo/repo"``.
        attempt: how many attempts of this request have met a 5xx or a connection failure,
            this one included (1-based).
        rate_limit_retries: how many times this request has already waited out a rate limit.
        rate_limit_waited: seconds of rate-limit waiting already spent by the whole lookup
            (all its requests).
        max_wait: the most seconds of rate-limit waiting allowed in all (input ``max-wait``).
        timeout: the per-request timeout in seconds (input ``timeout``), for messages.
        now: the current time, seconds since the epoch.

    Returns:
        :class:`RetryAfter` for a 5xx or connection failure while attempts remain (1 s, then
        2 s), or a rate limit that clears while the total rate-limit wait stays within
        ``max_wait``; otherwise :class:`GiveUp` with ``comment-not-found`` (404/410),
        ``gh-auth-expired`` (401, or a 403 without a rate-limit signal), ``gh-rate-limited``
        (a rate limit that does not clear in time) or ``error`` (5xx or connection failures
        after 3 attempts, a timeout, a malformed answer, any other status).
    """
    headers = failure.headers or {}
    can_retry = attempt < MAX_ATTEMPTS
    if failure.kind == "timeout":
        return GiveUp(Status.ERROR, f"{what}: the GitHub API did not answer within {timeout:g} s")
    if failure.kind == "malformed":
        return GiveUp(
            Status.ERROR,
            f"{what}: the GitHub API's answer is not an issue comment in JSON "
            f"({_short(failure.detail)})",
        )
    if failure.kind == "connection":
        if can_retry:
            return RetryAfter(BACKOFF_SECONDS[attempt - 1])
        return GiveUp(
            Status.ERROR,
            f"{what}: cannot reach the GitHub API after {MAX_ATTEMPTS} attempts "
            f"({_short(failure.detail)})",
        )
    status = failure.status or 0
    detail = f": {_short(failure.detail)}" if failure.detail else ""
    if status in (404, 410):
        return GiveUp(
            Status.COMMENT_NOT_FOUND,
            f"{what} was not found (HTTP {status}): check the comment id and repository, and "
            "that the token can read the repository",
        )
    if status == 401:
        return GiveUp(
            Status.GH_AUTH_EXPIRED,
            f"{what}: the token is invalid or expired (HTTP 401{detail})",
        )
    if status in (403, 429) and _is_rate_limited(failure, headers):
        seconds, clears_at = _rate_limit_wait(headers, now)
        within_budget = rate_limit_waited + seconds <= max_wait
        if within_budget and rate_limit_retries < MAX_RATE_LIMIT_RETRIES:
            return RetryAfter(seconds, rate_limit=True)
        if not within_budget:
            message = (
                f"{what}: rate limited by the GitHub API until {_iso(clears_at)} (HTTP {status}; "
                f"waiting {seconds:.0f} s more would exceed max-wait {max_wait:g} s)"
            )
        else:
            message = (
                f"{what}: still rate limited by the GitHub API after "
                f"{MAX_RATE_LIMIT_RETRIES} waits; it clears at {_iso(clears_at)}"
            )
        return GiveUp(Status.GH_RATE_LIMITED, message)
    if status == 403:
        return GiveUp(
            Status.GH_AUTH_EXPIRED,
            f"{what}: permission denied (HTTP 403{detail}): the token lacks issues: read "
            "on the repository",
        )
    if 500 <= status <= 599:
        if can_retry:
            return RetryAfter(BACKOFF_SECONDS[attempt - 1])
        return GiveUp(
            Status.ERROR,
            f"{what}: the GitHub API answered HTTP {status} {MAX_ATTEMPTS} times{detail}",
        )
    return GiveUp(Status.ERROR, f"{what}: the GitHub API answered HTTP {status}{detail}")
