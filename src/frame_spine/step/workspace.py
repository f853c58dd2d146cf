"""Writing the action's files in the workspace (SPEC 8 "Files the action writes").

An edge. ``slice-file`` and ``report-file`` are written here and nowhere else:

- atomically: the bytes go to a new temporary file in the target's directory (opened with
  ``O_CREAT | O_EXCL | O_NOFOLLOW``, so it can never be an existing FIFO, device or link),
  which is then renamed over the target; any failure removes the temporary file and every
  directory this write created, so no empty or partial file and no new empty directory is
  ever left behind, and an existing target keeps its old content;
- owned by the owner (uid and gid) of the workspace, with every directory created for them:
  the container runs as root, and the runner user must be able to delete what it leaves
  (``actions/checkout`` cleans the workspace of a self-hosted runner). When the process may
  not change an owner (it is not root), ownership is left as it is, silently;
- refused, before anything is created or opened, when the path is deeper than
  :data:`MAX_COMPONENTS`, resolves outside the workspace (through a symbolic link), goes
  through a symbolic-link loop or a broken link, or names an existing entry that is not a
  regular file (a directory, a FIFO, a device, a socket). A FIFO is never opened.

The text passes the run's :class:`~frame_spine.step.emitted.EmittedText` filter at the
write (token redaction, valid UTF-8).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import PurePosixPath

from .. import interrupts
from ..core.shown import quoted
from .emitted import EmittedText

#: The deepest workspace-relative path accepted, in path components.
MAX_COMPONENTS = 64


@dataclass(frozen=True, slots=True)
class WriteRefused:
    """A file that was not written; ``message`` names the input and says why (SPEC 8)."""

    message: str


class _Refusal(Exception):
    """Why a path is refused, completing "<input> '<path>' ..." (its one argument)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a regular file" if stat.S_ISREG(mode) else "of another kind"


def _inside(root: str, path: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _follow(root: str, path: str, *, last: bool) -> tuple[str, os.stat_result | None]:
    """Resolve the symbolic link ``path`` (``last``: the target itself, not a directory on
    the way): its real path and what it points at (``None`` when nothing is there yet).
    Refuses loops and paths that end up outside ``root``."""
    try:
        info: os.stat_result | None = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            where = "is" if last else "goes through"
            raise _Refusal(f"{where} a symbolic-link loop") from None
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
            raise
        info = None
    real = os.path.realpath(path)
    if not _inside(root, real):
        raise _Refusal("resolves outside the workspace")
    return real, info


def _entry(root: str, path: str, *, last: bool) -> tuple[str, os.stat_result | None]:
    """What is at ``path`` (``None`` when nothing), a symbolic link followed (see
    :func:`_follow`): its real path and its status."""
    try:
        info: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        return path, None
    if info is not None and stat.S_ISLNK(info.st_mode):
        return _follow(root, path, last=last)
    return path, info


class _Owner:
    """Gives what this write creates to the workspace's owner, when the process may."""

    def __init__(self, workspace: os.stat_result) -> None:
        self.uid, self.gid = workspace.st_uid, workspace.st_gid
        self._needed = (self.uid, self.gid) != (os.geteuid(), os.getegid())

    def give(self, target: str | int) -> None:
        if not self._needed:
            return
        with contextlib.suppress(OSError):  # not root (EPERM), or an unmapped id: leave it
            if isinstance(target, int):
                os.fchown(target, self.uid, self.gid)
            else:
                os.chown(target, self.uid, self.gid, follow_symlinks=False)


def _directory(root: str, parts: tuple[str, ...], owner: _Owner, created: list[str]) -> str:
    """The real path of the directory ``root/parts...``, creating what is missing (each
    new directory given to the owner and appended to ``created``, outermost first). Refuses
    links that leave ``root`` and non-directories."""
    current = root
    for index, part in enumerate(parts):
        path, info = _entry(root, os.path.join(current, part), last=False)
        if info is None and os.path.islink(os.path.join(current, part)):
            raise _Refusal("goes through a broken symbolic link")
        if info is None:
            os.mkdir(path, 0o755)
            created.append(path)
            owner.give(path)
        elif not stat.S_ISDIR(info.st_mode):
            shown = "/".join(parts[: index + 1])
            kind = _kind(info.st_mode)
            raise _Refusal(f"goes through {shown!r}, which is {kind}, not a directory")
        current = path
    return current


def _target(root: str, directory: str, name: str) -> str:
    """The real path to replace; refuses an existing entry that is not a regular file."""
    path, info = _entry(root, os.path.join(directory, name), last=True)
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise _Refusal(f"exists and is {_kind(info.st_mode)}, not a regular file")
    return path


def _replace(path: str, data: bytes, owner: _Owner) -> None:
    """Write ``data`` to a new temporary file beside ``path``, then rename it over ``path``;
    on any failure the temporary file is removed and ``path`` is untouched."""
    temporary = os.path.join(os.path.dirname(path), f".frame-spine-{secrets.token_hex(8)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(temporary, flags, 0o644)
    try:
        try:
            view = memoryview(data)
            while view:  # os.write may write less than asked (a file size limit, a signal)
                view = view[os.write(descriptor, view) :]
            owner.give(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _remove(created: list[str]) -> None:
    """Remove the directories this write created, innermost first (SPEC 8: a failed write
    leaves no directory that this run created for it). Only empty ones go: one that
    something else has filled meanwhile stays, and so does every directory that existed."""
    for path in reversed(created):
        with contextlib.suppress(OSError):
            os.rmdir(path)


def _write(root: str, parts: tuple[str, ...], data: bytes) -> str:
    """Create the missing directories, then write the file atomically; on any failure
    (an ``OSError``, a refusal, an interrupt) the directories created here are removed again
    before it propagates. Returns the real path written."""
    created: list[str] = []
    try:
        owner = _Owner(os.stat(root))
        directory = _directory(root, parts[:-1], owner, created)
        path = _target(root, directory, parts[-1])
        _replace(path, data, owner)
    except BaseException:
        _remove(created)
        raise
    return path


def write_in_workspace(
    workspace: str, relative: str, text: str, *, input_name: str, emitted: EmittedText
) -> str | WriteRefused:
    """Write ``text`` to ``relative`` under ``workspace`` (SPEC 8), atomically, owned by the
    workspace's owner.
    """
    parts = PurePosixPath(relative).parts
    shown = quoted(relative)
    if len(parts) > MAX_COMPONENTS:
        return WriteRefused(
            f"{input_name} {shown} is {len(parts)} path components deep; at most "
            f"{MAX_COMPONENTS} are allowed"
        )
    if not parts:
        return WriteRefused(f"{input_name} {shown} names the workspace itself, not a file")
    root = os.path.realpath(workspace)
    try:
        with interrupts.deferred():  # SPEC 6 "Interrupts": no temporary file left behind
            path = _write(root, parts, emitted.encode(text))
    except _Refusal as refusal:
        return WriteRefused(f"{input_name} {shown} {refusal}")
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        return WriteRefused(f"cannot write {input_name} {shown}: {reason}")
    return PurePosixPath(os.path.relpath(path, root)).as_posix()
