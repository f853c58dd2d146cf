"""The HTTP wire (SPEC 6 "The wire, exactly"; SPEC 8 debug records).

An edge, on requests' public API: a ``requests.Session`` of our own with our adapter
(:class:`~frame_spine.github.deadline.WatchedAdapter`); :meth:`Wire.exchange` sends one
request within one deadline, follows redirects within the origin, caps the body, keeps a
loopback origin away from any proxy, counts and records each hop, and turns every failure
into a :class:`WireError` in words. With a :data:`Handler` (a fake API in the tests' own
process) a function answers in place of the socket; every rule above the socket still
applies.
"""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

import requests
import requests.utils
import urllib3

from ..core.shown import quoted
from .deadline import CURRENT_DEADLINE, Deadline, WatchedAdapter
from .failures import failure_of
from .request_log import RequestListener, RequestRecord
from .retry import RequestFailure
from .tls import Trust, TrustingAdapter
from .urls import Origin

#: The largest answer accepted, after decompression (SPEC 6: a listing page of 100 maximal
#: comments is under 27 MiB).
MAX_BODY_BYTES = 32 * 1024 * 1024
#: Redirect hops followed per request (SPEC 6).
MAX_REDIRECTS = 3
REDIRECT_STATUSES = frozenset({301, 302, 307, 308})
_CHUNK = 256 * 1024
_TOO_LARGE = "the GitHub API's answer is larger than 32 MiB"


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request as a :data:`Handler` sees it: method, absolute URL, headers, body."""

    method: str
    url: str
    headers: Mapping[str, str]
    body: bytes | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    """A :data:`Handler`'s answer: status, headers, the body as sent (not compressed)."""

    status: int
    headers: Mapping[str, str]
    body: bytes


#: A function in place of the socket (the transport seam): a request in, an answer out.
Handler = Callable[[Exchange], Reply]


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

    def claim_page(self, url: str) -> None:
        """Note a listing page about to be fetched."""
        with self._lock:
            self._pages.add(url)

    def fetched_page(self, url: str) -> bool:
        """Whether ``url`` is a listing page already fetched in this run."""
        with self._lock:
            return url in self._pages

    def report(self, record: RequestRecord) -> None:
        if self._listener is not None:
            self._listener(record)


@dataclass(frozen=True, slots=True)
class Answer:
    """One final answer (no redirect).

    Attributes:
        status: the HTTP status. fields: the headers, lower-case names.
        body: the body, decompressed, at most :data:`MAX_BODY_BYTES` bytes.
        url: the URL that answered. redirected: whether a redirect led there.
    """

    status: int
    fields: dict[str, str]
    body: bytes | bytearray
    url: str
    redirected: bool


