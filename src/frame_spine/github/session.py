"""One fetcher's session with the GitHub REST API: PyGithub over our wire, with retries
(SPEC 6).

An edge. PyGithub builds each request (URL, query, token, headers); it goes out through the
wire of :mod:`frame_spine.github.transport` (one deadline per attempt, same-origin redirects
only, a 32 MiB cap, a debug record per request); retries and rate-limit waits are decided by
:mod:`frame_spine.github.retry`. :class:`ApiSession` is what
:class:`~frame_spine.github.client.CommentFetcher` builds its requests on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from github import Auth, Github
from github.Requester import Requester

from .. import __version__
from ..core.status import Failure, Status
from .auth import TokenProblem
from .payloads import api_message
from .request_log import RequestListener
from .retry import RequestFailure, RetryContext, decide
from .transport import Answer, Wire, WireError, WireRun

ACCEPT = "application/vnd.github+json"
API_VERSION = "2022-11-28"
USER_AGENT = f"frame-spine-lookup/{__version__}"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ApiSettings:
    """Where and how to fetch.

    Attributes:
        repository: ``OWNER/NAME``.
        api_url: the REST API root, e.g. ``https://api.github.com`` or
            ``https://ghe.example.com/api/v3`` (no trailing slash needed).
        token: the token, or ``None`` for unauthenticated requests. Never logged.
        timeout: seconds each attempt may take in all (connect, headers, body, redirects).
        max_wait: seconds of rate-limit waiting allowed per comment.
    """

    repository: str
    api_url: str
    token: str | None
    timeout: int = 10
    max_wait: int = 60

    def __repr__(self) -> str:  # keep the token out of any log or traceback
        return (
            f"ApiSettings(repository={self.repository!r}, api_url={self.api_url!r}, "
            f"token={'***' if self.token else None}, timeout={self.timeout}, "
            f"max_wait={self.max_wait})"
        )


#: How a session waits (seconds) and reads the time (epoch seconds) when it is given no
#: ``sleep``/``clock`` of its own, looked up when the session is made: the entry points make
#: their sessions, so a test that runs one in-process puts a fake clock here (SPEC 6's backoffs
#: and rate-limit waits then take no real time, and the reset a fake API computes is read on
#: the same clock).
DEFAULT_SLEEP: Callable[[float], None] = time.sleep
DEFAULT_CLOCK: Callable[[], float] = time.time


class ApiSession:
    """Requests of one fetcher: connections (one per thread at a time, idle ones reused),
    GETs through PyGithub and the wire, retries, and the run's shared state.

    Args:
        settings: the :class:`ApiSettings`.
        sleep: how to wait (seconds); :data:`DEFAULT_SLEEP` when ``None``.
        clock: the current time in epoch seconds; :data:`DEFAULT_CLOCK` when ``None``.
        on_request: called with a :class:`~frame_spine.github.request_log.RequestRecord` per
            request (every attempt and redirect hop; SPEC 8 debug logging).
        token_problem: why the token cannot be sent (or that there is none); every request
            is then refused (:meth:`refused`) without being sent.

    Thread-safe: the run's state (requests counted, listing pages fetched, rate-limit
    waiting) is shared under a lock.
    """

    def __init__(
        self,
        settings: ApiSettings,
        *,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None,
        on_request: RequestListener | None = None,
        token_problem: TokenProblem | None = None,
    ) -> None:
        self.settings = settings
        self._sleep = sleep if sleep is not None else DEFAULT_SLEEP
        self._clock = clock if clock is not None else DEFAULT_CLOCK
        self._lock = threading.Lock()
        self._rate_limit_waited = 0.0
        self.run = WireRun(on_request)
        self._token_problem = token_problem
        self._idle: list[tuple[Github, Wire]] = []

    def refused(self, what: str) -> Failure | None:
        """``gh-auth-expired`` without a request when the token cannot be sent, or there is
        none (SPEC 6, 9)."""
        if self._token_problem is None:
            return None
        return Failure(Status.GH_AUTH_EXPIRED, self._token_problem.refusal(what))

    @contextmanager
    def connected(self) -> Iterator[tuple[Requester, Wire]]:
        """A PyGithub requester (URLs, token, headers) and the wire it sends through, for one
        thread at a time: an idle one is reused (its kept-alive connection saves a TCP and
        TLS handshake for a sequential fetch, e.g. an ``auto`` sibling or audit's siblings),
        else a new one is made (plan and sibling fetched concurrently get one each)."""
        with self._lock:
            connected = self._idle.pop() if self._idle else None
        if connected is None:
            settings = self.settings
            client = Github(
                auth=Auth.Token(settings.token) if settings.token else None,
                base_url=settings.api_url.rstrip("/"),
                timeout=settings.timeout,
                user_agent=USER_AGENT,
                retry=None,
                seconds_between_requests=None,
                seconds_between_writes=None,
                lazy=True,
                api_version=API_VERSION,
            )
            connected = (client, Wire(settings.api_url, settings.timeout, self.run))
        client, wire = connected
        try:
            yield client.requester, wire
        finally:
            with self._lock:
                self._idle.append(connected)

    def close(self) -> None:
        """Close the kept-alive connections (optional: they close when the process ends)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for client, wire in idle:
            wire.close()
            client.close()

    def url(self, path: str) -> str:
        return f"{self.settings.api_url.rstrip('/')}/repos/{self.settings.repository}/{path}"

    @staticmethod
    def get(requester: Requester, wire: Wire, url: str) -> Answer:
        """One GET through PyGithub and the wire; an error status is a :class:`WireError`."""
        connection = wire.connection()
        requester.requestJson("GET", url, headers={"Accept": ACCEPT}, cnx=connection)
        answer = connection.answer
        assert answer is not None, "PyGithub asks the connection for its answer"
        if not 200 <= answer.status <= 299:
            failure = RequestFailure("http", answer.status, answer.fields, api_message(answer.body))
            raise WireError(failure)
        return answer

    def retrying(self, what: str, attempt_once: Callable[[], T]) -> T | Failure:
        """Call ``attempt_once`` until it succeeds or the SPEC 6 policy gives up.

        5xx/connection attempts are counted per request; rate-limit waits draw on one budget
        (``max-wait``) shared by every request of this fetcher, i.e. of one lookup.
        """
        settings = self.settings
        attempt = 0
        rate_limit_retries = 0
        while True:
            try:
                return attempt_once()
            except WireError as exc:
                failure = exc.failure
            if failure.kind != "http" or failure.status not in (403, 429):
                attempt += 1
            with self._lock:
                rate_limit_waited = self._rate_limit_waited
            context = RetryContext(
                what,
                max(attempt, 1),
                rate_limit_retries,
                rate_limit_waited,
                settings.max_wait,
                settings.timeout,
                self._clock(),
            )
            decision = decide(failure, context)
            if isinstance(decision, Failure):
                return decision
            if decision.rate_limit:
                rate_limit_retries += 1
                with self._lock:
                    self._rate_limit_waited += decision.seconds
            self._sleep(decision.seconds)


def unexpected(what: str, exc: Exception) -> Failure:
    """A defect met while fetching, named by its class only (its text could quote anything)."""
    return Failure(
        Status.ERROR,
        f"{what}: the request failed unexpectedly ({exc.__class__.__name__})",
    )
