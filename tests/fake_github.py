"""A loopback stand-in for the GitHub REST API (issue comments), on a real HTTP server.

Every answer it gives of its own accord is one GitHub gives, in the shape of GitHub's
published OpenAPI description (``tests/schemas/github-rest-subset.json``, from
``@octokit/openapi``; ``tests/test_fake_github.py`` validates every body the fake can serve
against it):

- ``GET /repos/{owner}/{repo}/issues/comments/{id}`` (optionally under a GitHub Enterprise
  Server prefix such as ``/api/v3``): an issue comment, written by a :class:`User` (by default
  the repository's owner, whom the default ``trusted-authors`` trusts), ``user: null`` for a
  deleted account; a renamed repository answers under ``/repositories/{id}/...``.
- ``GET /repos/{owner}/{repo}/issues/comments`` and ``.../issues/{n}/comments``: ascending
  ids (GitHub's order), ``per_page`` (default 30, at most 100), ``page``, ``since`` (comments
  updated strictly *after* it: the description says "last updated after the given time").
- ``GET /repos/{owner}/{repo}/issues``: ``state`` (default ``open``), newest first (GitHub's
  default ``sort=created``, ``direction=desc``), pull requests included (``pull_request``).
- Listings link every further page (and ``first``, ``prev``, ``last``) as
  ``/repositories/{id}/...``, as GitHub does (``tests/recorded/paginate-issues.json``), and
  serve those paths; each repository gets a numeric id (:meth:`FakeGitHub.repository_id`).
- ``GET /repos/{owner}/{repo}/collaborators/{login}/permission``, as GitHub answers on a
  public repository: ``read`` for any user login, ``none`` (``role_name: ""``) for a bot
  (a login ending in ``[bot]``), what :meth:`FakeGitHub.set_permission` sets, the 403 a user
  token that cannot push gets (:attr:`FakeGitHub.permission_403`), and 404 for a login the
  fake does not know (:meth:`FakeGitHub.unknown_login`).
- Errors as GitHub writes them (``message``, ``documentation_url``, ``status``): 401 for a
  wrong token, 404 for what is not served.

Everything else is a fault a test injects on purpose (:meth:`FakeGitHub.script`), and each
responder's docstring says which real answer it imitates or that it is deliberately not a
GitHub answer: rate limits, 5xx, HTML pages, raw bytes with any content type,
``"body": null``, redirects, gzip bombs, dripping bodies. :class:`DripServer` is a raw TCP
(optionally TLS) server that drips a whole answer, headers included, one byte at a time.
"""

from __future__ import annotations

import base64
import json
import re
import socket
import ssl
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response
from werkzeug.test import EnvironBuilder

from frame_spine.github.transport import Exchange, Reply
from tests.clock import FakeClock

TOKEN = "test-token-0123456789"
REPO = "octo-org/plans"
#: Where GitHub's error bodies point (``documentation_url``).
DOCS = "https://docs.github.com/rest"
#: ``/repos/{owner}/{repo}`` or ``/repositories/{id}``, after an optional prefix.
_WHERE = r"^(?P<prefix>(?:/[^/]+)*?)(?:/repos/(?P<repo>[^/]+/[^/]+)|/repositories/(?P<rid>[0-9]+))"
_COMMENT_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/issues/comments/(?P<id>[0-9]+)$"
)
_LISTING_PATH = re.compile(_WHERE + r"/issues(?:/(?P<issue>[0-9]+))?/comments$")
_ISSUES_PATH = re.compile(_WHERE + r"/issues$")
_PERMISSION_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/collaborators/(?P<login>[^/]+)"
    r"/permission$"
)
_RENAMED_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repositories/(?P<rid>[0-9]+)/issues/comments/(?P<id>[0-9]+)$"
)
_ISSUE_NUMBER = re.compile(r"/issues/([0-9]+)$")
#: The message GitHub answers a user token that cannot push with (SPEC 6.1).
PUSH_ACCESS = "Must have push access to view collaborator permission."
#: The repository permissions and the ``permissions`` flags each grants (``user.permissions``
#: of a permission answer).
_RANKS = ("none", "read", "triage", "write", "maintain", "admin")
_FLAGS = {"admin": 5, "maintain": 4, "push": 3, "triage": 2, "pull": 1}

Responder = Callable[[Request], Response]


