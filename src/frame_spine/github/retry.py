"""What to do when a GitHub REST request fails: retry after a wait, or give up with a status.

Pure (SPEC 6 "HTTP failures become statuses" and "The wire, exactly"): a failure description,
the attempt number and the time already waited in, a :class:`RetryAfter` or a
:class:`Failure` out. The clock is a parameter, so every rule is testable without sleeping.
``retry-after`` is read as seconds or as an HTTP-date; values far in the future are a
``gh-rate-limited`` result, never an overflow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Literal

from ..core.shown import cut
from ..core.status import Failure, Status

#: Backoff before the 2nd and 3rd attempt after a 5xx or a connection failure (SPEC 6).
BACKOFF_SECONDS = (1.0, 2.0)
#: Attempts in all for 5xx answers and connection failures (SPEC 6).
MAX_ATTEMPTS = 3
_ATTEMPTS_IN_WORDS = ("one", "two", "three", "four", "five")[MAX_ATTEMPTS - 1]
#: A safety cap on rate-limit retries (each waited out within max-wait), e.g. for a server
#: that keeps answering ``retry-after: 0``.
MAX_RATE_LIMIT_RETRIES = 10
#: GitHub's advice for a rate limit without retry-after or reset: wait a minute.
DEFAULT_RATE_LIMIT_WAIT = 60.0
_MESSAGE_LIMIT = 200
#: Waits are computed with at most this many seconds (about 31,700 years): any longer value
#: is just "far in the future", and no arithmetic on it can overflow.
_FAR_SECONDS = 10**12
#: The last instant a message can show (datetime's range ends in year 9999).
_LAST_SHOWN = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()
#: What an ``x-github-request-id`` looks like (GitHub: hex groups joined by colons); other
#: values are not quoted in messages.
_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9:._-]{0,99}", re.ASCII)

_NOT_FOUND = (
    " was not found (HTTP {status}): check the comment id and repository, and that the token "
    "can read the repository"
)
_ANSWERED = ": the GitHub API answered HTTP {status}{detail}"
#: HTTP statuses that end a request at once, and how (SPEC 6 "HTTP failures become
#: statuses"): the status and the message after the request's name.
_GIVEN_UP = {
    401: (Status.GH_AUTH_EXPIRED, ": the token is invalid or expired (HTTP 401{detail})"),
    403: (
        Status.GH_AUTH_EXPIRED,
        ": permission denied (HTTP 403{detail}): the token lacks issues: read on the repository",
    ),
    404: (Status.COMMENT_NOT_FOUND, _NOT_FOUND),
    410: (Status.COMMENT_NOT_FOUND, _NOT_FOUND),
}

FailureKind = Literal["http", "connection", "timeout", "malformed", "final"]


@dataclass(frozen=True, slots=True)
class RequestFailure:
    """One failed request.

    Attributes:
        kind: ``"http"`` (an error status), ``"connection"`` (refused, reset, DNS, TLS),
            ``"timeout"`` (no whole answer within the timeout) or ``"malformed"`` (an answer
            that cannot be used: not UTF-8, too large, not the expected JSON, another
            comment, a redirect or pagination link that is not followed).
        status: the HTTP status for ``"http"``, else ``None``.
        headers: response headers with lower-case names (empty when there was no response).
        detail: for ``"http"`` the API's ``message``; for ``"connection"`` what happened
            (e.g. ``"connection refused"``); for ``"malformed"`` the whole phrase that
            follows the request's name (e.g. ``"the GitHub API's answer is larger than
            32 MiB"``); for ``"final"`` (a failure retrying cannot mend: an untrusted
            certificate, a proxy's 407, ...) likewise the whole phrase. Never a library's
            exception text.
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


def _short(text: str) -> str:
    return cut(" ".join(text.split()), _MESSAGE_LIMIT)


