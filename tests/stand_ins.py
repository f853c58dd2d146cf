"""Stand-ins for the programs the command line asks (SPEC 9): a ``gh`` that records how it was
called, and real git checkouts with an ``origin`` remote."""

from __future__ import annotations

import os
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class StandInGh:
    """A ``gh`` program in ``folder`` (put it first on ``PATH``).

    Each run appends its arguments as one line to ``calls`` and its environment to
    ``environments`` (``NAME=value`` lines, then an empty line).
    """

    folder: Path

    @property
    def calls_file(self) -> Path:
        return self.folder / "gh-calls.log"

    @property
    def environments_file(self) -> Path:
        return self.folder / "gh-env.log"

    def calls(self) -> list[str]:
        """Every run's arguments, one string each (``[]`` when ``gh`` never ran)."""
        if not self.calls_file.exists():
            return []
        return self.calls_file.read_text("utf-8").splitlines()

    def environment(self) -> dict[str, str]:
        """The environment of the last run."""
        runs = self.environments_file.read_text("utf-8").split("\n\n")
        last = [run for run in runs if run.strip()][-1]
        return dict(line.split("=", 1) for line in last.splitlines() if "=" in line)

    def path(self, rest: str = "/usr/bin:/bin") -> str:
        """A ``PATH`` that finds this ``gh`` first."""
        return f"{self.folder}:{rest}"


def write_gh(folder: Path, *, prints: str = "", exit_code: int = 0, sleep: float = 0) -> StandInGh:
    """Write an executable ``gh`` shell script into ``folder`` (created if needed) that
    records its call, sleeps ``sleep`` seconds, prints ``prints`` byte for byte and exits
    with ``exit_code``."""
    folder.mkdir(parents=True, exist_ok=True)
    gh = StandInGh(folder)
    lines = [
        "#!/bin/sh",
        f'printf "%s\\n" "$*" >> {shlex.quote(str(gh.calls_file))}',
        f"{{ env; echo; }} >> {shlex.quote(str(gh.environments_file))}",
    ]
    if sleep:
        lines.append(f"sleep {sleep:g}")
    lines += [f"printf %s {shlex.quote(prints)}", f"exit {exit_code}"]
    script = folder / "gh"
    script.write_text("\n".join(lines) + "\n", "utf-8")
    script.chmod(0o755)
    return gh


def git_checkout(folder: Path, origin: str | None, *, config: dict[str, str] | None = None) -> Path:
    """A real git checkout in ``folder`` (``git init``), with ``origin`` as its ``origin``
    remote when given, and extra ``git config`` entries (e.g. ``url.X.insteadOf``)."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(folder)}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)

    git("init", "--quiet")
    for key, value in (config or {}).items():
        git("config", key, value)
    if origin is not None:
        git("remote", "add", "origin", origin)
    return folder
