"""``--repo`` left out (SPEC 9): the repository of the ``origin`` remote of the git checkout the
command runs in, for lookup, validate and audit; else a usage error (exit 2) saying why.

Each checkout is a real one (``git init``, ``git remote add origin``) in a temporary folder,
with ``GIT_CEILING_DIRECTORIES`` so that git never finds a checkout around it. The loopback
fake's host is ``127.0.0.1``: a remote of that GitHub names that host.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CASES_DIR, clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.stand_ins import git_checkout

SINGLE = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
COMMENT = f"GET /repos/{REPO}/issues/comments/7001"
LOOKUP = ["lookup", "--plan-comment-id", "7001", "--generated-at", "current", "--step-id", "s2"]


def env_for(folder: Path, **extra: str) -> dict[str, str]:
    return clean_env(
        GITHUB_TOKEN=TOKEN,
        GIT_CEILING_DIRECTORIES=str(folder.parent),
        GIT_CONFIG_GLOBAL="/dev/null",
        GIT_CONFIG_NOSYSTEM="1",
        **extra,
    )


def run_in(folder: Path, args: list[str], **extra: str) -> tuple[int, bytes, bytes]:
    completed = run_cli(args, env=env_for(folder, **extra), cwd=folder)
    return completed.returncode, completed.stdout, completed.stderr


def port_of(fake: FakeGitHub) -> str:
    return fake.url.rsplit(":", 1)[1]


@pytest.fixture
def served(fake_github: FakeGitHub) -> FakeGitHub:
    fake_github.add_comment(7001, SINGLE, 863)
    return fake_github


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:{port}/octo-org/plans.git",
        "https://127.0.0.1/octo-org/plans",
        "https://x-access-token:ghs_0123456789@127.0.0.1/octo-org/plans.git",
        "git@127.0.0.1:octo-org/plans.git",
        "ssh://git@127.0.0.1/octo-org/plans",
        "ssh://git@127.0.0.1:2222/octo-org/plans.git",
    ],
    ids=["http-port", "https", "https-credentials", "scp-like", "ssh", "ssh-port"],
)
def test_lookup_reads_the_repository_of_the_origin_remote(
    served: FakeGitHub, tmp_path: Path, origin: str
) -> None:
    checkout = git_checkout(tmp_path / "work", origin.format(port=port_of(served)))
    code, stdout, stderr = run_in(checkout, [*LOOKUP, "--api-url", served.url, "--format", "json"])
    assert (code, json.loads(stdout)["status"], stderr) == (0, "ok", b"")
    assert served.paths() == [COMMENT]


def test_a_subdirectory_of_the_checkout_is_in_the_checkout(
    served: FakeGitHub, tmp_path: Path
) -> None:
    checkout = git_checkout(tmp_path / "work", "git@127.0.0.1:octo-org/plans.git")
    inner = checkout / "docs" / "plans"
    inner.mkdir(parents=True)
    completed = run_cli(
        [*LOOKUP, "--api-url", served.url, "--format", "json"],
        env=env_for(tmp_path / "work"),
        cwd=inner,
    )
    assert json.loads(completed.stdout)["status"] == "ok"
    assert served.paths() == [COMMENT]


def test_url_rewrites_of_the_git_config_apply(served: FakeGitHub, tmp_path: Path) -> None:
    checkout = git_checkout(
        tmp_path / "work",
        "plans:octo-org/plans",
        config={f"url.http://127.0.0.1:{port_of(served)}/.insteadOf": "plans:"},
    )
    code, stdout, _ = run_in(checkout, [*LOOKUP, "--api-url", served.url, "--format", "json"])
    assert (code, json.loads(stdout)["status"]) == (0, "ok")
    assert served.paths() == [COMMENT]


def test_the_api_url_from_the_environment_decides_the_host(
    served: FakeGitHub, tmp_path: Path
) -> None:
    checkout = git_checkout(tmp_path / "work", "git@127.0.0.1:octo-org/plans.git")
    code, stdout, _ = run_in(checkout, [*LOOKUP, "--format", "json"], GITHUB_API_URL=served.url)
    assert (code, json.loads(stdout)["status"]) == (0, "ok")
    assert served.paths() == [COMMENT]


def test_validate_render_and_audit_read_it_too(served: FakeGitHub, tmp_path: Path) -> None:
    checkout = git_checkout(tmp_path / "work", "git@127.0.0.1:octo-org/plans.git")
    api = ["--api-url", served.url, "--format", "json"]
    code, stdout, _ = run_in(checkout, ["validate", "--plan-comment-id", "7001", *api])
    assert (code, json.loads(stdout)["status"]) == (0, "valid")
    code, stdout, _ = run_in(checkout, ["render", "--plan-comment-id", "7001", *api])
    assert (code, json.loads(stdout)["status"]) == (0, "ok")
    code, stdout, _ = run_in(checkout, ["audit", "--state", "all", *api])
    report = json.loads(stdout)
    assert (code, report["status"], report["repository"]) == (0, "clean", REPO)
    assert served.paths()[0] == COMMENT
    assert all(f"/repos/{REPO}/" in path for path in served.paths())


def test_repo_given_wins_over_the_origin(served: FakeGitHub, tmp_path: Path) -> None:
    checkout = git_checkout(tmp_path / "work", "git@127.0.0.1:someone/else.git")
    code, stdout, _ = run_in(
        checkout, [*LOOKUP, "--repo", REPO, "--api-url", served.url, "--format", "json"]
    )
    assert (code, json.loads(stdout)["status"]) == (0, "ok")
    assert served.paths() == [COMMENT]


def test_local_bodies_never_ask_git(tmp_path: Path) -> None:
    plan = CASES_DIR / "ok-single-comment" / "plan.md"
    empty = tmp_path / "empty"
    empty.mkdir()
    completed = run_cli(
        ["lookup", "--plan-body", str(plan), "--generated-at", "current", "--step-id", "s2"],
        env=clean_env(PATH=str(empty)),  # no git at all
        cwd=empty,
    )
    assert completed.returncode == 0
    assert completed.stdout.startswith(b"status: ok\n")


LEFT_OUT = "--repo was left out and "
GIVE = ": give --repo OWNER/NAME"


def usage_error(folder: Path, args: list[str], **extra: str) -> str:
    code, stdout, stderr = run_in(folder, args, **extra)
    assert (code, stdout) == (2, b"")
    text = stderr.decode()
    assert text.startswith("usage: frame-spine ")
    return text.splitlines()[-1]


@pytest.mark.parametrize(
    "args",
    [
        [*LOOKUP, "--api-url", "https://api.github.com"],
        ["validate", "--issue-number", "863"],
        ["render", "--issue-number", "863"],
        ["audit"],
    ],
    ids=["lookup", "validate", "render", "audit"],
)
def test_outside_a_checkout_it_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    line = usage_error(folder, args)
    assert line.endswith(f"{LEFT_OUT}the current directory is not in a git checkout{GIVE}")


def test_a_checkout_without_origin_is_a_usage_error(tmp_path: Path) -> None:
    checkout = git_checkout(tmp_path / "work", None)
    line = usage_error(checkout, LOOKUP)
    assert line == (
        f"frame-spine lookup: error: {LEFT_OUT}the checkout has no remote named origin{GIVE}"
    )


@pytest.mark.parametrize(
    ("origin", "reason"),
    [
        (
            "/srv/git/plans.git",
            "the origin remote /srv/git/plans.git is not a GitHub repository URL",
        ),
        (
            "https://github.com/octo-org/plans/tree/main",
            "the origin remote https://github.com/octo-org/plans/tree/main is not a GitHub "
            "repository URL",
        ),
        (
            "https://oauth2:glpat-0123456789@gitlab.com/octo-org/plans.git",
            "the origin remote https://gitlab.com/octo-org/plans.git is on gitlab.com, not on "
            "github.com (if that is a GitHub Enterprise Server, give --api-url "
            "https://gitlab.com/api/v3)",
        ),
        (
            "git@ghe.example.com:team/plans.git",
            "the origin remote ghe.example.com:team/plans.git is on ghe.example.com, not on "
            "github.com (if that is a GitHub Enterprise Server, give --api-url "
            "https://ghe.example.com/api/v3)",
        ),
        (
            "x-access-token:glpat-0123456789@ghe.example.com:team/plans.git",
            "the origin remote ghe.example.com:team/plans.git is on ghe.example.com, not on "
            "github.com (if that is a GitHub Enterprise Server, give --api-url "
            "https://ghe.example.com/api/v3)",
        ),
        (
            "x-access-token:glpat-0123456789@github.com:octo-org",
            "the origin remote github.com:octo-org is not a GitHub repository URL",
        ),
    ],
    ids=[
        "local-path",
        "not-a-repository",
        "another-host-credentials",
        "enterprise-host",
        "scp-like-credentials",
        "scp-like-credentials-no-repository",
    ],
)
def test_an_origin_that_is_not_on_github_com_is_a_usage_error(
    tmp_path: Path, origin: str, reason: str
) -> None:
    checkout = git_checkout(tmp_path / "work", origin)
    line = usage_error(checkout, ["audit"])
    assert line == f"frame-spine audit: error: {LEFT_OUT}{reason}{GIVE}"
    assert "glpat" not in line
    assert "x-access-token" not in line


def test_an_origin_on_github_com_for_an_enterprise_server_is_a_usage_error(
    tmp_path: Path,
) -> None:
    checkout = git_checkout(tmp_path / "work", "https://github.com/octo-org/plans.git")
    line = usage_error(checkout, ["audit", "--api-url", "https://ghe.example.com/api/v3"])
    assert line.endswith(
        f"{LEFT_OUT}the origin remote https://github.com/octo-org/plans.git is on github.com, "
        f"not on ghe.example.com{GIVE}"
    )


def test_without_git_it_is_a_usage_error(tmp_path: Path) -> None:
    checkout = git_checkout(tmp_path / "work", "git@github.com:octo-org/plans.git")
    empty = tmp_path / "empty"
    empty.mkdir()
    line = usage_error(checkout, ["audit"], PATH=str(empty))
    assert line.endswith(f"{LEFT_OUT}git is not on PATH{GIVE}")


def test_git_failing_otherwise_is_quoted(tmp_path: Path) -> None:
    checkout = git_checkout(tmp_path / "work", "git@github.com:octo-org/plans.git")
    (checkout / ".git" / "config").write_text("[core\nbroken", "utf-8")
    line = usage_error(checkout, ["audit"])
    assert f"{LEFT_OUT}git remote get-url origin failed (exit 128: fatal: bad config line 1" in line


@pytest.mark.parametrize(
    ("api_url", "message"),
    [
        (
            "https://ghe.example.com/api/v3?access_token=querySECRET",
            "--api-url carries a query (the value is not shown): give the API URL without it",
        ),
        (
            "https://me:hunter22@ghe.example.com/api/v3",
            "--api-url carries a user name or password (the value is not shown): give the API "
            "URL without it, and the token as the token",
        ),
        (
            "http://ghe.example.com/api/v3",
            "--api-url uses plain http: the token would cross the network unencrypted; use https",
        ),
    ],
    ids=["query", "password", "plain-http"],
)
def test_an_unusable_api_url_is_its_own_error_not_a_remote_on_another_host(
    tmp_path: Path, api_url: str, message: str
) -> None:
    checkout = git_checkout(tmp_path / "work", "git@github.com:octo-org/plans.git")
    completed = run_cli(
        ["audit", "--api-url", api_url, "--format", "json"],
        cwd=checkout,
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert (json.loads(completed.stdout), completed.returncode, completed.stderr) == (
        {
            "status": "error",
            "repository": "octo-org/plans",
            "requests": 0,
            "plans": [],
            "counts": {},
            "untrusted_plan_comments": 0,
            "hidden_plan_comments": 0,
            "message": message,
        },
        1,
        b"",
    )
