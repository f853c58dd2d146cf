"""Writing files in the workspace (SPEC 8), on the real file system: the path rules the
entrypoint tests do not reach, the atomic rename, and the output filter on file content."""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

from frame_spine.github.auth import Redactor
from frame_spine.step.emitted import EmittedText
from frame_spine.step.workspace import MAX_COMPONENTS, WriteRefused, write_in_workspace

PLAIN = EmittedText(Redactor())


def write(workspace: Path, relative: str, text: str = "text\n") -> str | WriteRefused:
    return write_in_workspace(
        str(workspace), relative, text, input_name="slice-file", emitted=PLAIN
    )


def entries(workspace: Path) -> list[str]:
    return sorted(path.relative_to(workspace).as_posix() for path in workspace.rglob("*"))


def test_a_path_of_64_components_is_written_and_65_is_refused(tmp_path: Path) -> None:
    deepest = "/".join(["d"] * (MAX_COMPONENTS - 1)) + "/s1.md"
    assert write(tmp_path, deepest) == deepest
    assert (tmp_path / deepest).read_text() == "text\n"
    too_deep = "e/" + deepest
    assert write(tmp_path, too_deep) == WriteRefused(
        f"slice-file {too_deep[:117] + '...'!r} is 65 path components deep; at most 64 are allowed"
    )
    assert not (tmp_path / "e").exists()


def test_the_workspace_itself_is_refused(tmp_path: Path) -> None:
    assert write(tmp_path, ".") == WriteRefused(
        "slice-file '.' names the workspace itself, not a file"
    )


def test_a_broken_symbolic_link_on_the_way_is_refused(tmp_path: Path) -> None:
    (tmp_path / "gone").symlink_to("nowhere")
    assert write(tmp_path, "gone/s1.md") == WriteRefused(
        "slice-file 'gone/s1.md' goes through a broken symbolic link"
    )
    assert entries(tmp_path) == ["gone"]


def test_a_socket_target_is_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s1.md"))
        assert write(tmp_path, "s1.md") == WriteRefused(
            "slice-file 's1.md' exists and is a socket, not a regular file"
        )


def test_an_existing_file_is_replaced_by_a_rename(tmp_path: Path) -> None:
    (tmp_path / "s1.md").write_text("old\n")
    os.link(tmp_path / "s1.md", tmp_path / "old-link")  # still names the old file afterwards
    assert write(tmp_path, "s1.md", "new\n") == "s1.md"
    assert (tmp_path / "s1.md").read_text() == "new\n"
    assert (tmp_path / "old-link").read_text() == "old\n"
    assert entries(tmp_path) == ["old-link", "s1.md"]  # no temporary file left


def test_a_dangling_link_inside_the_workspace_is_written_through(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "s1.md").symlink_to("real/s1.md")
    assert write(tmp_path, "s1.md") == "real/s1.md"
    assert (tmp_path / "real" / "s1.md").read_text() == "text\n"
    assert (tmp_path / "s1.md").is_symlink()


def test_file_content_passes_the_output_filter(tmp_path: Path) -> None:
    emitted = EmittedText(Redactor("ghs_secret0123456789"))
    written = write_in_workspace(
        str(tmp_path),
        "s1.md",
        "token ghs_secret0123456789 and \ud800\n",
        input_name="slice-file",
        emitted=emitted,
    )
    assert written == "s1.md"
    assert (tmp_path / "s1.md").read_bytes() == "token *** and \ufffd\n".encode()


def test_an_unusable_workspace_is_a_message(tmp_path: Path) -> None:
    assert write_in_workspace(
        str(tmp_path / "missing"), "s1.md", "x", input_name="report-file", emitted=PLAIN
    ) == WriteRefused("cannot write report-file 's1.md': No such file or directory")


# ---- a failed write leaves no directory it created (SPEC 8) --------------------------------

LONG = "x" * 300  # longer than a file name may be (255 bytes): the write fails after mkdir


def test_a_write_failing_after_its_directories_are_made_removes_them(tmp_path: Path) -> None:
    relative = f".frame/deep/{LONG}.md"
    assert write(tmp_path, relative) == WriteRefused(
        f"cannot write slice-file {relative[:117] + '...'!r}: File name too long"
    )
    assert entries(tmp_path) == []


def test_directories_that_existed_are_kept(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "old.md").write_text("old\n")
    relative = f"out/new/deeper/{LONG}.md"
    assert write(tmp_path, relative) == WriteRefused(
        f"cannot write slice-file {relative[:117] + '...'!r}: File name too long"
    )
    assert entries(tmp_path) == ["out", "out/old.md"]


def test_a_directory_failing_to_be_made_takes_the_ones_before_it_along(tmp_path: Path) -> None:
    relative = f"new/{LONG}/s1.md"
    assert write(tmp_path, relative) == WriteRefused(
        f"cannot write slice-file {relative[:117] + '...'!r}: File name too long"
    )
    assert entries(tmp_path) == []


CHILD = """
import json, sys
from frame_spine.github.auth import Redactor
from frame_spine.step.emitted import EmittedText
from frame_spine.step.workspace import write_in_workspace
written = write_in_workspace(
    sys.argv[1], sys.argv[2], "x" * 100_000, input_name="report-file",
    emitted=EmittedText(Redactor()),
)
print(json.dumps(written if isinstance(written, str) else written.message))
"""


def test_a_write_cut_short_by_a_full_disk_removes_its_directories(tmp_path: Path) -> None:
    # A file size limit makes the write itself fail half-way (EFBIG), as a full disk would
    # (ENOSPC); only a process can carry the limit.
    (tmp_path / "out").mkdir()

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    completed = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path), "out/new/deeper/audit.json"],
        capture_output=True,
        check=True,
        timeout=60,
        preexec_fn=limit,
    )
    assert json.loads(completed.stdout) == (
        "cannot write report-file 'out/new/deeper/audit.json': File too large"
    )
    assert entries(tmp_path) == ["out"]
