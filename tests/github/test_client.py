"""Fetching through the loopback fake of the GitHub REST API, via `frame-spine lookup --repo`:
request budget and headers, identity cross-checks, and every fault with its exact status."""

from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path

import pytest
from werkzeug import Request, Response

from tests.clock import FakeClock
from tests.conftest import CASES_DIR, clean_env, run_cli
from tests.conftest import REPO as REPO_DIR
from tests.fake_github import (
    REPO,
    TOKEN,
    FakeGitHub,
    error,
    html_page,
    rate_limited_403,
    raw,
    too_many_requests,
)
from tests.in_process import run_cli_in_process

PLAN = (REPO_DIR / "examples" / "plan-878.md").read_text("utf-8")
SIBLING = (REPO_DIR / "examples" / "sibling-878.md").read_text("utf-8")
PLAN_ID = 5013464001
SIBLING_ID = 5013460780  # the spine's slice_comment_id
STAMP = "2026-07-18T22:20:00Z"
DIGEST_878 = "sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a"
SINGLE = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
COMMENT_PATH = f"/repos/{REPO}/issues/comments"
RID = " (request id F00D:1234:5678:9ABC:DEF0)"  # the fake's x-github-request-id


def lookup(
    fake: FakeGitHub | str,
    *extra: str,
    env: dict[str, str] | None = None,
    step: str = "s1",
    at: str = STAMP,
    repo: str = REPO,
) -> tuple[dict[str, object], int, float]:
    api = fake if isinstance(fake, str) else fake.url
    args = [
        "lookup",
        "--repo",
        repo,
        "--api-url",
        api,
        "--generated-at",
        at,
        "--step-id",
        step,
        "--format",
        "json",
        *extra,
    ]
    # In this process, on the fake's clock: a backoff is slept on it, not waited for, and
    # ``elapsed`` is the real time plus what was slept (what a real clock would show).
    clock = fake.clock if isinstance(fake, FakeGitHub) else FakeClock()
    started = time.monotonic()
    completed = run_cli_in_process(
        args, env=env if env is not None else clean_env(GITHUB_TOKEN=TOKEN), clock=clock
    )
    elapsed = time.monotonic() - started + clock.slept
    assert completed.stderr == b""
    return json.loads(completed.stdout), completed.returncode, elapsed


def serve_878(fake: FakeGitHub, sibling_issue: int = 878) -> None:
    fake.add_comment(PLAN_ID, PLAN, 878)
    fake.add_comment(SIBLING_ID, SIBLING, sibling_issue)


