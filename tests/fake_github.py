"""A loopback stand-in for the GitHub REST API (issue comments), on a real HTTP server.

It serves ``GET /repos/{owner}/{repo}/issues/comments/{id}`` (optionally under a GitHub
Enterprise Server prefix such as ``/api/v3``) with GitHub's JSON shape and headers (each
comment with a ``user`` and an ``author_association``: by default the repository's owner,
whom the default ``trusted-authors`` trusts), ``GET /repos/{owner}/{repo}/collaborators/
{login}/permission`` (:meth:`FakeGitHub.set_permission`), checks the token, records every
request, and can script faults per comment: error statuses, rate limits,
slowness, HTML pages, ``"body": null``, raw bytes with any content type, redirects, gzip
bombs, dripping bodies. A renamed repository answers under ``/repositories/{id}/...``, as
GitHub does. :class:`DripServer` is a raw TCP (optionally TLS) server that drips a whole
answer, headers included, one byte at a time.
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from tests.clock import FakeClock

TOKEN = "test-token-0123456789"
REPO = "octo-org/plans"
_COMMENT_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/issues/comments/(?P<id>[0-9]+)$"
)

_LISTING_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/issues(?:/(?P<issue>[0-9]+))?/comments$"
)

_ISSUES_PATH = re.compile(r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/issues$")

_PERMISSION_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repos/(?P<repo>[^/]+/[^/]+)/collaborators/(?P<login>[^/]+)"
    r"/permission$"
)

_RENAMED_PATH = re.compile(
    r"^(?P<prefix>(?:/[^/]+)*?)/repositories/(?P<rid>[0-9]+)/issues/comments/(?P<id>[0-9]+)$"
)

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
    """A comment's author as GitHub's JSON shows one: ``user`` (``login``, ``id``, ``type``)
    and the comment's ``author_association`` (``None``: the key is left out)."""

    login: str
    association: str | None
    type: str = "User"
    id: int = 1001
    app_id: int | None = None  # a bot's app (its avatar is the app's)

    def payload(self) -> dict[str, Any]:
        """The ``user`` object (a simple user, as the REST API nests it; a bot's as GitHub
        shows an app's: ``type: Bot``, its URL with the brackets escaped, the app's page)."""
        bot = self.type == "Bot"
        node = base64.b64encode(f"{'03:Bot' if bot else '04:User'}{self.id}".encode()).decode()
        return {
            "login": self.login,
            "id": self.id,
            "node_id": node,
            "avatar_url": f"https://avatars.githubusercontent.com/in/{self.app_id or self.id}?v=4"
            if bot
            else f"https://avatars.githubusercontent.com/u/{self.id}?v=4",
            "gravatar_id": "",
            "url": f"https://api.github.com/users/{quote(self.login, safe='')}",
            "html_url": f"https://github.com/apps/{self.login.removesuffix('[bot]')}"
            if bot
            else f"https://github.com/{self.login}",
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


def rate_limited_403(reset_in: int = 3600, clock: Callable[[], float] = time.time) -> Responder:
    """A primary rate limit: 403, ``x-ratelimit-remaining: 0``, reset ``reset_in`` s after
    the moment it answers on ``clock`` (epoch seconds; give it the clock of the code under
    test, e.g. ``fake.clock.time``, so the wait it reads is exactly ``reset_in``)."""

    def respond(request: Request) -> Response:
        reset = str(int(clock()) + reset_in)
        return error(
            403,
            "API rate limit exceeded for installation ID 1234.",
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": reset},
        )(request)

    return respond


def too_many_requests(retry_after: int) -> Responder:
    """A secondary rate limit: 429 with ``retry-after``."""
    return error(
        429,
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        {"retry-after": str(retry_after)},
    )


def retry_after_date(seconds: int, clock: Callable[[], float] = time.time) -> Responder:
    """A secondary rate limit whose ``retry-after`` is an HTTP-date ``seconds`` from the
    moment it answers on ``clock`` (RFC 9110 section 10.2.3), e.g.
    ``Sun, 06 Nov 1994 08:49:37 GMT``."""

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
    """An answer of exactly ``body`` (bytes as given) with that content type (or none)."""

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
    for a renamed or transferred repository."""
    return lambda _request: Response(
        json.dumps({"message": "Moved Permanently", "url": location}),
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
    (a few hundred KiB on the wire)."""
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
    seconds (chunked), so no single read ever waits long."""

    def drip() -> Iterator[bytes]:
        for index in range(len(payload)):
            time.sleep(interval)
            yield payload[index : index + 1]

    return lambda _request: Response(
        drip(), 200, {"content-type": "application/json; charset=utf-8"}
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
    # (repo, login lower-cased) -> the permission answer, or a responder (403, 404, ...)
    permissions: dict[tuple[str, str], dict[str, Any] | Responder] = field(default_factory=dict)
    scripts: dict[int, list[Responder]] = field(default_factory=dict)
    forever: dict[int, Responder] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    log_file: Path | None = None  # also append "METHOD /path" lines here (for other processes)
    issues: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    repository_ids: dict[int, str] = field(default_factory=dict)  # /repositories/{id}: repo
    # Run once, right after the first page of a comment listing is served: a comment created
    # or edited during the listing, as on a live repository (offset pagination then shifts).
    during_listing: Callable[[], None] | None = None
    # The clock of the code under test when it runs in this process (tests.in_process):
    # ``Recorded.at`` is real time plus what was slept on it, so a backoff shows as a gap.
    clock: FakeClock = field(default_factory=FakeClock)
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
        author: User | None = OWNER,
    ) -> dict[str, Any]:
        """Serve a comment of ``issue_number`` with GitHub's JSON shape, written by
        ``author`` (``None``: a deleted account, ``"user": null``); returns the JSON."""
        api = self.url
        payload: dict[str, Any] = {
            "url": f"{api}/repos/{repo}/issues/comments/{comment_id}",
            "html_url": f"https://github.com/{repo}/issues/{issue_number}#issuecomment-{comment_id}",
            "issue_url": f"{api}/repos/{repo}/issues/{issue_number}",
            "id": comment_id,
            "node_id": f"IC_kwDOFake{comment_id}",
            "user": author.payload() if author is not None else None,
            "created_at": "2026-07-18T22:20:00Z",
            "updated_at": updated_at,
            "author_association": author.association if author is not None else "NONE",
            "body": body,
            "reactions": {
                "url": f"{api}/repos/{repo}/issues/comments/{comment_id}/reactions",
                "total_count": 0,
            },
            "performed_via_github_app": None,
        }
        if author is not None and author.association is None:
            del payload["author_association"]
        self.comments[(repo, comment_id)] = payload
        return payload

    def set_permission(
        self,
        login: str,
        permission: str | Responder,
        role_name: str | None = None,
        *,
        repo: str = REPO,
    ) -> None:
        """Answer ``GET /repos/{repo}/collaborators/{login}/permission`` as GitHub does:
        ``{"permission": ..., "role_name": ..., "user": {...}}`` (``role_name`` defaults to
        the permission), or with a responder (e.g. ``error(404, "Not Found")``). Logins
        without an answer get 404, as for an account GitHub does not know."""
        if callable(permission):
            self.permissions[(repo, login.lower())] = permission
            return
        role = role_name or permission
        ranks = ("none", "read", "triage", "write", "maintain", "admin")
        rank = ranks.index(role) if role in ranks else ranks.index(permission)
        flags = {"admin": 5, "maintain": 4, "push": 3, "triage": 2, "pull": 1}
        user = {
            **User(login, None).payload(),
            "permissions": {flag: rank >= needed for flag, needed in flags.items()},
            "role_name": role,
        }
        self.permissions[(repo, login.lower())] = {
            "permission": permission,
            "role_name": role,
            "user": user,
        }

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
        permission = _PERMISSION_PATH.match(request.path)
        if (
            request.method == "GET"
            and permission is not None
            and permission.group("prefix") == self.prefix
        ):
            if not self._authorized(request):
                return error(401, "Bad credentials")(request)
            key = (permission.group("repo"), permission.group("login").lower())
            answer = self.permissions.get(key)
            if answer is None:
                return error(404, "Not Found")(request)
            return answer(request) if callable(answer) else _json_response(200, answer)
        renamed = _RENAMED_PATH.match(request.path)
        if (
            request.method == "GET"
            and renamed is not None
            and renamed.group("prefix") == self.prefix
        ):
            repo = self.repository_ids.get(int(renamed.group("rid")), "")
            moved = self.comments.get((repo, int(renamed.group("id"))))
            if not self._authorized(request):
                return error(401, "Bad credentials")(request)
            return _json_response(200, moved) if moved else error(404, "Not Found")(request)
        match = _COMMENT_PATH.match(request.path)
        if request.method != "GET" or match is None or match.group("prefix") != self.prefix:
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

    def _authorized(self, request: Request) -> bool:
        auth = request.headers.get("Authorization", "")
        return self.token is None or auth in (f"token {self.token}", f"Bearer {self.token}")

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
        pull requests included (with a ``pull_request`` key), as GitHub does. Scripted
        answers: ``script(-1, ...)`` (the comment listings: ``script(0, ...)``)."""
        if self.token is not None:
            auth = request.headers.get("Authorization", "")
            if auth not in (f"token {self.token}", f"Bearer {self.token}"):
                return error(401, "Bad credentials")(request)
        with self._lock:
            queued = self.scripts.get(-1)
            responder = queued.pop(0) if queued else self.forever.get(-1)
        if responder is not None:
            return responder(request)
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
        response = self._paged(request, items, f"&since={since}" if since is not None else "")
        edit, self.during_listing = self.during_listing, None
        if edit is not None:
            edit()
        return response


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
