"""Shared test helpers: the conformance corpus and the installed command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
CASES_DIR = TESTS / "conformance" / "cases"
REPO = TESTS.parent
CLI = Path(sys.executable).parent / "frame-spine"


@dataclass(frozen=True)
class Case:
    """One conformance case (see tests/conformance/README.md)."""

    name: str
    folder: Path
    spec: dict[str, Any]

    @property
    def expect(self) -> dict[str, Any]:
        return self.spec["expect"]

    @property
    def format(self) -> str:
        return self.spec.get("format", "json")

    def body(self, key: str) -> str | None:
        """The named body file (``plan``, ``sibling`` or ``body``) decoded, or None."""
        name = self.spec.get(key)
        if not name:
            return None
        return (self.folder / name).read_bytes().decode("utf-8")

    def cli_args(self) -> list[str]:
        """The `frame-spine lookup` arguments of this case (as ../shared/conformance/run.py)."""
        args = ["lookup"]
        if self.spec.get("body"):
            args += ["--comment-body-path", str(self.folder / self.spec["body"])]
        else:
            args += ["--plan-body", str(self.folder / self.spec["plan"])]
            if self.spec.get("sibling"):
                args += ["--slices-body", str(self.folder / self.spec["sibling"])]
            if self.spec.get("issue_number") is not None:
                args += ["--issue-number", str(self.spec["issue_number"])]
        args += ["--generated-at", self.spec["generated_at"], "--step-id", self.spec["step_id"]]
        args += ["--format", self.format]
        if self.spec.get("spine_digest"):
            args += ["--spine-digest", self.spec["spine_digest"]]
        return args


def load_cases() -> list[Case]:
    cases = []
    for folder in sorted(CASES_DIR.iterdir()):
        spec_file = folder / "case.json"
        if spec_file.is_file():
            cases.append(Case(folder.name, folder, json.loads(spec_file.read_text("utf-8"))))
    return cases


def expectation_failures(case: Case, stdout: str, exit_code: int) -> list[str]:
    """Compare one run's stdout and exit code with the case's `expect` (README rules)."""
    expect = case.expect
    failures = []
    if exit_code != expect["exit_code"]:
        failures.append(f"exit code {exit_code}, expected {expect['exit_code']}")
    if case.format == "json":
        result = json.loads(stdout)
        if result.get("status") != expect["status"]:
            failures.append(f"status {result.get('status')!r}, expected {expect['status']!r}")
        for key, value in expect.get("fields", {}).items():
            if key not in result or result[key] != value or type(result[key]) is not type(value):
                failures.append(f"{key} = {result.get(key)!r}, expected {value!r}")
        if "slice" in expect and result.get("slice") != expect["slice"]:
            failures.append(f"slice differs: {result.get('slice')!r}")
        for needle in expect.get("message_contains", []):
            if needle.lower() not in str(result.get("message") or "").lower():
                failures.append(f"message {result.get('message')!r} lacks {needle!r}")
    else:
        prefix = expect.get("stdout_prefix", f"status: {expect['status']}\n")
        if not stdout.startswith(prefix):
            failures.append(f"stdout does not start with {prefix!r}: {stdout[:300]!r}")
    return failures


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a CLI subprocess: no GitHub runner or token variables."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GITHUB_", "INPUT_", "GH_", "RUNNER_"))
    }
    env.update(extra)
    return env


def run_cli(
    args: list[str],
    *,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run the installed `frame-spine` command (a real subprocess), in ``cwd`` if given."""
    return subprocess.run(
        [str(CLI), *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env=env if env is not None else clean_env(),
        cwd=cwd,
        check=False,
    )


CASES = load_cases()


@pytest.fixture(params=CASES, ids=[case.name for case in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    return request.param


@pytest.fixture
def fake_github(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fresh fake of the GitHub REST API: served on a loopback socket (threaded, so
    requests can overlap) for other processes, and answering this process's sessions
    through the transport seam without a socket (``DEFAULT_HANDLER``), unless the test is
    marked ``sockets`` (the wire's own tests: deadlines, TLS, proxies, compression) or
    ``serial``."""
    from frame_spine.github import session
    from tests.fake_github import FakeGitHub, LoopbackServer

    server = LoopbackServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        fake = FakeGitHub(server)
        marked = (request.node.get_closest_marker(name) for name in ("sockets", "serial"))
        if not any(marked):  # a timed test times a real socket too
            monkeypatch.setattr(session, "DEFAULT_HANDLER", fake.handle)
        yield fake
    finally:
        server.clear()
        if server.is_running():
            server.stop()


@dataclass(frozen=True)
class Ran:
    """What one in-process ``frame_spine.cli.main`` call did: exit code and the bytes."""

    code: int
    stdout: bytes
    stderr: bytes


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> Any:
    """Run ``frame_spine.cli.main(args)`` in this process, in the repository's folder, without
    runner or token variables and with 80 columns (argparse wraps help to the terminal);
    returns a :class:`Ran` (a usage error's ``SystemExit`` becomes its code)."""
    for key in list(os.environ):
        if key.startswith(("GITHUB_", "INPUT_", "GH_", "RUNNER_")):
            monkeypatch.delenv(key)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(REPO)

    def run(args: list[str]) -> Ran:
        from frame_spine.cli import main

        capsysbinary.readouterr()
        try:
            code = main(args)
        except SystemExit as exited:
            code = exited.code if isinstance(exited.code, int) else int(exited.code is not None)
        out, err = capsysbinary.readouterr()
        return Ran(code, out, err)

    return run
