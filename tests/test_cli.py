"""The `frame-spine` command line (SPEC 9).

Most checks run ``frame_spine.cli.main`` in this process (tests.in_process: the same argv,
environment, stdin, stdout and stderr bytes and exit code); what only a process shows runs
the installed command: a JSON lookup exiting 0 and 1, stdin, the text format's bytes, a
usage error's exit 2, ``--version``, the fenced text in a GitHub job, stderr's one-line
arguments, and the modules a command loads."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CASES_DIR, REPO, clean_env, run_cli
from tests.in_process import run_cli_in_process

PLAN = REPO / "examples" / "plan-878.md"
SIBLING = REPO / "examples" / "sibling-878.md"
SINGLE = CASES_DIR / "ok-single-comment" / "plan.md"
STAMP = "2026-07-18T22:20:00Z"
EXAMPLE = [
    "lookup",
    "--plan-body",
    str(PLAN),
    "--slices-body",
    str(SIBLING),
    "--issue-number",
    "878",
    "--generated-at",
    STAMP,
    "--step-id",
    "s1",
]
DIGEST_878 = "sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a"
DIGEST_863 = "sha256:4a7555cc61a445f2074e43361fde049b75f44737b170ac4c6d6a500c4ee0df2e"


def json_result(
    args: list[str], stdin: bytes | None = None, *, process: bool = False
) -> tuple[dict[str, object], int]:
    """The JSON result and exit code of ``frame-spine ARGS --format json``: in this process,
    or by the installed command when ``process``."""
    run = run_cli if process else run_cli_in_process
    completed = run([*args, "--format", "json"], stdin=stdin)
    assert completed.stderr == b""
    lines = completed.stdout.decode("utf-8").split("\n")
    assert len(lines) == 2 and lines[1] == ""
    return json.loads(lines[0]), completed.returncode


def lookup_args(plan: Path | str, step: str = "s2", at: str = "2026-05-04T14:30:00Z") -> list[str]:
    return ["lookup", "--plan-body", str(plan), "--generated-at", at, "--step-id", step]


def test_example_lookup_is_ok_with_the_real_slice() -> None:
    result, code = json_result(EXAMPLE, process=True)
    assert code == 0
    assert list(result) == [
        "status",
        "step_id",
        "generated_at",
        "slice",
        "spine_digest",
        "current_generated_at",
        "sibling_generated_at",
    ]
    assert result["status"] == "ok"
    assert result["spine_digest"] == DIGEST_878
    assert result["sibling_generated_at"] == STAMP
    assert str(result["slice"]).startswith("step_id: s1\ncommit-index: 1\n")
    assert str(result["slice"]).endswith("no review-judgment PR-surface emission work.")


def test_example_other_step_is_missing_slice() -> None:
    args = [*EXAMPLE[:-1], "s2"]
    result, code = json_result(args, process=True)
    assert (code, result["status"], result["step_id"]) == (1, "missing-slice", "s2")
    assert result["message"] == (
        "step s2 is in the spine but no frame-slice block for it is in "
        "the plan comment or its sibling"
    )


def test_text_is_the_default_format() -> None:
    completed = run_cli(EXAMPLE)
    assert completed.returncode == 0
    text = completed.stdout.decode("utf-8")
    assert text.startswith("status: ok\nstep_id: s1\nslice: |\n  step_id: s1\n  commit-index: 1\n")
    assert text.endswith(
        "\n    Non-goals: no source edits; no review-judgment PR-surface emission work.\n"
    )


def test_text_of_a_non_ok_status_has_fixed_keys_then_message() -> None:
    completed = run_cli_in_process([*EXAMPLE[:-3], "2026-07-18T21:00:00Z", "--step-id", "s1"])
    assert completed.returncode == 0
    assert completed.stdout.decode() == (
        "status: stale-spine\n"
        "dispatched_generated_at: 2026-07-18T21:00:00Z\n"
        "current_generated_at: 2026-07-18T22:20:00Z\n"
        "message: the spine's generated_at is 2026-07-18T22:20:00Z, not the dispatched "
        "2026-07-18T21:00:00Z: the plan changed after this step was dispatched; re-dispatch it "
        "from the current spine\n"
    )


def test_plan_body_from_stdin() -> None:
    result, code = json_result(lookup_args("-"), stdin=SINGLE.read_bytes(), process=True)
    assert (code, result["status"], result["step_id"]) == (0, "ok", "s2")


def test_single_body_from_stdin_and_path() -> None:
    body = (CASES_DIR / "ok-single-body" / "body.md").read_bytes()
    common = ["--generated-at", "2026-05-04T14:30:00Z", "--step-id", "s2"]
    from_stdin, code = json_result(["lookup", "--comment-body-stdin", *common], stdin=body)
    assert (code, from_stdin["status"]) == (0, "ok")
    path = str(CASES_DIR / "ok-single-body" / "body.md")
    from_path, code = json_result(["lookup", "--comment-body-path", path, *common])
    assert from_path == from_stdin


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--step-id", "step-2"],
            "--step-id 'step-2' is not a step id (expected s<digits>, e.g. s4)",
        ),
        (["--step-id", ""], "--step-id '' is not a step id (expected s<digits>, e.g. s4)"),
        (
            ["--generated-at", "2026-05-04 14:30:00"],
            "--generated-at '2026-05-04 14:30:00' is not a timestamp "
            "(expected YYYY-MM-DDTHH:MM:SS[.fraction]Z, or 'current')",
        ),
        (
            ["--generated-at", "2026-02-30T00:00:00Z"],
            "--generated-at '2026-02-30T00:00:00Z' is not a timestamp "
            "(expected YYYY-MM-DDTHH:MM:SS[.fraction]Z, or 'current')",
        ),
        (
            ["--spine-digest", "sha256:1234"],
            "--spine-digest 'sha256:1234' is not a digest (expected sha256:<64 hex digits>)",
        ),
        (["--issue-number", "abc"], "--issue-number 'abc' is not a positive integer"),
        (["--issue-number", "0"], "--issue-number '0' is not a positive integer"),
        (["--issue-number", "-5"], "--issue-number '-5' is not a positive integer"),
    ],
)
def test_malformed_values_are_error_statuses(extra: list[str], message: str) -> None:
    args = ["lookup", "--plan-body", str(SINGLE), "--generated-at", "current", "--step-id", "s2"]
    result, code = json_result([*args, *extra])
    assert (result, code) == ({"status": "error", "message": message}, 1)


def test_sibling_without_issue_number_is_an_error() -> None:
    args = [*lookup_args(PLAN, "s1", STAMP), "--slices-body", str(SIBLING)]
    result, code = json_result(args)
    assert code == 1
    assert result == {
        "status": "error",
        "message": "a sibling comment was supplied without an issue number: "
        "--issue-number is required to check the sibling's identity",
    }


def test_missing_file_directory_and_non_utf8(tmp_path: Path) -> None:
    missing = tmp_path / "nope.md"
    result, code = json_result(lookup_args(missing))
    assert (result, code) == (
        {
            "status": "error",
            "message": f"cannot read --plan-body '{missing}': No such file or directory",
        },
        1,
    )
    result, code = json_result(lookup_args(tmp_path))
    assert (result, code) == (
        {"status": "error", "message": f"cannot read --plan-body '{tmp_path}': Is a directory"},
        1,
    )
    latin = tmp_path / "latin1.md"
    latin.write_bytes(b"<!-- plan-issue-1 -->\ncaf\xe9\n")
    result, code = json_result(lookup_args(latin))
    assert (result, code) == (
        {
            "status": "error",
            "message": f"--plan-body '{latin}' is not UTF-8 text (byte 0xe9 at offset 25)",
        },
        1,
    )
    args = [*lookup_args(PLAN, "s1", STAMP), "--issue-number", "878", "--slices-body", str(missing)]
    result, code = json_result(args)
    assert result["message"] == f"cannot read --slices-body '{missing}': No such file or directory"


def test_empty_body_is_missing_spine_not_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    result, code = json_result(lookup_args(empty))
    assert (result, code) == (
        {"status": "missing-spine", "message": "no frame-spine block: the comment body is empty"},
        1,
    )


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (
            ["lookup", "--plan-body", "x", "--step-id", "s1"],
            "the following arguments are required: --generated-at",
        ),
        (
            ["lookup", "--plan-body", "x", "--generated-at", "current"],
            "the following arguments are required: --step-id",
        ),
        ([*lookup_args("x"), "--bogus"], "unknown flag --bogus"),
        (
            ["lookup", "--generated-at", "current", "--step-id", "s1"],
            "lookup needs one of --plan-body, --comment-body-path, --comment-body-stdin or "
            "--plan-comment-id (with --repo, or in a checkout whose origin is on GitHub)",
        ),
        (
            [*lookup_args("x"), "--comment-body-path", "y"],
            "--plan-body and --comment-body-path cannot be combined",
        ),
        (
            [
                "lookup",
                "--comment-body-path",
                "y",
                "--slices-body",
                "z",
                "--generated-at",
                "current",
                "--step-id",
                "s1",
            ],
            "--slices-body needs --plan-body",
        ),
        (
            [*lookup_args("x"), "--plan-comment-id", "5"],
            "--plan-body and --plan-comment-id cannot be combined: choose one source",
        ),
        (
            [
                "lookup",
                "--comment-body-stdin",
                "--api-url",
                "http://127.0.0.1:9",
                "--step-id",
                "s1",
                "--generated-at",
                "current",
            ],
            "--comment-body-stdin and --api-url cannot be combined: choose one source",
        ),
        ([*lookup_args("x"), "--format", "yaml"], "argument --format: invalid choice: 'yaml'"),
        (["digest"], "the following arguments are required: --plan-body"),
        ([], "the following arguments are required: COMMAND"),
        (["audit-everything"], "invalid choice: 'audit-everything'"),
    ],
)
def test_usage_errors_exit_2(args: list[str], complaint: str) -> None:
    check_usage_error(run_cli_in_process, args, complaint)


def test_a_usage_error_exits_2_from_the_installed_command() -> None:
    check_usage_error(run_cli, ["lookup", "--plan-body", "x", "--step-id", "s1"], "--generated-at")


def check_usage_error(
    run: Callable[[list[str]], subprocess.CompletedProcess[bytes]], args: list[str], complaint: str
) -> None:
    completed = run(args)
    assert completed.returncode == 2
    assert completed.stdout == b""
    stderr = completed.stderr.decode()
    assert stderr.startswith("usage: frame-spine")
    assert complaint in stderr
    assert "Traceback" not in stderr


def test_digest_text_and_json() -> None:
    completed = run_cli(["digest", "--plan-body", str(PLAN)])
    assert (completed.returncode, completed.stdout) == (0, (DIGEST_878 + "\n").encode())
    result, code = json_result(["digest", "--plan-body", str(PLAN)])
    assert (result, code) == (
        {"status": "ok", "spine_digest": DIGEST_878, "generated_at": STAMP},
        0,
    )
    digest_case = CASES_DIR / "ok-digest-elides-timestamp" / "plan.md"
    completed = run_cli_in_process(["digest", "--plan-body", "-"], stdin=digest_case.read_bytes())
    assert completed.stdout == (DIGEST_863 + "\n").encode()


def test_digest_without_a_single_spine_reports_the_lookup_status() -> None:
    two = CASES_DIR / "invalid-spine-two-spines" / "plan.md"
    result, code = json_result(["digest", "--plan-body", str(two)])
    assert (result, code) == (
        {
            "status": "invalid-spine",
            "message": "2 frame-spine blocks (line 7 of the plan comment, line 22 of the plan "
            "comment); exactly one is allowed",
        },
        1,
    )
    completed = run_cli_in_process(
        ["digest", "--plan-body", str(CASES_DIR / "missing-spine-prose" / "plan.md")]
    )
    assert completed.returncode == 1
    assert completed.stdout.decode() == (
        "status: missing-spine\nmessage: no frame-spine block in the plan comment\n"
    )


INJECTED = (
    "<!-- plan-issue-5 -->\n<!-- frame-spine\nspine_schema_version: 2\n"
    "generated_at: 2026-05-04T14:30:00Z\nports:\n  p: [s1]\nslices:\n  s1:\n"
    "    ac_refs: []\n    depends_on: []\n    cycle: 1\n-->\n<!-- frame-slice -->\n"
    "step_id: s1\n::error::pwned\n##[error]pwned\n::set-output name=status::ok\n-->\n"
)


def test_text_output_in_a_github_job_is_fenced_by_stop_commands(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text(INJECTED)
    args = lookup_args(plan, "s1")
    completed = run_cli(args, env=clean_env(GITHUB_ACTIONS="true"))
    lines = completed.stdout.decode().split("\n")
    start = re.fullmatch(r"::stop-commands::([0-9a-f]{32})", lines[0])
    assert start is not None
    assert lines[1:] == [
        "status: ok",
        "step_id: s1",
        "slice: |",
        "  step_id: s1",
        "  ::error::pwned",
        "  ##[error]pwned",
        "  ::set-output name=status::ok",
        f"::{start.group(1)}::",
        "",
    ]
    # Outside a GitHub job the text is printed as is.
    assert run_cli_in_process(args).stdout.decode().startswith("status: ok\nstep_id: s1\n")


def test_json_output_never_carries_a_workflow_command(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text(INJECTED)
    completed = run_cli_in_process([*lookup_args(plan, "s1"), "--format", "json"])
    stdout = completed.stdout.decode()
    assert "::" not in stdout and "##[" not in stdout
    assert json.loads(stdout)["slice"] == (
        "step_id: s1\n::error::pwned\n##[error]pwned\n::set-output name=status::ok"
    )


def test_huge_digit_runs_are_statuses_not_crashes(tmp_path: Path) -> None:
    huge = "9" * 5000
    body = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
    marked = tmp_path / "marked.md"
    marked.write_text(body.replace("<!-- plan-issue-863 -->", f"<!-- plan-issue-{huge} -->"))
    result, code = json_result([*lookup_args(marked), "--issue-number", "863"])
    assert (result["status"], code) == ("plan-identity-mismatch", 1)
    assert (
        result["message"]
        == f"the plan comment is for issue #{huge[:117]}... (a plan-issue marker line), not #863"
    )
    cycle = tmp_path / "cycle.md"
    cycle.write_text(body.replace("    cycle: 1", f"    cycle: {huge}"))
    result, code = json_result(lookup_args(cycle))
    assert (result["status"], code) == ("invalid-spine", 1)
    result, code = json_result([*lookup_args(marked), "--issue-number", huge])
    assert result == {
        "status": "error",
        "message": f"--issue-number '{huge[:117]}...' is not a positive integer",
    }


def test_leading_zeros_do_not_name_the_issue(tmp_path: Path) -> None:
    body = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
    plan = tmp_path / "plan.md"
    plan.write_text(body.replace("<!-- plan-issue-863 -->", "<!-- plan-issue-0863 -->"))
    result, code = json_result([*lookup_args(plan), "--issue-number", "863"])
    assert (result, code) == (
        {
            "status": "plan-identity-mismatch",
            "message": ("the plan comment is for issue #0863 (a plan-issue marker line), not #863"),
        },
        1,
    )


def test_text_in_a_github_job_is_byte_exact_when_nothing_could_be_a_command() -> None:
    completed = run_cli_in_process(EXAMPLE, env=clean_env(GITHUB_ACTIONS="true"))
    assert completed.stdout == run_cli_in_process(EXAMPLE).stdout
    assert completed.stdout.startswith(b"status: ok\nstep_id: s1\n")


def test_version() -> None:
    completed = run_cli(["--version"])
    assert (completed.returncode, completed.stdout) == (0, b"frame-spine 0.1.0\n")


def test_usage_errors_keep_arguments_on_one_line() -> None:
    completed = run_cli([*lookup_args("x"), "\n::warning::x ##[error]y"])
    assert completed.returncode == 2
    last = completed.stderr.decode().splitlines()[-1]
    assert last == (
        "frame-spine lookup: error: unrecognized arguments: \\n::warning::x #\\#[error]y"
    )
    assert not any(
        line.lstrip().startswith("::") for line in completed.stderr.decode().splitlines()
    )


# --- one mode loads only itself (modes are loaded lazily at one boundary) ------------------

LOADED = (
    "import json, sys\n"
    "from frame_spine.cli import main\n"
    "code = main(json.loads(sys.argv[1]))\n"
    "prefixes = ('github', 'actions_toolkit', 'frame_spine.')\n"
    "loaded = sorted(m for m in sys.modules if m == 'github' or m.startswith(prefixes))\n"
    "sys.stderr.write(json.dumps({'exit': code, 'loaded': loaded}))\n"
)


def modules_loaded(args: list[str]) -> list[str]:
    """The modules ``main(args)`` leaves loaded in a fresh interpreter (one process per
    distinct ``args``: the answer is the same every time)."""
    return list(_modules_loaded(tuple(args)))


@functools.cache
def _modules_loaded(args: tuple[str, ...]) -> tuple[str, ...]:
    completed = subprocess.run(
        [sys.executable, "-c", LOADED, json.dumps(list(args))],
        capture_output=True,
        env=clean_env(),
        timeout=60,
        check=False,
    )
    report = json.loads(completed.stderr.decode("utf-8"))
    assert report["exit"] in (0, 1)
    return tuple(report["loaded"])


def heavy(loaded: list[str], *modes: str) -> list[str]:
    """The loaded modules of ``modes`` beyond their package and light ``command`` module, and
    of the network and runner libraries (PyGithub, actions-toolkit, our fetcher)."""
    light = {f"frame_spine.modes.{mode}{part}" for mode in modes for part in ("", ".command")}
    return [
        name
        for name in loaded
        if (
            name.startswith(tuple(f"frame_spine.modes.{mode}" for mode in modes))
            and name not in light
        )
        or name.split(".")[0] in ("github", "actions_toolkit")
        or name in ("frame_spine.github.client", "frame_spine.github.transport")
    ]


def test_a_local_lookup_loads_no_other_mode_and_no_network_library() -> None:
    loaded = modules_loaded([*EXAMPLE, "--format", "json"])
    assert "frame_spine.modes.lookup.rules" in loaded
    assert heavy(loaded, "validate", "audit") == []
    assert [name for name in loaded if name.startswith("frame_spine.validation")] == []
    assert "difflib" not in loaded  # only a mistyped word loads it


def test_a_local_validation_loads_neither_audit_nor_the_network() -> None:
    loaded = modules_loaded(["validate", "--plan-body", str(PLAN), "--format", "json"])
    assert "frame_spine.validation.rules" in loaded
    assert heavy(loaded, "audit") == []


def test_a_local_lookup_loads_nothing_of_render() -> None:
    loaded = modules_loaded([*EXAMPLE, "--format", "json"])
    assert heavy(loaded, "render") == []


def test_a_local_rendering_loads_no_online_code() -> None:
    loaded = modules_loaded(
        ["render", "--plan-body", str(PLAN), "--slices-body", str(SIBLING), "--format", "json"]
    )
    assert "frame_spine.modes.render.rules" in loaded
    assert "frame_spine.validation.rules" in loaded
    assert heavy(loaded, "audit") == []
    online = ("frame_spine.modes.render.online", "frame_spine.plan_fetch")
    assert [name for name in loaded if name in online] == []
    assert heavy(loaded, "lookup") == []


def test_an_online_rendering_loads_the_shared_plan_fetch(fake_github: Any) -> None:
    loaded = modules_loaded(
        ["render", "--repo", "o/r", "--plan-comment-id", "1", "--api-url", fake_github.url]
    )
    assert "frame_spine.modes.render.online" in loaded
    assert "frame_spine.plan_fetch" in loaded


BUILT = (
    "import json, sys\n"
    "from frame_spine.cli import main\n"
    "code = main(json.loads(sys.argv[1]))\n"
    "from frame_spine import inputs\n"
    "from frame_spine.modes.lookup import models\n"
    "found = {name: getattr(module, name).__pydantic_complete__ for module, name in (\n"
    "    (inputs, 'ApiTarget'), (inputs, 'StepSettings'), (models, 'OnlineTarget'),\n"
    "    (models, 'LookupRequest'), (models, 'LookupResult'))}\n"
    "sys.stderr.write(json.dumps({'exit': code, 'built': found}))\n"
)


def test_a_local_lookup_builds_only_the_models_it_reads() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", BUILT, json.dumps([*EXAMPLE, "--format", "json"])],
        capture_output=True,
        env=clean_env(),
        timeout=60,
        check=False,
    )
    assert json.loads(completed.stderr.decode("utf-8")) == {
        "exit": 0,
        "built": {
            "ApiTarget": False,
            "StepSettings": False,
            "OnlineTarget": False,
            "LookupRequest": True,
            "LookupResult": True,
        },
    }


def test_a_named_command_gets_only_its_own_flags_and_every_command_is_listed() -> None:
    from frame_spine.cli import build

    parser, _ = build(["render", "--plan-body", "-"])
    assert parser.parse_args(["render", "--plan-body", "-"]).plan_body == "-"
    help_text = parser.format_help()
    for name in ("lookup", "validate", "render", "audit"):
        assert f"    {name}" in help_text
