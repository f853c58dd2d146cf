"""Mutate each default, retry, wait and limit constant once and check that a test fails
(issue 31: no default without a test that pins it). Run by `make mutation` (.ci/run).

Each mutation edits one line of src/, runs the tests that pin it, and restores the file
whatever happens. Exit 1, naming them, when a mutation survives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "frame_spine"
#: (file under src/frame_spine, the text, its mutation, the tests that must fail)
MUTATIONS = [
    (
        "github/defaults.py",
        "DEFAULT_TIMEOUT = 10",
        "DEFAULT_TIMEOUT = 11",
        "tests/test_defaults.py",
    ),
    (
        "github/defaults.py",
        "DEFAULT_MAX_WAIT = 60",
        "DEFAULT_MAX_WAIT = 61",
        "tests/test_defaults.py",
    ),
    ("declared.py", '"${{ github.token }}"', '"${{ github.tokens }}"', "tests/test_defaults.py"),
    ("github/retry.py", "(1.0, 2.0)", "(1.0, 3.0)", "tests/github/test_retry.py"),
    ("github/retry.py", "MAX_ATTEMPTS = 3", "MAX_ATTEMPTS = 4", "tests/github/test_retry.py"),
    (
        "github/retry.py",
        "MAX_RATE_LIMIT_RETRIES = 10",
        "MAX_RATE_LIMIT_RETRIES = 11",
        "tests/github/test_retry_interplay.py",
    ),
    (
        "github/retry.py",
        "DEFAULT_RATE_LIMIT_WAIT = 60.0",
        "DEFAULT_RATE_LIMIT_WAIT = 61.0",
        "tests/github/test_retry.py",
    ),
    ("github/transport.py", "MAX_REDIRECTS = 3", "MAX_REDIRECTS = 4", "tests/github/test_wire.py"),
    (
        "github/transport.py",
        "MAX_BODY_BYTES = 32 * 1024 * 1024",
        "MAX_BODY_BYTES = 33 * 1024 * 1024",
        "tests/github/test_client.py",
    ),
    ("github/authors.py", "MAX_ASKED = 20", "MAX_ASKED = 21", "tests/github/test_authors.py"),
    ("github/authors.py", "MAX_EDITS = 100", "MAX_EDITS = 99", "tests/modes/test_edits.py"),
    ("github/client.py", "MAX_NODES = 100", "MAX_NODES = 101", "tests/modes/test_edits.py"),
    ("core/shown.py", "LONGEST = 120", "LONGEST = 121", "tests/test_action.py"),
]


def survives(path: Path, text: str, mutation: str, tests: str) -> bool:
    """Whether ``tests`` pass with ``text`` replaced by ``mutation`` in ``path``."""
    original = path.read_text("utf-8")
    assert original.count(text) == 1, f"{path}: {text!r} is not there exactly once"
    path.write_text(original.replace(text, mutation), "utf-8")
    try:
        run = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", tests]
        return subprocess.run(run, cwd=ROOT, capture_output=True, check=False).returncode == 0
    finally:
        path.write_text(original, "utf-8")


def main() -> int:
    surviving = []
    for name, text, mutation, tests in MUTATIONS:
        alive = survives(SRC / name, text, mutation, tests)
        print(f"{'SURVIVED' if alive else 'killed  '} {name}: {text} -> {mutation}")
        if alive:
            surviving.append(f"{name}: {text}")
    print(f"{len(MUTATIONS) - len(surviving)} of {len(MUTATIONS)} mutations killed")
    return 1 if surviving else 0


if __name__ == "__main__":
    sys.exit(main())
