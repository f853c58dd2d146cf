"""Ctrl-C and SIGTERM (SPEC 6 "Interrupts", SPEC 9 exit codes).

An edge, shared by both entry points (:func:`frame_spine.cli.main`,
:func:`frame_spine.action.main`). While :func:`handled` is active, SIGINT or SIGTERM ends the
process at once, exit 130 (SIGINT) or 143 (SIGTERM), whatever it is doing: a request, a
5xx backoff or a rate-limit wait, in the main thread or in a pool worker. It leaves with
``os._exit`` after flushing stdout and stderr, so no worker thread is joined (a worker may be
in the middle of a 20 s ``retry-after`` wait; ``concurrent.futures`` joins its workers at
interpreter exit). The action's entrypoint is PID 1 in its container, where SIGTERM is
ignored unless a handler is installed: this installs one.

Writes that must be whole (``GITHUB_OUTPUT``, the job summary, workspace files, a result on
stdout) run inside :func:`deferred`: a signal that arrives meanwhile takes effect when the
last deferred section, in any thread, ends. A signal arriving outside :func:`handled` keeps
Python's default behaviour (``KeyboardInterrupt`` for SIGINT).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import BinaryIO

#: The signals handled, and the exit code each ends the process with (128 + the number).
EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}

_lock = threading.Lock()
_deferring = 0  # deferred sections open, in all threads (changed under _lock)
_pending: int | None = None  # a signal that arrived during a deferred section
_active = False  # whether handled() is in force


def _leave(signum: int) -> None:
    """End the process now: flush what was written whole, say why on stderr (a fixed line),
    and exit without joining any thread."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # closed, or a re-entrant flush: leave anyway
            stream.flush()
    caught = signal.Signals(signum)
    with contextlib.suppress(OSError):
        os.write(2, f"frame-spine: interrupted by {caught.name}\n".encode("ascii"))
    os._exit(EXIT_CODES[caught])


def _on_signal(signum: int, _frame: FrameType | None) -> None:
    """The handler (runs in the main thread): leave now, or once the writes in progress are
    whole. Takes no lock: the main thread may hold ``_lock`` when it runs."""
    global _pending
    _pending = signum
    if _deferring == 0:  # read after _pending is set: a section ending meanwhile sees it
        _leave(signum)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Run a write that must be whole: SIGINT/SIGTERM arriving meanwhile ends the process
    (as :func:`handled` says) right after the last deferred section in any thread ends.
    Nestable, thread-safe; a no-op outside :func:`handled`."""
    global _deferring
    with _lock:
        _deferring += 1
    try:
        yield
    finally:
        with _lock:
            _deferring -= 1
            ready = _deferring == 0
        pending = _pending
        if ready and pending is not None and _active:
            _leave(pending)


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """Install the SIGINT and SIGTERM handlers for the body (an entry point's whole run),
    then put the previous ones back. Only the main thread can install handlers: elsewhere
    (an entry point called from a thread) this does nothing."""
    global _active, _pending
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _on_signal) for number in EXIT_CODES}
    _active, _pending = True, None
    try:
        yield
    finally:
        _active = False
        for number, handler in previous.items():
            signal.signal(number, handler)


def block_in_this_thread() -> None:
    """Block SIGINT and SIGTERM in the calling (worker) thread, so that the kernel delivers
    them to the main thread, where the handler runs and a blocked wait is interrupted
    (a pool's ``initializer``). Where the platform has no thread signal masks (Windows), the
    signal reaches the main thread anyway: nothing to do."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, set(EXIT_CODES))


def write_whole(stream: BinaryIO, data: bytes) -> None:
    """Write every byte of ``data`` to ``stream`` and flush it: a write interrupted by a
    signal (a full pipe) may write less than asked, and returns how much; the rest is written
    again until none is left (SPEC 6 "Interrupts": output is never cut)."""
    view = memoryview(data)
    while view:
        written = stream.write(view)
        view = view[written if written is not None else len(view) :]
    stream.flush()
