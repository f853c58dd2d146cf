"""Writing files in the workspace (SPEC 8), on the real file system: the path rules the
entrypoint tests do not reach, the atomic rename, and the output filter on file content."""

from __future__ import annotations

import os
import socket
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
        f"slice-file {too_deep[:120]!r}… is 65 path components deep; at most 64 are allowed"
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
