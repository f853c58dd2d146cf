"""Fetching issue comments from the GitHub REST API with PyGithub (SPEC 6 steps 1-2).

An edge. PyGithub builds each request (URL, query, token, headers); it goes out through the
wire of :mod:`frame_spine.github.transport` (one deadline per attempt, same-origin redirects only,
a 32 MiB cap, a debug record per request); :mod:`frame_spine.github.payloads` reads the
answers (UTF-8 whatever the content type, the comment asked for and no other); retries and
rate-limit waits are decided by :mod:`frame_spine.github.retry`. Every failure becomes a
:class:`Failure` with a SPEC 6 status and a message in words, never an exception and
never a library's exception text. Requests: one ``GET /repos/{owner}/{repo}/issues/comments/
{id}`` per comment (no repository, user or rate-limit lookups); listings page by page.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode, urljoin

import requests.utils
from github import Auth, Github
from github.Requester import Requester

from .. import __version__
from ..core.status import Failure, Status
from ..inputs import ApiTarget
from .auth import TokenProblem, clean_token
from .payloads import (
    FetchedComment,
    Unusable,
    api_message,
    read_comment,
    read_comment_page,
    read_issue_numbers,
)
from .request_log import RequestListener
from .retry import RequestFailure, decide
from .transport import Answer, Wire, WireError, WireRun, unusable
from .urls import Origin

#: The public API, used when neither the input nor ``GITHUB_API_URL`` names one.
PUBLIC_API_URL = "https://api.github.com"
ACCEPT = "application/vnd.github+json"
API_VERSION = "2022-11-28"
USER_AGENT = f"frame-spine-lookup/{__version__}"

T = TypeVar("T")
#: Reads one listing page: (body, content type, redirected) -> items, or why not.
PageReader = Callable[[bytes | bytearray, str, bool], "list[T] | Unusable"]


def _next_link(fields: Mapping[str, str]) -> str | None:
    """The ``rel="next"`` URL of a ``Link`` header, or ``None`` on the last page."""
    link = fields.get("link")
    if not link:
        return None
    for entry in requests.utils.parse_header_links(link):
        if entry.get("rel") == "next" and entry.get("url"):
            return str(entry["url"])
    return None


def _page_key(origin: Origin, path: str) -> str:
    """A listing page's URL as PyGithub sends it (query parameters sorted), so that a page
    is recognised however a ``Link`` header spells it."""
    return Requester.add_parameters_to_url(origin.url(path), {})


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


class CommentFetcher:
    """Fetches issue comments of one repository (SPEC 6).

    Args:
        settings: the :class:`ApiSettings`.
        sleep: how to wait (seconds); ``time.sleep`` by default.
        clock: the current time in epoch seconds; ``time.time`` by default.
        on_request: called with a :class:`~frame_spine.github.request_log.RequestRecord` per request
            (every attempt and redirect hop; SPEC 8 debug logging).
        token_problem: why the token cannot be sent; every fetch is then ``gh-auth-expired``
            without a request.

    Thread-safe: :meth:`fetch_all` fetches several comments concurrently, each with its own
    PyGithub client and connection; the run's state (requests counted, listing pages
    fetched, rate-limit waiting) is shared under a lock. ``requests_made`` counts every
    request sent, retries and redirect hops included.
    """

    def __init__(
        self,
        settings: ApiSettings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        on_request: RequestListener | None = None,
        token_problem: TokenProblem | None = None,
    ) -> None:
        self._settings = settings
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()
        self._rate_limit_waited = 0.0
        self._run = WireRun(on_request)
        self._token_problem = token_problem
        self._idle: list[tuple[Github, Wire]] = []

    @classmethod
    def for_target(
        cls,
        target: ApiTarget,
        token: str | None,
        *,
        on_request: RequestListener | None = None,
    ) -> CommentFetcher:
        """A fetcher for validated online inputs (any mode) and a raw token.

        Args:
            target: the validated online inputs.
            token: the token as given (``None`` or blank: unauthenticated); surrounding
                whitespace is removed (:func:`frame_spine.github.auth.clean_token`). A token
                that an HTTP header cannot carry makes every fetch ``gh-auth-expired`` without
                a request.
            on_request: called with a :class:`~frame_spine.github.request_log.RequestRecord` per
                request (debug logging, SPEC 8).
        """
        cleaned = clean_token(token)
        problem = cleaned if isinstance(cleaned, TokenProblem) else None
        return cls(
            ApiSettings(
                repository=target.repository,
                api_url=target.api_url,
                token=cleaned if isinstance(cleaned, str) else None,
                timeout=target.timeout,
                max_wait=target.max_wait,
            ),
            on_request=on_request,
            token_problem=problem,
        )

    @property
    def repository(self) -> str:
        """The repository this fetcher reads, ``OWNER/NAME``."""
        return self._settings.repository

    @property
    def requests_made(self) -> int:
        """Requests sent so far: every attempt and every redirect hop."""
        return self._run.requests_made

    def _refused(self, what: str) -> Failure | None:
        """``gh-auth-expired`` without a request when the token cannot be sent (SPEC 6)."""
        if self._token_problem is None:
            return None
        return Failure(
            Status.GH_AUTH_EXPIRED,
            f"{what}: {self._token_problem.message}, which an HTTP header cannot carry: "
            "no request was made; fix the token",
        )

    @contextmanager
    def _connected(self) -> Iterator[tuple[Requester, Wire]]:
        """A PyGithub requester (URLs, token, headers) and the wire it sends through, for one
        thread at a time: an idle one is reused (its kept-alive connection saves a TCP and
        TLS handshake for a sequential fetch, e.g. an ``auto`` sibling or audit's siblings),
        else a new one is made (plan and sibling fetched concurrently get one each)."""
        with self._lock:
            connected = self._idle.pop() if self._idle else None
        if connected is None:
            settings = self._settings
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
            connected = (client, Wire(settings.api_url, settings.timeout, self._run))
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

    def _url(self, path: str) -> str:
        return f"{self._settings.api_url.rstrip('/')}/repos/{self._settings.repository}/{path}"

    @staticmethod
    def _get(requester: Requester, wire: Wire, url: str) -> Answer:
        """One GET through PyGithub and the wire; an error status is a :class:`WireError`."""
        connection = wire.connection()
        requester.requestJson("GET", url, headers={"Accept": ACCEPT}, cnx=connection)
        answer = connection.answer
        assert answer is not None, "PyGithub asks the connection for its answer"
        if not 200 <= answer.status <= 299:
            failure = RequestFailure("http", answer.status, answer.fields, api_message(answer.body))
            raise WireError(failure)
        return answer

    def _get_comment(self, requester: Requester, wire: Wire, comment_id: int) -> FetchedComment:
        answer = self._get(requester, wire, self._url(f"issues/comments/{comment_id}"))
        comment = read_comment(
            answer.body,
            answer.fields.get("content-type", ""),
            comment_id=comment_id,
            repository=self._settings.repository,
            redirected=answer.redirected,
        )
        if isinstance(comment, Unusable):
            raise unusable(comment.detail, answer.fields)
        return comment

    def _retrying(self, what: str, attempt_once: Callable[[], T]) -> T | Failure:
        """Call ``attempt_once`` until it succeeds or the SPEC 6 policy gives up.

        5xx/connection attempts are counted per request; rate-limit waits draw on one budget
        (``max-wait``) shared by every request of this fetcher, i.e. of one lookup.
        """
        settings = self._settings
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
            decision = decide(
                failure,
                what=what,
                attempt=max(attempt, 1),
                rate_limit_retries=rate_limit_retries,
                rate_limit_waited=rate_limit_waited,
                max_wait=settings.max_wait,
                timeout=settings.timeout,
                now=self._clock(),
            )
            if isinstance(decision, Failure):
                return decision
            if decision.rate_limit:
                rate_limit_retries += 1
                with self._lock:
                    self._rate_limit_waited += decision.seconds
            self._sleep(decision.seconds)

    def fetch(self, comment_id: int, role: str) -> FetchedComment | Failure:
        """Fetch one comment, retrying as :func:`frame_spine.github.retry.decide` says.

        Args:
            comment_id: a positive comment id.
            role: ``"plan"`` or ``"sibling"``, for messages ("plan comment 5 in o/r").

        Returns:
            The :class:`FetchedComment` (the comment asked for: its id, and an ``issue_url``
            of the repository unless the API redirected), or a :class:`Failure` with the
            SPEC 6 status. Never raises.
        """
        what = f"{role} comment {comment_id} in {self._settings.repository}"
        refused = self._refused(what)
        if refused is not None:
            return refused
        try:
            with self._connected() as (requester, wire):
                return self._retrying(what, lambda: self._get_comment(requester, wire, comment_id))
        except Exception as exc:  # a defect, never a network condition: no library text
            return _unexpected(what, exc)

    def fetch_if_exists(self, comment_id: int, role: str) -> FetchedComment | Failure | None:
        """Like :meth:`fetch`, but a comment that is not there (404/410) is ``None``: a
        sibling the spine points at may be gone, which validate and audit report as a
        finding, not as a failure of the run (SPEC 10, 11)."""
        return not_found_as_none(self.fetch(comment_id, role))

    def _next_page(self, answer: Answer, wire: Wire) -> str | None:
        """The next page's URL, or ``None``; a link elsewhere or back to a page already
        fetched is a :class:`WireError` (SPEC 6: never followed, never given the token)."""
        link = _next_link(answer.fields)
        if link is None:
            return None
        try:
            origin, path = Origin.of(urljoin(answer.url, link))
        except ValueError:
            raise unusable(
                "a pagination link of the GitHub API is not a usable URL", answer.fields
            ) from None
        if origin != wire.origin:
            raise unusable(
                f"a pagination link of the GitHub API points to {origin.named_from(wire.origin)}"
                ": not followed, and the token was not sent there",
                answer.fields,
            )
        url = _page_key(origin, path)
        if self._run.fetched_page(url):
            shown = path if len(path) <= 120 else path[:117] + "..."
            raise unusable(
                "a pagination link of the GitHub API loops back to a page already fetched "
                f"({shown!r})",
                answer.fields,
            )
        return url

    def _get_page(
        self,
        requester: Requester,
        wire: Wire,
        url: str,
        read: PageReader[T],
        redirected: bool,
    ) -> tuple[list[T], str | None, bool]:
        answer = self._get(requester, wire, url)
        redirected = redirected or answer.redirected
        items = read(answer.body, answer.fields.get("content-type", ""), redirected)
        if isinstance(items, Unusable):
            raise unusable(items.detail, answer.fields)
        return items, self._next_page(answer, wire), redirected

    def _pages(
        self, path: str, what: str, parameters: dict[str, Any], read: PageReader[T]
    ) -> Iterator[list[T] | Failure]:
        refused = self._refused(what)
        if refused is not None:
            yield refused
            return
        try:
            with self._connected() as (requester, wire):
                query = urlencode({"per_page": 100, **parameters})
                origin, first = Origin.of(self._url(f"{path}?{query}"))
                url: str | None = _page_key(origin, first)
                redirected = False
                while url is not None:
                    self._run.claim_page(url)
                    get_page = functools.partial(
                        self._get_page, requester, wire, url, read, redirected
                    )
                    outcome = self._retrying(what, get_page)
                    if isinstance(outcome, Failure):
                        yield outcome
                        return
                    items, url, redirected = outcome
                    yield items
        except Exception as exc:  # a defect, never a network condition: no library text
            yield _unexpected(what, exc)

    def pages(
        self,
        path: str,
        what: str,
        parameters: dict[str, Any] | None = None,
        *,
        issue_number: int | None = None,
    ) -> Iterator[list[FetchedComment] | Failure]:
        """Stream a listing of issue comments page by page (``per_page=100``).

        Follows the ``Link: <...>; rel="next"`` headers within the API's origin, so only the
        current page is held in memory and no page is requested twice or beyond the last
        (PyGithub's ``PaginatedList`` would keep every element). Each page is retried as a
        single request would be. A link to another origin, or back to a page already
        fetched in this run, ends the listing with ``error``.

        Args:
            path: the listing path under the repository, e.g. ``"issues/5/comments"`` or
                ``"issues/comments"`` (repository-wide).
            what: how messages name the listing.
            parameters: further query parameters of the first request (e.g. ``since``).
            issue_number: the issue of an ``issues/N/comments`` listing: a listed comment of
                another issue makes the page unusable.

        Yields:
            Each page's comments, in the API's order; a :class:`Failure` (then stops)
            when a page cannot be fetched or is not a list of this repository's comments
            (any repository's after a redirect: a renamed repository).
        """
        repository = self._settings.repository

        def read(body: bytes | bytearray, kind: str, redirected: bool) -> Any:
            return read_comment_page(
                body,
                kind,
                repository=repository,
                issue_number=issue_number,
                redirected=redirected,
            )

        return self._pages(path, what, parameters or {}, read)

    def issue_numbers(self, state: str, what: str) -> Iterator[list[int] | Failure]:
        """Stream the numbers of the repository's issues in ``state`` (``open``/``closed``),
        page by page (``GET /repos/{o}/{r}/issues?state=...&per_page=100``); pull requests,
        which that listing also returns, are left out."""

        def read(body: bytes | bytearray, kind: str, _redirected: bool) -> Any:
            return read_issue_numbers(body, kind)

        return self._pages("issues", what, {"state": state}, read)

    def fetch_all(self, wanted: Sequence[tuple[int, str]]) -> list[FetchedComment | Failure]:
        """Fetch several comments concurrently (SPEC 6 step 2: plan and sibling together).

        Args:
            wanted: ``[(comment_id, role), ...]``.

        Returns:
            The outcomes in the order of ``wanted``. Never raises.
        """
        if len(wanted) == 1:
            return [self.fetch(*wanted[0])]
        with ThreadPoolExecutor(max_workers=len(wanted)) as pool:
            return list(pool.map(lambda item: self.fetch(*item), wanted))


def not_found_as_none(outcome: FetchedComment | Failure) -> FetchedComment | Failure | None:
    """A fetch's outcome with ``comment-not-found`` as ``None`` (see
    :meth:`CommentFetcher.fetch_if_exists`); other failures are kept."""
    if isinstance(outcome, Failure) and outcome.status is Status.COMMENT_NOT_FOUND:
        return None
    return outcome


def _unexpected(what: str, exc: Exception) -> Failure:
    """A defect met while fetching, named by its class only (its text could quote anything)."""
    return Failure(
        Status.ERROR,
        f"{what}: the request failed unexpectedly ({exc.__class__.__name__})",
    )