def _iso(epoch_seconds: float) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ``; instants past year 9999 say so instead of overflowing."""
    if epoch_seconds > _LAST_SHOWN:
        return "after 9999-12-31T23:59:59Z"
    moment = datetime.fromtimestamp(int(max(epoch_seconds, 0)), tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _whole_number(text: str) -> int | None:
    """ASCII digits only (``str.isdigit`` also accepts ``²``), any length, capped at
    ``_FAR_SECONDS`` so that no later arithmetic overflows."""
    if not (text and text.isascii() and text.isdigit()):
        return None
    return _FAR_SECONDS if len(text) > 13 else min(int(text), _FAR_SECONDS)


def retry_after_instant(value: str, now: float) -> float | None:
    """When a ``retry-after`` value says to retry, in epoch seconds (SPEC 6)."""
    text = value.strip()
    seconds = _whole_number(text)
    if seconds is not None:
        return now + seconds
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return min(moment.timestamp(), now + _FAR_SECONDS)


def _rate_limit_wait(headers: Mapping[str, str], now: float) -> tuple[float, float]:
    """Return (seconds to wait, epoch second when the limit clears) per GitHub's advice:
    ``retry-after`` first, then ``x-ratelimit-reset`` when nothing remains, else a minute."""
    retry_at = retry_after_instant(headers.get("retry-after", ""), now)
    if retry_at is not None:
        return max(0.0, retry_at - now), retry_at
    reset = _whole_number(headers.get("x-ratelimit-reset", "").strip())
    if headers.get("x-ratelimit-remaining", "").strip() == "0" and reset is not None:
        return max(0.0, reset - now), float(reset)
    return DEFAULT_RATE_LIMIT_WAIT, now + DEFAULT_RATE_LIMIT_WAIT


def request_id_note(headers: Mapping[str, str] | None) -> str:
    """`` (request id F00D:1234:...)`` when GitHub sent an ``x-github-request-id`` that looks
    like one (SPEC 8: messages of HTTP failures carry it), else ``""``."""
    request_id = (headers or {}).get("x-github-request-id", "").strip()
    return f" (request id {request_id})" if _REQUEST_ID.fullmatch(request_id) else ""


def is_rate_limited(failure: RequestFailure) -> bool:
    """Whether a failed request carries a rate-limit signal (SPEC 6): HTTP 429, or a
    ``x-ratelimit-remaining: 0``, a ``retry-after`` or "rate limit" in the message."""
    headers = failure.headers or {}
    return (
        failure.status == 429
        or headers.get("x-ratelimit-remaining", "").strip() == "0"
        or "retry-after" in headers
        or "rate limit" in failure.detail.lower()
    )


@dataclass(frozen=True, slots=True)
class RetryContext:
    """Where a request stands when it failed (the inputs of :func:`decide` besides the
    failure).

    Attributes:
        what: how messages name the request, e.g. ``"plan comment 123 in octo/repo"``.
        attempt: how many attempts of this request have met a 5xx or a connection failure,
            this one included (1-based).
        rate_limit_retries: how many times this request has already waited out a rate limit.
        rate_limit_waited: seconds of rate-limit waiting already spent by the whole lookup
            (all its requests).
        max_wait: the most seconds of rate-limit waiting allowed in all (input ``max-wait``).
        timeout: the per-request timeout in seconds (input ``timeout``), for messages.
        now: the current time, seconds since the epoch.
    """

    what: str
    attempt: int
    rate_limit_retries: int
    rate_limit_waited: float
    max_wait: float
    timeout: float
    now: float


def decide(failure: RequestFailure, context: RetryContext) -> RetryAfter | Failure:
    """Decide between retrying and giving up after a failed request (SPEC 6)."""
    decision = _decide(failure, context)
    if isinstance(decision, Failure):
        return Failure(decision.status, decision.message + request_id_note(failure.headers))
    return decision


def _decide(failure: RequestFailure, context: RetryContext) -> RetryAfter | Failure:
    """:func:`decide` without the request id."""
    what, status = context.what, failure.status or 0
    detail = f": {_short(failure.detail)}" if failure.detail else ""
    if failure.kind == "timeout":
        return Failure(
            Status.ERROR, f"{what}: the GitHub API did not answer within {context.timeout:g} s"
        )
    if failure.kind in ("malformed", "final"):
        return Failure(Status.ERROR, f"{what}: {failure.detail}")
    if failure.kind == "connection" or 500 <= status <= 599:
        if context.attempt < MAX_ATTEMPTS:
            return RetryAfter(BACKOFF_SECONDS[context.attempt - 1])
        if failure.kind == "connection":
            reason = _short(failure.detail)
            message = f"cannot reach the GitHub API after {_ATTEMPTS_IN_WORDS} attempts ({reason})"
        else:
            message = f"the GitHub API answered HTTP {status} {_ATTEMPTS_IN_WORDS} times{detail}"
        return Failure(Status.ERROR, f"{what}: {message}")
    if status in (200, 403, 429) and is_rate_limited(failure):  # 200: GraphQL
        seconds, clears_at = _rate_limit_wait(failure.headers or {}, context.now)
        within_budget = context.rate_limit_waited + seconds <= context.max_wait
        if within_budget and context.rate_limit_retries < MAX_RATE_LIMIT_RETRIES:
            return RetryAfter(seconds, rate_limit=True)
        if within_budget:
            message = (
                f"still rate limited by the GitHub API after {MAX_RATE_LIMIT_RETRIES} waits; "
                f"it clears at {_iso(clears_at)}"
            )
        else:
            message = (
                f"rate limited by the GitHub API until {_iso(clears_at)} (HTTP {status}; waiting "
                f"{seconds:.0f} s more would exceed max-wait {context.max_wait:g} s)"
            )
        return Failure(Status.GH_RATE_LIMITED, f"{what}: {message}")
    given_up, words = _GIVEN_UP.get(status, (Status.ERROR, _ANSWERED))
    return Failure(given_up, what + words.format(status=status, detail=detail))
