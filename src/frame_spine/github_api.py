"""Fetching issue comments from the GitHub REST API with PyGithub (SPEC 6 steps 1-2).

An edge: one ``GET /repos/{owner}/{repo}/issues/comments/{id}`` per comment through a lazy
PyGithub ``IssueComment`` (nothing else is requested: no repository, user or rate-limit
lookups), retries and rate-limit waits decided by :mod:`frame_spine.fetch_policy`, and every
failure turned into a :class:`FetchFailure` carrying a SPEC 6 status, never an exception.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import requests
import requests.utils
from github import Auth, Github, GithubException
from github.IssueComment import IssueComment
from github.Requester import Requester
from pydantic import BaseModel, TypeAdapter, ValidationError

from . import __version__
from .auth_token import TokenProblem, clean_token
from .comments import FetchedComment
from .fetch_policy import GiveUp, RequestFailure, decide
from .models import Status
from .online_inputs import ApiTarget
from .request_log import RequestListener

#: The public API, used when neither the input nor ``GITHUB_API_URL`` names one.
PUBLIC_API_URL = "https://api.github.com"
ACCEPT = "application/vnd.github+json"
API_VERSION = "2022-11-28"
USER_AGENT = f"frame-spine-lookup/{__version__}"


class _CommentPayload(BaseModel):
    """The fields read from GitHub's issue-comment JSON (others are ignored)."""

    id: int
    body: str | None = None
    issue_url: str
    html_url: str | None = None
    updated_at: str | None = None

    def fetched(self) -> FetchedComment:
        return FetchedComment(
            self.id, self.body or "", self.issue_url, self.html_url, self.updated_at
        )


T = TypeVar("T")


def _next_link(headers: dict[str, Any]) -> str | None:
    """The ``rel="next"`` URL of a ``Link`` header, or ``None`` on the last page."""
    link = headers.get("link") or headers.get("Link")
    if not link:
        return None
    for entry in requests.utils.parse_header_links(str(link)):
        if entry.get("rel") == "next" and entry.get("url"):
            return str(entry["url"])
    return None


_PAGE = TypeAdapter(list[_CommentPayload])


class _IssuePayload(BaseModel):
    number: int
    pull_request: dict[str, Any] | None = None


_ISSUES = TypeAdapter(list[_IssuePayload])


def _read_comments(data: Any) -> list[FetchedComment]:
    return [item.fetched() for item in _PAGE.validate_python(data)]


def _read_issue_numbers(data: Any) -> list[int]:
    return [item.number for item in _ISSUES.validate_python(data) if item.pull_request is None]


@dataclass(frozen=True, slots=True)
class FetchFailure:
    """A comment that could not be fetched: a SPEC 6 status and a message saying why."""

    status: Status
    message: str


