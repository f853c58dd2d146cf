"""The environment GitHub's runner gives a Docker action, and an independent reader of the
``GITHUB_OUTPUT`` file format (``name=value`` lines and ``name<<DELIMITER`` heredocs)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from tests.conftest import REPO

ACTION_YML = REPO / "action.yml"
DOCKERFILE = REPO / "Dockerfile"


def entrypoint_command() -> list[str]:
    """The Dockerfile's exec-form ENTRYPOINT, with this test interpreter in place of the
    image's: the entrypoint runs here exactly as the container runs it (same flags)."""
    for line in DOCKERFILE.read_text("utf-8").splitlines():
        if line.startswith("ENTRYPOINT "):
            command = json.loads(line[len("ENTRYPOINT ") :])
            assert command[0].startswith("/") and command[0].endswith("/python"), command
            return [sys.executable, *command[1:]]
    raise AssertionError("the Dockerfile has no exec-form ENTRYPOINT")


def action_metadata() -> dict[str, Any]:
    return YAML(typ="safe").load(ACTION_YML.read_text("utf-8"))


def parse_output_file(text: str) -> dict[str, str]:
    """Parse a GITHUB_OUTPUT file as the runner does; a repeated name is an error here."""
    values: dict[str, str] = {}
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line:
            continue
        heredoc = line.find("<<")
        equals = line.find("=")
        if heredoc != -1 and (equals == -1 or heredoc < equals):
            name, delimiter = line[:heredoc], line[heredoc + 2 :]
            assert delimiter, f"empty heredoc delimiter for {name!r}"
            body: list[str] = []
            while True:
                assert index < len(lines), f"unterminated heredoc for {name!r}"
                current = lines[index]
                index += 1
                if current == delimiter:
                    break
                body.append(current)
            value = "\n".join(body)
        else:
            assert equals > 0, f"malformed output line {line!r}"
            name, value = line[:equals], line[equals + 1 :]
        assert name not in values, f"output {name!r} set twice"
        values[name] = value
    return values


@dataclass
class ActionRun:
    """One run of the entrypoint: exit code, stdout/stderr, outputs, summary, workspace."""

    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    output_file_text: str
    summary: str
    workspace: Path


@dataclass
class RunnerFiles:
    """Where one run's files are: the workspace, ``GITHUB_OUTPUT`` and the job summary."""

    workspace: Path
    output_file: Path
    summary_file: Path


def runner_environment(
    tmp_path: Path,
    inputs: dict[str, str],
    *,
    api_url: str,
    token: str,
    repository: str,
) -> tuple[dict[str, str], RunnerFiles]:
    """The environment the runner gives the entrypoint of a Docker action, and its files
    (created empty under ``tmp_path``).

    Every input of action.yml is passed as ``INPUT_<NAME>`` (hyphens kept, upper case) with
    its default unless ``inputs`` overrides it; ``${{ github.* }}`` defaults are resolved the
    way the runner would (token, repository, API URL).
    """
    metadata = action_metadata()
    resolved = {
        "${{ github.token }}": token,
        "${{ github.repository }}": repository,
        "${{ github.api_url }}": api_url,
    }
    workspace = tmp_path / "workspace"
    file_commands = tmp_path / "file_commands"
    home = tmp_path / "home"
    for folder in (workspace, file_commands, home):
        folder.mkdir(parents=True, exist_ok=True)
    output_file = file_commands / "set_output_1"
    summary_file = file_commands / "step_summary_1"
    output_file.write_text("")
    summary_file.write_text("")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8"}
    for name, spec in metadata["inputs"].items():
        default = str(spec.get("default", ""))
        value = inputs.get(name, resolved.get(default, default))
        env[f"INPUT_{name.upper()}"] = value
    unknown = set(inputs) - set(metadata["inputs"])
    assert not unknown, f"not inputs of action.yml: {unknown}"
    env.update(
        {
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_STEP_SUMMARY": str(summary_file),
            "GITHUB_ENV": str(file_commands / "set_env_1"),
            "GITHUB_PATH": str(file_commands / "add_path_1"),
            "GITHUB_STATE": str(file_commands / "save_state_1"),
            "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_API_URL": api_url,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_GRAPHQL_URL": api_url + "/graphql",
            "GITHUB_REPOSITORY": repository,
            "GITHUB_REPOSITORY_OWNER": repository.split("/")[0],
            "GITHUB_EVENT_NAME": "workflow_dispatch",
            "GITHUB_RUN_ID": "1",
            "GITHUB_JOB": "lookup",
            "GITHUB_ACTION": "frame-spine",
            "RUNNER_OS": "Linux",
            "RUNNER_TEMP": "/home/runner/work/_temp",
        }
    )
    return env, RunnerFiles(workspace, output_file, summary_file)


def step_environment(
    tmp_path: Path,
    inputs: dict[str, str],
    *,
    api_url: str,
    token: str,
    repository: str,
    extra_env: dict[str, str] | None,
    drop: tuple[str, ...],
) -> tuple[dict[str, str], RunnerFiles]:
    """:func:`runner_environment` with ``extra_env`` added and the ``drop`` variables taken
    out: what :func:`run_action` and the in-process run give the entrypoint."""
    env, files = runner_environment(
        tmp_path, inputs, api_url=api_url, token=token, repository=repository
    )
    env.update(extra_env or {})
    for name in drop:
        env.pop(name, None)
    return env, files


def finished_run(returncode: int, stdout: bytes, stderr: bytes, files: RunnerFiles) -> ActionRun:
    """The :class:`ActionRun` of an entrypoint that exited ``returncode`` having written
    ``stdout``/``stderr`` and the runner's files."""
    output_text = files.output_file.read_text("utf-8")
    return ActionRun(
        returncode=returncode,
        stdout=stdout.decode("utf-8"),
        stderr=stderr.decode("utf-8"),
        outputs=parse_output_file(output_text),
        output_file_text=output_text,
        summary=files.summary_file.read_text("utf-8"),
        workspace=files.workspace,
    )


def run_action(
    tmp_path: Path,
    inputs: dict[str, str],
    *,
    api_url: str,
    token: str,
    repository: str,
    extra_env: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    timeout: float = 120,
    command_prefix: tuple[str, ...] = (),
    file_size_limit: int | None = None,
) -> ActionRun:
    """Run ``python -m frame_spine.action`` as the runner runs a Docker action's entrypoint,
    in :func:`runner_environment` with ``extra_env`` added and the ``drop`` variables taken
    out. ``command_prefix`` runs the entrypoint through another program (e.g. ``setpriv`` to
    drop a capability); ``file_size_limit`` caps the size of every file it writes
    (``RLIMIT_FSIZE``, bytes).
    """
    env, files = step_environment(
        tmp_path,
        inputs,
        api_url=api_url,
        token=token,
        repository=repository,
        extra_env=extra_env,
        drop=drop,
    )
    limit: Callable[[], None] | None = None
    if file_size_limit is not None:
        size = file_size_limit

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    completed = subprocess.run(
        [*command_prefix, *entrypoint_command()],
        cwd=files.workspace,
        env=env,
        capture_output=True,
        timeout=timeout,
        check=False,
        preexec_fn=limit,
    )
    return finished_run(completed.returncode, completed.stdout, completed.stderr, files)
