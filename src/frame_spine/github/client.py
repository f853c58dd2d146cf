"""Fetching issue comments from the GitHub REST API (SPEC 6 steps 1-2, SPEC 10-11 listings).

An edge. Requests go through an :class:`~frame_spine.github.session.ApiSession` (the REST
API's headers over our wire, with retries); :mod:`frame_spine.github.payloads` reads the
answers (UTF-8 whatever the content type, the comment asked for and no other). Every failure
becomes a :class:`Failure` with a SPEC 6 status and a message in words, never an exception and
never a library's exception text. Requests: one ``GET /repos/{owner}/{repo}/issues/comments/
{id}`` per comment (no repository, user or rate-limit lookups); listings page by page; and,
only when the trust policy must ask (SPEC 6.1), one ``GET /repos/{owner}/{repo}/collaborators/
{login}/permission`` per distinct author, kept for the run.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any, Protocol, TypeVar
from urllib.parse import quote, urlencode, urljoin

import requests.utils

from .. import interrupts
from ..core.shown import cut
from ..core.status import Failure, Status
from ..core.trust import Permission
from .auth import TokenProblem, clean_token
from .payloads import (
    FetchedComment,
    Unusable,
    read_comment,
    read_comment_page,
    read_issue_numbers,
    read_permission,
)
from .request_log import RequestListener
from .retry import is_rate_limited
from .session import ApiSession, ApiSettings, unexpected
from .transport import Answer, Wire, WireError, unusable
from .urls import Origin, normalised

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
    """A listing page's URL as it is sent (:func:`~frame_spine.github.urls.normalised`), so
    that a page is recognised however a ``Link`` header spells it."""
    return origin.url(normalised(path))


class Target(Protocol):
    """Where a fetcher reads (the validated online inputs of any mode satisfy it).

    Attributes:
        repository: ``OWNER/NAME``. api_url: the REST API root. timeout: seconds per
        attempt. max_wait: seconds of rate-limit waiting in all, shared by every request
        of a fetcher.
    """

    @property
    def repository(self) -> str: ...
    @property
    def api_url(self) -> str: ...
    @property
    def timeout(self) -> int: ...
    @property
    def max_wait(self) -> int: ...


class CommentFetcher(ApiSession):
    """Fetches issue comments of one repository (SPEC 6), on an
    :class:`~frame_spine.github.session.ApiSession` (its constructor's arguments).

    Thread-safe: :meth:`fetch_all` fetches several comments concurrently, each with its own
    connection; the run's state (requests counted, listing pages
    fetched, rate-limit waiting, the permissions read) is shared under a lock.
    ``requests_made`` counts every request sent, retries and redirect hops included.
    """

    @classmethod
    def for_target(
        cls,
        target: Target,
        token: str | TokenProblem | None,
        *,
        on_request: RequestListener | None = None,
    ) -> CommentFetcher:
        """A fetcher for validated online inputs (any mode) and a raw token.

        Args:
            target: the validated online inputs (:class:`Target`).
            token: the token as given (``None`` or blank: unauthenticated); surrounding
                whitespace is removed (:func:`frame_spine.github.auth.clean_token`). A token
                that an HTTP header cannot carry, or a :class:`TokenProblem` (e.g. no token
                at all, :func:`frame_spine.github.auth.no_token`), makes every fetch
                ``gh-auth-expired`` without a request.
            on_request: called with a :class:`~frame_spine.github.request_log.RequestRecord` per
                request (debug logging, SPEC 8).
        """
        cleaned = token if isinstance(token, TokenProblem) else clean_token(token)
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
        return self.settings.repository

    @property
    def requests_made(self) -> int:
        """Requests sent so far: every attempt and every redirect hop."""
        return self.run.requests_made

    def _get_comment(self, wire: Wire, comment_id: int) -> FetchedComment:
        answer = self.get(wire, self.url(f"issues/comments/{comment_id}"))
        comment = read_comment(
            answer.body,
            answer.fields.get("content-type", ""),
            comment_id=comment_id,
            repository=self.settings.repository,
            redirected=answer.redirected,
        )
        if isinstance(comment, Unusable):
            raise unusable(comment.detail, answer.fields)
        return comment

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
        what = f"{role} comment {comment_id} in {self.settings.repository}"
        refused = self.refused(what)
        if refused is not None:
            return refused
        try:
            with self.connected() as wire:
                return self.retrying(what, lambda: self._get_comment(wire, comment_id))
        except Exception as exc:  # a defect, never a network condition: no library text
            return unexpected(what, exc)

    def _get_permission(self, wire: Wire, login: str) -> Permission:
        url = self.url(f"collaborators/{quote(login, safe='')}/permission")
        try:
            answer = self.get(wire, url)
        except WireError as exc:
            failure = exc.failure
            if (
                failure.kind == "http"
                and failure.status in (403, 404)
                and not is_rate_limited(failure)
            ):
                return Permission(refused=failure.status)
            raise
        permission = read_permission(answer.body, answer.fields.get("content-type", ""))
        if isinstance(permission, Unusable):
            raise unusable(permission.detail, answer.fields)
        return permission

    def permission(self, login: str) -> Permission | Failure:
        """The repository permission of ``login`` (SPEC 6.1, the ``write`` term), retried as
        a comment fetch is: the :class:`~frame_spine.core.trust.Permission` read (``refused``
        for a 403 that is no rate limit, or a 404), or the :class:`Failure` of any other
        failure. Never raises."""
        what = f"the permission of {cut(login)} on {self.settings.repository}"
        refused = self.refused(what)
        if refused is not None:
            return refused
        try:
            with self.connected() as wire:
                return self.retrying(what, lambda: self._get_permission(wire, login))
        except Exception as exc:  # a defect, never a network condition: no library text
            return unexpected(what, exc)

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
        if self.run.fetched_page(url):
            shown = cut(path)
            raise unusable(
                "a pagination link of the GitHub API loops back to a page already fetched "
                f"({shown!r})",
                answer.fields,
            )
        return url

    def _get_page(
        self,
        wire: Wire,
        url: str,
        read: PageReader[T],
        redirected: bool,
    ) -> tuple[list[T], str | None, bool]:
        answer = self.get(wire, url)
        redirected = redirected or answer.redirected
        items = read(answer.body, answer.fields.get("content-type", ""), redirected)
        if isinstance(items, Unusable):
            raise unusable(items.detail, answer.fields)
        return items, self._next_page(answer, wire), redirected

    def _pages(
        self, path: str, what: str, parameters: dict[str, Any], read: PageReader[T]
    ) -> Iterator[list[T] | Failure]:
        refused = self.refused(what)
        if refused is not None:
            yield refused
            return
        try:
            with self.connected() as wire:
                query = urlencode({"per_page": 100, **parameters})
                origin, first = Origin.of(self.url(f"{path}?{query}"))
                url: str | None = _page_key(origin, first)
                redirected = False
                while url is not None:
                    self.run.claim_page(url)
                    get_page = functools.partial(self._get_page, wire, url, read, redirected)
                    outcome = self.retrying(what, get_page)
                    if isinstance(outcome, Failure):
                        yield outcome
                        return
                    items, url, redirected = outcome
                    yield items
        except Exception as exc:  # a defect, never a network condition: no library text
            yield unexpected(what, exc)

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
        repository = self.settings.repository

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
        # Workers block SIGINT/SIGTERM, so the main thread gets them even while it waits
        # here; it is never made to wait for a worker after an interrupt (SPEC 6
        # "Interrupts": a worker may be in a long rate-limit wait).
        pool = ThreadPoolExecutor(
            max_workers=len(wanted), initializer=interrupts.block_in_this_thread
        )
        try:
            futures = [pool.submit(self.fetch, *item) for item in wanted]
            # Woken every 0.1 s, so a signal the kernel gave another thread is handled
            # at once (the handler runs in this thread, at its next step).
            while wait(futures, timeout=0.1).not_done:
                pass
            return [future.result() for future in futures]
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def not_found_as_none(outcome: FetchedComment | Failure) -> FetchedComment | Failure | None:
    """A fetch's outcome with ``comment-not-found`` as ``None`` (see
    :meth:`CommentFetcher.fetch_if_exists`); other failures are kept."""
    if isinstance(outcome, Failure) and outcome.status is Status.COMMENT_NOT_FOUND:
        return None
    return outcome
