"""docs/agents.md, its tables: the first keys of each status's JSON as the doc lists them are
the keys the command prints, in that order; the network failures the "what to do" table tells
an agent to retry are worded as the command words them.

Local bodies (``examples/``, edited per case) for the key table; the loopback fake, a closed
port and a slow answer for the network failures.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.fake_github import FakeGitHub, error
from tests.in_process import run_cli_in_process
from tests.test_agents_doc import (
    DOC,
    EXAMPLE_VALUES,
    EXAMPLES,
    PLAN_ID,
    serve_example_plan,
    snippet_env,
)

TS = "2026-07-18T22:20:00Z"
DIGEST = "sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a"


def key_table() -> list[tuple[str, list[str]]]:
    """The rows of "The JSON" table: the status cell and the listed keys."""
    text = DOC.read_text("utf-8").split("## The JSON", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    table = []
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        table.append((cells[0], re.findall(r"`([a-z_]+)`", cells[1])))
    return table


def bodies(tmp_path: Path, *, plan_ts: str = TS, stamp: str = TS, twice: bool = False) -> list[str]:
    """``--plan-body`` and ``--slices-body`` flags for the example plan and sibling, with the
    spine's ``generated_at``, the sibling's stamp, and a second s1 block when ``twice``."""
    plan = (
        (EXAMPLES / "plan-878.md")
        .read_text("utf-8")
        .replace(f"generated_at: {TS}", f"generated_at: {plan_ts}")
    )
    sibling = (EXAMPLES / "sibling-878.md").read_text("utf-8")
    sibling = sibling.replace(f"generated-at: {TS}", f"generated-at: {stamp}")
    if twice:
        sibling += "\n" + sibling[sibling.index("<!-- frame-slice\n") :]
    (tmp_path / "plan.md").write_text(plan, "utf-8")
    (tmp_path / "sibling.md").write_text(sibling, "utf-8")
    return ["--plan-body", str(tmp_path / "plan.md"), "--slices-body", str(tmp_path / "sibling.md")]


#: For each row of the table, in order: what makes the status (bodies, then dispatch flags).
CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("ok", {}, ["--step-id", "s1", "--generated-at", TS]),
    ("stale-spine", {}, ["--step-id", "s1", "--generated-at", "2026-07-18T21:05:00Z"]),
    ("stale-spine", {"stamp": "2026-07-18T22:00:00Z"}, ["--step-id", "s1", "--generated-at", TS]),
    ("sibling-unstamped", {"stamp": "yesterday"}, ["--step-id", "s1", "--generated-at", TS]),
    ("missing-slice", {}, ["--step-id", "s2", "--generated-at", TS]),
    ("duplicate-slice-id", {"twice": True}, ["--step-id", "s1", "--generated-at", TS]),
    ("error", {}, ["--step-id", "step-one", "--generated-at", TS]),
]


def test_the_key_table_has_a_row_per_case() -> None:
    cells = [status for status, _ in key_table()]
    assert cells == [f"`{s}`" for s, _, _ in CASES[:-1]] + ["every other status"]


@pytest.mark.parametrize("row", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_the_json_starts_with_the_keys_the_doc_lists(row: int, tmp_path: Path) -> None:
    status, body_options, dispatch = CASES[row]
    keys = key_table()[row][1]
    argv = ["lookup", *bodies(tmp_path, **body_options), "--format", "json"]
    if "--issue-number" not in dispatch:
        argv += ["--issue-number", "878"]
    ran = run_cli_in_process(argv + dispatch)
    result = json.loads(ran.stdout)
    assert result["status"] == status
    assert list(result)[: len(keys)] == keys


def test_generated_at_elided_follows_the_ok_keys(tmp_path: Path) -> None:
    """The ok row's note: a plan re-emitted with only a new ``generated_at`` is ``ok`` with
    ``generated_at_elided: true`` after the listed keys, given the dispatched digest."""
    later = "2026-07-18T23:00:00Z"
    argv = ["lookup", *bodies(tmp_path, plan_ts=later, stamp=later), "--issue-number", "878"]
    argv += ["--step-id", "s1", "--generated-at", TS, "--spine-digest", DIGEST, "--format", "json"]
    result = json.loads(run_cli_in_process(argv).stdout)
    keys = key_table()[0][1]
    assert list(result)[: len(keys)] == keys
    assert (result["status"], result["generated_at"], result["generated_at_elided"]) == (
        "ok",
        TS,
        True,
    )


def status_row(status: str) -> str:
    """The doc's "What to do" table row for ``status``."""
    rows = [
        line for line in DOC.read_text("utf-8").splitlines() if line.startswith(f"| `{status}`")
    ]
    assert len(rows) == 1
    return rows[0]


@pytest.mark.sockets  # a closed port and a deadline: only a socket shows them
def test_network_errors_say_what_the_doc_tells_agents_to_retry(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    """The ``error`` row names three network failures an agent retries once: each is what the
    command prints for it (5xx three times, no connection, a timeout: ``--timeout 1`` here)."""

    row = status_row("error")
    fragments = re.findall(r"`([^`]+)`", row.split("A network failure", 1)[1].split(":", 1)[0])
    assert fragments == [
        "cannot reach the GitHub API after three attempts",
        "HTTP 502 three times",
        "did not answer within 10 s",
    ]
    serve_example_plan(fake_github)
    fake_github.script(
        PLAN_ID, error(502, "Bad Gateway"), error(502, "Bad Gateway"), error(502, "Bad Gateway")
    )
    closed = socket_port_without_server()
    runs = {
        fragments[0]: ([], f"http://127.0.0.1:{closed}"),
        fragments[1]: ([], fake_github.url),
        "did not answer within 1 s": (["--timeout", "1"], fake_github.url),
    }
    for fragment, (extra, api_url) in runs.items():
        if fragment.startswith("did not"):
            fake_github.latency = 2.0
        argv = ["lookup", "--api-url", api_url, *_flags(EXAMPLE_VALUES), *extra, "--format", "json"]
        ran = run_cli_in_process(argv, env=snippet_env(fake_github, token=True))
        result = json.loads(ran.stdout)
        assert (result["status"], ran.returncode) == ("error", 1)
        assert fragment in result["message"]


def _flags(values: dict[str, str]) -> list[str]:
    return [part for flag, value in values.items() for part in (flag, value)]


def socket_port_without_server() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
