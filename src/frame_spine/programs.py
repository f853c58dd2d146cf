"""The other programs the command line asks (SPEC 9): ``gh`` for a token, ``git`` for the
checkout's ``origin`` remote.

An edge (processes). Each program runs with no standard input, in a session of its own, under
a short timeout after which its whole process group is killed: nothing here waits long, and
nothing it starts outlives the command. A program that is missing, fails, is slow or prints
nothing gives an :class:`Unanswered` with the reason in words, never an exception. What a
program prints on stderr is never passed on as is (at most its first line, without the
credentials of any URL in it).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .core.shown import cut
from .github.auth import TOKEN_VARIABLES
from .github.urls import without_credentials

#: Seconds ``gh auth token`` may take (it reads a file or the system keyring: milliseconds).
GH_TIMEOUT = 3.0
#: Seconds ``git remote get-url origin`` may take.
GIT_TIMEOUT = 5.0
#: Variables ``gh`` must not see when it is asked for its stored token: the token variables
#: (only blank ones can be set by then; ``gh`` would print them back), and its own prompts and
#: update check (no network call, no question).
_GH_DROPPED = TOKEN_VARIABLES
_GH_SET = {"GH_PROMPT_DISABLED": "1", "GH_NO_UPDATE_NOTIFIER": "1", "NO_COLOR": "1"}
_LONGEST_DETAIL = 200


@dataclass(frozen=True, slots=True)
class Unanswered:
    """Why a program gave no answer, in words (``gh is not on PATH``)."""

    reason: str


@dataclass(frozen=True, slots=True)
class _Finished:
    code: int
    stdout: bytes
    stderr: bytes


def _run(
    argv: Sequence[str], env: Mapping[str, str], timeout: float, cwd: str | None = None
) -> _Finished | Unanswered:
    """Run ``argv`` (``argv[0]`` a path) with no stdin, killing its process group after
    ``timeout`` seconds (then its output is not waited for: a descendant that left the group
    may hold the pipes open)."""
    label = " ".join([os.path.basename(argv[0]), *argv[1:3]])
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
        )
    except OSError as exc:
        return Unanswered(f"{os.path.basename(argv[0])} could not be started ({exc.strerror})")
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):  # already gone
            os.killpg(process.pid, signal.SIGKILL)
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
        process.wait()
        return Unanswered(f"{label} did not answer within {timeout:g} s")
    return _Finished(process.returncode, stdout, stderr)


def _first_line(data: bytes) -> str:
    """The first non-blank line of a program's stderr, decoded, trimmed, without the user
    name and password of any URL in it (git quotes remote URLs, which can carry a token:
    SPEC 6), and cut short."""
    for line in data.decode("utf-8", "replace").splitlines():
        if line.strip():
            return cut(without_credentials(line.strip()), _LONGEST_DETAIL)
    return ""


def gh_auth_token(hostname: str, environ: Mapping[str, str]) -> str | Unanswered:
    """The token ``gh`` has stored for ``hostname``: ``gh auth token --hostname HOSTNAME``
    (SPEC 9), when ``gh`` is on ``PATH``.
    """
    gh = shutil.which("gh", path=environ.get("PATH", os.defpath))
    if gh is None:
        return Unanswered("gh is not on PATH")
    env = {key: value for key, value in environ.items() if key not in _GH_DROPPED}
    env.update(_GH_SET)
    finished = _run([gh, "auth", "token", "--hostname", hostname], env, GH_TIMEOUT)
    if isinstance(finished, Unanswered):
        return finished
    if finished.code != 0:
        return Unanswered(f"gh auth token has no token for {hostname} (exit {finished.code})")
    try:
        printed = finished.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return Unanswered("gh auth token printed something that is not UTF-8")
    if not printed.strip():
        return Unanswered(f"gh auth token printed no token for {hostname}")
    return printed


def origin_url(environ: Mapping[str, str], cwd: str | None = None) -> str | Unanswered:
    """The URL of the ``origin`` remote of the git checkout around ``cwd`` (default: the
    current directory): ``git remote get-url origin`` (SPEC 9), which applies the user's
    ``url.<base>.insteadOf`` rewrites.
    """
    git = shutil.which("git", path=environ.get("PATH", os.defpath))
    if git is None:
        return Unanswered("git is not on PATH")
    env = {**environ, "LC_ALL": "C", "LANGUAGE": "", "GIT_TERMINAL_PROMPT": "0"}
    finished = _run([git, "remote", "get-url", "origin"], env, GIT_TIMEOUT, cwd)
    if isinstance(finished, Unanswered):
        return finished
    detail = _first_line(finished.stderr)
    if finished.code != 0:
        if "not a git repository" in detail:
            return Unanswered("the current directory is not in a git checkout")
        if "no such remote" in detail.lower():
            return Unanswered("the checkout has no remote named origin")
        return Unanswered(f"git remote get-url origin failed (exit {finished.code}: {detail})")
    url = finished.stdout.decode("utf-8", "replace").strip()
    return url if url else Unanswered("the checkout's origin remote has no URL")
