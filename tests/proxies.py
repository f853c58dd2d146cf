"""A loopback HTTP proxy that records what it is sent (SPEC 6: a loopback ``api-url`` never
goes through a proxy, and a proxy never gets the token).

:class:`RecordingProxy` is a real TCP server on 127.0.0.1. It reads each request head sent to
it — a proxied ``GET http://host/path`` with its headers, or a ``CONNECT host:443`` that opens
a TLS tunnel — keeps it, and answers every one with ``502 Bad Gateway`` (or the ``answer``
it is given, e.g. a ``407``): it forwards nothing, so a request that reaches it never reaches
the API.
"""

from __future__ import annotations

import socket
import threading
from types import TracebackType

BAD_GATEWAY = b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


class RecordingProxy:
    """The proxy; ``heads`` holds every request head received (text, in arrival order).

    Use it as a context manager (it stops on exit); ``url`` is ``http://127.0.0.1:PORT``,
    ``url_with(user, password)`` the same with credentials, as ``HTTPS_PROXY`` may carry them.
    """

    def __init__(self, answer: bytes = BAD_GATEWAY) -> None:
        self._answer_bytes = answer
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self.heads: list[str] = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url_with(self, user: str, password: str) -> str:
        return f"http://{user}:{password}@127.0.0.1:{self.port}"

    def request_lines(self) -> list[str]:
        """The first line of every request head (``CONNECT ghe.example.com:443 HTTP/1.1``)."""
        with self._lock:
            return [head.split("\r\n", 1)[0] for head in self.heads]

    def _serve(self) -> None:
        while not self._stopped.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                continue
            threading.Thread(target=self._answer, args=(client,), daemon=True).start()

    def _answer(self, client: socket.socket) -> None:
        try:
            client.settimeout(30)
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(4096)
                if not chunk:
                    return
                head += chunk
            with self._lock:
                self.heads.append(head.split(b"\r\n\r\n", 1)[0].decode("latin-1"))
            client.sendall(self._answer_bytes)
        except OSError:
            return
        finally:
            client.close()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=2)
        self._listener.close()

    def __enter__(self) -> RecordingProxy:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
