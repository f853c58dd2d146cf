"""A write a signal interrupts returns how much it wrote: every output is written again until
whole (SPEC 6 "Interrupts": output is never cut)."""

from __future__ import annotations

import io

from frame_spine import interrupts


class ShortWrites(io.RawIOBase):
    """A raw stream that takes at most ``step`` bytes per write, as a pipe does when a signal
    interrupts a blocked write part way."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.taken = bytearray()
        self.calls = 0

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        chunk = bytes(memoryview(data))[: self.step]  # type: ignore[arg-type]
        self.taken += chunk
        self.calls += 1
        return len(chunk)


def test_a_short_write_is_written_again_until_whole() -> None:
    stream = ShortWrites(65_536)
    data = b"x" * 1_000_000 + b"\n"
    interrupts.write_whole(stream, data)  # type: ignore[arg-type]
    assert (bytes(stream.taken) == data, stream.calls) == (True, 16)


def test_a_whole_write_is_one_call() -> None:
    stream = ShortWrites(10)
    interrupts.write_whole(stream, b"ok\n")  # type: ignore[arg-type]
    assert (bytes(stream.taken), stream.calls) == (b"ok\n", 1)
