"""One run's session with the GitHub API: its settings, the request headers, our wire,
retries (SPEC 6).

An edge. Each request carries the REST API's headers (:func:`request_headers`, the token's
``Authorization`` written by PyGithub's public ``Auth.Token``), goes out through the wire of
:mod:`frame_spine.github.transport`, and is retried as :mod:`frame_spine.github.retry`
decides. Why the wire is ours and not PyGithub's: docs/architecture.md, "Dependencies".
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from github import Auth

from .. import __version__
from ..core.status import Failure, Status
from .auth import TokenProblem, clean_token
from .deadline import DependencyChanged
from .defaults import DEFAULT_MAX_WAIT, DEFAULT_TIMEOUT
from .payloads import api_message
from .request_log import RequestListener
from .retry import RequestFailure, RetryContext, decide
from .tls import Trust, TrustRefusal, resolve
from .transport import Answer, Handler, Wire, WireError, WireRun
from .urls import Origin, normalised

ACCEPT = "application/vnd.github+json"
API_VERSION = "2022-11-28"
USER_AGENT = f"frame-spine-lookup/{__version__}"

T = TypeVar("T")


def request_headers(token: str | None) -> dict[str, str]:
    """The headers of every request (SPEC 6); the token is never logged."""
    headers = {"Accept": ACCEPT, "User-Agent": USER_AGENT, "X-GitHub-Api-Version": API_VERSION}
    if token:
        Auth.Token(token).authentication(headers)
    return headers


@dataclass(frozen=True, slots=True)
class ApiSettings:
    """Where and how a run talks to GitHub (SPEC 6, 8): the one settings type of the edge.

    Attributes:
        repository: ``OWNER/NAME``. api_url: the REST API root.
        token: the token, trimmed, or ``None``. token_problem: why no token can be sent
            (then nothing is requested).
        timeout: seconds each attempt may take in all. max_wait: seconds of rate-limit
            waiting in all.
    """

    repository: str
    api_url: str
    token: str | None = None
    token_problem: TokenProblem | None = None
    timeout: int = DEFAULT_TIMEOUT
    max_wait: int = DEFAULT_MAX_WAIT

    @classmethod
    def of(
        cls,
        repository: str,
        api_url: str,
        token: str | TokenProblem | None,
        timeout: int = DEFAULT_TIMEOUT,
        max_wait: int = DEFAULT_MAX_WAIT,
    ) -> ApiSettings:
        """Settings with the token as given, cleaned (:func:`~.auth.clean_token`)."""
        cleaned = token if isinstance(token, TokenProblem) else clean_token(token)
        if isinstance(cleaned, TokenProblem):
            return cls(repository, api_url, None, cleaned, timeout, max_wait)
        return cls(repository, api_url, cleaned, None, timeout, max_wait)

    def __repr__(self) -> str:  # keep the token out of any log or traceback
        return f"ApiSettings({self.repository!r}, {self.api_url!r}, timeout={self.timeout})"


def sleep_in_slices(seconds: float) -> None:
    """Wait ``seconds`` in slices of at most 0.1 s, so that the main thread handles a signal
    within 0.1 s even when the kernel gave it to another thread (SPEC 6 "Interrupts")."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(left, 0.1))


#: How a session waits, reads the time and reaches GitHub when it is given none of its own,
#: looked up when the session is made: a test that runs an entry point in this process puts
#: a fake clock and a fake API's handler here (``None``: the network).
DEFAULT_SLEEP: Callable[[float], None] = sleep_in_slices
DEFAULT_CLOCK: Callable[[], float] = time.time
DEFAULT_HANDLER: Handler | None = None