class LoopbackServer(HTTPServer):
    """pytest-httpserver's server, stopped within 20 ms: its serving thread polls for the
    shutdown every 20 ms instead of the standard library's 0.5 s (``thread_target`` is the
    documented hook; the 0.5 s was paid by every test's teardown)."""

    def thread_target(self) -> None:
        assert self.server is not None
        self.server.serve_forever(poll_interval=0.02)


@dataclass(frozen=True)
class User:
    """A comment's author as GitHub's JSON shows one: ``user`` (a simple user) and the
    comment's ``author_association`` (``None``: the key is left out, which the schema allows).
    """

    login: str
    association: str | None
    type: str = "User"
    id: int = 1001
    app_id: int | None = None  # a bot's app (its avatar is the app's)

    def payload(self) -> dict[str, Any]:
        """The ``user`` object: a simple user, as the REST API nests it (a bot's as GitHub
        shows an app's: ``type: Bot``, its URL with the brackets escaped, the app's page)."""
        bot = self.type == "Bot"
        node = base64.b64encode(f"{'03:Bot' if bot else '04:User'}{self.id}".encode()).decode()
        api = f"https://api.github.com/users/{quote(self.login, safe='')}"
        return {
            "login": self.login,
            "id": self.id,
            "node_id": node,
            "avatar_url": f"https://avatars.githubusercontent.com/in/{self.app_id or self.id}?v=4"
            if bot
            else f"https://avatars.githubusercontent.com/u/{self.id}?v=4",
            "gravatar_id": "",
            "url": api,
            "html_url": f"https://github.com/apps/{self.login.removesuffix('[bot]')}"
            if bot
            else f"https://github.com/{self.login}",
            "followers_url": f"{api}/followers",
            "following_url": f"{api}/following{{/other_user}}",
            "gists_url": f"{api}/gists{{/gist_id}}",
            "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{api}/subscriptions",
            "organizations_url": f"{api}/orgs",
            "repos_url": f"{api}/repos",
            "events_url": f"{api}/events{{/privacy}}",
            "received_events_url": f"{api}/received_events",
            "type": self.type,
            "user_view_type": "public",
            "site_admin": False,
        }


#: The default author of served comments: the repository's owner (trusted by default).
OWNER = User("octo-maintainer", "OWNER", id=583231)
#: A commenter with no relation to the repository (the attacker of SPEC 6.1).
DRIVE_BY = User("drive-by", "NONE", id=990001)
#: A GitHub App's bot as the REST API shows one: ``type: Bot``, a ``[bot]`` login,
#: association ``NONE`` (a real answer's shape).
PLANNER_BOT = User("planner-app[bot]", "NONE", type="Bot", id=190000123)
#: The workflow token's bot, as a real comment of it shows it.
ACTIONS_BOT = User("github-actions[bot]", "NONE", type="Bot", id=41898282, app_id=15368)
#: An organization member whose membership is private: ``CONTRIBUTOR`` (a real answer's
#: shape), with write permission on the repository.
PRIVATE_MEMBER = User("quiet-member", "CONTRIBUTOR", id=770001)


@dataclass(frozen=True)
class Minimized:
    """A hidden comment's ``minimized`` object (``reason`` as GitHub names it, e.g.
    ``outdated``, ``off-topic``, ``spam``; ``None``: no reason given)."""

    reason: str | None


@dataclass
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    at: float  # time.monotonic(), plus what the fake's clock slept (FakeGitHub.clock)
    remote_port: int = 0
    raw_uri: str = ""  # the request target as sent (percent-escapes kept)


def _json_response(status: int, payload: Any, headers: dict[str, str] | None = None) -> Response:
    """An answer as GitHub's API sends one (its headers; ``x-github-api-version-selected`` is
    added by :meth:`FakeGitHub._handle` when the request asked for a version)."""
    base = {
        "content-type": "application/json; charset=utf-8",
        "x-github-media-type": "github.v3; format=json",
        "x-github-request-id": "F00D:1234:5678:9ABC:DEF0",
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "4999",
        "x-ratelimit-reset": str(int(time.time()) + 3600),
        "x-ratelimit-used": "1",
        "x-ratelimit-resource": "core",
    }
    base.update(headers or {})
    return Response(json.dumps(payload), status=status, headers=base)


def error_body(status: int, message: str) -> dict[str, str]:
    """GitHub's error body (the schema's ``basic-error``)."""
    return {"message": message, "documentation_url": DOCS, "status": str(status)}


