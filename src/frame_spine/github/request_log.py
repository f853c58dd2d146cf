"""Debug lines for REST requests (SPEC 8 "Debug logging").

Pure: a :class:`RequestRecord` in, one line of text out. The fetching edge makes a record per
request (every attempt and redirect hop); the action writes it as ``::debug::``, the CLI's
``--verbose`` to stderr. A record never holds the token or a body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.shown import printable


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request as sent and answered.

    Attributes:
        method: ``"GET"``.
        path: the URL path and query (no scheme or host), e.g.
            ``/repos/o/r/issues/comments/5``.
        status: the HTTP status, or ``None`` when no answer came (timeout, connection error).
        milliseconds: wall time from sending to the end of the body (or the failure).
        rate_limit_remaining: the ``x-ratelimit-remaining`` header, or ``None``.
        request_id: the ``x-github-request-id`` header, or ``None``.
    """

    method: str
    path: str
    status: int | None
    milliseconds: float
    rate_limit_remaining: str | None = None
    request_id: str | None = None


#: A consumer of request records (the action's ``::debug::`` writer, the CLI's stderr).
RequestListener = Callable[[RequestRecord], None]


def _printable(text: str | None, limit: int) -> str:
    """``text`` as one printable line of at most ``limit`` characters; ``-`` when empty."""
    return printable(text, limit) if text else "-"


def request_log_line(record: RequestRecord) -> str:
    """One debug line for a request, e.g.
    ``GET /repos/o/r/issues/comments/5 -> 200 in 12 ms (rate limit remaining 4999, request id
    F00D:1234)``; ``-> no answer`` when none came; unknown headers print as ``-``. Always one
    line of printable text (control characters escaped), whatever the server sent."""
    answer = str(record.status) if record.status is not None else "no answer"
    return (
        f"{record.method} {_printable(record.path, 500)} -> {answer} in "
        f"{record.milliseconds:.0f} ms "
        f"(rate limit remaining {_printable(record.rate_limit_remaining, 40)}, "
        f"request id {_printable(record.request_id, 100)})"
    )
