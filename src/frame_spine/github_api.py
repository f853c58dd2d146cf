"""Fetching issue comments from the GitHub REST API with PyGithub (SPEC 6 steps 1-2).

An edge: one ``GET /repos/{owner}/{repo}/issues/comments/{id}`` per comment through a lazy
PyGithub ``IssueComment`` (nothing else is requested: no repository, user or rate-limit
lookups), retries and rate-limit waits decided by :mod:`frame_spine.fetch_policy`, and every
failure turned into a :class:`FetchFailure` carrying a SPEC 6 status, never an exception.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import requests
from github import Auth, Github, GithubException
from github.IssueComment import IssueComment
from pydantic import BaseModel, ValidationError

from . import __version__
from .fetch_policy import GiveUp, RequestFailure, decide
from .models import Status

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


@dataclass(frozen=True, slots=True)
class FetchedComment:
    """An issue comment as fetched.

    Attributes:
        id: the comment id. body: its text (``""`` when the API says ``null``).
        issue_url: the API URL of its issue (``.../issues/N``). html_url: its web URL.
    """

    id: int
    body: str
    issue_url: str
    html_url: str | None


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
    ) -> None:
        self._settings = settings
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()
        self.requests_made = 0

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
        payload = _CommentPayload.model_validate(raw)
        return FetchedComment(payload.id, payload.body or "", payload.issue_url, payload.html_url)

    def fetch(self, comment_id: int, role: str) -> FetchedComment | FetchFailure:
        """Fetch one comment, retrying as :func:`frame_spine.fetch_policy.decide` says.

        Args:
            comment_id: a positive comment id.
            role: ``"plan"`` or ``"sibling"``, for messages ("plan comment 5 in o/r").

        Returns:
            The :class:`FetchedComment`, or a :class:`FetchFailure` with the SPEC 6 status.
            Never raises.
        """
        settings = self._settings
        what = f"{role} comment {comment_id} in {settings.repository}"
        client = self._client()
        waited = 0.0
        attempt = 0
        try:
            while True:
                attempt += 1
                try:
                    return self._get_once(client, comment_id)
                except ValidationError as exc:
                    failure = RequestFailure(
                        "malformed", detail=f"{exc.error_count()} field errors"
                    )
                except Exception as exc:  # PyGithub, requests and JSON errors alike
                    failure = _failure_from_exception(exc)
                decision = decide(
                    failure,
                    what=what,
                    attempt=attempt,
                    waited=waited,
                    max_wait=settings.max_wait,
                    timeout=settings.timeout,
                    now=self._clock(),
                )
                if isinstance(decision, GiveUp):
                    return FetchFailure(decision.status, decision.message)
                self._sleep(decision.seconds)
                waited += decision.seconds
        finally:
            client.close()

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
