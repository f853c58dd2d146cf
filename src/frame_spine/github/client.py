"""Fetching from the GitHub REST API (SPEC 6 steps 1-2, 6.1, SPEC 10-11 listings).

An edge. A :class:`CommentFetcher` holds a run's :class:`~.session.ApiSession`; each method
is one request (or one listing) whose answer :mod:`.payloads` reads, and every failure is a
:class:`Failure` with a SPEC 6 status, never an exception.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import quote, urlencode

import requests.utils

from .. import interrupts
from ..core.shown import cut
from ..core.status import Failure, Status
from ..core.trust import Permission
from .edits import Edits, GraphQLErrors, read_edits
from .payloads import (
    FetchedComment,
    Unusable,
    read_comment,
    read_comment_page,
    read_issue_numbers,
    read_permission,
)
from .retry import RequestFailure, is_rate_limited
from .session import ApiSession
from .transport import Answer, Wire, WireError, unusable
from .urls import Origin, graphql_url, normalised

T = TypeVar("T")
P = ParamSpec("P")
#: SPEC 6.1's question: who edited these comments.
EDITS_QUERY = (
    "query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { id userContentEdits"
    "(first: 100) { totalCount nodes { editedAt editor { __typename login } } } } } }"
)
#: The most node ids GitHub takes in one request.
MAX_NODES = 100


def _next_link(fields: Mapping[str, str]) -> str | None:
    """The ``rel="next"`` URL of a ``Link`` header, or ``None`` on the last page."""
    for entry in requests.utils.parse_header_links(fields.get("link") or ""):
        if entry.get("rel") == "next" and entry.get("url"):
            return str(entry["url"])
    return None


def _read(
    answer: Answer,
    reader: Callable[Concatenate[bytes | bytearray, str, P], T | Unusable],
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """What ``answer`` holds, as ``reader(body, content type, *args)`` reads it; an unusable
    answer is a :class:`WireError`."""
    held = reader(answer.body, answer.fields.get("content-type", ""), *args, **kwargs)
    if isinstance(held, Unusable):
        raise unusable(held.detail, answer.fields)
    return held


class CommentFetcher:
    """Comments, listings and permissions of one repository, through ``session``.
    Thread-safe: :meth:`fetch_all` fetches several comments concurrently."""

    def __init__(self, session: ApiSession) -> None:
        self.session = session

    @property
    def repository(self) -> str:
        """The repository read, ``OWNER/NAME``."""
        return self.session.settings.repository

    @property
    def requests_made(self) -> int:
        """Requests sent so far: every attempt and every redirect hop."""
        return self.session.run.requests_made

    def fetch(self, comment_id: int, role: str) -> FetchedComment | Failure:
        """Comment ``comment_id`` (``role``: ``plan`` or ``sibling``, for messages): the
        comment asked for, or the SPEC 6 failure. Never raises."""
        session, repository = self.session, self.repository
        url = session.url(f"issues/comments/{comment_id}")

        def ask(wire: Wire) -> FetchedComment:
            answer = session.send(wire, url)
            return _read(answer, read_comment, comment_id, repository, answer.redirected)

        return session.request(f"{role} comment {comment_id} in {repository}", ask)

    def fetch_if_exists(self, comment_id: int, role: str) -> FetchedComment | Failure | None:
        """Like :meth:`fetch`, but a comment that is not there (404/410) is ``None`` (a
        finding in validate and audit, SPEC 10, 11)."""
        return not_found_as_none(self.fetch(comment_id, role))

    def fetch_all(self, wanted: Sequence[tuple[int, str]]) -> list[FetchedComment | Failure]:
        """Several comments (``[(id, role), ...]``) concurrently (SPEC 6 step 2), in the
        order of ``wanted``. Never raises."""
        if len(wanted) == 1:
            return [self.fetch(*wanted[0])]
        # Workers block SIGINT/SIGTERM, so the main thread gets them even while it waits,
        # and it never waits for a worker after one (SPEC 6 "Interrupts").
        pool = ThreadPoolExecutor(
            max_workers=len(wanted), initializer=interrupts.block_in_this_thread
        )
        try:
            futures = [pool.submit(self.fetch, *item) for item in wanted]
            while wait(futures, timeout=0.1).not_done:  # a signal is handled within 0.1 s
                pass
            return [future.result() for future in futures]
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def permission(self, login: str) -> Permission | Failure:
        """``login``'s repository permission (SPEC 6.1, the ``write`` term): the answer, a
        ``refused`` one for a 403 that is no rate limit or a 404, or the :class:`Failure`.
        Never raises."""
        session = self.session
        url = session.url(f"collaborators/{quote(login, safe='')}/permission")

        def ask(wire: Wire) -> Permission:
            try:
                answer = session.send(wire, url)
            except WireError as exc:
                failure = exc.failure
                refused = failure.kind == "http" and failure.status in (403, 404)
                if refused and not is_rate_limited(failure):
                    return Permission(refused=failure.status)
                raise
            return _read(answer, read_permission)

        return session.request(f"the permission of {cut(login)} on {self.repository}", ask)

    def edits(self, comments: Sequence[FetchedComment]) -> dict[int, Edits | None] | Failure:
        """The edit histories of ``comments`` (SPEC 6.1, "Who last touched it"), by comment id:
        one GraphQL request per 100; the :class:`Failure` of the first that fails. Never
        raises."""
        found: dict[int, Edits | None] = {}
        for start in range(0, len(comments), MAX_NODES):
            got = self._edits(comments[start : start + MAX_NODES])
            if isinstance(got, Failure):
                return got
            found.update(got)
        return found

    def _edits(self, batch: Sequence[FetchedComment]) -> dict[int, Edits | None] | Failure:
        session = self.session
        api_url = session.settings.api_url
        url = graphql_url(api_url)
        ids = [comment.node_id or "" for comment in batch]
        body = json.dumps({"query": EDITS_QUERY, "variables": {"ids": ids}}).encode()
        named = ", ".join(str(comment.id) for comment in batch)
        what = f"the edit history of comment {named} in {self.repository}"

        def ask(wire: Wire) -> dict[str, Edits | None] | Failure:
            try:
                answer = session.send(wire, url, body)
            except WireError as exc:
                status = exc.failure.status or 0
                if exc.failure.kind == "http" and (status == 404 or 300 <= status <= 399):
                    return Failure(
                        Status.ERROR,
                        f"{what}: the GraphQL endpoint {cut(url)} (from api-url {cut(api_url)}) "
                        f"answered HTTP {status}: check api-url",
                    )
                raise
            held = read_edits(answer.body, answer.fields.get("content-type", ""), ids)
            if isinstance(held, Unusable):  # (three kinds of answer: _read cannot type them)
                raise unusable(held.detail, answer.fields)
            return _graphql_failure(held, answer, what) if isinstance(held, GraphQLErrors) else held

        got = session.request(what, ask)
        if isinstance(got, Failure):
            return got
        return {comment.id: got[comment.node_id or ""] for comment in batch}

    def pages(
        self,
        path: str,
        what: str,
        parameters: dict[str, Any] | None = None,
        *,
        issue_number: int | None = None,
    ) -> Iterator[list[FetchedComment] | Failure]:
        """A comment listing under the repository (``issues/comments``, ``issues/N/comments``),
        page by page: each page's comments, or a :class:`Failure` that ends it (SPEC 6, 11)."""

        def read(answer: Answer, redirected: bool) -> list[FetchedComment]:
            return _read(answer, read_comment_page, self.repository, issue_number, redirected)

        return self._pages(path, what, parameters or {}, read)

    def issue_numbers(self, state: str, what: str) -> Iterator[list[int] | Failure]:
        """The numbers of the repository's issues in ``state``, page by page (pull requests
        left out)."""
        return self._pages(
            "issues", what, {"state": state}, lambda answer, _: _read(answer, read_issue_numbers)
        )

    def _pages(
        self,
        path: str,
        what: str,
        parameters: dict[str, Any],
        read: Callable[[Answer, bool], list[T]],
    ) -> Iterator[list[T] | Failure]:
        """Follow ``rel="next"`` within the API's origin, holding one page at a time, never
        a page twice (SPEC 6)."""
        session = self.session
        query = urlencode({"per_page": 100, **parameters})
        url: str | None = _page_key(session.url(f"{path}?{query}"))
        redirected = False

        def page(wire: Wire, url: str) -> tuple[list[T], str | None, bool]:
            answer = session.send(wire, url)
            seen = answer.redirected or redirected
            items = read(answer, seen)
            link = _next_link(answer.fields)
            if link is None:
                return items, None, seen
            went = "a pagination link of the GitHub API"
            following, at = wire.within(
                answer.url, link, answer.fields, f"{went} points to", f"{went} is not a usable URL"
            )
            following = _page_key(following)
            if session.run.fetched_page(following):
                looped = f"{went} loops back to a page already fetched ({cut(at)!r})"
                raise unusable(looped, answer.fields)
            return items, following, seen

        while url is not None:
            session.run.claim_page(url)
            got = session.request(what, functools.partial(page, url=url))
            if isinstance(got, Failure):
                yield got
                return
            items, url, redirected = got
            yield items


