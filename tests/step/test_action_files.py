"""Files the action writes in the workspace (SPEC 8), through the entrypoint: ownership,
atomic writes, refused targets (for ``slice-file`` and ``report-file``), and text that
cannot be encoded."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.in_process import run_action_in_process
from tests.modes.audit.repo import STAMP as AUDIT_STAMP
from tests.modes.audit.repo import plan as audit_plan
from tests.modes.audit.repo import sibling as audit_sibling
from tests.modes.audit.repo import spine as audit_spine
from tests.runner_env import ActionRun, run_action
from tests.test_action import (
    DIGEST,
    S1,
    SIBLING,
    SPLIT_INPUTS,
    STAMP,
    fixed_line,
    serve,
)

FILE_INPUTS = ("slice-file", "report-file")
RUNNER = (1001, 1001)  # the runner user who owns the workspace on a self-hosted runner
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="changing owners needs root")


def prepare(fake: FakeGitHub, name: str) -> dict[str, str]:
    """Serve what a run writing ``name`` needs: a lookup of s1, or an audit of one fresh plan."""
    if name == "slice-file":
        serve(fake)
        return dict(SPLIT_INPUTS)
    fake.add_comment(11, audit_plan(5, audit_spine(12)), 5)
    fake.add_comment(12, audit_sibling(5, AUDIT_STAMP), 5)
    return {"mode": "audit", "issue-state": "all"}


def run_writing(
    fake: FakeGitHub,
    tmp_path: Path,
    name: str,
    path: str,
    command_prefix: tuple[str, ...] = (),
) -> ActionRun:
    """The entrypoint writing ``path`` to the file input ``name``: in this process, or as a
    process run through ``command_prefix`` when one is given (a capability dropped)."""
    inputs = {**prepare(fake, name), name: path}
    if not command_prefix:
        return run_action_in_process(
            tmp_path, inputs, api_url=fake.url, token=TOKEN, repository=REPO
        )
    return run_action(
        tmp_path,
        inputs,
        api_url=fake.url,
        token=TOKEN,
        repository=REPO,
        timeout=60,
        command_prefix=command_prefix,
    )


def owners(workspace: Path) -> dict[str, tuple[int, int]]:
    """Every entry under the workspace (temporary files included) and its uid and gid."""
    found = {}
    for path in sorted(workspace.rglob("*")):
        info = path.lstat()
        found[path.relative_to(workspace).as_posix()] = (info.st_uid, info.st_gid)
    return found


def assert_written(run: ActionRun, name: str, path: str) -> None:
    target = run.workspace / path
    if name == "slice-file":
        assert (run.outputs["status"], run.outputs["slice-path"]) == ("ok", path)
        assert target.read_text("utf-8") == S1
    else:
        assert (run.outputs["status"], run.outputs["report-path"]) == ("clean", path)
        assert json.loads(target.read_text("utf-8")) == json.loads(run.outputs["result"])


@as_root
@pytest.mark.parametrize("name", FILE_INPUTS)
def test_created_files_and_folders_belong_to_the_workspace_owner(
    fake_github: FakeGitHub, tmp_path: Path, name: str
) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "kept").mkdir(parents=True)  # an existing folder keeps its owner (root)
    os.chown(workspace, *RUNNER)
    run = run_writing(fake_github, tmp_path, name, "kept/frame/s1/out.md")
    assert (run.returncode, run.stderr) == (0, "")
    assert_written(run, name, "kept/frame/s1/out.md")
    assert owners(workspace) == {
        "kept": (0, 0),
        "kept/frame": RUNNER,
        "kept/frame/s1": RUNNER,
        "kept/frame/s1/out.md": RUNNER,
    }


@as_root
def test_a_replaced_file_belongs_to_the_workspace_owner(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "s1.md").write_text("an older slice\n")  # root's, from an earlier run
    os.chown(workspace, *RUNNER)
    run = run_writing(fake_github, tmp_path, "slice-file", "s1.md")
    assert_written(run, "slice-file", "s1.md")
    assert owners(workspace) == {"s1.md": RUNNER}
    assert stat.S_IMODE((workspace / "s1.md").stat().st_mode) == 0o644


@as_root
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv (util-linux)")
def test_without_the_right_to_chown_files_keep_the_process_owner_silently(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    os.chown(workspace, *RUNNER)
    run = run_writing(
        fake_github,
        tmp_path,
        "slice-file",
        "frame/s1.md",
        command_prefix=("setpriv", "--inh-caps=-chown", "--bounding-set=-chown"),
    )
    assert (run.returncode, run.stderr, run.stdout) == (0, "", fixed_line("ok", 0))
    assert_written(run, "slice-file", "frame/s1.md")
    assert owners(workspace) == {"frame": (0, 0), "frame/s1.md": (0, 0)}


def test_a_failing_write_leaves_no_partial_file(fake_github: FakeGitHub, tmp_path: Path) -> None:
    # A slice over the output limit goes to slice-file only; a file size limit of 1,000,000
    # bytes makes the write fail half-way (EFBIG), as a full disk would.
    filler = "x" * 1_200_000
    serve(fake_github, SIBLING.replace("step_id: s1\n", f"step_id: s1\nfiller: {filler}\n"))
    workspace = tmp_path / "workspace"
    (workspace / "out").mkdir(parents=True)
    (workspace / "out" / "s1.md").write_text("the previous slice\n")
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "slice-file": "out/s1.md", "job-summary": "false"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        file_size_limit=1_000_000,
    )
    message = "cannot write slice-file 'out/s1.md': File too large"
    assert (run.returncode, run.outputs["status"], run.outputs["message"]) == (1, "error", message)
    assert sorted(os.listdir(workspace / "out")) == ["s1.md"]
    assert (workspace / "out" / "s1.md").read_text() == "the previous slice\n"
    assert (run.outputs["slice"], run.outputs["slice-path"]) == ("", "")
    assert (run.outputs["step-id"], run.outputs["spine-digest"]) == ("s1", DIGEST)


@pytest.mark.parametrize(
    ("path", "existing", "left"),
    [
        (".frame/deep/s1.md", (), []),
        ("out/new/deeper/s1.md", ("out",), ["out", "out/s1.md"]),
    ],
    ids=["all-new", "one-existed"],
)
def test_a_failing_write_leaves_no_directory_it_created(
    fake_github: FakeGitHub, tmp_path: Path, path: str, existing: tuple[str, ...], left: list[str]
) -> None:
    # As above: the write fails half-way (EFBIG, as ENOSPC would) after the folders are made.
    filler = "x" * 1_200_000
    serve(fake_github, SIBLING.replace("step_id: s1\n", f"step_id: s1\nfiller: {filler}\n"))
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    for folder in existing:
        (workspace / folder).mkdir()
        (workspace / folder / "s1.md").write_text("kept\n")
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "slice-file": path, "job-summary": "false"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        file_size_limit=1_000_000,
    )
    message = f"cannot write slice-file {path!r}: File too large"
    assert (run.returncode, run.outputs["status"], run.outputs["message"]) == (1, "error", message)
    assert sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*")) == left


@pytest.mark.parametrize("name", FILE_INPUTS)
def test_a_write_failing_after_its_folders_are_made_removes_them(
    fake_github: FakeGitHub, tmp_path: Path, name: str
) -> None:
    path = ".frame/deep/" + "x" * 300 + ".md"  # a file name longer than 255 bytes
    workspace = tmp_path / "workspace"
    (workspace / ".frame").mkdir(parents=True)
    run = run_writing(fake_github, tmp_path, name, path)
    message = f"cannot write {name} {path[:117] + '...'!r}: File name too long"
    assert (run.returncode, run.outputs["status"], run.outputs["message"]) == (1, "error", message)
    assert list(owners(workspace)) == [".frame"]  # it existed; deep/ did not, and is gone


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_device(path: Path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # like /dev/null
    except PermissionError:
        pytest.skip("mknod is not permitted here")


def make_loop(path: Path) -> None:
    path.symlink_to(path.parent / "loop-b")
    (path.parent / "loop-b").symlink_to(path)


def make_outside_link(path: Path) -> None:
    outside = path.parent.parent / "elsewhere"
    outside.mkdir()
    path.symlink_to(outside)


def make_outside_file_link(path: Path) -> None:
    outside = path.parent.parent / "elsewhere.md"
    outside.write_text("not the action's\n")
    path.symlink_to(outside)


DEEP = "/".join(["d"] * 2000) + "/out.md"
#: kind -> (what to make at workspace/"target", the input's path, the message after the name)
REFUSALS = {
    "directory": (Path.mkdir, "target", "'target' exists and is a directory, not a regular file"),
    "fifo": (make_fifo, "target", "'target' exists and is a FIFO, not a regular file"),
    "device": (make_device, "target", "'target' exists and is a device, not a regular file"),
    "symlink-loop": (make_loop, "target", "'target' is a symbolic-link loop"),
    "symlink-loop-on-the-way": (
        make_loop,
        "target/out.md",
        "'target/out.md' goes through a symbolic-link loop",
    ),
    "symlink-out-of-the-workspace": (
        make_outside_link,
        "target/out.md",
        "'target/out.md' resolves outside the workspace",
    ),
    "file-symlink-out-of-the-workspace": (
        make_outside_file_link,
        "target",
        "'target' resolves outside the workspace",
    ),
    "through-a-file": (
        Path.touch,
        "target/out.md",
        "'target/out.md' goes through 'target', which is a regular file, not a directory",
    ),
    "2000-folders-deep": (
        None,
        DEEP,
        f"{DEEP[:117] + '...'!r} is 2001 path components deep; at most 64 are allowed",
    ),
}


@pytest.mark.parametrize("kind", list(REFUSALS))
@pytest.mark.parametrize("name", FILE_INPUTS)
def test_refused_targets_are_errors_with_every_other_output_set(
    fake_github: FakeGitHub, tmp_path: Path, name: str, kind: str
) -> None:
    make, path, reason = REFUSALS[kind]
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    if make is not None:
        make(workspace / "target")
    before = owners(workspace)
    run = run_writing(fake_github, tmp_path, name, path)  # a FIFO hung here before: 60 s cap
    message = f"{name} {reason}"
    assert (run.returncode, run.stderr) == (1, "")
    assert (run.outputs["status"], run.outputs["exit-code"], run.outputs["message"]) == (
        "error",
        "1",
        message,
    )
    assert owners(workspace) == before  # nothing created, nothing opened
    result = json.loads(run.outputs["result"])
    if name == "slice-file":
        assert {k: run.outputs[k] for k in ("slice", "slice-path", "step-id", "spine-digest")} == {
            "slice": S1,
            "slice-path": "",
            "step-id": "s1",
            "spine-digest": DIGEST,
        }
        assert [run.outputs[k] for k in ("generated-at", "current-generated-at")] == [STAMP] * 2
        assert result == {
            "status": "error",
            "message": message,
            "spine_digest": DIGEST,
            "current_generated_at": STAMP,
            "sibling_generated_at": STAMP,
        }
    else:
        assert (run.outputs["report-path"], run.outputs["count-fresh"]) == ("", "1")
        assert (result["status"], result["message"], len(result["plans"])) == (
            "error",
            message,
            1,
        )
    assert run.stdout.splitlines()[-1].startswith("::error title=frame-spine ")


def test_symbolic_links_inside_the_workspace_are_followed(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "real").mkdir(parents=True)
    (workspace / "link").symlink_to("real")
    run = run_writing(fake_github, tmp_path, "slice-file", "link/s1.md")
    assert (run.outputs["status"], run.outputs["slice-path"]) == ("ok", "real/s1.md")
    assert (workspace / "real" / "s1.md").read_text("utf-8") == S1


def test_lone_surrogates_are_written_as_replacement_characters(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    # The fake serves JSON with "\ud800" escapes, as GitHub may for broken text.
    serve(fake_github, SIBLING.replace("step_id: s1\n", "step_id: s1\nbad: \ud800 and \udfff\n"))
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "slice-file": "out/s1.md"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    expected = S1.replace("step_id: s1\n", "step_id: s1\nbad: \ufffd and \ufffd\n")
    assert (run.returncode, run.outputs["status"]) == (0, "ok")  # every text read as strict UTF-8
    assert run.outputs["slice"] == expected
    assert json.loads(run.outputs["result"])["slice"] == expected
    assert (run.workspace / "out" / "s1.md").read_bytes() == expected.encode("utf-8")
    assert f"```text\n{expected}\n```" in run.summary
