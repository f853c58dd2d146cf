"""One fetcher's session with the GitHub REST API: the request headers, our wire, retries
(SPEC 6).

An edge. Each GET carries the REST API's headers (:func:`request_headers`: ``Accept``,
``User-Agent``, ``X-GitHub-Api-Version`` and the token's ``Authorization``, written by
PyGithub's public ``Auth.Token.authentication``); it goes out through the wire of
:mod:`frame_spine.github.transport` (one deadline per attempt, same-origin redirects only, a
32 MiB cap, a debug record per request); retries and rate-limit waits are decided by
:mod:`frame_spine.github.retry`. :class:`ApiSession` is what
:class:`~frame_spine.github.client.CommentFetcher` builds its requests on.

What PyGithub does here, and why not more (measured on PyGithub 2.4-2.10, issue 19): its
public surface sends a request through its own ``Requester``, whose ``requests`` session has
no public place to mount an adapter, so none of SPEC 6's wire rules can be added to it:

- one deadline per whole attempt: PyGithub passes ``timeout`` to requests, which bounds each
  socket read, so a server that drips bytes stretches a request without end;
- redirects: ``Requester`` follows a 301 itself, recursively, without a hop limit or a loop
  check (a 301 to the same path is a ``RuntimeError`` whose text quotes the URL), and lets
  requests follow 302/307/308 (requests drops ``Authorization`` on another host, but the
  request is still sent there, and is not counted);
- a 202 is waited on and asked again without end (``Consts.PROCESSING_202_WAIT_TIME``);
- the body is read whole as text (``response.text``: decoded by ``Content-Type``, not as
  UTF-8, and without a size cap); its JSON is then parsed into objects whose ``body`` and
  ``issue_url`` we would read back;
- retries are urllib3's ``Retry`` (``GithubRetry``) with its own waits and rate-limit rules,
  not SPEC 6's (1 s, 2 s, three attempts; one ``max-wait`` budget per lookup);
- a paginated listing (``PaginatedList``) keeps every element it has read;
- the loopback-never-proxied rule: requests' session reads the proxy environment itself.

Reaching its requester's connection object (``Requester.requestJson(..., cnx=...)`` with
``HTTPRequestsConnectionClass``/``RequestsResponse`` subclasses) was the previous way; those
names are PyGithub internals, ``Github(api_version=...)`` exists only from 2.10, and on
2.4-2.9 every request ended in a ``TypeError``. PyGithub's part is therefore its public
``Auth`` API: the token's ``Authorization`` header, as PyGithub itself writes it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from github import Auth

from .. import __version__
from ..core.status import Failure, Status
from .auth import TokenProblem
from .deadline import DependencyChanged
from .defaults import DEFAULT_MAX_WAIT, DEFAULT_TIMEOUT
from .payloads import api_message
from .request_log import RequestListener
from .retry import RequestFailure, RetryContext, decide
from .tls import Trust, TrustRefusal, for_api
from .transport import Answer, Wire, WireError, WireRun
from .urls import Origin, normalised

ACCEPT = "application/vnd.github+json"
API_VERSION = "2022-11-28"
USER_AGENT = f"frame-spine-lookup/{__version__}"

T = TypeVar("T")


def request_headers(token: str | None) -> dict[str, str]:
    """The headers of every request (SPEC 6): ``Accept`` (GitHub's JSON media type),
    ``User-Agent`` (``frame-spine-lookup/VERSION``), ``X-GitHub-Api-Version`` (``2022-11-28``)
    and, with a token, ``Authorization`` as PyGithub's public ``Auth.Token`` writes it
    (``token <TOKEN>``). The token is never logged."""
    headers = {"Accept": ACCEPT, "User-Agent": USER_AGENT, "X-GitHub-Api-Version": API_VERSION}
    if token:
        Auth.Token(token).authentication(headers)
    return headers


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
    timeout: int = DEFAULT_TIMEOUT
    max_wait: int = DEFAULT_MAX_WAIT

    def __repr__(self) -> str:  # keep the token out of any log or traceback
        return (
            f"ApiSettings(repository={self.repository!r}, api_url={self.api_url!r}, "
            f"token={'***' if self.token else None}, timeout={self.timeout}, "
            f"max_wait={self.max_wait})"
        )


def sleep_in_slices(seconds: float) -> None:
    """Wait ``seconds`` (a backoff or a rate-limit wait) in slices of at most 0.1 s: the
    main thread then runs a SIGINT/SIGTERM handler within 0.1 s even when the kernel gave the
    signal to another thread, which does not wake a sleep (SPEC 6 "Interrupts")."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(left, 0.1))


#: How a session waits (seconds) and reads the time (epoch seconds) when it is given no
#: ``sleep``/``clock`` of its own, looked up when the session is made: the entry points make
#: their sessions, so a test that runs one in-process puts a fake clock here (SPEC 6's backoffs
#: and rate-limit waits then take no real time, and the reset a fake API computes is read on
#: the same clock).
DEFAULT_SLEEP: Callable[[float], None] = sleep_in_slices
DEFAULT_CLOCK: Callable[[], float] = time.time


class ApiSession:
    """Requests of one fetcher: connections (one per thread at a time, idle ones reused),
    GETs through the wire, retries, and the run's shared state.

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
        self._trust = for_api(settings.api_url, os.environ)  # SPEC 6 TLS
        self._idle: list[Wire] = []
        self._headers = request_headers(settings.token)

    def refused(self, what: str) -> Failure | None:
        """``gh-auth-expired`` without a request when the token cannot be sent, or there is
        none (SPEC 6, 9)."""
        if isinstance(self._trust, TrustRefusal):
            return Failure(Status.ERROR, self._trust.refusal(what))
        if self._token_problem is None:
            return None
        return Failure(Status.GH_AUTH_EXPIRED, self._token_problem.refusal(what))

    @contextmanager
    def connected(self) -> Iterator[Wire]:
        """The wire for one thread at a time: an idle one is reused (its kept-alive
        connection saves a TCP and TLS handshake for a sequential fetch, e.g. an ``auto``
        sibling or audit's siblings), else a new one is made (plan and sibling fetched
        concurrently get one each)."""
        with self._lock:
            wire = self._idle.pop() if self._idle else None
        if wire is None:
            trust = self._trust if isinstance(self._trust, Trust) else None
            wire = Wire(self.settings.api_url, self.settings.timeout, self.run, trust)
        try:
            yield wire
        finally:
            with self._lock:
                self._idle.append(wire)

    def close(self) -> None:
        """Close the kept-alive connections (optional: they close when the process ends)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for wire in idle:
            wire.close()

    def url(self, path: str) -> str:
        return f"{self.settings.api_url.rstrip('/')}/repos/{self.settings.repository}/{path}"

    def get(self, wire: Wire, url: str) -> Answer:
        """One GET of ``url`` (absolute, at the API's origin; its query normalised by
        :func:`~frame_spine.github.urls.normalised`) through the wire; an error status
        is a :class:`WireError`."""
        _, path = Origin.of(url)
        answer = wire.exchange("GET", normalised(path), self._headers)
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
    """A defect met while fetching, named by its class only (its text could quote anything);
    a :class:`~frame_spine.github.deadline.DependencyChanged` by its own message (it names
    the dependency, its version and the name it lacks)."""
    if isinstance(exc, DependencyChanged):
        return Failure(Status.ERROR, f"{what}: {exc}")
    return Failure(
        Status.ERROR,
        f"{what}: the request failed unexpectedly ({exc.__class__.__name__})",
    )
