"""What a transport failure means, in words (SPEC 6: messages name what happened, never a
library's exception text).

Pure: an exception raised by requests, urllib3, ``ssl`` or ``http.client`` (with its causes)
in, a :class:`~frame_spine.github.retry.RequestFailure` out: a timeout, a connection failure
("connection refused", "the server's TLS certificate is not trusted", ...), naming the proxy
it went through without the proxy's user name and password, or an answer that cannot be used.
"""

from __future__ import annotations

import http.client
import socket
import ssl
from collections.abc import Mapping

import requests
import urllib3

from ..core.shown import cut, quoted
from .deadline import Deadline
from .retry import RequestFailure
from .tls import causes_of, final_failure
from .urls import without_secrets

_Causes = tuple[tuple[tuple[type[BaseException], ...], str], ...]
_PROXY_FAILED = "the proxy failed"
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
    ((requests.exceptions.ProxyError,), _PROXY_FAILED),
)


def shown_proxy(proxy: str) -> str:
    """How a message names the proxy a request went through (SPEC 6, revision 4): without
    secrets (:func:`~frame_spine.github.urls.without_secrets`); a value without a scheme
    (``alice:S3CRET@proxy:3128``, which requests cannot use) or that cannot be shown is named
    but not quoted."""
    shown = without_secrets(proxy) if "://" in proxy else None
    if shown is None:
        return (
            "set in the environment, whose value has no usable scheme (give it as "
            "http://HOST:PORT; the value is not shown)"
        )
    return cut(shown)


def _through(detail: str, proxy: str | None) -> str:
    """A connection failure's words, naming the proxy the request went through."""
    if proxy is None:
        return detail
    if detail == _PROXY_FAILED:
        return f"the proxy {shown_proxy(proxy)} failed"
    return f"{detail}, through the proxy {shown_proxy(proxy)}"


def _words(causes: list[BaseException], table: _Causes) -> str | None:
    """The words of the first row of ``table`` one of ``causes`` matches, or ``None``."""
    return next(
        (words for kinds, words in table if any(isinstance(c, kinds) for c in causes)), None
    )


def failure_of(
    exc: BaseException, deadline: Deadline, fields: Mapping[str, str], proxy: str | None = None
) -> RequestFailure:
    """What a transport exception means, in words (SPEC 6: no library exception text)."""
    causes = list(causes_of(exc))
    if deadline.passed:
        return RequestFailure("timeout", headers=fields)
    final = final_failure(causes, shown_proxy(proxy) if proxy else None)  # not retried (SPEC 6)
    if final is not None:
        return RequestFailure("final", headers=fields, detail=final)
    connection = _words(causes, _CONNECTION_CAUSES)
    if connection is not None:
        return RequestFailure("connection", headers=fields, detail=_through(connection, proxy))
    # urllib3's NewConnectionError is a ConnectTimeoutError too: it is no timeout.
    if any(
        isinstance(cause, TimeoutError | requests.Timeout | urllib3.exceptions.TimeoutError)
        and not isinstance(cause, urllib3.exceptions.NewConnectionError)
        for cause in causes
    ):
        return RequestFailure("timeout", headers=fields)
    if any(isinstance(cause, urllib3.exceptions.DecodeError) for cause in causes):
        encoding = quoted(fields.get("content-encoding", ""))
        detail = f"the GitHub API's answer is not valid {encoding} compressed data"
        return RequestFailure("malformed", headers=fields, detail=detail)
    broken = _words(causes, _BROKEN_ANSWERS) or "the connection failed"
    return RequestFailure("connection", headers=fields, detail=_through(broken, proxy))