def _graphql_failure(errors: GraphQLErrors, answer: Answer, what: str) -> Failure:
    """What a GraphQL answer's ``errors`` mean (SPEC 6.1): a rate limit is a
    :class:`WireError` (waited out as any other); the failure of the others."""
    message = cut(" ".join("; ".join(errors.messages).split()))
    pairs = zip(errors.types, errors.messages, strict=True)
    if any(kind == "RATE_LIMITED" or "rate limit" in text.lower() for kind, text in pairs):
        failure = RequestFailure("http", answer.status, answer.fields, f"rate limit: {message}")
        raise WireError(failure)
    if {"FORBIDDEN", "INSUFFICIENT_SCOPES"} & set(errors.types):
        return Failure(
            Status.GH_AUTH_EXPIRED,
            f"{what}: the token cannot read comment edit history ({message})",
        )
    return Failure(Status.ERROR, f"{what}: the GitHub API answered: {message}")


def _page_key(url: str) -> str:
    """A listing page's URL as it is sent (:func:`~.urls.normalised`), so that a page is
    recognised however a ``Link`` header spells it."""
    origin, path = Origin.of(url)
    return origin.url(normalised(path))


def not_found_as_none(outcome: FetchedComment | Failure) -> FetchedComment | Failure | None:
    """A fetch's outcome with ``comment-not-found`` as ``None``; other failures are kept."""
    if isinstance(outcome, Failure) and outcome.status is Status.COMMENT_NOT_FOUND:
        return None
    return outcome
