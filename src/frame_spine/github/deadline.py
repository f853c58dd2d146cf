"""The deadline of one request attempt (SPEC 6: ``timeout`` bounds each whole request).

An edge. requests' own timeout applies to each socket read, so a server that drips bytes
could stretch a request without end; here a watchdog shuts the connection's socket down when
the attempt's :class:`Deadline` passes, whatever phase it is in (connecting, the TLS
handshake, headers, body). :class:`WatchedAdapter` is requests' adapter whose connections put
their sockets under the deadline of the attempt this thread is making
(:data:`CURRENT_DEADLINE`).

The one module that uses urllib3 names outside its documented API, and why (issue 19):

- ``HTTPConnection._new_conn``: the socket before TLS. The watch must start when the TCP
  connection exists, so that the TLS handshake is under the deadline too; the public
  ``connect()`` returns only after the handshake, and urllib3 has no public hook between
  the two (``socket_options`` set options, they cannot hand the socket over).
- ``PoolManager.pool_classes_by_scheme``: which pool class (hence which connection class)
  a scheme gets; the public ``PoolManager`` arguments cannot choose the connection class.

requests' side is public: ``HTTPAdapter.init_poolmanager``, ``proxy_manager_for`` and the
``poolmanager`` they set, as requests documents for custom adapters. When urllib3 lacks
either name, the first request fails with :class:`DependencyChanged` naming urllib3, its
version and the name (checked when an adapter is made, never inside a retry).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from contextvars import ContextVar
from importlib.metadata import version
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool


class Deadline:
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
CURRENT_DEADLINE: ContextVar[Deadline | None] = ContextVar("frame_spine_deadline", default=None)


def _watch(sock: socket.socket | None) -> None:
    deadline = CURRENT_DEADLINE.get()
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


class DependencyChanged(Exception):
    """A dependency lacks a name this program relies on (issue 19): its message names the
    dependency, its version, the name and what needs it."""


def _missing(name: str) -> DependencyChanged:
    return DependencyChanged(
        f"urllib3 {version('urllib3')} has no {name}, which the per-request deadline "
        "(SPEC 6) needs: install a urllib3 version frame-spine-lookup supports (see its "
        "pyproject.toml)"
    )


def _set_pools(manager: Any) -> None:
    if not isinstance(getattr(manager, "pool_classes_by_scheme", None), dict):
        raise _missing(f"{type(manager).__name__}.pool_classes_by_scheme")
    manager.pool_classes_by_scheme = _POOLS


class WatchedAdapter(HTTPAdapter):
    """requests' adapter with the watched connections (direct and through HTTP proxies).

    Raises:
        DependencyChanged: urllib3 lacks a name the deadline needs (see the module's
            docstring), when the adapter is made.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not callable(getattr(HTTPConnection, "_new_conn", None)):
            raise _missing("HTTPConnection._new_conn")
        super().__init__(*args, **kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        _set_pools(self.poolmanager)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        if not proxy.lower().startswith("socks"):  # SOCKS pools are their own
            _set_pools(manager)
        return manager
