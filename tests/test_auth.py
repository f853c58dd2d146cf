"""Where the token comes from (SPEC 9), end to end: the command line as the installed command
with a stand-in ``gh`` on ``PATH`` and the loopback fake (whose API URL, not being
``https://api.github.com``, is a GitHub Enterprise Server's), and the action as the runner
runs it.

The token sent is read off the ``Authorization`` header the fake received; the host asked for
off the stand-in's recorded arguments.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.conftest import CASES_DIR, clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.in_process import run_action_in_process, run_cli_in_process
from tests.runner_env import run_action
from tests.stand_ins import StandInGh, write_gh

SINGLE = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
AT = "2026-05-04T14:30:00Z"
GH_TOKEN_PRINTED = "gho_standIn0123456789abcdef"
NO_TOKEN = "no token: set GH_TOKEN or run gh auth login"
#: The same for the loopback fake: ``gh`` has no login for it (SPEC 9, revision 4).
NO_TOKEN_LOOPBACK = "no token: set GH_TOKEN"
VARIABLES = ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_TOKEN", "GITHUB_TOKEN")


def lookup_args(api_url: str, *extra: str, output_format: str = "json") -> list[str]:
    return [
        "lookup",
        "--repo",
        REPO,
        "--api-url",
        api_url,
        "--plan-comment-id",
        "7001",
        "--generated-at",
        AT,
        "--format",
        output_format,
        *extra,
    ]


def run_lookup(
    fake: FakeGitHub, gh: StandInGh | None, *extra: str, api_url: str | None = None, **env: str
) -> tuple[dict[str, object], int, bytes]:
    """One lookup of comment 7001 with the environment ``env`` (no other token variable) and
        ``PATH`` finding the stand-in ``gh`` (or no ``gh`` at all), in this process (the tests
    below that call ``run_cli`` run the installed command)."""
    path = gh.path() if gh is not None else "/usr/bin:/bin"
    completed = run_cli_in_process(
        lookup_args(api_url or fake.url, "--step-id", "s2", *extra), env=clean_env(PATH=path, **env)
    )
    return json.loads(completed.stdout), completed.returncode, completed.stderr


def authorizations(fake: FakeGitHub) -> list[str | None]:
    return [request.headers.get("authorization") for request in fake.requests]


@pytest.fixture
def served(fake_github: FakeGitHub) -> FakeGitHub:
    fake_github.add_comment(7001, SINGLE, 863)
    return fake_github


# ---- gh auth token ------------------------------------------------------------------------------


def test_without_a_variable_the_token_gh_prints_is_used(served: FakeGitHub, tmp_path: Path) -> None:
    served.token = GH_TOKEN_PRINTED
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED + "\n")
    result, code, _ = run_lookup(served, gh)
    assert (result["status"], code) == ("ok", 0)
    assert authorizations(served) == [f"token {GH_TOKEN_PRINTED}"]
    assert gh.calls() == ["auth token --hostname 127.0.0.1"]


def test_gh_is_asked_for_the_enterprise_servers_host(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    fake_github.prefix = "/api/v3"
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.token = GH_TOKEN_PRINTED
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    api_url = fake_github.url.replace("127.0.0.1", "localhost")
    result, code, _ = run_lookup(fake_github, gh, api_url=api_url)
    assert (result["status"], code) == ("ok", 0)
    assert gh.calls() == ["auth token --hostname localhost"]  # the host, without the port
    assert fake_github.paths() == [f"GET /api/v3/repos/{REPO}/issues/comments/7001"]


def test_gh_is_asked_for_github_com_for_the_public_api(tmp_path: Path) -> None:
    gh = write_gh(tmp_path / "bin", exit_code=1)
    completed = run_cli(
        lookup_args("https://api.github.com", "--step-id", "s2"),
        env=clean_env(PATH=gh.path(), GH_ENTERPRISE_TOKEN="ghes-only-token-0123"),
    )
    # GH_ENTERPRISE_TOKEN is not read for github.com: gh was asked, had none, no request.
    assert json.loads(completed.stdout) == {
        "status": "gh-auth-expired",
        "message": f"{NO_TOKEN} (gh auth token has no token for github.com (exit 1))",
    }
    assert gh.calls() == ["auth token --hostname github.com"]


@pytest.mark.parametrize("variable", VARIABLES)
def test_a_token_variable_is_used_and_gh_is_never_run(
    served: FakeGitHub, tmp_path: Path, variable: str
) -> None:
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    result, code, _ = run_lookup(served, gh, **{variable: TOKEN})
    assert (result["status"], code) == ("ok", 0)
    assert authorizations(served) == [f"token {TOKEN}"]
    assert gh.calls() == []
    assert not gh.environments_file.exists()


@pytest.mark.parametrize(
    ("given", "used"),
    [
        (VARIABLES, "GH_ENTERPRISE_TOKEN"),
        (VARIABLES[1:], "GITHUB_ENTERPRISE_TOKEN"),
        (VARIABLES[2:], "GH_TOKEN"),
        (("GITHUB_ENTERPRISE_TOKEN", "GITHUB_TOKEN"), "GITHUB_ENTERPRISE_TOKEN"),
        (("GH_TOKEN", "GITHUB_TOKEN"), "GH_TOKEN"),
        (("GH_ENTERPRISE_TOKEN", "GITHUB_TOKEN"), "GH_ENTERPRISE_TOKEN"),
    ],
    ids=["all-four", "three", "gh-and-github", "github-enterprise", "gh-token", "gh-enterprise"],
)
def test_enterprise_server_precedence_of_the_variables(
    served: FakeGitHub, tmp_path: Path, given: tuple[str, ...], used: str
) -> None:
    served.token = f"{used.lower()}-value-0123"
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    env = {name: f"{name.lower()}-value-0123" for name in given}
    result, _, stderr = run_lookup(served, gh, "--verbose", **env)
    assert result["status"] == "ok"
    assert authorizations(served) == [f"token {used.lower()}-value-0123"]
    assert stderr.decode().splitlines()[0] == f"token: from {used}"
    assert gh.calls() == []


def test_a_blank_variable_counts_as_not_set(served: FakeGitHub, tmp_path: Path) -> None:
    served.token = GH_TOKEN_PRINTED
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    result, _, _ = run_lookup(served, gh, GH_TOKEN="  ", GITHUB_TOKEN="")
    assert result["status"] == "ok"
    assert authorizations(served) == [f"token {GH_TOKEN_PRINTED}"]
    seen = gh.environment()
    # gh is not handed the blank variables (it would print them back), and is told not to
    # prompt nor check for updates.
    assert "GH_TOKEN" not in seen and "GITHUB_TOKEN" not in seen
    assert (seen["GH_PROMPT_DISABLED"], seen["GH_NO_UPDATE_NOTIFIER"]) == ("1", "1")


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        ({"exit_code": 1}, "gh auth token has no token for 127.0.0.1 (exit 1)"),
        ({"exit_code": 4, "prints": "token"}, "gh auth token has no token for 127.0.0.1 (exit 4)"),
        ({"prints": ""}, "gh auth token printed no token for 127.0.0.1"),
        ({"prints": " \n\t\n"}, "gh auth token printed no token for 127.0.0.1"),
    ],
    ids=["exit-1", "exit-4-with-output", "prints-nothing", "prints-blanks"],
)
def test_gh_without_a_token_is_no_token_and_no_request(
    served: FakeGitHub, tmp_path: Path, behaviour: dict[str, object], reason: str
) -> None:
    gh = write_gh(tmp_path / "bin", **behaviour)  # type: ignore[arg-type]
    result, code, _ = run_lookup(served, gh)
    assert (result, code) == (
        {
            "status": "gh-auth-expired",
            "message": f"{NO_TOKEN_LOOPBACK} ({reason})",
        },
        1,
    )
    assert served.requests == []
    assert gh.calls() == ["auth token --hostname 127.0.0.1"]


def test_without_gh_on_path_there_is_no_token(served: FakeGitHub, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    completed = run_cli(lookup_args(served.url, "--step-id", "s2"), env=clean_env(PATH=str(empty)))
    assert json.loads(completed.stdout) == {
        "status": "gh-auth-expired",
        "message": f"{NO_TOKEN_LOOPBACK} (gh is not on PATH)",
    }
    assert completed.returncode == 1
    assert served.requests == []


@pytest.mark.serial  # times a deadline
def test_a_gh_that_hangs_is_given_up_after_the_timeout(served: FakeGitHub, tmp_path: Path) -> None:
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED, sleep=30)
    started = time.monotonic()
    result, code, _ = run_lookup(served, gh)
    elapsed = time.monotonic() - started
    assert (result, code) == (
        {
            "status": "gh-auth-expired",
            "message": f"{NO_TOKEN_LOOPBACK} (gh auth token did not answer within 3 s)",
        },
        1,
    )
    assert 3 <= elapsed < 10
    assert served.requests == []


def test_a_gh_token_a_header_cannot_carry_is_refused_and_not_shown(
    served: FakeGitHub, tmp_path: Path
) -> None:
    printed = "gho_first0123456789\ngho_second0123456789\n"
    gh = write_gh(tmp_path / "bin", prints=printed)
    result, code, _ = run_lookup(served, gh)
    assert (result, code) == (
        {
            "status": "gh-auth-expired",
            "message": f"plan comment 7001 in {REPO}: the token contains a line break, which an "
            "HTTP header cannot carry: no request was made; fix the token",
        },
        1,
    )
    assert served.requests == []


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_the_token_gh_printed_appears_in_nothing_the_cli_writes(
    fake_github: FakeGitHub, tmp_path: Path, output_format: str
) -> None:
    fake_github.add_comment(
        7001, SINGLE.replace("GREEN code action", f"GREEN code action, {GH_TOKEN_PRINTED}"), 863
    )
    fake_github.token = GH_TOKEN_PRINTED
    gh = write_gh(tmp_path / "bin", prints=f"  {GH_TOKEN_PRINTED}\n")
    completed = run_cli(
        lookup_args(fake_github.url, "--step-id", "s2", "--verbose", output_format=output_format),
        env=clean_env(PATH=gh.path()),
    )
    assert completed.returncode == 0
    assert GH_TOKEN_PRINTED.encode() not in completed.stdout + completed.stderr
    assert b"GREEN code action, ***" in completed.stdout
    assert completed.stderr.decode().splitlines()[0] == (
        "token: from gh auth token --hostname 127.0.0.1"
    )
    assert authorizations(fake_github) == [f"token {GH_TOKEN_PRINTED}"]


def test_a_short_value_gh_printed_is_sent_but_not_redacted(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    # Shorter than 8 characters: not a token GitHub issues, so nothing is redacted (SPEC 6).
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.token = "gho_1"
    gh = write_gh(tmp_path / "bin", prints="gho_1\n")
    completed = run_cli(
        lookup_args(fake_github.url, "--step-id", "s2", "--verbose"),
        env=clean_env(PATH=gh.path()),
    )
    result = json.loads(completed.stdout)
    assert (result["status"], result["step_id"], completed.returncode) == ("ok", "s2", 0)
    assert b"***" not in completed.stdout + completed.stderr
    assert completed.stderr.decode().splitlines()[0] == (
        "token: from gh auth token --hostname 127.0.0.1"
    )
    assert authorizations(fake_github) == ["token gho_1"]


@pytest.mark.parametrize(
    ("mode", "args"),
    [
        ("validate", ["validate", "--plan-comment-id", "7001"]),
        ("audit", ["audit", "--state", "all"]),
    ],
)
def test_validate_and_audit_find_the_token_the_same_way(
    served: FakeGitHub, tmp_path: Path, mode: str, args: list[str]
) -> None:
    served.token = GH_TOKEN_PRINTED
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    completed = run_cli(
        [*args, "--repo", REPO, "--api-url", served.url, "--format", "json"],
        env=clean_env(PATH=gh.path()),
    )
    assert json.loads(completed.stdout)["status"] == {"validate": "valid", "audit": "clean"}[mode]
    assert set(authorizations(served)) == {f"token {GH_TOKEN_PRINTED}"}
    assert gh.calls() == ["auth token --hostname 127.0.0.1"]


@pytest.mark.parametrize(
    ("mode", "args"),
    [
        ("validate", ["validate", "--plan-comment-id", "7001"]),
        ("audit", ["audit", "--state", "all"]),
    ],
)
def test_validate_and_audit_without_a_token_make_no_request(
    served: FakeGitHub, tmp_path: Path, mode: str, args: list[str]
) -> None:
    gh = write_gh(tmp_path / "bin", exit_code=1)
    completed = run_cli(
        [*args, "--repo", REPO, "--api-url", served.url, "--format", "json"],
        env=clean_env(PATH=gh.path()),
    )
    result = json.loads(completed.stdout)
    assert (result["status"], result["message"], completed.returncode) == (
        "gh-auth-expired",
        f"{NO_TOKEN_LOOPBACK} (gh auth token has no token for 127.0.0.1 (exit 1))",
        1,
    )
    assert served.requests == []


def test_input_checks_come_before_the_token(tmp_path: Path) -> None:
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    completed = run_cli(
        lookup_args("http://127.0.0.1:9", "--step-id", "step-two"),
        env=clean_env(PATH=gh.path()),
    )
    assert json.loads(completed.stdout)["status"] == "error"
    assert gh.calls() == []  # a malformed input: no token sought, no request


# ---- the action -------------------------------------------------------------------------------


def test_the_action_falls_back_to_the_variables_when_the_input_is_empty(
    served: FakeGitHub, tmp_path: Path
) -> None:
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    run = run_action(
        tmp_path,
        {
            "token": "",
            "plan-comment-id": "7001",
            "step-id": "s2",
            "generated-at": AT,
        },
        api_url=served.url,
        token=TOKEN,
        repository=REPO,
        extra_env={
            "GITHUB_TOKEN": "other-0123456789",
            "GH_ENTERPRISE_TOKEN": TOKEN,
            "PATH": gh.path(),
        },
    )
    assert run.outputs["status"] == "ok"
    assert authorizations(served) == [f"token {TOKEN}"]
    assert gh.calls() == []


def test_the_action_without_any_token_names_its_input_and_makes_no_request(
    served: FakeGitHub, tmp_path: Path
) -> None:
    gh = write_gh(tmp_path / "bin", prints=GH_TOKEN_PRINTED)
    run = run_action_in_process(
        tmp_path,
        {"token": "", "plan-comment-id": "7001", "step-id": "s2", "generated-at": AT},
        api_url=served.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"PATH": gh.path()},
    )
    assert (run.outputs["status"], run.outputs["exit-code"]) == ("gh-auth-expired", "1")
    assert run.outputs["message"] == (
        "no token: set the token input (it is empty: a secret this workflow run cannot read, "
        "e.g. on a pull request from a fork, is empty too)"
    )
    assert served.requests == []
    assert gh.calls() == []  # there is no gh in the container: never asked


def test_the_action_prefers_its_input_to_the_variables(served: FakeGitHub, tmp_path: Path) -> None:
    run = run_action_in_process(
        tmp_path,
        {"plan-comment-id": "7001", "step-id": "s2", "generated-at": AT},
        api_url=served.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"GH_TOKEN": "other-0123456789", "GH_ENTERPRISE_TOKEN": "another-0123456"},
    )
    assert run.outputs["status"] == "ok"
    assert authorizations(served) == [f"token {TOKEN}"]
