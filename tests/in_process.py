"""The entry points run in this process, with the results a subprocess run gives.

``run_cli_in_process`` is :func:`tests.conftest.run_cli` without the new process:
``frame_spine.cli.main(argv)`` with the environment, the working directory and stdin given,
stdout and stderr captured as bytes (the CLI writes through ``sys.stdout.buffer``), and the
exit code the console script would exit with (argparse's ``SystemExit`` included).
``run_action_in_process`` is :func:`tests.runner_env.run_action` the same way:
``frame_spine.action.main()`` in the runner's environment, its output file and job summary
read back. What only a process shows (signals, the interpreter's flags, the installed
command, the file-size limit) stays with the subprocess helpers.

``FakeClock`` is the clock and sleep of every API session made meanwhile
(:data:`frame_spine.github.session.DEFAULT_CLOCK`): SPEC 6's backoffs and rate-limit waits take
no real time, and a fake API that reads the same clock computes its resets on it.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

from tests.clock import FakeClock
from tests.conftest import CLI, clean_env
from tests.runner_env import ActionRun, finished_run, step_environment


@contextlib.contextmanager
def session_clock(clock: FakeClock) -> Iterator[FakeClock]:
    """Every API session made inside the block waits and reads the time on ``clock``."""
    from frame_spine.github import session

    with (
        mock.patch.object(session, "DEFAULT_SLEEP", clock.sleep),
        mock.patch.object(session, "DEFAULT_CLOCK", clock.time),
    ):
        yield clock


@contextlib.contextmanager
def _captured(stdin: bytes) -> Iterator[dict[str, bytes]]:
    """stdin given, stdout and stderr captured as bytes (through ``.buffer`` too); the bytes
    are in the dictionary once the block is left."""
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    given = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    texts: dict[str, bytes] = {}
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = given, stdout, stderr
    try:
        yield texts
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved  # the entrypoint filters stderr
        stdout.flush()
        stderr.flush()
        stdout.detach()
        stderr.detach()
        texts.update(stdout=out.getvalue(), stderr=err.getvalue())


@contextlib.contextmanager
def _process_state(env: dict[str, str], cwd: Path | None) -> Iterator[None]:
    """``os.environ`` replaced by ``env`` and the working directory by ``cwd``, and the
    tokens ``gh`` printed forgotten afterwards, as a new process would start."""
    from frame_spine import console

    printed = list(console._PRINTED_TOKENS)
    before = Path.cwd()
    with mock.patch.dict(os.environ, env, clear=True):
        try:
            if cwd is not None:
                os.chdir(cwd)
            yield
        finally:
            os.chdir(before)
            console._PRINTED_TOKENS[:] = printed


def run_cli_in_process(
    args: list[str],
    *,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    clock: FakeClock | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``frame-spine ARGS`` as :func:`tests.conftest.run_cli` runs it, in this process, on
    ``clock`` (a new :class:`FakeClock` when not given)."""
    from frame_spine import cli

    with (
        session_clock(clock or FakeClock()),
        _process_state(env if env is not None else clean_env(), cwd),
        _captured(stdin or b"") as texts,
    ):
        try:
            code = cli.main(args)
        except SystemExit as exited:  # argparse: usage errors, --help, --version
            code = exited.code if isinstance(exited.code, int) else 0 if not exited.code else 1
    return subprocess.CompletedProcess([str(CLI), *args], code, texts["stdout"], texts["stderr"])


def run_action_in_process(
    tmp_path: Path,
    inputs: dict[str, str],
    *,
    api_url: str,
    token: str,
    repository: str,
    extra_env: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    clock: FakeClock | None = None,
) -> ActionRun:
    """The action's entrypoint as :func:`tests.runner_env.run_action` runs it (same
    environment, files and result), in this process, on ``clock``."""
    from frame_spine import action

    env, files = step_environment(
        tmp_path,
        inputs,
        api_url=api_url,
        token=token,
        repository=repository,
        extra_env=extra_env,
        drop=drop,
    )
    with (
        session_clock(clock or FakeClock()),
        _process_state(env, files.workspace),
        _captured(b"") as texts,
    ):
        code = action.main()
    return finished_run(code, texts["stdout"], texts["stderr"], files)
