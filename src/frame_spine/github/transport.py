"""The HTTP wire under PyGithub (SPEC 6 "The wire, exactly"; SPEC 8 debug records).

An edge. PyGithub stays the REST client: it builds each request (URL, query, token, headers)
and hands it to a connection object. :meth:`Wire.connection` gives it one, passed per call
(``Requester.requestJson(..., cnx=...)``: no global state of PyGithub is changed), whose
``getresponse()``

- bounds the whole attempt (connect, TLS handshake, headers, body, redirect hops) by one
  deadline of ``timeout`` seconds: a watchdog shuts the socket down when it passes, so a
  server that drips bytes cannot stretch it (requests' own timeout applies to each read);
- follows 301, 302, 307 and 308 only within the API's origin (scheme, host, port), at most
  :data:`MAX_REDIRECTS` hops and never back to a URL of the chain or a listing page already
  fetched, so PyGithub never sees a redirect (it would follow a 301 itself, recursively);
  a redirect elsewhere is never requested, so the token never goes there;
- streams the body through urllib3's bounded decompression and refuses it past
  :data:`MAX_BODY_BYTES` after decompression, never holding more;
- counts every request (each attempt, each hop) and reports a
  :class:`~frame_spine.github.request_log.RequestRecord` for each;
- turns every failure into a :class:`WireError` whose
  :class:`~frame_spine.github.retry.RequestFailure` says what happened in words, never with
  a library's exception text.

The body is handed on as bytes: :mod:`frame_spine.github.payloads` decodes it as UTF-8
whatever ``Content-Type`` says.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time
from collections.abc import ItemsView, Iterator, Mapping
from contextvars import ContextVar
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
import urllib3
from github.Requester import HTTPRequestsConnectionClass, RequestsResponse
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from .request_log import RequestListener, RequestRecord
from .retry import RequestFailure
from .urls import Origin

#: The largest answer accepted, after decompression (SPEC 6: a listing page of 100 maximal
#: comments is under 27 MiB).
MAX_BODY_BYTES = 32 * 1024 * 1024
#: Redirect hops followed per request (SPEC 6).
MAX_REDIRECTS = 3
REDIRECT_STATUSES = frozenset({301, 302, 307, 308})
_CHUNK = 256 * 1024
#: Rate-limit headers PyGithub parses with ``int(float(value))``; values that are not plain
#: numbers are kept from it (the fetcher reads the real headers).
_PYGITHUB_PARSES = ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")


class WireError(Exception):
    """A request that failed; ``failure`` says how (never a library's exception text)."""

    def __init__(self, failure: RequestFailure) -> None:
        super().__init__(failure.kind)
        self.failure = failure


def unusable(detail: str, headers: Mapping[str, str] | None = None) -> WireError:
    """A :class:`WireError` for an answer that cannot be used: ``detail`` is the whole phrase
    that follows the request's name in the message."""
    return WireError(RequestFailure("malformed", headers=headers, detail=detail))


class WireRun:
    """What all requests of one fetcher share (thread-safe: plan and sibling are fetched
    concurrently): the count of requests, the listing pages already fetched (a pagination
    loop stops on them), and the debug listener.

    Args:
        listener: called with a :class:`RequestRecord` per request (SPEC 8), or ``None``.
    """

    def __init__(self, listener: RequestListener | None = None) -> None:
        self._lock = threading.Lock()
        self._listener = listener
        self._pages: set[str] = set()
        self._requests = 0

    @property
    def requests_made(self) -> int:
        """Requests sent so far: every attempt and every redirect hop."""
        with self._lock:
            return self._requests

    def count(self) -> None:
        with self._lock:
            self._requests += 1

    def claim_page(self, url: str) -> bool:
        """Note a listing page about to be fetched; ``False`` when it already was."""
        with self._lock:
            if url in self._pages:
                return False
            self._pages.add(url)
            return True

    def fetched_page(self, url: str) -> bool:
        """Whether ``url`` is a listing page already fetched in this run."""
        with self._lock:
            return url in self._pages

    def report(self, record: RequestRecord) -> None:
        if self._listener is not None:
            self._listener(record)


class _Deadline:
    """The end of one attempt: when it passes, every connection being watched is shut down,
    which ends any read or write blocked on it (the thread then sees an error or an end of
    file), whatever phase it is in.

    It watches duplicates of the sockets' file descriptors (shutting a duplicate down shuts
    the connection down; closing it does not), owned here and closed by :meth:`finish`: a
    connection may close or hand its socket on (TLS wrapping, a response that keeps it)
    without the watch losing track of it.
    """

    def __init__(self, seconds: float) -> None:
        self._at = time.monotonic() + seconds
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self.expired = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def remaining(self) -> float:
        return max(0.0, self._at - time.monotonic())

    @property
    def passed(self) -> bool:
        return self.expired or self.remaining() <= 0

    def watch(self, sock: socket.socket) -> None:
        """Shut ``sock``'s connection down when the deadline passes (at once if it has)."""
        try:
            duplicate = socket.fromfd(sock.fileno(), sock.family, sock.type)
        except OSError:
            return  # closed already: nothing to interrupt
        with self._lock:
            self._sockets.append(duplicate)
            if self.expired:
                _shut(duplicate)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    def finish(self) -> None:
        """Stop the watchdog and close the duplicates (the connections stay open)."""
        self._timer.cancel()
        with self._lock:
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed: nothing left to interrupt
        sock.shutdown(socket.SHUT_RDWR)


#: The deadline of the attempt this thread is making (set around each request).
_DEADLINE: ContextVar[_Deadline | None] = ContextVar("frame_spine_deadline", default=None)


def _watch(sock: socket.socket | None) -> None:
    deadline = _DEADLINE.get()
    if deadline is not None and sock is not None:
        deadline.watch(sock)


class _WatchedConnection(HTTPConnection):
    """A urllib3 connection that puts its socket under the current attempt's deadline as soon
    as it connects (so the TLS handshake is covered too) and, when kept alive, again at each
    request."""

    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        _watch(sock)
        return sock

    def request(self, *args: Any, **kwargs: Any) -> None:
        if self.sock is not None:  # kept alive from an earlier request
            _watch(self.sock)
        super().request(*args, **kwargs)


class _WatchedHTTPSConnection(_WatchedConnection, HTTPSConnection):
    """:class:`_WatchedConnection` over TLS."""


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


_POOLS: dict[str, type[HTTPConnectionPool]] = {"http": _HTTPPool, "https": _HTTPSPool}


class _Adapter(HTTPAdapter):
    """requests' adapter with the watched connections (direct and through HTTP proxies)."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _POOLS

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        if not proxy.lower().startswith("socks"):  # SOCKS pools are their own
            manager.pool_classes_by_scheme = _POOLS
        return manager


def _no_netrc(request: requests.PreparedRequest) -> requests.PreparedRequest:
    """Session auth that adds nothing: requests would otherwise read ``~/.netrc``."""
    return request


class Answer(RequestsResponse):
    """One final answer (no redirect), as handed to PyGithub and kept for the fetcher.

    Attributes:
        status: the HTTP status. fields: the headers, lower-case names.
        body: the body, decompressed, at most :data:`MAX_BODY_BYTES` bytes.
        url: the URL that answered. redirected: whether a redirect led there.
    """

    # PyGithub types its response nominally; every member it uses is set or overridden here.
    def __init__(
        self,
        status: int,
        fields: dict[str, str],
        body: bytes | bytearray,
        url: str,
        redirected: bool,
    ) -> None:
        self.status = status
        self.fields = fields
        self.body = body
        self.url = url
        self.redirected = redirected

    def getheaders(self) -> ItemsView[str, str]:
        return {
            name: value
            for name, value in self.fields.items()
            if name not in _PYGITHUB_PARSES or (value.isascii() and value.isdigit())
        }.items()

    def read(self) -> str:
        # What PyGithub reads here it only logs (``requestJson`` parses nothing): no copy of
        # up to 32 MiB, and no body in any log (SPEC 8). The fetcher reads ``body``.
        return ""


class _PyGithubConnection(HTTPRequestsConnectionClass):
    """What PyGithub's requester is given for one request (``cnx``): it records the request
    and has the :class:`Wire` carry it out. PyGithub types this parameter nominally and
    calls only :meth:`request` and :meth:`getresponse` on it."""

    def __init__(self, wire: Wire) -> None:  # no requests.Session of PyGithub's
        self._wire = wire
        self._sent: tuple[str, str, dict[str, str]] | None = None
        self.answer: Answer | None = None

    def request(
        self, verb: str, url: str, input: None, headers: dict[str, str], stream: bool = False
    ) -> None:
        self._sent = (verb, url, dict(headers))

    def getresponse(self) -> Answer:
        assert self._sent is not None, "request() comes first"
        verb, path, headers = self._sent
        self.answer = self._wire.exchange(verb, path, headers)
        return self.answer

    def close(self) -> None:
        pass  # the Wire owns the session


class Wire:
    """The HTTP side of a fetcher's requests, one thread at a time: a keep-alive session to the
    API's origin.

    Args:
        api_url: the REST API root (validated by
            :func:`frame_spine.online_inputs.check_api_url`).
        timeout: seconds each attempt may take in all (redirect hops included).
        run: the fetcher's shared :class:`WireRun`.

    Not shared between threads: each concurrent fetch has its own.
    """

    def __init__(self, api_url: str, timeout: float, run: WireRun) -> None:
        self.origin, _ = Origin.of(api_url)
        self._timeout = timeout
        self._run = run
        self._session = requests.Session()
        self._session.auth = _no_netrc
        adapter = _Adapter(pool_connections=1, pool_maxsize=1)
        self._session.mount("http://", adapter)
        self._session.mount("https://", adapter)

    def connection(self) -> _PyGithubConnection:
        """A connection object for one PyGithub request (its ``cnx`` parameter)."""
        return _PyGithubConnection(self)

    def close(self) -> None:
        self._session.close()

    def exchange(self, method: str, path: str, headers: Mapping[str, str]) -> Answer:
        """Send a request for ``path`` (path and query) at the origin; follow redirects within
        it; return the final answer. Every hop is counted and reported.

        Raises:
            WireError: a timeout, a connection failure, an answer larger than
                :data:`MAX_BODY_BYTES`, a redirect elsewhere, in a loop or past
                :data:`MAX_REDIRECTS` hops, or an HTTP 202 (PyGithub would wait and ask
                again forever).
        """
        url = self.origin.url(path)
        chain = [url]
        deadline = _Deadline(self._timeout)
        try:
            while True:
                status, fields, body = self._hop(method, url, headers, deadline)
                if status in REDIRECT_STATUSES and "location" in fields:
                    url = self._follow(url, fields, chain)
                    continue
                if status == 202:
                    raise WireError(RequestFailure("http", 202, fields, "accepted, not answered"))
                return Answer(status, fields, body, url, redirected=len(chain) > 1)
        finally:
            deadline.finish()

    def _follow(self, url: str, fields: dict[str, str], chain: list[str]) -> str:
        """The next URL of a redirect, or a :class:`WireError` saying why it is not followed."""
        try:
            origin, path = Origin.of(urljoin(url, fields["location"]))
        except ValueError:
            raise unusable("the GitHub API redirected to an unusable location", fields) from None
        if origin != self.origin:
            raise unusable(
                f"the GitHub API redirected to {origin.named_from(self.origin)}: not followed, "
                "and the token was not sent there",
                fields,
            )
        target = origin.url(path)
        if target in chain or self._run.fetched_page(target):
            raise unusable(f"the GitHub API redirected in a loop (back to {_quoted(path)})", fields)
        if len(chain) > MAX_REDIRECTS:
            raise unusable(f"the GitHub API redirected more than {MAX_REDIRECTS} times", fields)
        chain.append(target)
        return target

    def _send(
        self, method: str, url: str, headers: Mapping[str, str], seconds: float
    ) -> requests.Response:
        """Send through the session's adapter: the environment's proxies and CA bundle apply
        as for ``Session.request``, but no redirect is even prepared (``Session.send`` would
        parse a ``Location`` and raise on a broken one) and no cookie is kept."""
        session = self._session
        prepared = session.prepare_request(requests.Request(method, url, headers=dict(headers)))
        settings = session.merge_environment_settings(url, {}, True, None, None)
        return session.get_adapter(url).send(
            prepared,
            stream=True,
            timeout=(seconds, seconds),
            verify=settings["verify"],
            cert=settings["cert"],
            proxies=settings["proxies"],
        )

    def _hop(
        self, method: str, url: str, headers: Mapping[str, str], deadline: _Deadline
    ) -> tuple[int, dict[str, str], bytearray]:
        """One request and its whole answer (body capped), within the deadline."""
        self._run.count()
        started = time.perf_counter()
        status: int | None = None
        fields: dict[str, str] = {}
        try:
            if deadline.passed:
                raise WireError(RequestFailure("timeout"))
            remaining = deadline.remaining()
            armed = _DEADLINE.set(deadline)
            try:
                response = self._send(method, url, headers, remaining)
                try:
                    status = answered = response.status_code
                    fields = {name.lower(): value for name, value in response.headers.items()}
                    body = _read_capped(response.raw, fields)
                except BaseException:
                    response.close()  # the connection is not reused
                    raise
                response.raw.release_conn()  # read to the end: kept alive
            finally:
                _DEADLINE.reset(armed)
        except WireError as stopped:
            if deadline.passed and stopped.failure.kind != "malformed":
                raise WireError(RequestFailure("timeout", headers=fields)) from None
            raise
        except (
            OSError,
            http.client.HTTPException,
            requests.RequestException,
            urllib3.exceptions.HTTPError,
        ) as exc:
            raise WireError(_failure_of(exc, deadline, fields)) from None
        finally:
            self._run.report(
                RequestRecord(
                    method=method,
                    path=_path_of(url),
                    status=status,
                    milliseconds=(time.perf_counter() - started) * 1000,
                    rate_limit_remaining=fields.get("x-ratelimit-remaining"),
                    request_id=fields.get("x-github-request-id"),
                )
            )
        return answered, fields, body


def _read_capped(raw: urllib3.BaseHTTPResponse, fields: Mapping[str, str]) -> bytearray:
    """The whole body, decompressed, or a :class:`WireError` past :data:`MAX_BODY_BYTES`
    (urllib3 decompresses at most what each read asks for, so a small answer that inflates
    to gigabytes is stopped after 32 MiB)."""
    declared = fields.get("content-length", "").strip()
    too_large = unusable("the GitHub API's answer is larger than 32 MiB", fields)
    plain = "content-encoding" not in fields and declared.isascii() and declared.isdigit()
    if plain and len(declared) < 20 and int(declared) > MAX_BODY_BYTES:
        raise too_large
    body = bytearray()
    while chunk := raw.read(_CHUNK, decode_content=True):
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise too_large
    return body


def _path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _quoted(text: str) -> str:
    text = text if len(text) <= 120 else text[:117] + "..."
    return repr(text)


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """The exception and everything it wraps (causes, contexts, urllib3 reasons, args)."""
    seen: set[int] = set()
    pending = [exc]
    while pending and len(seen) < 32:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        linked = [current.__cause__, current.__context__, getattr(current, "reason", None)]
        linked += list(current.args)
        pending += [item for item in linked if isinstance(item, BaseException)]


_Causes = tuple[tuple[tuple[type[BaseException], ...], str], ...]
#: Connection failures by what caused them, first match wins (before timeouts: urllib3's
#: NewConnectionError is also a ConnectTimeoutError).
_CONNECTION_CAUSES: _Causes = (
    ((ssl.SSLCertVerificationError,), "the server's TLS certificate is not trusted"),
    ((ssl.SSLError,), "the TLS connection failed"),
    ((ConnectionRefusedError,), "connection refused"),
    ((socket.gaierror, urllib3.exceptions.NameResolutionError), "the host name does not resolve"),
    ((http.client.RemoteDisconnected,), "the connection closed before an answer"),
    ((ConnectionResetError,), "the connection was reset"),
)
#: Answers broken off or not HTTP (after timeouts and compression errors).
_BROKEN_ANSWERS: _Causes = (
    ((http.client.IncompleteRead,), "the connection closed before the whole answer"),
    ((http.client.HTTPException,), "the answer is not valid HTTP"),
    ((urllib3.exceptions.ProtocolError,), "the connection closed before the whole answer"),
    ((requests.exceptions.ProxyError,), "the proxy failed"),
)


def _failure_of(
    exc: BaseException, deadline: _Deadline, fields: Mapping[str, str]
) -> RequestFailure:
    """What a transport exception means, in words (SPEC 6: no library exception text)."""
    causes = list(_causes(exc))

    def caused_by(*kinds: type[BaseException]) -> bool:
        return any(isinstance(cause, kinds) for cause in causes)

    if deadline.passed:
        return RequestFailure("timeout", headers=fields)
    for kinds, words in _CONNECTION_CAUSES:
        if caused_by(*kinds):
            return RequestFailure("connection", headers=fields, detail=words)
    # urllib3's NewConnectionError is a ConnectTimeoutError too: it was handled above.
    if caused_by(TimeoutError, requests.Timeout) or any(
        isinstance(cause, urllib3.exceptions.TimeoutError)
        and not isinstance(cause, urllib3.exceptions.NewConnectionError)
        for cause in causes
    ):
        return RequestFailure("timeout", headers=fields)
    if caused_by(urllib3.exceptions.DecodeError):
        encoding = fields.get("content-encoding", "")
        return RequestFailure(
            "malformed",
            headers=fields,
            detail=f"the GitHub API's answer is not valid {_quoted(encoding)} compressed data",
        )
    detail = "the connection failed"
    for kinds, words in _BROKEN_ANSWERS:
        if caused_by(*kinds):
            detail = words
            break
    return RequestFailure("connection", headers=fields, detail=detail)
