"""The distribution users install (README "Install the command", "Releases").

`python -m build` runs on this checkout's source tree as a fresh clone would have it (the files
git tracks or would add; no .venv, no egg-info left by an editable install, whose stale
SOURCES.txt would otherwise leak into the sdist), making the sdist and then the wheel from the
sdist, as the release workflow does via `make dist`; `twine check --strict` accepts both, the
wheel holds exactly the files of src/frame_spine/ (every subpackage, py.typed; no tests or
benchmarks), and the wheel installed with `uv tool install` into a fresh tool folder (its own
virtual environment, not the development one) runs `frame-spine --version` and the `make demo`
lookup. Everything is built and installed under one temporary folder, removed afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from tests.conftest import REPO, clean_env

PACKAGE_DIR = REPO / "src" / "frame_spine"
BIN = Path(sys.executable).parent
# The arguments of `make demo` (Makefile), run from the checkout.
DEMO_ARGS = [
    "lookup",
    "--plan-body",
    "examples/plan-878.md",
    "--slices-body",
    "examples/sibling-878.md",
    "--issue-number",
    "878",
    "--generated-at",
    "2026-07-18T22:20:00Z",
    "--step-id",
    "s1",
    "--format",
    "text",
]
DEMO_FIRST_LINES = [
    "status: ok",
    "step_id: s1",
    "slice: |",
    "  step_id: s1",
    "  commit-index: 1",
    "  provides: [implement-docs]",
]


@dataclass(frozen=True)
class Built:
    """The sdist and wheel built from the checkout, and the wheel installed as a uv tool."""

    sdist: Path
    wheel: Path
    tool_dir: Path  # UV_TOOL_DIR: one virtual environment per tool
    command: Path  # the `frame-spine` executable uv tool install wrote (UV_TOOL_BIN_DIR)


def run(args: list[str | Path], *, env: dict[str, str] | None = None) -> str:
    """Run a program to completion; fail with its whole output unless it exits 0."""
    completed = subprocess.run(
        [str(arg) for arg in args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env=env if env is not None else clean_env(),
        check=False,
    )
    if completed.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, args))} exited {completed.returncode}\n"
            f"--- stdout\n{completed.stdout}\n--- stderr\n{completed.stderr}"
        )
    return completed.stdout


@pytest.fixture(scope="module")
def built() -> Iterator[Built]:
    with tempfile.TemporaryDirectory(prefix="frame-spine-wheel-") as tmp:
        root = Path(tmp)
        source = copy_checkout(root / "source")
        dist = root / "dist"
        run([sys.executable, "-m", "build", "--installer", "uv", "--outdir", dist, source])
        sdists = sorted(dist.glob("*.tar.gz"))
        wheels = sorted(dist.glob("*.whl"))
        assert [len(sdists), len(wheels)] == [1, 1], sorted(p.name for p in dist.iterdir())
        tool_env = clean_env(
            UV_TOOL_DIR=str(root / "tools"),
            UV_TOOL_BIN_DIR=str(root / "bin"),
            UV_PYTHON_DOWNLOADS="never",
            UV_NO_CONFIG="1",
        )
        run([BIN / "uv", "tool", "install", "--python", sys.executable, wheels[0]], env=tool_env)
        yield Built(sdists[0], wheels[0], root / "tools", root / "bin" / "frame-spine")


def copy_checkout(target: Path) -> Path:
    """Copy the files a fresh clone of this checkout would hold (tracked, or untracked and not
    ignored, as they are now on disk) to ``target``; return ``target``."""
    listing = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    for name in listing.split("\0"):
        path = REPO / name
        if name and path.is_file():  # a tracked file deleted on disk is not copied
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / name)
    return target


def wheel_metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return BytesParser().parsebytes(archive.read(name))


def package_files() -> dict[str, bytes]:
    """Every file of src/frame_spine/ (subpackages included; no caches), by wheel path."""
    files = {}
    for path in sorted(PACKAGE_DIR.rglob("*")):
        relative = path.relative_to(PACKAGE_DIR.parent)
        if path.is_file() and "__pycache__" not in relative.parts and path.suffix != ".pyc":
            files[relative.as_posix()] = path.read_bytes()
    return files


def pyproject() -> dict[str, Any]:
    with (REPO / "pyproject.toml").open("rb") as file:
        project: dict[str, Any] = tomllib.load(file)["project"]
        return project


def test_build_names_both_files_after_the_package_version(built: Built) -> None:
    version = wheel_metadata(built.wheel)["Version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert built.wheel.name == f"frame_spine_lookup-{version}-py3-none-any.whl"
    assert built.sdist.name == f"frame_spine_lookup-{version}.tar.gz"
    with tarfile.open(built.sdist) as archive:
        member = archive.extractfile(f"frame_spine_lookup-{version}/PKG-INFO")
        assert member is not None
        assert BytesParser().parsebytes(member.read())["Version"] == version


def test_twine_check_strict_passes_sdist_and_wheel(built: Built) -> None:
    command = [BIN / "twine", "--no-color", "check", "--strict", built.sdist, built.wheel]
    output = run(command, env=clean_env(COLUMNS="1000"))  # rich wraps at 80 columns otherwise
    assert output.splitlines() == [  # twine checks wheels first
        f"Checking {built.wheel}: PASSED",
        f"Checking {built.sdist}: PASSED",
    ]


def test_wheel_holds_exactly_the_package_files_and_metadata(built: Built) -> None:
    version = wheel_metadata(built.wheel)["Version"]
    info = f"frame_spine_lookup-{version}.dist-info"
    expected = package_files()
    assert "frame_spine/py.typed" in expected
    with zipfile.ZipFile(built.wheel) as archive:
        names = archive.namelist()
        packaged = {n: archive.read(n) for n in names if n.startswith("frame_spine/")}
    missing = sorted(set(expected) - set(packaged))
    extra = sorted(set(packaged) - set(expected))
    assert (missing, extra) == ([], []), "wheel differs from src/frame_spine/"
    assert [n for n in expected if packaged[n] != expected[n]] == []
    assert sorted(n for n in names if not n.startswith("frame_spine/")) == [
        f"{info}/METADATA",
        f"{info}/RECORD",
        f"{info}/WHEEL",
        f"{info}/entry_points.txt",
        f"{info}/licenses/LICENSE",
        f"{info}/top_level.txt",
    ]


def test_wheel_metadata_names_the_project_license_python_and_command(built: Built) -> None:
    metadata = wheel_metadata(built.wheel)
    project = pyproject()
    assert metadata["Name"] == "frame-spine-lookup"
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload(decode=True) == (REPO / "README.md").read_bytes()
    runtime = [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert [Requirement(r) for r in runtime] == [Requirement(r) for r in project["dependencies"]]
    assert metadata.get_all("Classifier") == project["classifiers"]
    with zipfile.ZipFile(built.wheel) as archive:
        entry_points = archive.read(
            f"frame_spine_lookup-{metadata['Version']}.dist-info/entry_points.txt"
        )
    assert entry_points.decode("utf-8").startswith("[console_scripts]\nframe-spine = ")


def test_sdist_holds_the_package_and_no_tests_or_benchmarks(built: Built) -> None:
    version = wheel_metadata(built.wheel)["Version"]
    top = f"frame_spine_lookup-{version}/"
    with tarfile.open(built.sdist) as archive:
        files = sorted(m.name.removeprefix(top) for m in archive.getmembers() if m.isfile())
    package = sorted(f"src/{name}" for name in package_files())
    assert [f for f in files if f.startswith("src/frame_spine/")] == package
    assert [f for f in files if not f.startswith("src/")] == [
        "LICENSE",
        "MANIFEST.in",
        "PKG-INFO",
        "README.md",
        "pyproject.toml",
        "setup.cfg",
    ]
    others = [f for f in files if f.startswith("src/") and not f.startswith("src/frame_spine/")]
    assert all(f.startswith("src/frame_spine_lookup.egg-info/") for f in others), others


def test_uv_tool_install_runs_from_its_own_environment(built: Built) -> None:
    shebang = built.command.read_text("utf-8").splitlines()[0]
    assert shebang == f"#!{built.tool_dir / 'frame-spine-lookup' / 'bin' / 'python'}"
    config = (built.tool_dir / "frame-spine-lookup" / "pyvenv.cfg").read_text("utf-8")
    assert "include-system-site-packages = false" in config.splitlines()


def test_installed_command_prints_the_wheel_version(built: Built) -> None:
    version = wheel_metadata(built.wheel)["Version"]
    assert run([built.command, "--version"]) == f"frame-spine {version}\n"


def test_installed_command_runs_the_demo_lookup(built: Built) -> None:
    output = run([built.command, *DEMO_ARGS], env=clean_env(PATH=os.defpath))
    assert output.splitlines()[: len(DEMO_FIRST_LINES)] == DEMO_FIRST_LINES