def _edit_node(user: User | None, at: str) -> dict[str, Any]:
    """One ``UserContentEdit`` as GraphQL shows it: a bot's login without ``[bot]``."""
    editor = None
    if user is not None:
        bot = user.type == "Bot"
        editor = {"__typename": "Bot" if bot else "User", "login": user.login.removesuffix("[bot]")}
    return {"editedAt": at, "editor": editor}


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Responder:
    """An error answer as GitHub writes one (``basic-error``: ``message``,
    ``documentation_url``, ``status``), e.g. ``error(404, "Not Found")``,
    ``error(401, "Bad credentials")``, ``error(502, "Server Error")``."""
    body = error_body(status, message)
    return lambda _request: _json_response(status, body, headers)


def rate_limited_403(reset_in: int = 3600, clock: Callable[[], float] = time.time) -> Responder:
    """GitHub's documented primary rate limit: 403 with ``x-ratelimit-remaining: 0`` and the
    reset instant in ``x-ratelimit-reset`` (epoch seconds), ``reset_in`` s after the moment it
    answers on ``clock`` (give it the clock of the code under test, e.g. ``fake.clock.time``,
    so the wait it reads is exactly ``reset_in``)."""

    def respond(request: Request) -> Response:
        reset = str(int(clock()) + reset_in)
        return error(
            403,
            "API rate limit exceeded for installation ID 1234.",
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": reset},
        )(request)

    return respond


def too_many_requests(retry_after: int) -> Responder:
    """GitHub's documented secondary rate limit: 429 (GitHub also answers it with 403) with
    ``retry-after`` in seconds."""
    return error(
        429,
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        {"retry-after": str(retry_after)},
    )


def retry_after_date(seconds: int, clock: Callable[[], float] = time.time) -> Responder:
    """A secondary rate limit whose ``retry-after`` is an HTTP-date ``seconds`` from the
    moment it answers on ``clock`` (RFC 9110 section 10.2.3), e.g.
    ``Sun, 06 Nov 1994 08:49:37 GMT``. GitHub documents seconds; the date form is what a
    proxy or a future GitHub may send, and SPEC 6 reads both."""

    def respond(request: Request) -> Response:
        moment = datetime.fromtimestamp(int(clock()) + seconds, tz=UTC)
        return error(
            429,
            "You have exceeded a secondary rate limit.",
            {"retry-after": format_datetime(moment, usegmt=True)},
        )(request)

    return respond