class ApiSession:
    """The requests of one run: a wire per thread at a time (idle ones reused, with their
    kept-alive connections), retries, and the run's shared state (requests counted, pages
    fetched, rate-limit waiting). Thread-safe.

    Args:
        settings: the :class:`ApiSettings`.
        sleep, clock: as :data:`DEFAULT_SLEEP`, :data:`DEFAULT_CLOCK` (the defaults when
            ``None``); the wire answers through :data:`DEFAULT_HANDLER`.
        on_request: called with each request's record (SPEC 8 debug logging).
    """

    def __init__(
        self,
        settings: ApiSettings,
        *,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None,
        on_request: RequestListener | None = None,
    ) -> None:
        self.settings = settings
        self._sleep = sleep if sleep is not None else DEFAULT_SLEEP
        self._clock = clock if clock is not None else DEFAULT_CLOCK
        self._handler = DEFAULT_HANDLER
        self._lock = threading.Lock()
        self._rate_limit_waited = 0.0
        self.run = WireRun(on_request)
        https = settings.api_url.strip().lower().startswith("https:")
        self._trust = resolve(os.environ) if https else None  # SPEC 6 TLS (none for plain http)
        self._idle: list[Wire] = []
        self._headers = request_headers(settings.token)

    def now(self) -> float:
        """The time on the session's clock, epoch seconds."""
        return self._clock()

    def url(self, path: str) -> str:
        """The URL of ``path`` under the repository."""
        return f"{self.settings.api_url.rstrip('/')}/repos/{self.settings.repository}/{path}"

    def send(self, wire: Wire, url: str, body: bytes | None = None) -> Answer:
        """One GET of ``url`` at the API's origin through the wire, or a POST of ``body``
        (GraphQL: never redirected); an error status is a :class:`WireError`."""
        _, path = Origin.of(url)
        if body is None:
            answer = wire.exchange("GET", normalised(path), self._headers)
        else:
            headers = {**self._headers, "Content-Type": "application/json"}
            answer = wire.exchange("POST", path, headers, body, follow=False)
        if not 200 <= answer.status <= 299:
            failure = RequestFailure("http", answer.status, answer.fields, api_message(answer.body))
            raise WireError(failure)
        return answer

    def retrying(self, what: str, attempt_once: Callable[[], T]) -> T | Failure:
        """``attempt_once`` until it succeeds or SPEC 6's policy gives up: 5xx and
        connection attempts counted per request, rate-limit waits drawn from one
        ``max-wait`` for the run."""
        attempt = retries = 0
        settings = self.settings
        while True:
            try:
                return attempt_once()
            except WireError as exc:
                failure = exc.failure
            if failure.kind != "http" or failure.status not in (200, 403, 429):
                attempt += 1
            with self._lock:
                waited = self._rate_limit_waited
            now = self._clock()
            context = RetryContext(
                what, max(attempt, 1), retries, waited, settings.max_wait, settings.timeout, now
            )
            decision = decide(failure, context)
            if isinstance(decision, Failure):
                return decision
            if decision.rate_limit:
                retries += 1
                with self._lock:
                    self._rate_limit_waited += decision.seconds
            self._sleep(decision.seconds)

    def request(self, what: str, attempt_once: Callable[[Wire], T]) -> T | Failure:
        """One request about ``what``, from refusal to the last retry: the value
        ``attempt_once(wire)`` returns, or the :class:`Failure`. Never raises. A request is
        refused, never sent, when the certificates cannot be loaded (``error``) or there is
        no token or one a header cannot carry (``gh-auth-expired``)."""
        if isinstance(self._trust, TrustRefusal):
            return Failure(Status.ERROR, f"{what}: {self._trust.message}: no request was made")
        if self.settings.token_problem is not None:
            return Failure(Status.GH_AUTH_EXPIRED, self.settings.token_problem.refusal(what))
        with self._lock:
            wire = self._idle.pop() if self._idle else None
        try:
            if wire is None:
                trust = self._trust if isinstance(self._trust, Trust) else None
                settings = self.settings
                wire = Wire(settings.api_url, settings.timeout, self.run, trust, self._handler)
            return self.retrying(what, functools.partial(attempt_once, wire))
        except DependencyChanged as exc:
            return Failure(Status.ERROR, f"{what}: {exc}")
        except Exception as exc:  # a defect, never a network condition: no library text
            name = exc.__class__.__name__
            return Failure(Status.ERROR, f"{what}: the request failed unexpectedly ({name})")
        finally:
            if wire is not None:
                with self._lock:
                    self._idle.append(wire)
