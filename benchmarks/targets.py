"""The end of every benchmark that checks targets: print the missed ones, or that all were met."""

from __future__ import annotations


def report_targets(failures: list[str]) -> int:
    """Print ``failures`` (one missed target each) or "All targets met."; the exit code: 1 when
    any target was missed, else 0."""
    if failures:
        print("FAILED targets:")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    print("All targets met.")
    return 0
