"""A fake clock for the code under test and the fake API alike (SPEC 6's waits, untimed)."""

from __future__ import annotations

import threading

#: 2026-05-04T14:30:00Z, a fixed start: every run on a fake clock reads the same times.
EPOCH = 1_777_905_000.0


class FakeClock:
    """Epoch seconds that move only when slept (thread-safe).

    ``sleeps`` lists every wait asked for; ``slept`` is their sum (seconds), what a real
    clock would have advanced by them."""

    def __init__(self, start: float = EPOCH) -> None:
        self._now = start
        self._start = start
        self._lock = threading.Lock()
        self.sleeps: list[float] = []

    def time(self) -> float:
        with self._lock:
            return self._now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            self._now += max(0.0, seconds)

    @property
    def slept(self) -> float:
        with self._lock:
            return self._now - self._start
