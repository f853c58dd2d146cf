"""`frame-spine render` (SPEC 9, 13): local bodies, `--ports-dir`, every status and exit
code, and the online forms through the loopback fake of the GitHub REST API (exact statuses,
messages and requests). Most runs are ``main`` in this process (tests.in_process: the same
argv, working directory, environment and bytes); the installed command runs the JSON and
Markdown of an ok rendering, an invalid spine's exit 1, a usage error's exit 2 and an online
rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frame_spine.markdown import escape_cell
from tests.conftest import REPO as REPO_DIR
from tests.conftest import clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.in_process import run_cli_in_process

PLAN_TEXT = (REPO_DIR / "examples" / "plan-878.md").read_text("utf-8")
SIBLING_TEXT = (REPO_DIR / "examples" / "sibling-878.md").read_text("utf-8")
PLAN = str(REPO_DIR / "examples" / "plan-878.md")
SIBLING = str(REPO_DIR / "examples" / "sibling-878.md")
PLAN_ID = 5013464861
SIBLING_ID = 5013460780
CANONICAL = ("implement-docs.md", "implement-test.yaml", "implement-code.yml", "review.md")


def render(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, process: bool = False
) -> tuple[dict[str, object], int]:
    """``frame-spine render ARGS --format json`` through ``main`` in this process (the same
    argv, working directory, environment and bytes), or by the installed command when
    ``process``: its result and exit code."""
    run = run_cli if process else run_cli_in_process
    completed = run(
        ["render", *args, "--format", "json"],
        cwd=cwd,
        env=env if env is not None else clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert completed.stderr == b""
    return json.loads(completed.stdout), completed.returncode


def ports_dir(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "ports"
    folder.mkdir()
    for name in names:
        (folder / name).write_text("port\n")
    return folder


def warnings(result: dict[str, object]) -> list[tuple[object, object]]:
    ports = result["ports"]
    assert isinstance(ports, list)
    return [(row["port"], row["warning"]) for row in ports if row["warning"] is not None]


def test_the_878_example_is_ok_with_nine_rows() -> None:
    result, code = render("--plan-body", PLAN, "--slices-body", SIBLING, process=True)
    assert (result["status"], code, result["issue"], result["message"]) == ("ok", 0, 878, None)
    ports = result["ports"]
    assert isinstance(ports, list)
    assert [(row["port"], row["step"]) for row in ports] == [
        ("implement-docs", "s1"),
        ("implement-docs", "s3"),
        ("implement-docs", "s7"),
        ("implement-test", "s2"),
        ("implement-test", "s4"),
        ("implement-code", "s5"),
        ("implement-code", "s6"),
        ("review", "s8"),
        ("ce-gate-cli", "s9"),
    ]
    # No #cycle:K on the token: the spine slice's cycle: 1 (SPEC 13 revision 3).
    assert ports[-1] == {
        "port": "ce-gate-cli",
        "step": "s9",
        "cycle": 1,
        "terminal": True,
        "warning": None,
    }


def test_markdown_is_the_default_format() -> None:
    completed = run_cli(["render", "--plan-body", PLAN, "--slices-body", SIBLING])
    text = completed.stdout.decode()
    assert completed.returncode == 0
    assert text.startswith(
        "### ✅ frame-spine render: `ok` (exit code 0): issue #878, spine generated_at "
        "2026-07-18T22:20:00Z\n"
    )
    assert "| ce-gate-cli | s9 | 1 | yes |  |\n" in text
    assert "  class s2,s3,s4,s5,s6,s7,s8,s9 noslice\n" in text


def test_a_ports_dir_that_lacks_a_port_warns_on_it(tmp_path: Path) -> None:
    folder = ports_dir(tmp_path, *CANONICAL, "notes.txt")
    result, code = render("--plan-body", PLAN, "--ports-dir", str(folder))
    assert (result["status"], code) == ("ok", 0)
    assert warnings(result) == [("ce-gate-cli", "unknown-port")]
    completed = run_cli_in_process(["render", "--plan-body", PLAN, "--ports-dir", str(folder)])
    text = completed.stdout.decode()
    shown = escape_cell(str(folder))  # a table cell: the folder's `_` are escaped
    assert (
        f"| ce-gate-cli | s9 | 1 | yes | ⚠️ unknown-port: no ce-gate-cli.yaml/.yml/.md in "
        f"{shown} |\n"
    ) in text
    assert f"\n#### Ports (names checked against the port files in {shown})\n" in text


def test_frame_ports_under_the_current_directory_is_the_default(tmp_path: Path) -> None:
    (tmp_path / "frame").mkdir()
    (tmp_path / "frame" / "ports").mkdir()
    for name in ("implement-docs.md", "review.yaml"):
        (tmp_path / "frame" / "ports" / name).write_text("x")
    result, _ = render("--plan-body", PLAN, cwd=tmp_path)
    assert warnings(result) == [
        ("implement-test", "unknown-port"),
        ("implement-test", "unknown-port"),
        ("implement-code", "unknown-port"),
        ("implement-code", "unknown-port"),
        ("ce-gate-cli", "unknown-port"),
    ]


def test_port_files_yaml_yml_and_md_name_the_canonical_ports(tmp_path: Path) -> None:
    # SPEC 12 "canonical port files": *.yaml, *.yml and *.md (any case of the extension) are
    # port files; another extension, a second one, a folder or a hidden stem are not.
    folder = ports_dir(
        tmp_path,
        "implement-docs.yml",
        "implement-test.md",
        "implement-code.YAML",
        "review.Md",
        "ce-gate-cli.txt",
        "ce-gate-cli.yaml.bak",
        ".yaml",
    )
    (folder / "ce-gate-cli.md").mkdir()
    result, code = render("--plan-body", PLAN, "--ports-dir", str(folder))
    assert (result["status"], code) == ("ok", 0)
    assert warnings(result) == [("ce-gate-cli", "unknown-port")]


def test_without_a_ports_dir_no_port_is_checked(tmp_path: Path) -> None:
    result, _ = render("--plan-body", PLAN, cwd=tmp_path)
    assert warnings(result) == []
    completed = run_cli_in_process(["render", "--plan-body", PLAN])
    assert "\n#### Ports (no ports-dir: port names not checked)\n" in completed.stdout.decode()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "nope", "ports-dir '{path}' does not exist"),
        (lambda p: p / "file.md", "ports-dir '{path}' is not a directory"),
    ],
)
def test_a_bad_ports_dir_is_an_error_status(tmp_path: Path, make: object, message: str) -> None:
    (tmp_path / "file.md").write_text("x")
    path = make(tmp_path)  # type: ignore[operator]
    result, code = render("--plan-body", PLAN, "--ports-dir", str(path))
    assert (result["status"], code, result["message"]) == (
        "error",
        1,
        message.format(path=path),
    )


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (
            "---\nplan-variant: goal-contract\n---\n",
            "no spine: a goal-contract plan (plan-variant: goal-contract) has none by design",
        ),
        (
            "---\nplan-variant: brief\n---\n",
            "no spine: a brief plan (plan-variant: brief) has none by design",
        ),
        (
            "---\nspine-omitted: plan-too-small\n---\n",
            "no spine: the plan says spine-omitted: plan-too-small (none by design)",
        ),
        (
            "---\nplan-variant: brief\n---\n<!-- frame-spine\nspine_schema_version: 2\n"
            "generated_at: 2026-05-04T14:30:00Z\nports:\n  code: [s1]\n-->\n",
            "no spine drawn: a brief plan (plan-variant: brief) has no spine by design, but the "
            "plan comment also carries a frame-spine block (line 5): ambiguous",
        ),
        (
            "# Plan\n\nWrite the code, then the docs.\n",
            "no spine: a legacy prose plan (no frame-spine block in the plan comment)",
        ),
    ],
    ids=["goal-contract", "brief", "plan-too-small", "ambiguous", "legacy-prose"],
)
def test_every_plan_without_a_spine_exits_0_and_says_why(
    tmp_path: Path, plan: str, message: str
) -> None:
    path = tmp_path / "plan.md"
    path.write_text("<!-- plan-issue-7 -->\n" + plan)
    result, code = render("--plan-body", str(path))
    assert (result, code) == (
        {
            "status": "missing-spine",
            "issue": 7,
            "plan_comment_id": None,
            "generated_at": None,
            "spine_digest": None,
            "ports": [],
            "steps": [],
            "message": message,
        },
        0,
    )


@pytest.mark.parametrize(
    "mark",
    ["---\nspine-omitted: plan-too-small\n---\n", "The plan is too small for slices.\n"],
    ids=["frontmatter", "prose"],
)
def test_a_spine_beside_plan_too_small_is_rendered(tmp_path: Path, mark: str) -> None:
    # SPEC 12: the reference says "plan too small" wherever the words are, before reading
    # the spine; render draws the spine that is there, and validate warns about the line.
    path = tmp_path / "plan.md"
    path.write_text(
        "<!-- plan-issue-7 -->\n" + mark + "<!-- frame-spine\nspine_schema_version: 2\n"
        "generated_at: 2026-05-04T14:30:00Z\nports:\n  code: [s1#terminal]\nslices:\n"
        "  s1:\n    ac_refs: []\n    depends_on: []\n    cycle: 1\n-->\n"
    )
    result, code = render("--plan-body", str(path))
    assert (result["status"], code, result["message"]) == ("ok", 0, None)
    assert result["ports"] == [
        {"port": "code", "step": "s1", "cycle": 1, "terminal": True, "warning": None}
    ]
    text = run_cli_in_process(["render", "--plan-body", str(path)]).stdout.decode()
    omitted = "| ⚠️ | **spine-omitted-with-spine**" in text
    assert omitted is mark.startswith("---")


def test_cycle_0_is_shown_as_0_in_the_table_and_the_json(tmp_path: Path) -> None:
    # SPEC 12 "cycle 0": #cycle:0, or a slice's cycle: 0 under a token without #cycle:K.
    path = tmp_path / "plan.md"
    path.write_text(
        "<!-- plan-issue-7 -->\n<!-- frame-spine\nspine_schema_version: 2\n"
        "generated_at: 2026-05-04T14:30:00Z\nports:\n  code: [s1#cycle:0, s2]\nslices:\n"
        "  s2:\n    ac_refs: []\n    depends_on: []\n    cycle: 0\n-->\n"
    )
    result, _ = render("--plan-body", str(path))
    assert [(row["step"], row["cycle"]) for row in result["ports"]] == [("s1", 0), ("s2", 0)]
    text = run_cli_in_process(["render", "--plan-body", str(path)]).stdout.decode()
    assert "| code | s1 | 0 | no |  |\n| code | s2 | 0 | no |  |\n" in text


def test_an_invalid_spine_exits_1_with_the_lines_that_parsed(tmp_path: Path) -> None:
    path = tmp_path / "plan.md"
    path.write_text(
        "<!-- plan-issue-7 -->\n<!-- frame-spine\nspine_schema_version: 2\n"
        "generated_at: 2026-05-04T14:30:00Z\nports:\n  code: [s1, s2#cycle:x]\n"
        "  docs: [s3#terminal]\n-->\n"
    )
    result, code = render("--plan-body", str(path))
    assert (result["status"], code) == ("invalid-spine", 1)
    assert result["ports"] == [
        {"port": "docs", "step": "s3", "cycle": None, "terminal": True, "warning": None}
    ]
    assert result["steps"] == [
        {"step": "s3", "ports": ["docs"], "depends_on": [], "has_slice": False}
    ]
    completed = run_cli(["render", "--plan-body", str(path)])
    text = completed.stdout.decode()
    assert completed.returncode == 1
    assert text.startswith(
        "### ❌ frame-spine render: `invalid-spine` (exit code 1): issue #7\n\n> invalid "
        "frame-spine: line 6 of the plan "
    )
    assert "| docs | s3 |  | yes |  |\n" in text


def test_an_unreadable_plan_is_an_error_status(tmp_path: Path) -> None:
    result, code = render("--plan-body", str(tmp_path / "nope.md"))
    assert (result["status"], code, result["message"]) == (
        "error",
        1,
        f"cannot read --plan-body '{tmp_path / 'nope.md'}': No such file or directory",
    )


def test_a_malformed_issue_number_is_an_error_status() -> None:
    result, code = render("--plan-body", PLAN, "--issue-number", "x7")
    assert (result["status"], code) == ("error", 1)
    assert "issue-number" in str(result["message"])


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (
            [],
            "render needs --plan-body, or --plan-comment-id or --issue-number (with --repo, "
            "or in a checkout whose origin is on GitHub)",
        ),
        (
            ["--plan-body", PLAN, "--repo", REPO],
            "render needs exactly one of --plan-body or --repo",
        ),
        (["--repo", REPO], "render --repo needs --plan-comment-id or --issue-number"),
        (
            ["--plan-body", PLAN, "--plan-comment-id", "5"],
            "--plan-body and --plan-comment-id cannot be combined",
        ),
        (
            ["--repo", REPO, "--issue-number", "5", "--slices-body", SIBLING],
            "--slices-body needs --plan-body",
        ),
        (["--plan-body", PLAN, "--format", "text"], "argument --format: invalid choice: 'text'"),
        (["--plan-body", PLAN, "--step-id", "s1"], "unknown flag --step-id"),
    ],
)
def test_render_usage_errors_exit_2(args: list[str], complaint: str) -> None:
    completed = run_cli_in_process(["render", *args])
    assert completed.returncode == 2
    assert complaint in completed.stderr.decode()


def test_a_render_usage_error_exits_2_from_the_installed_command() -> None:
    completed = run_cli(["render", "--plan-body", PLAN, "--step-id", "s1"])
    assert completed.returncode == 2
    assert "unknown flag --step-id" in completed.stderr.decode()


# ---- online -----------------------------------------------------------------------------------


def online(fake: FakeGitHub, *args: str) -> tuple[dict[str, object], int]:
    return render("--repo", REPO, "--api-url", fake.url, *args)


def test_by_plan_id_follows_the_spine_to_the_sibling(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, 878)
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)
    result, code = online(fake_github, "--plan-comment-id", str(PLAN_ID))
    assert (result["status"], code, result["plan_comment_id"], result["issue"]) == (
        "ok",
        0,
        str(PLAN_ID),
        878,
    )
    steps = result["steps"]
    assert isinstance(steps, list)
    assert [step["has_slice"] for step in steps] == [True] + [False] * 8
    assert fake_github.paths() == [
        f"GET /repos/{REPO}/issues/comments/{PLAN_ID}",
        f"GET /repos/{REPO}/issues/comments/{SIBLING_ID}",
    ]


def test_by_issue_renders_the_newest_plan(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(1010, PLAN_TEXT.replace("22:20:00Z", "20:00:00Z"), 878)
    fake_github.add_comment(1020, PLAN_TEXT, 878, updated_at="2026-07-18T22:25:00Z")
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)
    result, code = online(fake_github, "--issue-number", "878")
    assert (result["status"], code, result["plan_comment_id"]) == ("ok", 0, "1020")
    assert result["generated_at"] == "2026-07-18T22:20:00Z"
    completed = run_cli(
        ["render", "--repo", REPO, "--api-url", fake_github.url, "--issue-number", "878"],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    text = completed.stdout.decode()
    assert f"| Repository | {REPO} |\n" in text
    assert f"| Plan comment | [1020](https://github.com/{REPO}/issues/878#issuecomment-1020) |" in (
        text
    )
    assert "older-plan-comments" in text


def test_an_issue_without_a_plan_comment_is_comment_not_found(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(1, "just a comment", 878)
    result, code = online(fake_github, "--issue-number", "878")
    assert (result["status"], code, result["issue"]) == ("comment-not-found", 1, 878)
    assert result["message"] == "no comment on issue #878 carries a <!-- plan-issue-878 --> line"


def test_a_missing_plan_comment_is_comment_not_found(fake_github: FakeGitHub) -> None:
    result, code = online(fake_github, "--plan-comment-id", "12")
    assert (result["status"], code, result["plan_comment_id"]) == ("comment-not-found", 1, "12")
    assert result["ports"] == []


def test_a_refused_token_is_gh_auth_expired(fake_github: FakeGitHub) -> None:
    fake_github.token = "another"
    result, code = online(fake_github, "--plan-comment-id", str(PLAN_ID))
    assert (result["status"], code) == ("gh-auth-expired", 1)
    assert str(result["message"]).startswith(
        f"plan comment {PLAN_ID} in {REPO}: the token is invalid or expired (HTTP 401"
    )