def test_one_get_without_a_sibling_with_auth_and_accept_headers(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    result, code, _ = lookup(
        fake_github,
        "--plan-comment-id",
        "7001",
        "--issue-number",
        "863",
        step="s2",
        at="2026-05-04T14:30:00Z",
    )
    assert (result["status"], code) == ("ok", 0)
    assert fake_github.paths() == [f"GET {COMMENT_PATH}/7001"]
    headers = fake_github.requests[0].headers
    assert headers["authorization"] == f"token {TOKEN}"
    assert headers["accept"] == "application/vnd.github+json"
    assert headers["x-github-api-version"] == "2022-11-28"
    assert headers["user-agent"] == "frame-spine-lookup/0.1.0"
    assert fake_github.requests[0].query == ""


def test_two_concurrent_gets_with_a_sibling(fake_github: FakeGitHub) -> None:
    serve_878(fake_github)
    fake_github.latency = 0.4
    result, code, _elapsed = lookup(
        fake_github,
        "--plan-comment-id",
        str(PLAN_ID),
        "--slices-comment-id",
        str(SIBLING_ID),
        "--issue-number",
        "878",
    )
    assert (result["status"], code, result["sibling_generated_at"]) == ("ok", 0, STAMP)
    assert sorted(fake_github.paths()) == sorted(
        [f"GET {COMMENT_PATH}/{PLAN_ID}", f"GET {COMMENT_PATH}/{SIBLING_ID}"]
    )
    first, second = fake_github.requests
    assert abs(first.at - second.at) < 0.3  # both were in flight together
    assert all(r.headers["authorization"] == f"token {TOKEN}" for r in fake_github.requests)


def test_auto_follows_the_spine_pointer_with_a_second_get(fake_github: FakeGitHub) -> None:
    serve_878(fake_github)
    result, code, _ = lookup(
        fake_github,
        "--plan-comment-id",
        str(PLAN_ID),
        "--slices-comment-id",
        "auto",
        "--issue-number",
        "878",
    )
    assert (result["status"], code) == ("ok", 0)
    assert fake_github.paths() == [
        f"GET {COMMENT_PATH}/{PLAN_ID}",
        f"GET {COMMENT_PATH}/{SIBLING_ID}",
    ]


def test_auto_without_a_pointer_makes_one_get(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    result, _, _ = lookup(
        fake_github,
        "--plan-comment-id",
        "7001",
        "--slices-comment-id",
        "AUTO",
        "--issue-number",
        "863",
        step="s2",
        at="2026-05-04T14:30:00Z",
    )
    assert result["status"] == "ok"
    assert fake_github.paths() == [f"GET {COMMENT_PATH}/7001"]


def test_split_plan_without_its_sibling_is_unstamped(fake_github: FakeGitHub) -> None:
    serve_878(fake_github)
    result, code, _ = lookup(
        fake_github, "--plan-comment-id", str(PLAN_ID), "--issue-number", "878"
    )
    assert (result["status"], code, result["slice_comment_id"]) == (
        "sibling-unstamped",
        1,
        "5013460780",
    )
    assert len(fake_github.requests) == 1


def test_enterprise_server_api_prefix(fake_github: FakeGitHub) -> None:
    fake_github.prefix = "/api/v3"
    fake_github.add_comment(7001, SINGLE, 863)
    result, _, _ = lookup(fake_github, "--plan-comment-id", "7001", step="s2", at="current")
    assert result["status"] == "ok"
    assert fake_github.paths() == [f"GET /api/v3{COMMENT_PATH}/7001"]


def test_api_url_and_token_fall_back_to_the_environment(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    env = clean_env(GITHUB_API_URL=fake_github.url, GH_TOKEN=TOKEN)
    completed = run_cli(
        [
            "lookup",
            "--repo",
            REPO,
            "--plan-comment-id",
            "7001",
            "--generated-at",
            "current",
            "--step-id",
            "s2",
            "--format",
            "json",
        ],
        env=env,
    )
    assert json.loads(completed.stdout)["status"] == "ok"
    assert fake_github.requests[0].headers["authorization"] == f"token {TOKEN}"


def test_plan_from_another_issue_by_issue_url(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, PLAN, 900)
    result, code, _ = lookup(
        fake_github, "--plan-comment-id", str(PLAN_ID), "--issue-number", "878"
    )
    assert (result, code) == (
        {
            "status": "plan-identity-mismatch",
            "message": f"plan comment {PLAN_ID} belongs to issue #900 (its issue_url), not to issue #878",
        },
        1,
    )


def test_sibling_from_another_issue_by_issue_url(fake_github: FakeGitHub) -> None:
    serve_878(fake_github, sibling_issue=879)
    result, code, _ = lookup(
        fake_github,
        "--plan-comment-id",
        str(PLAN_ID),
        "--slices-comment-id",
        str(SIBLING_ID),
        "--issue-number",
        "878",
    )
    assert (result, code) == (
        {
            "status": "sibling-identity-mismatch",
            "message": f"sibling comment {SIBLING_ID} belongs to issue #879 (its issue_url), not to issue #878",
            "spine_digest": DIGEST_878,
            "current_generated_at": STAMP,
        },
        1,
    )


def test_a_sibling_that_is_not_the_spine_pointer(fake_github: FakeGitHub) -> None:
    serve_878(fake_github)
    fake_github.add_comment(5013460999, SIBLING, 878)
    result, code, _ = lookup(
        fake_github,
        "--plan-comment-id",
        str(PLAN_ID),
        "--slices-comment-id",
        "5013460999",
        "--issue-number",
        "878",
    )
    assert (result, code) == (
        {
            "status": "sibling-identity-mismatch",
            "message": "sibling comment 5013460999 was given, but the plan's spine points at "
            "sibling comment 5013460780 (slice_comment_id)",
            "spine_digest": DIGEST_878,
            "current_generated_at": STAMP,
        },
        1,
    )
    assert len(fake_github.requests) == 2


@pytest.mark.parametrize(
    ("extra", "status", "message"),
    [
        ([], "comment-id-missing", "no plan comment id was given (--plan-comment-id)"),
        (
            ["--plan-comment-id", ""],
            "comment-id-missing",
            "no plan comment id was given (--plan-comment-id)",
        ),
        (
            ["--plan-comment-id", "12x"],
            "error",
            "--plan-comment-id '12x' is not a positive integer",
        ),
        (
            ["--plan-comment-id", "5", "--slices-comment-id", "0", "--issue-number", "1"],
            "error",
            "--slices-comment-id '0' is not a positive integer",
        ),
        (
            ["--plan-comment-id", "5", "--slices-comment-id", "auto"],
            "error",
            "a sibling comment was supplied without an issue number: --issue-number "
            "is required to check the sibling's identity",
        ),
        (
            ["--plan-comment-id", "5", "--timeout", "0"],
            "error",
            "--timeout '0' is not a whole number of seconds in 1..600",
        ),
        (
            ["--plan-comment-id", "5", "--max-wait", "1.5"],
            "error",
            "--max-wait '1.5' is not a whole number of seconds in 0..3600",
        ),
    ],
)
def test_bad_online_inputs_make_no_request(
    fake_github: FakeGitHub, extra: list[str], status: str, message: str
) -> None:
    result, code, _ = lookup(fake_github, *extra)
    assert (result, code) == ({"status": status, "message": message}, 1)
    assert fake_github.requests == []


def test_bad_repository_and_api_url_make_no_request(fake_github: FakeGitHub) -> None:
    result, _, _ = lookup(fake_github, "--plan-comment-id", "5", at="current", repo="not a repo")
    assert result == {
        "status": "error",
        "message": "--repo 'not a repo' is not OWNER/NAME",
    }
    result, _, _ = lookup("ftp://example.com", "--plan-comment-id", "5")
    assert result == {
        "status": "error",
        "message": "--api-url 'ftp://example.com' is not an http(s) URL",
    }
    assert fake_github.requests == []


# ---- faults: each with its exact status and a bounded run time ---------------------------------

WHAT = f"plan comment 7001 in {REPO}"


def fault_lookup(fake: FakeGitHub, *extra: str) -> tuple[dict[str, object], int, float]:
    fake.add_comment(7001, SINGLE, 863)
    return lookup(
        fake,
        "--plan-comment-id",
        "7001",
        "--issue-number",
        "863",
        *extra,
        step="s2",
        at="2026-05-04T14:30:00Z",
    )


def test_401_bad_credentials(fake_github: FakeGitHub) -> None:
    fake_github.token = "another-token"
    result, code, elapsed = fault_lookup(fake_github)
    assert (result, code) == (
        {
            "status": "gh-auth-expired",
            "message": f"{WHAT}: the token is invalid or expired (HTTP 401: Bad credentials){RID}",
        },
        1,
    )
    assert (len(fake_github.requests), elapsed < 10) == (1, True)


def test_403_permission_denied(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, error(403, "Resource not accessible by integration"))
    result, code, _ = fault_lookup(fake_github)
    assert (result, code) == (
        {
            "status": "gh-auth-expired",
            "message": f"{WHAT}: permission denied (HTTP 403: Resource not accessible by integration): "
            f"the token lacks issues: read on the repository{RID}",
        },
        1,
    )
    assert len(fake_github.requests) == 1


def test_403_rate_limited_with_a_far_reset_gives_up_at_once(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, forever=rate_limited_403(reset_in=3600, clock=fake_github.clock.time))
    result, code, elapsed = fault_lookup(fake_github)
    assert (result["status"], code) == ("gh-rate-limited", 1)
    message = str(result["message"])
    assert message.startswith(f"{WHAT}: rate limited by the GitHub API until 20")
    assert re.search(
        r"\(HTTP 403; waiting 3(599|600) s more would exceed max-wait 60 s\)"
        r" \(request id F00D:1234:5678:9ABC:DEF0\)$",
        message,
    )
    assert len(fake_github.requests) == 1
    assert elapsed < 10


def test_429_with_retry_after_then_success(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, too_many_requests(retry_after=1))
    result, code, elapsed = fault_lookup(fake_github)
    assert (result["status"], code) == ("ok", 0)
    assert len(fake_github.requests) == 2
    gap = fake_github.requests[1].at - fake_github.requests[0].at
    assert 0.9 <= gap < 5
    assert elapsed < 15


@pytest.mark.parametrize("status", [404, 410])
def test_404_and_410_are_comment_not_found(fake_github: FakeGitHub, status: int) -> None:
    fake_github.script(7001, error(status, "Not Found" if status == 404 else "Gone"))
    result, code, _ = fault_lookup(fake_github)
    assert (result, code) == (
        {
            "status": "comment-not-found",
            "message": f"{WHAT} was not found (HTTP {status}): check the comment id and repository, "
            f"and that the token can read the repository{RID}",
        },
        1,
    )
    assert len(fake_github.requests) == 1


def test_a_comment_that_does_not_exist(fake_github: FakeGitHub) -> None:
    result, code, _ = lookup(fake_github, "--plan-comment-id", "999")
    assert (result["status"], code) == ("comment-not-found", 1)


def test_500_then_200_is_retried(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, error(500, "Server Error"))
    result, code, elapsed = fault_lookup(fake_github)
    assert (result["status"], code) == ("ok", 0)
    assert len(fake_github.requests) == 2
    assert 0.9 <= fake_github.requests[1].at - fake_github.requests[0].at < 5
    assert elapsed < 15


def test_500_forever_is_an_error_after_three_attempts(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, forever=error(502, "Bad Gateway"))
    result, code, elapsed = fault_lookup(fake_github)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API answered HTTP 502 three times: Bad Gateway{RID}",
        },
        1,
    )
    times = [r.at for r in fake_github.requests]
    assert len(times) == 3
    assert 0.9 <= times[1] - times[0] < 3 and 1.9 <= times[2] - times[1] < 4
    assert elapsed < 20


@pytest.mark.serial  # times a deadline
def test_a_server_slower_than_the_timeout(fake_github: FakeGitHub) -> None:
    def slow(request: Request) -> Response:
        time.sleep(3)
        return error(500, "too late")(request)

    fake_github.script(7001, slow)
    result, code, elapsed = fault_lookup(fake_github, "--timeout", "1")
    assert (result, code) == (
        {"status": "error", "message": f"{WHAT}: the GitHub API did not answer within 1 s"},
        1,
    )
    assert len(fake_github.requests) == 1
    assert elapsed < 3


def test_a_200_html_page_is_an_error(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, html_page)
    result, code, _ = fault_lookup(fake_github)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API's answer is not JSON (it is text/html)",
        },
        1,
    )
    assert len(fake_github.requests) == 1