@dataclass(frozen=True, slots=True)
class ApiSettings:
    """Where and how to fetch.

    Attributes:
        repository: ``OWNER/NAME``.
        api_url: the REST API root, e.g. ``https://api.github.com`` or
            ``https://ghe.example.com/api/v3`` (no trailing slash needed).
        token: the token, or ``None`` for unauthenticated requests. Never logged.
        timeout: seconds per request (PyGithub takes whole seconds).
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


def _failure_from_exception(exc: Exception) -> RequestFailure:
    if isinstance(exc, GithubException):
        data = exc.data if isinstance(exc.data, dict) else {}
        message = data.get("message")
        headers = {str(k).lower(): str(v) for k, v in (exc.headers or {}).items()}
        return RequestFailure("http", exc.status, headers, str(message or ""))
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return RequestFailure("connection", detail="connection timed out")
    if isinstance(exc, requests.exceptions.Timeout):
        return RequestFailure("timeout")
    if isinstance(exc, requests.exceptions.ConnectionError):
        return RequestFailure("connection", detail=exc.__class__.__name__)
    return RequestFailure("malformed", detail=f"{exc.__class__.__name__}: {exc}")


class CommentFetcher:
    """Fetches issue comments of one repository (SPEC 6).

    Args:
        settings: the :class:`ApiSettings`.
        sleep: how to wait (seconds); ``time.sleep`` by default.
        clock: the current time in epoch seconds; ``time.time`` by default.

    Thread-safe: :meth:`fetch_all` fetches several comments concurrently, each with its own
    PyGithub client. ``requests_made`` counts every GET issued, retries included.
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
        self._on_request = on_request
        self._token_problem = token_problem
        self.requests_made = 0

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
                whitespace is removed (:func:`frame_spine.auth_token.clean_token`). A token
                that an HTTP header cannot carry makes every fetch ``gh-auth-expired`` without
                a request.
            on_request: called with a :class:`~frame_spine.request_log.RequestRecord` per
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

    def _refused(self, what: str) -> FetchFailure | None:
        """``gh-auth-expired`` without a request when the token cannot be sent (SPEC 6)."""
        if self._token_problem is None:
            return None
        return FetchFailure(
            Status.GH_AUTH_EXPIRED,
            f"{what}: {self._token_problem.message}, which an HTTP header cannot carry: "
            "no request was made; fix the token",
        )

    @property
    def repository(self) -> str:
        """The repository this fetcher reads, ``OWNER/NAME``."""
        return self._settings.repository

    def _client(self) -> Github:
        settings = self._settings
        return Github(
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

    def _get_once(self, client: Github, comment_id: int) -> FetchedComment:
        base = client.requester.base_url
        url = f"{base}/repos/{self._settings.repository}/issues/comments/{comment_id}"
        comment = IssueComment(client.requester, url=url, accept=ACCEPT)
        with self._lock:
            self.requests_made += 1
        raw = comment.raw_data  # the one GET (the object is lazy until now)
        return _CommentPayload.model_validate(raw).fetched()

    def _retrying(self, what: str, attempt_once: Callable[[], T]) -> T | FetchFailure:
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
            except ValidationError as exc:
                failure = RequestFailure("malformed", detail=f"{exc.error_count()} field errors")
            except Exception as exc:  # PyGithub, requests and JSON errors alike
                failure = _failure_from_exception(exc)
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
            if isinstance(decision, GiveUp):
                return FetchFailure(decision.status, decision.message)
            if decision.rate_limit:
                rate_limit_retries += 1
                with self._lock:
                    self._rate_limit_waited += decision.seconds
            self._sleep(decision.seconds)

    def fetch(self, comment_id: int, role: str) -> FetchedComment | FetchFailure:
        """Fetch one comment, retrying as :func:`frame_spine.fetch_policy.decide` says.

        Args:
            comment_id: a positive comment id.
            role: ``"plan"`` or ``"sibling"``, for messages ("plan comment 5 in o/r").

        Returns:
            The :class:`FetchedComment`, or a :class:`FetchFailure` with the SPEC 6 status.
            Never raises.
        """
        what = f"{role} comment {comment_id} in {self._settings.repository}"
        refused = self._refused(what)
        if refused is not None:
            return refused
        client = self._client()
        try:
            return self._retrying(what, lambda: self._get_once(client, comment_id))
        finally:
            client.close()

    def _get_page(
        self,
        requester: Requester,
        url: str,
        parameters: dict[str, Any] | None,
        read: Callable[[Any], list[T]],
    ) -> tuple[dict[str, Any], list[T]]:
        with self._lock:
            self.requests_made += 1
        headers, data = requester.requestJsonAndCheck(
            "GET", url, parameters=parameters, headers={"Accept": ACCEPT}
        )
        return headers, read(data)

    def _pages(
        self,
        path: str,
        what: str,
        parameters: dict[str, Any],
        read: Callable[[Any], list[T]],
    ) -> Iterator[list[T] | FetchFailure]:
        refused = self._refused(what)
        if refused is not None:
            yield refused
            return
        client = self._client()
        requester = client.requester
        url: str | None = f"{requester.base_url}/repos/{self._settings.repository}/{path}"
        query: dict[str, Any] | None = {"per_page": 100, **parameters}
        try:
            while url is not None:
                get_page = functools.partial(self._get_page, requester, url, query, read)
                outcome = self._retrying(what, get_page)
                if isinstance(outcome, FetchFailure):
                    yield outcome
                    return
                headers, items = outcome
                yield items
                url, query = _next_link(headers), None  # the next link carries the query
        finally:
            client.close()

    def pages(
        self, path: str, what: str, parameters: dict[str, Any] | None = None
    ) -> Iterator[list[FetchedComment] | FetchFailure]:
        """Stream a listing of issue comments page by page (``per_page=100``).

        Follows the ``Link: <...>; rel="next"`` headers through PyGithub's requester, so only
        the current page is held in memory and no page is requested twice or beyond the
        last (PyGithub's ``PaginatedList`` would keep every element). Each page is retried
        as a single request would be.

        Args:
            path: the listing path under the repository, e.g. ``"issues/5/comments"`` or
                ``"issues/comments"`` (repository-wide).
            what: how messages name the listing.
            parameters: further query parameters of the first request (e.g. ``since``).

        Yields:
            Each page's comments, in the API's order; a :class:`FetchFailure` (then stops)
            when a page cannot be fetched or is not a list of issue comments.
        """
        return self._pages(path, what, parameters or {}, _read_comments)

    def issue_numbers(self, state: str, what: str) -> Iterator[list[int] | FetchFailure]:
        """Stream the numbers of the repository's issues in ``state`` (``open``/``closed``),
        page by page (``GET /repos/{o}/{r}/issues?state=...&per_page=100``); pull requests,
        which that listing also returns, are left out."""
        return self._pages("issues", what, {"state": state}, _read_issue_numbers)

    def fetch_all(self, wanted: Sequence[tuple[int, str]]) -> list[FetchedComment | FetchFailure]:
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