def raw(
    body: bytes,
    content_type: str | None = "application/json; charset=utf-8",
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Responder:
    """An answer of exactly ``body`` (bytes as given) with that content type (or none):
    deliberately not a GitHub answer (bytes that are not UTF-8, JSON of another shape, a
    proxy's ``text/plain``), unless a test passes a GitHub body through it."""

    def respond(_request: Request) -> Response:
        response = Response(body, status)
        response.headers.pop("content-type", None)
        if content_type is not None:
            response.headers["content-type"] = content_type
        response.headers["x-github-request-id"] = "F00D:RAW"
        for name, value in (headers or {}).items():
            response.headers[name] = value
        return response

    return respond


def redirect(status: int, location: str) -> Responder:
    """A redirect (301, 302, 307, 308) to ``location`` (absolute or a path), as GitHub answers
    for a renamed or transferred repository (301 to ``/repositories/{id}/...``, body
    ``basic-error`` with the new ``url``). Other statuses and locations (another host, a loop)
    are faults."""
    return lambda _request: Response(
        json.dumps(
            {
                "message": "Moved Permanently",
                "url": location,
                "documentation_url": "https://docs.github.com/v3/#http-redirects",
            }
        ),
        status,
        {
            "location": location,
            "content-type": "application/json; charset=utf-8",
            "x-github-request-id": "F00D:MOVED",
        },
    )


_BOMBS: dict[int, bytes] = {}


def gzip_bomb(inflated: int) -> Responder:
    """A 200 whose gzip-compressed body inflates to ``inflated`` bytes of JSON whitespace
    (a few hundred KiB on the wire): deliberately not a GitHub answer (a hostile server)."""
    if inflated not in _BOMBS:
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip framing
        block = b" " * (1 << 20)
        parts = [packer.compress(block) for _ in range(inflated >> 20)]
        parts.append(packer.compress(b"{}") + packer.flush())
        _BOMBS[inflated] = b"".join(parts)
    packed = _BOMBS[inflated]
    return lambda _request: Response(
        packed,
        200,
        {"content-type": "application/json; charset=utf-8", "content-encoding": "gzip"},
    )


def dripping_body(payload: bytes, interval: float) -> Responder:
    """A 200 whose headers come at once and whose body comes one byte every ``interval``
    seconds (chunked), so no single read ever waits long: deliberately not a GitHub answer
    (a slow or hostile server or proxy)."""

    def drip() -> Iterator[bytes]:
        for index in range(len(payload)):
            time.sleep(interval)
            yield payload[index : index + 1]

    return lambda _request: Response(
        drip(), 200, {"content-type": "application/json; charset=utf-8"}
    )


def html_page(_request: Request) -> Response:
    """A 200 whose body is an HTML page: deliberately not a GitHub answer (a proxy or captive
    portal in front of the API)."""
    return Response(
        "<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>",
        200,
        {"content-type": "text/html; charset=utf-8"},
    )


def _instant(value: str) -> datetime | None:
    """An ISO 8601 timestamp (``YYYY-MM-DDTHH:MM:SSZ``, or with an offset) as UTC, or
    ``None`` when it is not one."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


#: When issue N was opened unless ``add_issue`` says: a minute after this per number, so the
#: newest-first listing is the numbers in descending order.
_FIRST_ISSUE = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class FakeGitHub:
    """The fake API. ``url`` is its API root (``http://127.0.0.1:PORT`` + prefix)."""

    server: HTTPServer
    prefix: str = ""
    token: str | None = TOKEN
    latency: float = 0.0
    comments: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    # (repo, login lower-cased) -> the permission answer, or a responder (403, 404, ...)
    permissions: dict[tuple[str, str], dict[str, Any] | Responder] = field(default_factory=dict)
    # (repo, login lower-cased) of the logins GitHub does not know (404)
    unknown_logins: set[tuple[str, str]] = field(default_factory=set)
    # The token is a user's that cannot push: every permission request without an answer
    # set answers 403 "Must have push access to view collaborator permission." (SPEC 6.1).
    permission_403: bool = False
    scripts: dict[int, list[Responder]] = field(default_factory=dict)
    forever: dict[int, Responder] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    log_file: Path | None = None  # also append "METHOD /path" lines here (for other processes)
    issues: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    repository_ids: dict[int, str] = field(default_factory=dict)  # /repositories/{id}: repo
    # Run once, right after the first page of a comment listing is served: a comment created
    # or edited during the listing, as on a live repository (offset pagination then shifts).
    during_listing: Callable[[], None] | None = None
    # node id -> the comment's edit history, newest first, the creation entry last (GraphQL).
    edits: dict[str, list[tuple[User | None, str]]] = field(default_factory=dict)
    # Every GraphQL query received, as sent.
    graphql_queries: list[str] = field(default_factory=list)
    # The clock of the code under test when it runs in this process (tests.in_process):
    # ``Recorded.at`` is real time plus what was slept on it, so a backoff shows as a gap.
    clock: FakeClock = field(default_factory=FakeClock)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.server.expect_request(re.compile(r".*")).respond_with_handler(self._handle)

    @property
    def url(self) -> str:
        return self.server.url_for(self.prefix).rstrip("/")

    def repository_id(self, repo: str = REPO) -> int:
        """The numeric id of ``repo`` (``/repositories/{id}/...``): the first id that
        :attr:`repository_ids` gives it, else a new one (1001, 1002, ...)."""
        with self._lock:
            for rid, name in self.repository_ids.items():
                if name.lower() == repo.lower():
                    return rid
            rid = max(1000, *self.repository_ids) + 1 if self.repository_ids else 1001
            self.repository_ids[rid] = repo
            return rid

    def add_comment(
        self,
        comment_id: int,
        body: str | None,
        issue_number: int,
        repo: str = REPO,
        updated_at: str = "2026-07-18T22:21:00Z",
        author: User | None = OWNER,
        *,
        created_at: str | None = None,
        minimized: Minimized | None = None,
        edits: list[tuple[User | None, str]] | None = None,
    ) -> dict[str, Any]:
        """Serve a comment of ``issue_number`` with GitHub's JSON shape, written by
        ``author`` (``None``: a deleted account, ``"user": null``), hidden when
        ``minimized``; returns the JSON. ``body=None`` serves ``"body": null``: deliberately
        not a GitHub answer (the schema's ``body`` is a string), which SPEC 6 reads as empty.
        """
        api = self.url
        comment_url = f"{api}/repos/{repo}/issues/comments/{comment_id}"
        payload: dict[str, Any] = {
            "url": comment_url,
            "html_url": f"https://github.com/{repo}/issues/{issue_number}#issuecomment-{comment_id}",
            "issue_url": f"{api}/repos/{repo}/issues/{issue_number}",
            "id": comment_id,
            "node_id": f"IC_kwDOFake{comment_id}",
            "user": author.payload() if author is not None else None,
            "created_at": created_at or updated_at,
            "updated_at": updated_at,
            "author_association": author.association if author is not None else "NONE",
            "body": body,
            "reactions": _reactions(f"{comment_url}/reactions"),
            "performed_via_github_app": None,
        }
        if author is not None and author.association is None:
            del payload["author_association"]
        if minimized is not None:
            payload["minimized"] = {"reason": minimized.reason}
        self.comments[(repo, comment_id)] = payload
        if edits is not None or payload["created_at"] != updated_at:
            # GitHub's history: newest first, the creation entry last.
            self.edits[payload["node_id"]] = edits or [(author, updated_at)]
            self.edits[payload["node_id"]].append((author, payload["created_at"]))
        return payload

    def set_permission(
        self,
        login: str,
        permission: str | Responder,
        role_name: str | None = None,
        *,
        repo: str = REPO,
    ) -> None:
        """Answer ``GET /repos/{repo}/collaborators/{login}/permission`` with ``permission``
        (``admin``, ``write``, ``read``, ``none``) and ``role_name`` (default: the
        permission; a custom role may carry any name), or with a responder (e.g.
        ``error(403, PUSH_ACCESS)``). Without one, a login answers as GitHub does on a public
        repository: ``read`` (a bot: ``none``)."""
        if callable(permission):
            self.permissions[(repo, login.lower())] = permission
            return
        self.permissions[(repo, login.lower())] = _permission_answer(
            login, permission, role_name if role_name is not None else permission
        )

    def unknown_login(self, login: str, *, repo: str = REPO) -> None:
        """Answer 404 for ``login``'s permission: an account GitHub does not know."""
        self.unknown_logins.add((repo, login.lower()))

    def add_issue(
        self,
        number: int,
        state: str = "open",
        *,
        pull_request: bool = False,
        repo: str = REPO,
        created_at: str | None = None,
        title: str | None = None,
        author: User = OWNER,
    ) -> dict[str, Any]:
        """Serve an issue (or a pull request) in the issue listing, opened ``created_at``
        (default: a minute after 2026-01-01 per number), with GitHub's JSON shape; returns
        the JSON (its ``comments`` count is filled in when listed)."""
        api = self.url
        opened = created_at or _stamp(_FIRST_ISSUE + timedelta(minutes=number))
        issue_api = f"{api}/repos/{repo}/issues/{number}"
        kind = "pull" if pull_request else "issues"
        payload: dict[str, Any] = {
            "url": issue_api,
            "repository_url": f"{api}/repos/{repo}",
            "labels_url": f"{issue_api}/labels{{/name}}",
            "comments_url": f"{issue_api}/comments",
            "events_url": f"{issue_api}/events",
            "html_url": f"https://github.com/{repo}/{kind}/{number}",
            "id": 9_000_000 + number,
            "node_id": base64.b64encode(f"I_fake{number}".encode()).decode(),
            "number": number,
            "title": title or f"Issue {number}",
            "user": author.payload(),
            "labels": [],
            "state": state,
            "locked": False,
            "assignee": None,
            "assignees": [],
            "milestone": None,
            "comments": 0,
            "created_at": opened,
            "updated_at": opened,
            "closed_at": opened if state == "closed" else None,
            "author_association": author.association or "NONE",
            "active_lock_reason": None,
            "body": None,
            "reactions": _reactions(f"{issue_api}/reactions"),
            "timeline_url": f"{issue_api}/timeline",
            "performed_via_github_app": None,
            "state_reason": "completed" if state == "closed" else None,
        }
        if pull_request:
            pulls = f"https://github.com/{repo}/pull/{number}"
            payload["draft"] = False
            payload["pull_request"] = {
                "url": f"{api}/repos/{repo}/pulls/{number}",
                "html_url": pulls,
                "diff_url": f"{pulls}.diff",
                "patch_url": f"{pulls}.patch",
                "merged_at": None,
            }
        self.issues[(repo, number)] = payload
        return payload

    def script(
        self, comment_id: int, *responders: Responder, forever: Responder | None = None
    ) -> None:
        """Answer the next requests for ``comment_id`` with ``responders`` in order, then with
        ``forever`` (if given) or the comment itself. ``0`` scripts the comment listings,
        ``-1`` the issue listing."""
        self.scripts[comment_id] = list(responders)
        if forever is not None:
            self.forever[comment_id] = forever

    def paths(self) -> list[str]:
        return [f"{r.method} {r.path}" for r in self.requests]

    def handle(self, exchange: Exchange) -> Reply:
        """Answer one request in this process, as the server would (the transport seam of
        :mod:`frame_spine.github.transport`): the same handler, no socket."""
        parts = urlsplit(exchange.url)
        environ = EnvironBuilder(
            method=exchange.method,
            base_url=f"{parts.scheme}://{parts.netloc}",
            path=parts.path,
            query_string=parts.query,
            headers=dict(exchange.headers),
            data=exchange.body,
        ).get_environ()
        response = self._handle(Request(environ))
        return Reply(response.status_code, dict(response.headers), response.get_data())

    def _handle(self, request: Request) -> Response:
        with self._lock:
            self.requests.append(
                Recorded(
                    request.method,
                    request.path,
                    request.query_string.decode(),
                    {k.lower(): v for k, v in request.headers.items()},
                    time.monotonic() + self.clock.slept,
                    int(request.environ.get("REMOTE_PORT") or 0),
                    str(request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or ""),
                )
            )
            if self.log_file is not None:
                with self.log_file.open("a", encoding="utf-8") as log:
                    log.write(f"{request.method} {request.path}\n")
        if self.latency:
            time.sleep(self.latency)
        response = self._answer(request)
        version = request.headers.get("X-GitHub-Api-Version")
        if version and "x-github-media-type" in response.headers:
            response.headers["x-github-api-version-selected"] = version
        return response

    @property
    def graphql_prefix(self) -> str:
        """Where GitHub serves GraphQL beside the REST ``prefix`` (``/api/v3`` ->
        ``/api``)."""
        return self.prefix.removesuffix("/v3") if self.prefix.endswith("/api/v3") else self.prefix

    def _graphql(self, request: Request) -> Response:
        """``POST /graphql`` with SPEC 6.1's query: each node id's ``userContentEdits``, in
        GitHub's shape (a bot's login without ``[bot]``, ``__typename`` ``Bot``; an unknown id
        ``null`` with an ``errors`` entry). Scripted answers: ``script(-2, ...)``."""
        asked = json.loads(request.get_data() or b"{}")
        self.graphql_queries.append(asked.get("query", ""))
        by_node = {payload["node_id"]: payload for payload in self.comments.values()}
        nodes: list[dict[str, Any] | None] = []
        errors = []
        for node_id in asked.get("variables", {}).get("ids", []):
            if node_id not in by_node:
                nodes.append(None)
                errors.append(
                    {
                        "type": "NOT_FOUND",
                        "path": ["nodes", len(nodes) - 1],
                        "message": f"Could not resolve to a node with the global id of '{node_id}'",
                    }
                )
                continue
            history = self.edits.get(node_id, [])
            nodes.append(
                {
                    "id": node_id,
                    "userContentEdits": {
                        "totalCount": len(history),
                        "nodes": [_edit_node(user, at) for user, at in history[:100]],
                    },
                }
            )
        answer: dict[str, Any] = {"data": {"nodes": nodes}}
        if errors:
            answer["errors"] = errors
        return _json_response(200, answer, {"x-ratelimit-resource": "graphql"})

    def _repo(self, match: re.Match[str]) -> str | None:
        """The repository a matched path names (``None``: an unknown repository id)."""
        if match.group("repo") is not None:
            return match.group("repo")
        return self.repository_ids.get(int(match.group("rid")))

    def _answer(self, request: Request) -> Response:
        if request.method == "POST" and request.path == f"{self.graphql_prefix}/graphql":
            if not self._authorized(request):
                return error(401, "Bad credentials")(request)
            with self._lock:
                queued = self.scripts.get(-2)
                responder = queued.pop(0) if queued else self.forever.get(-2)
            return responder(request) if responder is not None else self._graphql(request)
        if request.method != "GET":
            return error(404, "Not Found")(request)
        for pattern, serve in (
            (_ISSUES_PATH, self._issue_listing),
            (_LISTING_PATH, self._listing),
        ):
            match = pattern.match(request.path)
            if match is not None and match.group("prefix") == self.prefix:
                repo = self._repo(match)
                if not self._authorized(request):
                    return error(401, "Bad credentials")(request)
                if repo is None:
                    return error(404, "Not Found")(request)
                return serve(request, repo, match)
        permission = _PERMISSION_PATH.match(request.path)
        if permission is not None and permission.group("prefix") == self.prefix:
            if not self._authorized(request):
                return error(401, "Bad credentials")(request)
            return self._permission(request, permission.group("repo"), permission.group("login"))
        renamed = _RENAMED_PATH.match(request.path)
        if renamed is not None and renamed.group("prefix") == self.prefix:
            repo = self.repository_ids.get(int(renamed.group("rid")), "")
            moved = self.comments.get((repo, int(renamed.group("id"))))
            if not self._authorized(request):
                return error(401, "Bad credentials")(request)
            return _json_response(200, moved) if moved else error(404, "Not Found")(request)
        match = _COMMENT_PATH.match(request.path)
        if match is None or match.group("prefix") != self.prefix:
            return error(404, "Not Found")(request)
        if not self._authorized(request):
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

    def _permission(self, request: Request, repo: str, login: str) -> Response:
        """``GET .../collaborators/{login}/permission`` (see :meth:`set_permission`)."""
        key = (repo, login.lower())
        answer = self.permissions.get(key)
        if callable(answer):
            return answer(request)
        if answer is not None:
            return _json_response(200, answer)
        if key in self.unknown_logins:
            return error(404, "Not Found")(request)
        if self.permission_403:
            return error(403, PUSH_ACCESS)(request)
        if login.lower().endswith("[bot]"):
            return _json_response(200, _permission_answer(login, "none", "", bot=True))
        return _json_response(200, _permission_answer(login, "read", "read"))

    def _authorized(self, request: Request) -> bool:
        auth = request.headers.get("Authorization", "")
        return self.token is None or auth in (f"token {self.token}", f"Bearer {self.token}")

    def _paged(
        self, request: Request, items: list[dict[str, Any]], repo: str, rest: str
    ) -> Response:
        """One page of ``items`` and GitHub's ``Link`` header, which names every other page
        as ``/repositories/{id}/{rest}`` with the request's query (``page`` replaced)."""
        per_page = max(1, min(100, int(request.args.get("per_page", "30"))))
        page = max(1, int(request.args.get("page", "1")))
        last = max(1, -(-len(items) // per_page))
        chosen = items[(page - 1) * per_page : page * per_page]
        base = f"{self.url}/repositories/{self.repository_id(repo)}/{rest}"
        query = [(k, v) for k, v in request.args.items(multi=True)]
        if not any(k == "page" for k, _ in query):
            query.append(("page", ""))

        def link(number: int, rel: str) -> str:
            pairs = [(k, str(number) if k == "page" else v) for k, v in query]
            return f'<{base}?{urlencode(pairs)}>; rel="{rel}"'

        links = []
        if page > 1:
            links.append(link(page - 1, "prev"))
        if page < last:
            links.append(link(page + 1, "next"))
            links.append(link(last, "last"))
        if page > 1:
            links.append(link(1, "first"))
        headers = {"link": ", ".join(links)} if links else {}
        return _json_response(200, chosen, headers)

    def _scripted(self, key: int, request: Request) -> Response | None:
        with self._lock:
            queued = self.scripts.get(key)
            responder = queued.pop(0) if queued else self.forever.get(key)
        return responder(request) if responder is not None else None

    def _issue_listing(self, request: Request, repo: str, _match: re.Match[str]) -> Response:
        """``GET /repos/{repo}/issues``: ``state`` (default open; closed; all), ``sort``
        (created, the default, or updated), ``direction`` (desc, the default, or asc),
        ``since`` (updated strictly after), pull requests included (with a ``pull_request``
        key), as GitHub does. Scripted answers: ``script(-1, ...)``."""
        scripted = self._scripted(-1, request)
        if scripted is not None:
            return scripted
        state = request.args.get("state", "open")
        since = _instant(request.args.get("since", ""))
        sort = "updated_at" if request.args.get("sort") == "updated" else "created_at"
        counts = Counter(
            int(issue.group(1))
            for (r, _id), p in self.comments.items()
            if r == repo and (issue := _ISSUE_NUMBER.search(p["issue_url"])) is not None
        )
        items = []
        for (r, number), payload in self.issues.items():
            if r != repo or state not in ("all", payload["state"]):
                continue
            if since is not None and (_instant(payload["updated_at"]) or since) <= since:
                continue
            items.append({**payload, "comments": counts[number]})
        items.sort(
            key=lambda p: (p[sort], p["number"]), reverse=request.args.get("direction") != "asc"
        )
        return self._paged(request, items, repo, "issues")

    def _listing(self, request: Request, repo: str, match: re.Match[str]) -> Response:
        """``GET /repos/{repo}/issues[/{N}]/comments``: ascending ids (GitHub's order),
        ``per_page`` (default 30, at most 100), ``page``, ``since`` (updated strictly after
        it), GitHub's ``Link`` header. Scripted answers: ``script(0, ...)``."""
        scripted = self._scripted(0, request)
        if scripted is not None:
            return scripted
        issue = match.group("issue")
        since = _instant(request.args.get("since", ""))
        items = sorted(
            (payload for (r, _id), payload in self.comments.items() if r == repo),
            key=lambda payload: payload["id"],
        )
        if issue is not None:
            items = [p for p in items if p["issue_url"].endswith(f"/issues/{issue}")]
        if since is not None:
            items = [p for p in items if (_instant(p["updated_at"]) or since) > since]
        rest = "issues/comments" if issue is None else f"issues/{issue}/comments"
        response = self._paged(request, items, repo, rest)
        edit, self.during_listing = self.during_listing, None
        if edit is not None:
            edit()
        return response


def _reactions(url: str) -> dict[str, Any]:
    """A ``reactions`` rollup with no reaction."""
    counters = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
    return {"url": url, "total_count": 0, **dict.fromkeys(counters, 0)}


def _permission_answer(
    login: str, permission: str, role_name: str, *, bot: bool = False
) -> dict[str, Any]:
    """A permission answer (``repository-collaborator-permission``): ``permission``,
    ``role_name`` and the account as a collaborator, with the flags the role grants."""
    rank = _RANKS.index(role_name) if role_name in _RANKS else _RANKS.index(permission)
    user = User(login, None, type="Bot" if bot else "User").payload()
    return {
        "permission": permission,
        "user": {
            **user,
            "permissions": {flag: rank >= needed for flag, needed in _FLAGS.items()},
            "role_name": role_name,
        },
        "role_name": role_name,
    }


def self_signed_tls(directory: Any) -> tuple[ssl.SSLContext, str]:
    """A server TLS context for ``localhost``/``127.0.0.1`` and the path of its certificate
    (PEM), for clients to trust (``REQUESTS_CA_BUNDLE``)."""
    from datetime import timedelta
    from ipaddress import ip_address

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path = f"{directory}/cert.pem"
    key_path = f"{directory}/key.pem"
    with open(cert_path, "wb") as handle:
        handle.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as handle:
        handle.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    return context, cert_path


class DripServer:
    """A raw TCP server (TLS with ``tls``) that answers requests with canned bytes, sent one
    byte every ``interval`` seconds, status line and headers included.

    ``answer`` answers every request; ``answers`` instead answers the requests in turn (the
    last one repeats), each ``(bytes, interval)``. With ``keep_alive`` a connection serves
    request after request (HTTP/1.1 keep-alive); otherwise it is closed after one answer.
    ``connections`` counts accepted connections; ``requests`` the request heads read.
    """

    def __init__(
        self,
        answer: bytes = b"",
        interval: float = 0.0,
        tls: ssl.SSLContext | None = None,
        *,
        answers: list[tuple[bytes, float]] | None = None,
        keep_alive: bool = False,
    ) -> None:
        self.answers = answers if answers is not None else [(answer, interval)]
        self.keep_alive = keep_alive
        self._tls = tls
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self.connections = 0
        self.requests = 0
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        scheme = "https" if self._tls else "http"
        host = "localhost" if self._tls else "127.0.0.1"
        return f"{scheme}://{host}:{self.port}"

    def _serve(self) -> None:
        while not self._stopped.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._answer, args=(client,), daemon=True).start()

    def _read_head(self, client: socket.socket) -> bool:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(4096)
            if not chunk:
                return False
            head += chunk
        return True

    def _answer(self, client: socket.socket) -> None:
        try:
            if self._tls is not None:
                client = self._tls.wrap_socket(client, server_side=True)
            client.settimeout(30)
            while self._read_head(client):
                with self._lock:
                    answer, interval = self.answers[min(self.requests, len(self.answers) - 1)]
                    self.requests += 1
                for index in range(len(answer)):
                    if self._stopped.is_set():
                        return
                    client.sendall(answer[index : index + 1] if interval else answer[index:])
                    if not interval:
                        break
                    time.sleep(interval)
                if not self.keep_alive:
                    return
        except OSError:
            return
        finally:
            client.close()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=2)
        self._listener.close()


def http_answer(status: int, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    """A whole HTTP/1.1 answer (``content-length`` set), as bytes for :class:`DripServer`."""
    lines = [f"HTTP/1.1 {status} X", f"content-length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
