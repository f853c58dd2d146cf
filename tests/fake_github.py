"""A loopback stand-in for the GitHub REST API (issue comments), on a real HTTP server.

It serves ``GET /repos/{owner}/{repo}/issues/comments/{id}`` (optionally under a GitHub
Enterprise Server prefix such as ``/api/v3``) with GitHub's JSON shape and headers, checks the
token, records every request, and can script faults per comment: error statuses, rate limits,
slowness, HTML pages, ``"body": null``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

TOKEN = "test-token-0123456789"
REPO = "octo-org/plans"
_COMMENT_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/issues/comments/(?P<id>[0-9]+)$"
)

_LISTING_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/issues(?:/(?P<issue>[0-9]+))?/comments$"
)

_ISSUES_PATH = re.compile(r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/issues$")

Responder = Callable[[Request], Response]


@dataclass
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    at: float


def _json_response(status: int, payload: Any, headers: dict[str, str] | None = None) -> Response:
    base = {
        "content-type": "application/json; charset=utf-8",
        "x-github-media-type": "github.v3; format=json",
        "x-github-api-version-selected": "2022-11-28",
        "x-github-request-id": "F00D:1234:5678:9ABC:DEF0",
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "4999",
        "x-ratelimit-reset": str(int(time.time()) + 3600),
        "x-ratelimit-used": "1",
        "x-ratelimit-resource": "core",
    }
    base.update(headers or {})
    return Response(json.dumps(payload), status=status, headers=base)


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Responder:
    """A GitHub-style error answer."""
    body = {
        "message": message,
        "documentation_url": "https://docs.github.com/rest",
        "status": str(status),
    }
    return lambda _request: _json_response(status, body, headers)


def rate_limited_403(reset_in: int = 3600) -> Responder:
    """A primary rate limit: 403, ``x-ratelimit-remaining: 0``, reset ``reset_in`` s away."""
    return error(
        403,
        "API rate limit exceeded for installation ID 1234.",
        {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(time.time()) + reset_in)},
    )


def too_many_requests(retry_after: int) -> Responder:
    """A secondary rate limit: 429 with ``retry-after``."""
    return error(
        429,
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        {"retry-after": str(retry_after)},
    )


def html_page(_request: Request) -> Response:
    """A 200 whose body is an HTML page (a proxy or captive portal, not the API)."""
    return Response(
        "<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>",
        200,
        {"content-type": "text/html; charset=utf-8"},
    )


@dataclass
class FakeGitHub:
    """The fake API. ``url`` is its API root (``http://127.0.0.1:PORT`` + prefix)."""

    server: HTTPServer
    prefix: str = ""
    token: str | None = TOKEN
    latency: float = 0.0
    comments: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    scripts: dict[int, list[Responder]] = field(default_factory=dict)
    forever: dict[int, Responder] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    log_file: Path | None = None  # also append "METHOD /path" lines here (for other processes)
    issues: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.server.expect_request(re.compile(r".*")).respond_with_handler(self._handle)

    @property
    def url(self) -> str:
        return self.server.url_for(self.prefix).rstrip("/")

    def add_comment(
        self,
        comment_id: int,
        body: str | None,
        issue_number: int,
        repo: str = REPO,
        updated_at: str = "2026-07-18T22:21:00Z",
    ) -> dict[str, Any]:
        """Serve a comment of ``issue_number`` with GitHub's JSON shape; returns the JSON."""
        api = self.url
        payload = {
            "url": f"{api}/repos/{repo}/issues/comments/{comment_id}",
            "html_url": f"https://github.com/{repo}/issues/{issue_number}#issuecomment-{comment_id}",
            "issue_url": f"{api}/repos/{repo}/issues/{issue_number}",
            "id": comment_id,
            "node_id": f"IC_kwDOFake{comment_id}",
            "user": {
                "login": "planner-bot",
                "id": 4242,
                "node_id": "MDQ6VXNlcjQyNDI=",
                "type": "Bot",
                "site_admin": False,
            },
            "created_at": "2026-07-18T22:20:00Z",
            "updated_at": updated_at,
            "author_association": "CONTRIBUTOR",
            "body": body,
            "reactions": {
                "url": f"{api}/repos/{repo}/issues/comments/{comment_id}/reactions",
                "total_count": 0,
            },
            "performed_via_github_app": None,
        }
        self.comments[(repo, comment_id)] = payload
        return payload

    def add_issue(
        self, number: int, state: str = "open", *, pull_request: bool = False, repo: str = REPO
    ) -> None:
        """Serve an issue (or a pull request) in the issue listing."""
        api = self.url
        payload: dict[str, Any] = {
            "url": f"{api}/repos/{repo}/issues/{number}",
            "html_url": f"https://github.com/{repo}/issues/{number}",
            "id": 9_000_000 + number,
            "number": number,
            "title": f"Issue {number}",
            "state": state,
            "comments": 0,
        }
        if pull_request:
            payload["pull_request"] = {"url": f"{api}/repos/{repo}/pulls/{number}"}
        self.issues[(repo, number)] = payload

    def script(
        self, comment_id: int, *responders: Responder, forever: Responder | None = None
    ) -> None:
        """Answer the next requests for ``comment_id`` with ``responders`` in order, then with
        ``forever`` (if given) or the comment itself."""
        self.scripts[comment_id] = list(responders)
        if forever is not None:
            self.forever[comment_id] = forever

    def paths(self) -> list[str]:
        return [f"{r.method} {r.path}" for r in self.requests]

    def _handle(self, request: Request) -> Response:
        with self._lock:
            self.requests.append(
                Recorded(
                    request.method,
                    request.path,
                    request.query_string.decode(),
                    {k.lower(): v for k, v in request.headers.items()},
                    time.monotonic(),
                )
            )
            if self.log_file is not None:
                with self.log_file.open("a", encoding="utf-8") as log:
                    log.write(f"{request.method} {request.path}\n")
        if self.latency:
            time.sleep(self.latency)
        issues = _ISSUES_PATH.match(request.path)
        if request.method == "GET" and issues is not None and issues.group("prefix") == self.prefix:
            return self._issue_listing(request, issues.group("repo"))
        listing = _LISTING_PATH.match(request.path)
        if (
            request.method == "GET"
            and listing is not None
            and listing.group("prefix") == self.prefix
        ):
            return self._listing(request, listing.group("repo"), listing.group("issue"))
        match = _COMMENT_PATH.match(request.path)
        if request.method != "GET" or match is None or match.group("prefix") != self.prefix:
            return error(404, "Not Found")(request)
        if self.token is not None:
            auth = request.headers.get("Authorization", "")
            if auth not in (f"token {self.token}", f"Bearer {self.token}"):
                return error(401, "Bad credentials")(request)
        comment_id = int(match.group("id"))
        with self._lock:
            queued = self.scripts.get(comment_id)
            responder = queued.pop(0) if queued else self.forever.get(comment_id)
        if responder is not None:
            return responder(request)
        payload = self.comments.get((match.group("repo"), comment_id))
        if payload is None:
            return error(404, "Not Found")(request)
        return _json_response(
            200,
            payload,
            {"etag": f'W/"etag-{comment_id}"', "last-modified": "Sat, 18 Jul 2026 22:21:00 GMT"},
        )

    def _paged(self, request: Request, items: list[dict[str, Any]], extra: str) -> Response:
        per_page = min(100, int(request.args.get("per_page", "30")))
        page = int(request.args.get("page", "1"))
        last = max(1, -(-len(items) // per_page))
        chosen = items[(page - 1) * per_page : page * per_page]
        base = f"{self.url}{request.path[len(self.prefix) :]}"
        links = []
        if page < last:
            links.append(f'<{base}?per_page={per_page}&page={page + 1}{extra}>; rel="next"')
            links.append(f'<{base}?per_page={per_page}&page={last}{extra}>; rel="last"')
        if page > 1:
            links.append(f'<{base}?per_page={per_page}&page=1{extra}>; rel="first"')
            links.append(f'<{base}?per_page={per_page}&page={page - 1}{extra}>; rel="prev"')
        headers = {"link": ", ".join(links)} if links else {}
        return _json_response(200, chosen, headers)

    def _issue_listing(self, request: Request, repo: str) -> Response:
        """``GET /repos/{repo}/issues``: ``state`` (default open; all), ascending numbers,
        pull requests included (with a ``pull_request`` key), as GitHub does."""
        if self.token is not None:
            auth = request.headers.get("Authorization", "")
            if auth not in (f"token {self.token}", f"Bearer {self.token}"):
                return error(401, "Bad credentials")(request)
        state = request.args.get("state", "open")
        items = sorted(
            (p for (r, _n), p in self.issues.items() if r == repo and state in ("all", p["state"])),
            key=lambda p: p["number"],
        )
        return self._paged(request, items, f"&state={state}")

    def _listing(self, request: Request, repo: str, issue: str | None) -> Response:
        """``GET /repos/{repo}/issues[/{N}]/comments``: ascending ids, ``per_page`` (default
        30, at most 100), ``page``, ``since`` (updated at or after), GitHub's ``Link`` header."""
        if self.token is not None:
            auth = request.headers.get("Authorization", "")
            if auth not in (f"token {self.token}", f"Bearer {self.token}"):
                return error(401, "Bad credentials")(request)
        with self._lock:
            queued = self.scripts.get(0)
            responder = queued.pop(0) if queued else self.forever.get(0)
        if responder is not None:
            return responder(request)
        since = request.args.get("since")
        items = sorted(
            (payload for (r, _id), payload in self.comments.items() if r == repo),
            key=lambda payload: payload["id"],
        )
        if issue is not None:
            items = [p for p in items if p["issue_url"].endswith(f"/issues/{issue}")]
        if since is not None:
            items = [p for p in items if p["updated_at"] >= since]
        return self._paged(request, items, f"&since={since}" if since is not None else "")