class Wire:
    """The HTTP side of a run's requests, one thread at a time: a keep-alive session to the
    API's origin (or a :data:`Handler`).

    Args:
        api_url: the REST API root. timeout: seconds each attempt may take in all.
        run: the run's shared :class:`WireRun`.
        trust: the certificates that verify an https API (:mod:`frame_spine.github.tls`).
        handler: answers in place of the socket, when given.
    """

    def __init__(
        self,
        api_url: str,
        timeout: float,
        run: WireRun,
        trust: Trust | None = None,
        handler: Handler | None = None,
    ) -> None:
        self.origin, _ = Origin.of(api_url)
        self._timeout = timeout
        self._run = run
        self._handler = handler
        self._session = requests.Session()
        self._session.auth = lambda request: request  # adds nothing: no ~/.netrc is read
        pools = {"pool_connections": 1, "pool_maxsize": 1}  # SPEC 6 TLS: the trust, if any
        adapter = WatchedAdapter(**pools) if trust is None else TrustingAdapter(trust, **pools)
        self._session.mount("http://", adapter)
        self._session.mount("https://", adapter)

    def exchange(
        self,
        method: str,
        path: str,
        headers: Mapping[str, str],
        body: bytes | None = None,
        *,
        follow: bool = True,
    ) -> Answer:
        """Send a request for ``path`` (path and query) at the origin; follow redirects within
        it (unless not ``follow``: the redirect is the answer); return the final answer.
        Every hop is counted and reported.
        """
        url = self.origin.url(path)
        chain = [url]
        deadline = Deadline(self._timeout)
        try:
            while True:
                status, fields, answer = self._hop(Exchange(method, url, headers, body), deadline)
                if status in REDIRECT_STATUSES and "location" in fields and follow:
                    url = self._follow(url, fields, chain)
                    continue
                if status == 202:
                    raise WireError(RequestFailure("http", 202, fields, "accepted, not answered"))
                return Answer(status, fields, answer, url, redirected=len(chain) > 1)
        finally:
            deadline.finish()

    def within(
        self, base: str, link: str, fields: Mapping[str, str], went: str, broken: str
    ) -> tuple[str, str]:
        """``link`` (relative to ``base``) as an absolute URL at the API's origin, and its path;
        else a :class:`WireError`: ``broken`` when it is no usable URL, ``went`` and the
        other origin when it leaves (SPEC 6: never followed, never given the token)."""
        try:
            origin, path = Origin.of(urljoin(base, link))
        except ValueError:
            raise unusable(broken, fields) from None
        if origin != self.origin:
            raise unusable(
                f"{went} {origin.named_from(self.origin)}: not followed, and the token was not "
                "sent there",
                fields,
            )
        return origin.url(path), path

    def _follow(self, url: str, fields: dict[str, str], chain: list[str]) -> str:
        """The next URL of a redirect, or a :class:`WireError` saying why it is not followed."""
        went = "the GitHub API redirected to"
        target, path = self.within(
            url, fields["location"], fields, went, f"{went} an unusable location"
        )
        if target in chain or self._run.fetched_page(target):
            raise unusable(f"the GitHub API redirected in a loop (back to {quoted(path)})", fields)
        if len(chain) > MAX_REDIRECTS:
            raise unusable(f"the GitHub API redirected more than {MAX_REDIRECTS} times", fields)
        chain.append(target)
        return target

    def _send(self, request: Exchange, seconds: float, settings: Any) -> requests.Response:
        """Send through the session's adapter with ``settings`` (from the environment, as
        ``Session.request`` merges them: the proxies and the CA bundle), but no redirect is
        even prepared (``Session.send`` would parse a ``Location`` and raise on a broken one)
        and no cookie is kept."""
        headers = dict(request.headers)
        built = requests.Request(request.method, request.url, headers=headers, data=request.body)
        prepared = self._session.prepare_request(built)
        adapter = self._session.get_adapter(request.url)
        return adapter.send(prepared, timeout=(seconds, seconds), **settings)

    def _hop(
        self, request: Exchange, deadline: Deadline
    ) -> tuple[int, dict[str, str], bytes | bytearray]:
        """One request and its whole answer (body capped), within the deadline (a
        :data:`Handler`'s answer as it comes); counted and reported."""
        url = request.url
        self._run.count()
        started = time.perf_counter()
        status: int | None = None
        fields: dict[str, str] = {}
        proxy: str | None = None
        try:
            if self._handler is not None:
                reply = self._handler(request)
                status, fields = reply.status, _lowered(reply.headers)
                if len(reply.body) > MAX_BODY_BYTES:
                    raise unusable(_TOO_LARGE, fields)
                return status, fields, reply.body
            if deadline.passed:
                raise WireError(RequestFailure("timeout"))
            settings = self._session.merge_environment_settings(url, {}, True, None, None)
            if self.origin.loopback:  # never a proxy (SPEC 6: it would get the token)
                settings["proxies"] = {}
            proxy = requests.utils.select_proxy(url, settings["proxies"])
            armed = CURRENT_DEADLINE.set(deadline)
            try:
                response = self._send(request, deadline.remaining(), settings)
                try:
                    status = answered = response.status_code
                    fields = _lowered(response.headers)
                    body = _read_capped(response.raw, fields)
                except BaseException:
                    response.close()  # the connection is not reused
                    raise
                response.raw.release_conn()  # read to the end: kept alive
            finally:
                CURRENT_DEADLINE.reset(armed)
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
            raise WireError(failure_of(exc, deadline, fields, proxy)) from None
        finally:
            self._run.report(
                RequestRecord(
                    method=request.method,
                    path=url.removeprefix(self.origin.url("")),  # every hop is at the origin
                    status=status,
                    milliseconds=(time.perf_counter() - started) * 1000,
                    rate_limit_remaining=fields.get("x-ratelimit-remaining"),
                    request_id=fields.get("x-github-request-id"),
                )
            )
        return answered, fields, body


def _lowered(headers: Mapping[str, str]) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def _read_capped(raw: urllib3.BaseHTTPResponse, fields: Mapping[str, str]) -> bytearray:
    """The whole body, decompressed, or a :class:`WireError` past :data:`MAX_BODY_BYTES`
    (urllib3 decompresses at most what each read asks for, so a small answer that inflates
    to gigabytes is stopped after 32 MiB)."""
    declared = fields.get("content-length", "").strip()
    too_large = unusable(_TOO_LARGE, fields)
    plain = "content-encoding" not in fields and declared.isascii() and declared.isdigit()
    if plain and len(declared) < 20 and int(declared) > MAX_BODY_BYTES:
        raise too_large
    body = bytearray()
    while chunk := raw.read(_CHUNK, decode_content=True):
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise too_large
    return body