def test_a_null_body_is_an_empty_comment(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, None, 863)
    result, code, _ = lookup(fake_github, "--plan-comment-id", "7001", step="s2", at="current")
    assert (result, code) == (
        {"status": "missing-spine", "message": "no frame-spine block: the comment body is empty"},
        1,
    )


def test_connection_refused_is_an_error_after_three_attempts(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens on the port now.
    result, code, elapsed = lookup(f"http://127.0.0.1:{port}", "--plan-comment-id", "7001")
    assert (result, code) == (
        {
            "status": "error",
            "message": f"plan comment 7001 in {REPO}: cannot reach the GitHub API "
            "after three attempts (connection refused)",
        },
        1,
    )
    assert 2.5 < elapsed < 15


def test_the_sibling_fault_is_reported_when_the_plan_is_fine(fake_github: FakeGitHub) -> None:
    serve_878(fake_github)
    fake_github.script(SIBLING_ID, error(404, "Not Found"))
    result, code, _ = lookup(
        fake_github,
        "--plan-comment-id",
        str(PLAN_ID),
        "--slices-comment-id",
        str(SIBLING_ID),
        "--issue-number",
        "878",
    )
    assert (result["status"], code) == ("comment-not-found", 1)
    assert str(result["message"]).startswith(
        f"sibling comment {SIBLING_ID} in {REPO} was not found"
    )


def test_the_token_never_reaches_output(fake_github: FakeGitHub) -> None:
    fake_github.token = "another-token"
    completed = run_cli(
        [
            "lookup",
            "--repo",
            REPO,
            "--plan-comment-id",
            "7001",
            "--api-url",
            fake_github.url,
            "--generated-at",
            "current",
            "--step-id",
            "s1",
        ],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert TOKEN.encode() not in completed.stdout + completed.stderr


def test_several_short_rate_limits_are_waited_out(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, *[too_many_requests(retry_after=1)] * 3)
    result, code, elapsed = fault_lookup(fake_github)
    assert (result["status"], code) == ("ok", 0)
    assert len(fake_github.requests) == 4
    assert 2.9 <= elapsed < 20


@pytest.mark.parametrize("name", [".", ".."])
def test_dot_repository_names_are_refused(fake_github: FakeGitHub, name: str) -> None:
    result, _, _ = lookup(fake_github, "--plan-comment-id", "5", at="current", repo=f"octo/{name}")
    assert result == {
        "status": "error",
        "message": f"--repo 'octo/{name}' is not OWNER/NAME",
    }
    assert fake_github.requests == []


def test_an_answer_over_32_mib_is_refused_and_one_of_32_mib_is_read(
    fake_github: FakeGitHub,
) -> None:
    """Through the transport seam: the cap is on the body as answered (SPEC 6)."""
    limit = 32 * 1024 * 1024
    issue_url = f"{fake_github.url}/repos/{REPO}/issues/863"
    owner = {"user": {"login": "octo-maintainer"}, "author_association": "OWNER"}
    body = json.dumps({"id": 7001, "issue_url": issue_url, "body": SINGLE, **owner})
    fake_github.script(7001, raw(body.encode().ljust(limit + 1)), raw(body.encode().ljust(limit)))
    result, code, _ = fault_lookup(fake_github)
    assert (result["status"], code) == ("error", 1)
    assert result["message"].startswith(f"{WHAT}: the GitHub API's answer is larger than 32 MiB")
    result, _, _ = fault_lookup(fake_github)
    assert result["status"] == "ok"  # JSON ends at its last brace: the padding is blanks
