"""The wire, exactly (SPEC 6): every kind of real failure between the CLI and the REST API,
through the installed `frame-spine` against the loopback fake (real HTTP, real headers), each
with its exact status and message."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clock import FakeClock
from tests.conftest import CASES_DIR, clean_env, run_cli
from tests.fake_github import (
    OWNER,
    REPO,
    TOKEN,
    DripServer,
    FakeGitHub,
    LoopbackServer,
    dripping_body,
    error,
    gzip_bomb,
    http_answer,
    raw,
    redirect,
    retry_after_date,
    self_signed_tls,
    too_many_requests,
)
from tests.in_process import run_cli_in_process

#: The wire's own tests: the fake API answers on a real loopback socket.
pytestmark = pytest.mark.sockets

SINGLE = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
SINGLE_AT = "2026-05-04T14:30:00Z"
COMMENT_PATH = f"/repos/{REPO}/issues/comments"
WHAT = f"plan comment 7001 in {REPO}"
RID = " (request id F00D:1234:5678:9ABC:DEF0)"  # the fake's x-github-request-id on JSON
RAW_RID = " (request id F00D:RAW)"  # on raw answers
MOVED_RID = " (request id F00D:MOVED)"  # on redirects


def run_lookup(
    api: str,
    *extra: str,
    env: dict[str, str] | None = None,
    step: str = "s2",
    clock: FakeClock | None = None,
) -> tuple[dict[str, Any], int, float, bytes]:
    """`frame-spine lookup --repo ... --plan-comment-id 7001`; (result, exit, seconds, stderr).

    In this process, on ``clock`` (the fake's, when its answers read the time): the seconds
    are the real ones plus what was slept on the clock."""
    args = ["lookup", "--repo", REPO, "--api-url", api, "--plan-comment-id", "7001"]
    args += ["--generated-at", SINGLE_AT, "--step-id", step, "--format", "json", *extra]
    clock = clock or FakeClock()
    started = time.monotonic()
    completed = run_cli_in_process(
        args, env=env if env is not None else clean_env(GITHUB_TOKEN=TOKEN), clock=clock
    )
    elapsed = time.monotonic() - started + clock.slept
    return json.loads(completed.stdout), completed.returncode, elapsed, completed.stderr


def expected_slice() -> str:
    """The s2 slice of the single-comment plan, as a plain offline lookup reports it."""
    completed = run_cli_in_process(
        [
            "lookup",
            "--plan-body",
            str(CASES_DIR / "ok-single-comment" / "plan.md"),
            "--generated-at",
            SINGLE_AT,
            "--step-id",
            "s2",
            "--format",
            "json",
        ]
    )
    return str(json.loads(completed.stdout)["slice"])


def comment_bytes(fake: FakeGitHub, text: str | None, **changes: Any) -> bytes:
    payload = dict(fake.add_comment(7001, text, 863))
    payload.update(changes)
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


@pytest.fixture
def other_github() -> Iterator[FakeGitHub]:
    """A second fake on another port: another origin, which must never be asked anything."""
    server = LoopbackServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        yield FakeGitHub(server)
    finally:
        server.clear()
        server.stop()


# ---- the body is UTF-8, whatever Content-Type says ---------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/html", "application/octet-stream", "application/json", None],
)
def test_json_without_a_charset_is_decoded_as_utf8(
    fake_github: FakeGitHub, content_type: str | None
) -> None:
    marked = SINGLE.replace("GREEN", "GRÜN für €")
    fake_github.script(7001, raw(comment_bytes(fake_github, marked), content_type))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result["status"], code) == ("ok", 0)
    assert result["slice"] == expected_slice().replace("GREEN", "GRÜN für €")
    assert "Ã" not in str(result["slice"])


def test_an_answer_that_is_not_utf8_is_an_error_naming_the_offset(fake_github: FakeGitHub) -> None:
    data = comment_bytes(fake_github, "plain MARK text")
    offset = data.index(b"MARK")
    fake_github.script(7001, raw(data.replace(b"MARK", b"\xffARK"), "text/plain"))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API's answer is not UTF-8 (byte 0xff at offset "
            f"{offset}){RAW_RID}",
        },
        1,
    )


def test_unpaired_surrogates_become_replacement_characters(fake_github: FakeGitHub) -> None:
    marked = SINGLE.replace("GREEN", "GREEN MARK")
    data = comment_bytes(fake_github, marked).replace(b"MARK", b"\\ud800 and \\uDFFF")
    fake_github.script(7001, raw(data), forever=raw(data))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result["status"], code) == ("ok", 0)
    assert result["slice"] == expected_slice().replace("GREEN", "GREEN \ufffd and \ufffd")
    text = run_cli(
        [
            "lookup",
            "--repo",
            REPO,
            "--api-url",
            fake_github.url,
            "--plan-comment-id",
            "7001",
            "--generated-at",
            SINGLE_AT,
            "--step-id",
            "s2",
        ],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert text.returncode == 0
    assert "GREEN \ufffd and \ufffd" in text.stdout.decode("utf-8")  # valid UTF-8 throughout


def test_a_utf8_bom_before_the_json_is_skipped(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, raw(b"\xef\xbb\xbf" + comment_bytes(fake_github, SINGLE)))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result["status"], code) == ("ok", 0)


# ---- body null, absent or of another type; answers that are not a JSON object ------------------


@pytest.mark.parametrize("absent", [False, True])
@pytest.mark.parametrize(
    ("issue", "expected"),
    [
        (
            [],
            {
                "status": "missing-spine",
                "message": "no frame-spine block: the comment body is empty",
            },
        ),
        (
            ["--issue-number", "863"],
            {
                "status": "plan-identity-mismatch",
                "message": "the plan comment is empty, so it carries no <!-- plan-issue-863 --> line",
            },
        ),
    ],
)
def test_a_null_or_absent_body_is_the_empty_body(
    fake_github: FakeGitHub, absent: bool, issue: list[str], expected: dict[str, str]
) -> None:
    payload = json.loads(comment_bytes(fake_github, None))
    if absent:
        del payload["body"]
    fake_github.script(7001, raw(json.dumps(payload).encode()))
    result, code, _, _ = run_lookup(fake_github.url, *issue)
    assert (result, code) == (expected, 1)


@pytest.mark.parametrize(
    ("body", "named"),
    [(5, "a number"), (["a"], "a list"), ({"a": 1}, "an object"), (True, "true or false")],
)
def test_a_body_of_another_json_type_is_an_error(
    fake_github: FakeGitHub, body: object, named: str
) -> None:
    fake_github.script(7001, raw(comment_bytes(fake_github, "x", body=body)))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API's answer is not an issue comment: its body is "
            f"{named}, not text or null{RAW_RID}",
        },
        1,
    )


@pytest.mark.parametrize(
    ("data", "named"),
    [(b"[]", "a list"), (b'"text"', "text"), (b"12", "a number"), (b"null", "null")],
)
def test_an_answer_that_is_not_a_json_object_is_an_error(
    fake_github: FakeGitHub, data: bytes, named: str
) -> None:
    fake_github.script(7001, raw(data))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API's answer is {named}, not an issue comment{RAW_RID}",
        },
        1,
    )


@pytest.mark.parametrize(
    "data",
    [b'{"id": 7001, "body": "x"', b"", b"[" * 200_000, b'{"id": ' + b"9" * 5000 + b"}"],
    ids=["truncated", "empty", "deeply-nested", "huge-number"],
)
def test_an_answer_that_is_not_json_is_an_error(fake_github: FakeGitHub, data: bytes) -> None:
    fake_github.script(7001, raw(data))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {"status": "error", "message": f"{WHAT}: the GitHub API's answer is not JSON{RAW_RID}"},
        1,
    )


def test_a_missing_field_is_named(fake_github: FakeGitHub) -> None:
    payload = json.loads(comment_bytes(fake_github, "x"))
    del payload["issue_url"]
    fake_github.script(7001, raw(json.dumps(payload).encode()))
    result, _, _, _ = run_lookup(fake_github.url)
    assert result["message"] == (
        f"{WHAT}: the GitHub API's answer is not an issue comment: its issue_url is missing"
        f"{RAW_RID}"
    )


# ---- the answer must be the comment asked for ---------------------------------------------------


def test_an_answer_with_another_id_is_an_error(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, raw(comment_bytes(fake_github, SINGLE, id=7002)))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API answered with another comment (id 7002){RAW_RID}",
        },
        1,
    )


@pytest.mark.parametrize(
    "issue_url",
    [
        "https://api.github.com/repos/octo-org/other/issues/863",
        "https://api.github.com/repos/evil/plans/issues/863",
        "https://api.github.com/repos/octo-org/plans/pulls/863",
        "https://api.github.com/repos/octo-org/plans/issues/863/comments",
        "not a url",
    ],
)
def test_an_answer_whose_issue_url_is_not_an_issue_of_the_repository_is_an_error(
    fake_github: FakeGitHub, issue_url: str
) -> None:
    fake_github.script(7001, raw(comment_bytes(fake_github, SINGLE, issue_url=issue_url)))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API answered with another comment (its issue_url "
            f"{issue_url!r} is not an issue of {REPO}){RAW_RID}",
        },
        1,
    )


@pytest.mark.parametrize(
    "issue_url",
    [
        "https://api.github.com/repos/Octo-Org/PLANS/issues/863",
        "https://ghe.example.com/api/v3/repos/octo-org/plans/issues/863",
        "https://api.github.com/repos/octo-org/plans/issues/863/",
    ],
)
def test_issue_urls_compare_case_insensitively_and_allow_the_enterprise_prefix(
    fake_github: FakeGitHub, issue_url: str
) -> None:
    fake_github.script(7001, raw(comment_bytes(fake_github, SINGLE, issue_url=issue_url)))
    result, code, _, _ = run_lookup(fake_github.url, "--issue-number", "863")
    assert (result["status"], code) == ("ok", 0)


# ---- retry-after as an HTTP-date; far-future resets -------------------------------------------


def test_retry_after_as_an_http_date_is_waited_out(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.script(7001, retry_after_date(2, clock=fake_github.clock.time))
    result, code, elapsed, _ = run_lookup(fake_github.url, clock=fake_github.clock)
    assert (result["status"], code) == ("ok", 0)
    gap = fake_github.requests[1].at - fake_github.requests[0].at
    assert 0.9 <= gap < 4  # the date has whole seconds: 1-2 s, never the 60 s fallback
    assert elapsed < 10


def test_retry_after_http_date_beyond_max_wait_gives_the_reset_instant(
    fake_github: FakeGitHub,
) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.script(7001, retry_after_date(120, clock=fake_github.clock.time))
    result, code, _, _ = run_lookup(fake_github.url, clock=fake_github.clock)
    assert (result["status"], code) == ("gh-rate-limited", 1)
    assert re.fullmatch(
        rf"{WHAT}: rate limited by the GitHub API until 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ "
        r"\(HTTP 429; waiting 1(19|20) s more would exceed max-wait 60 s\)" + re.escape(RID),
        str(result["message"]),
    )
    assert len(fake_github.requests) == 1


@pytest.mark.parametrize(
    "responder",
    [
        too_many_requests(999_999_999_999),
        error(
            403,
            "API rate limit exceeded",
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "99999999999999"},
        ),
        error(429, "slow down", {"retry-after": "9" * 40}),
    ],
    ids=["retry-after", "reset", "retry-after-40-digits"],
)
def test_a_far_future_reset_is_rate_limited_never_an_overflow(
    fake_github: FakeGitHub, responder: Any
) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.script(7001, responder)
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result["status"], code) == ("gh-rate-limited", 1)
    assert str(result["message"]).startswith(
        f"{WHAT}: rate limited by the GitHub API until after 9999-12-31T23:59:59Z (HTTP 4"
    )
    assert len(fake_github.requests) == 1


def test_malformed_rate_limit_headers_do_not_break_the_client(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    headers = {
        "x-ratelimit-remaining": "lots",
        "x-ratelimit-limit": "1e999",
        "x-ratelimit-reset": "?",
    }
    fake_github.script(7001, raw(comment_bytes(fake_github, SINGLE), headers=headers))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result["status"], code) == ("ok", 0)


# ---- redirects: same origin only, at most 3 hops, never a loop --------------------------------


@pytest.mark.parametrize("status", [301, 302, 307, 308])
@pytest.mark.parametrize("absolute", [True, False])
def test_same_origin_redirects_are_followed(
    fake_github: FakeGitHub, status: int, absolute: bool
) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.repository_ids[42] = REPO
    target = "/repositories/42/issues/comments/7001"
    fake_github.script(7001, redirect(status, (fake_github.url if absolute else "") + target))
    result, code, _, _ = run_lookup(fake_github.url, "--issue-number", "863")
    assert (result["status"], code) == ("ok", 0)
    assert fake_github.paths() == [f"GET {COMMENT_PATH}/7001", f"GET {target}"]
    assert all(r.headers["authorization"] == f"token {TOKEN}" for r in fake_github.requests)


def test_a_renamed_repository_compares_only_the_issue_number(fake_github: FakeGitHub) -> None:
    # GitHub answers 301 to /repositories/{id}/...; the comment then names the new repository.
    fake_github.add_comment(7001, SINGLE, 863, repo="new-org/renamed")
    fake_github.repository_ids[42] = "new-org/renamed"
    fake_github.script(
        7001, redirect(301, f"{fake_github.url}/repositories/42/issues/comments/7001")
    )
    result, code, _, _ = run_lookup(fake_github.url, "--issue-number", "863")
    assert (result["status"], code) == ("ok", 0)

    fake_github.script(
        7001, redirect(301, f"{fake_github.url}/repositories/42/issues/comments/7001")
    )
    result, code, _, _ = run_lookup(fake_github.url, "--issue-number", "864")
    assert (result, code) == (
        {
            "status": "plan-identity-mismatch",
            "message": "plan comment 7001 belongs to issue #863 (its issue_url), not to issue #864",
        },
        1,
    )


def test_without_a_redirect_a_comment_of_the_renamed_repository_is_another_comment(
    fake_github: FakeGitHub,
) -> None:
    fake_github.add_comment(7001, SINGLE, 863, repo="new-org/renamed")
    fake_github.script(
        7001, raw(json.dumps(fake_github.comments[("new-org/renamed", 7001)]).encode())
    )
    result, _, _, _ = run_lookup(fake_github.url)
    assert str(result["message"]).startswith(
        f"{WHAT}: the GitHub API answered with another comment"
    )


def test_three_redirect_hops_are_followed_and_a_fourth_is_an_error(
    fake_github: FakeGitHub,
) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.repository_ids[42] = REPO
    fake_github.script(7001, redirect(307, f"{COMMENT_PATH}/7002"))
    fake_github.script(7002, redirect(307, f"{COMMENT_PATH}/7003"))
    fake_github.script(7003, redirect(307, "/repositories/42/issues/comments/7001"))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result["status"], code) == ("ok", 0)
    assert len(fake_github.requests) == 4  # the request and three hops, each counted

    fake_github.requests.clear()
    for hop in (7001, 7002, 7003, 7004):
        fake_github.script(hop, redirect(307, f"{COMMENT_PATH}/{hop + 1}"))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API redirected more than 3 times{MOVED_RID}",
        },
        1,
    )
    assert len(fake_github.requests) == 4  # the 4th redirect is not followed


@pytest.mark.parametrize("loop", [[7001], [7002, 7001]], ids=["to-itself", "a-to-b-to-a"])
def test_a_redirect_loop_stops_with_error(fake_github: FakeGitHub, loop: list[int]) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    start = 7001
    for target in loop:
        fake_github.script(
            start, forever=redirect(301, f"{fake_github.url}{COMMENT_PATH}/{target}")
        )
        start = target
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API redirected in a loop (back to "
            f"'{COMMENT_PATH}/7001'){MOVED_RID}",
        },
        1,
    )
    assert len(fake_github.requests) == len(loop)


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_to_another_origin_is_never_followed(
    fake_github: FakeGitHub, other_github: FakeGitHub, status: int
) -> None:
    other_github.add_comment(7001, SINGLE, 863)
    host = other_github.url.split("//", 1)[1]
    fake_github.script(7001, redirect(status, f"{other_github.url}{COMMENT_PATH}/7001"))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API redirected to another origin (http://{host}): "
            f"not followed, and the token was not sent there{MOVED_RID}",
        },
        1,
    )
    assert other_github.requests == []
    assert len(fake_github.requests) == 1


@pytest.mark.parametrize(
    ("location", "named"),
    [
        ("http://evil.example/repos/x", "another host (evil.example)"),
        ("https://127.0.0.1:{port}/x", "another origin (https://127.0.0.1:{port})"),
        ("//evil.example:8443/x", "another host (evil.example:8443)"),
    ],
)
def test_a_redirect_names_the_other_host(
    fake_github: FakeGitHub, location: str, named: str
) -> None:
    port = fake_github.server.port
    fake_github.script(7001, redirect(302, location.format(port=port)))
    result, _, _, _ = run_lookup(fake_github.url)
    assert result["message"] == (
        f"{WHAT}: the GitHub API redirected to {named.format(port=port)}: not followed, and the "
        f"token was not sent there{MOVED_RID}"
    )


@pytest.mark.parametrize(
    "location", ["http://[::1/x", "http://127.0.0.1:99999/x", "/a b", "/a\x01b", "https:///x"]
)
def test_a_redirect_to_an_unusable_location_is_an_error(location: str) -> None:
    moved = http_answer(301, b"", {"location": location, "x-github-request-id": "F00D:MOVED"})
    server = DripServer(moved)
    try:
        result, code, _, _ = run_lookup(server.url)
    finally:
        server.stop()
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API redirected to an unusable location{MOVED_RID}",
        },
        1,
    )
    assert server.requests == 1


def test_http_202_is_an_error_not_an_endless_wait(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, forever=raw(b"{}", status=202))
    result, code, elapsed, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API answered HTTP 202: accepted, not answered{RAW_RID}",
        },
        1,
    )
    assert len(fake_github.requests) == 1
    assert elapsed < 5


# ---- pagination: same origin only, never a loop -------------------------------------------------


def listing(fake: FakeGitHub, *args: str) -> tuple[dict[str, Any], int]:
    command = [*args, "--repo", REPO, "--api-url", fake.url, "--format", "json"]
    completed = run_cli_in_process(command, env=clean_env(GITHUB_TOKEN=TOKEN))
    return json.loads(completed.stdout), completed.returncode


VALIDATE = ("validate", "--issue-number", "878")
AUDIT = ("audit", "--state", "all")
WHAT_OF = {
    VALIDATE: f"the comments of issue #878 in {REPO}",
    AUDIT: f"the issue comments of {REPO}",
}
PAGE_PATH = {
    VALIDATE: f"/repos/{REPO}/issues/878/comments",
    AUDIT: f"/repos/{REPO}/issues/comments",
}


@pytest.mark.parametrize("command", [VALIDATE, AUDIT], ids=["validate", "audit"])
def test_a_pagination_link_to_another_origin_is_never_followed(
    fake_github: FakeGitHub, other_github: FakeGitHub, command: tuple[str, ...]
) -> None:
    link = f'<{other_github.url}{PAGE_PATH[command]}?per_page=100&page=2>; rel="next"'
    fake_github.script(0, raw(b"[]", headers={"link": link}))
    result, code = listing(fake_github, *command)
    host = other_github.url.split("//", 1)[1]
    assert (result["status"], result["message"], code) == (
        "error",
        f"{WHAT_OF[command]}: a pagination link of the GitHub API points to another origin "
        f"(http://{host}): not followed, and the token was not sent there{RAW_RID}",
        1,
    )
    assert other_github.requests == []


@pytest.mark.parametrize("command", [VALIDATE, AUDIT], ids=["validate", "audit"])
@pytest.mark.parametrize("back_to", ["itself", "the first page"])
def test_a_pagination_link_loop_stops_with_error(
    fake_github: FakeGitHub, command: tuple[str, ...], back_to: str
) -> None:
    path = PAGE_PATH[command]
    second = f'<{fake_github.url}{path}?page=2&per_page=100>; rel="next"'
    first = f'<{fake_github.url}{path}?per_page=100>; rel="next"'
    if back_to == "itself":
        fake_github.script(0, forever=raw(b"[]", headers={"link": second}))
        shown, pages = f"{path}?page=2&per_page=100", 2
    else:
        fake_github.script(
            0, raw(b"[]", headers={"link": second}), forever=raw(b"[]", headers={"link": first})
        )
        shown, pages = f"{path}?per_page=100", 2
    result, code = listing(fake_github, *command)
    assert (result["status"], result["message"], code) == (
        "error",
        f"{WHAT_OF[command]}: a pagination link of the GitHub API loops back to a page already "
        f"fetched ({shown!r}){RAW_RID}",
        1,
    )
    assert len(fake_github.requests) == pages


def test_the_issue_listing_of_an_audit_stops_on_a_link_loop_too(fake_github: FakeGitHub) -> None:
    path = f"/repos/{REPO}/issues"
    loop = f'<{fake_github.url}{path}?per_page=100&state=open>; rel="next"'
    fake_github.script(-1, forever=raw(b"[]", headers={"link": loop}))
    result, code = listing(fake_github, "audit")
    assert (result["status"], result["message"], code) == (
        "error",
        f"the open issues of {REPO}: a pagination link of the GitHub API loops back to a page "
        f"already fetched ('{path}?per_page=100&state=open'){RAW_RID}",
        1,
    )
    assert len(fake_github.requests) == 1


def test_a_listing_with_comments_of_another_repository_is_an_error(
    fake_github: FakeGitHub,
) -> None:
    stray = fake_github.add_comment(5, "hello", 3, repo="evil/other")
    fake_github.script(0, raw(json.dumps([stray]).encode()))
    result, code = listing(fake_github, *AUDIT)
    assert (result["status"], result["message"], code) == (
        "error",
        f"the issue comments of {REPO}: the GitHub API listed another comment (comment 5: its "
        f"issue_url {stray['issue_url']!r} is not an issue of {REPO}){RAW_RID}",
        1,
    )


def test_an_issue_listing_with_comments_of_another_issue_is_an_error(
    fake_github: FakeGitHub,
) -> None:
    stray = fake_github.add_comment(5, "hello", 3)
    fake_github.script(0, raw(json.dumps([stray]).encode()))
    result, _ = listing(fake_github, *VALIDATE)
    assert result["message"] == (
        f"the comments of issue #878 in {REPO}: the GitHub API listed another comment (comment 5:"
        f" its issue_url {stray['issue_url']!r} is not issue #878){RAW_RID}"
    )


# ---- timeouts bound the whole request -----------------------------------------------------------


@pytest.mark.serial  # times a deadline
def test_a_dripping_body_ends_at_the_timeout(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, dripping_body(comment_bytes(fake_github, SINGLE), 0.5))
    result, code, elapsed, _ = run_lookup(fake_github.url, "--timeout", "2")
    assert (result, code) == (
        {"status": "error", "message": f"{WHAT}: the GitHub API did not answer within 2 s"},
        1,
    )
    assert len(fake_github.requests) == 1  # a timed-out request is not retried
    assert 1.9 < elapsed < 5


@pytest.mark.serial  # times a deadline
def test_dripping_headers_end_at_the_timeout() -> None:
    answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
    server = DripServer(answer, 0.5)
    try:
        result, code, elapsed, _ = run_lookup(server.url, "--timeout", "2")
        assert (result, code) == (
            {"status": "error", "message": f"{WHAT}: the GitHub API did not answer within 2 s"},
            1,
        )
        assert server.requests == 1
        assert 1.9 < elapsed < 5
    finally:
        server.stop()


@pytest.mark.serial  # times a deadline
def test_dripping_over_tls_ends_at_the_timeout(tmp_path: Path) -> None:
    context, cert = self_signed_tls(tmp_path)
    answer = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"
    server = DripServer(answer, 0.5, tls=context)
    try:
        env = clean_env(GITHUB_TOKEN=TOKEN, REQUESTS_CA_BUNDLE=cert)
        result, code, elapsed, _ = run_lookup(server.url, "--timeout", "2", env=env)
        assert (result, code) == (
            {"status": "error", "message": f"{WHAT}: the GitHub API did not answer within 2 s"},
            1,
        )
        assert 1.9 < elapsed < 5
    finally:
        server.stop()


@pytest.fixture
def tls_github(tmp_path: Path) -> Iterator[tuple[FakeGitHub, str]]:
    """The fake over HTTPS (a self-signed certificate) and the certificate's path."""
    context, cert = self_signed_tls(tmp_path)
    server = LoopbackServer(host="localhost", port=0, ssl_context=context, threaded=True)
    server.start()
    try:
        yield FakeGitHub(server), cert
    finally:
        server.clear()
        server.stop()


def kept_alive_listing(tmp_path: Path, tls: bool, second_page_drips: bool) -> DripServer:
    """A keep-alive server for validate's discovery listing: page 1 links to page 2."""
    context, _ = self_signed_tls(tmp_path) if tls else (None, "")
    server = DripServer(tls=context, keep_alive=True)
    link = f'<{server.url}{PAGE_PATH[VALIDATE]}?per_page=100&page=2>; rel="next"'
    server.answers = [
        (http_answer(200, b"[]", {"link": link}), 0.0),
        (http_answer(200, b"[]"), 0.5 if second_page_drips else 0.0),
    ]
    return server


@pytest.mark.parametrize("tls", [False, True], ids=["http", "https"])
def test_listing_pages_share_one_kept_alive_connection(tmp_path: Path, tls: bool) -> None:
    server = kept_alive_listing(tmp_path, tls, second_page_drips=False)
    try:
        completed = run_cli(
            [*VALIDATE, "--repo", REPO, "--api-url", server.url, "--format", "json"],
            env=clean_env(GITHUB_TOKEN=TOKEN, REQUESTS_CA_BUNDLE=f"{tmp_path}/cert.pem"),
        )
        assert json.loads(completed.stdout)["status"] == "invalid"
        assert (server.requests, server.connections) == (2, 1)
    finally:
        server.stop()


@pytest.mark.serial  # times a deadline
@pytest.mark.parametrize("tls", [False, True], ids=["http", "https"])
def test_a_kept_alive_connection_is_bounded_by_the_timeout_too(tmp_path: Path, tls: bool) -> None:
    server = kept_alive_listing(tmp_path, tls, second_page_drips=True)
    try:
        started = time.monotonic()
        completed = run_cli(
            [
                *VALIDATE,
                "--repo",
                REPO,
                "--api-url",
                server.url,
                "--timeout",
                "2",
                "--format",
                "json",
            ],
            env=clean_env(GITHUB_TOKEN=TOKEN, REQUESTS_CA_BUNDLE=f"{tmp_path}/cert.pem"),
        )
        elapsed = time.monotonic() - started
        result = json.loads(completed.stdout)
        assert (result["status"], result["message"]) == (
            "error",
            f"the comments of issue #878 in {REPO}: the GitHub API did not answer within 2 s",
        )
        assert (server.requests, server.connections) == (2, 1)
        assert 1.9 < elapsed < 5
    finally:
        server.stop()


def test_an_auto_sibling_reuses_the_kept_alive_connection(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    server = DripServer(keep_alive=True)

    def answer(comment_id: int, body: str) -> bytes:
        payload = {
            "id": comment_id,
            "body": body,
            "issue_url": f"{server.url}/repos/{REPO}/issues/878",
            "html_url": f"https://github.com/{REPO}/issues/878#issuecomment-{comment_id}",
            "user": OWNER.payload(),
            "author_association": OWNER.association,
        }
        return http_answer(200, json.dumps(payload).encode(), {"content-type": "application/json"})

    server.answers = [
        (answer(5013464001, (examples / "plan-878.md").read_text("utf-8")), 0.0),
        (answer(5013460780, (examples / "sibling-878.md").read_text("utf-8")), 0.0),
    ]
    try:
        completed = run_cli(
            [
                "lookup",
                "--repo",
                REPO,
                "--api-url",
                server.url,
                "--plan-comment-id",
                "5013464001",
                "--slices-comment-id",
                "auto",
                "--issue-number",
                "878",
                "--step-id",
                "s1",
                "--generated-at",
                "2026-07-18T22:20:00Z",
                "--format",
                "json",
            ],
            env=clean_env(GITHUB_TOKEN=TOKEN),
        )
        assert json.loads(completed.stdout)["status"] == "ok"
        assert (server.requests, server.connections) == (2, 1)
    finally:
        server.stop()


def test_an_untrusted_tls_certificate_is_an_error_in_words(
    tls_github: tuple[FakeGitHub, str],
) -> None:
    fake, _cert = tls_github
    result, code, _, _ = run_lookup(fake.url)  # the certificate is not trusted
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the server's TLS certificate is not trusted (it is "
            "self-signed): set REQUESTS_CA_BUNDLE, or SSL_CERT_FILE / SSL_CERT_DIR, to the "
            "certificates of the CA that signed it (a TLS-inspecting proxy's CA, a GitHub "
            "Enterprise Server's private CA)",
        },
        1,
    )  # not retried: tests/github/test_tls.py counts the attempts


@pytest.mark.parametrize(
    ("answer", "detail"),
    [
        (b"", "the connection closed before an answer"),
        (b"SSH-2.0-OpenSSH_9.6\r\n\r\n", "the answer is not valid HTTP"),
        (
            b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{",
            "the connection closed before the whole answer",
        ),
    ],
    ids=["closed", "not-http", "cut-short"],
)
def test_broken_connections_are_named_in_words(answer: bytes, detail: str) -> None:
    server = DripServer(answer, 0.0)
    try:
        result, code, _, _ = run_lookup(server.url)
        assert (result, code) == (
            {
                "status": "error",
                "message": f"{WHAT}: cannot reach the GitHub API after three attempts ({detail})",
            },
            1,
        )
        assert server.requests == 3
    finally:
        server.stop()


# ---- bounded memory: 32 MiB after decompression -----------------------------------------------


def test_an_answer_over_32_mib_after_decompression_is_an_error(fake_github: FakeGitHub) -> None:
    fake_github.script(7001, gzip_bomb(64 << 20))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {"status": "error", "message": f"{WHAT}: the GitHub API's answer is larger than 32 MiB"},
        1,
    )
    assert len(fake_github.requests) == 1


def test_an_answer_just_under_32_mib_is_read(fake_github: FakeGitHub) -> None:
    body = "x" * ((32 << 20) - 4096)
    fake_github.add_comment(7001, body, 863)
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result["status"], code) == ("missing-spine", 1)


def test_corrupt_compressed_data_is_an_error(fake_github: FakeGitHub) -> None:
    # A gzip header, then a deflate block of the reserved type 3: "invalid block type".
    corrupt = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff"
    fake_github.script(7001, raw(corrupt, headers={"content-encoding": "gzip"}))
    result, code, _, _ = run_lookup(fake_github.url)
    assert (result, code) == (
        {
            "status": "error",
            "message": f"{WHAT}: the GitHub API's answer is not valid 'gzip' compressed data"
            f"{RAW_RID}",
        },
        1,
    )


# ---- an api-url that parses but cannot be used --------------------------------------------------


@pytest.mark.parametrize(
    ("api_url", "why"),
    [
        ("http://127.0.0.1:99999", "its port is not a number in 1..65535"),
        ("http://127.0.0.1:0", "its port is not a number in 1..65535"),
        ("http://[::1", "its IPv6 address in brackets is broken"),
        ("http://[fe80::zz]/api", "its IPv6 address in brackets is broken"),
        ("http://[::1]]:80", "its host '[::1]]:80' is not a host name or an address"),
    ],
)
@pytest.mark.parametrize("mode", ["lookup", "validate", "audit"])
def test_an_api_url_that_cannot_be_used_is_an_error_without_a_request(
    api_url: str, why: str, mode: str
) -> None:
    args = {
        "lookup": [
            "lookup",
            "--plan-comment-id",
            "5",
            "--generated-at",
            "current",
            "--step-id",
            "s1",
        ],
        "validate": ["validate", "--plan-comment-id", "5"],
        "audit": ["audit"],
    }[mode]
    completed = run_cli(
        [*args, "--repo", REPO, "--api-url", api_url, "--format", "json"],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    result = json.loads(completed.stdout)
    assert (result["status"], result["message"], completed.returncode) == (
        "error",
        f"--api-url {api_url!r} cannot be used: {why}",
        1,
    )


# A user name, password, query or fragment, and plain http: tests/github/test_api_url.py.


# ---- debug lines (SPEC 8) ------------------------------------------------------------------------

LINE = re.compile(
    r"GET (?P<path>\S+) -> (?P<status>\d+|no answer) in \d+ ms "
    r"\(rate limit remaining (?P<remaining>\S+), request id (?P<rid>\S+)\)"
)


def log_lines(stderr: bytes) -> list[tuple[str, str, str, str]]:
    lines = stderr.decode("utf-8").splitlines()
    assert lines[:1] == ["token: from GITHUB_TOKEN"]  # where the token came from, first
    lines = lines[1:]
    matches = [LINE.fullmatch(line) for line in lines]
    assert all(matches), lines
    return [(m["path"], m["status"], m["remaining"], m["rid"]) for m in matches if m]


def test_verbose_logs_every_attempt_and_every_redirect_hop(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    fake_github.repository_ids[42] = REPO
    fake_github.script(
        7001, error(502, "Bad Gateway"), redirect(308, "/repositories/42/issues/comments/7001")
    )
    result, code, _, stderr = run_lookup(fake_github.url, "--verbose")
    assert (result["status"], code) == ("ok", 0)
    assert log_lines(stderr) == [
        (f"{COMMENT_PATH}/7001", "502", "4999", "F00D:1234:5678:9ABC:DEF0"),
        (f"{COMMENT_PATH}/7001", "308", "-", "F00D:MOVED"),
        ("/repositories/42/issues/comments/7001", "200", "4999", "F00D:1234:5678:9ABC:DEF0"),
    ]
    assert len(fake_github.requests) == 3


def test_verbose_logs_a_request_without_an_answer() -> None:
    server = DripServer(b"HTTP/1.1 200 OK\r\n\r\n", 0.5)
    try:
        _, _, _, stderr = run_lookup(server.url, "--verbose", "--timeout", "1")
    finally:
        server.stop()
    assert log_lines(stderr) == [(f"{COMMENT_PATH}/7001", "no answer", "-", "-")]


@pytest.mark.parametrize("command", [VALIDATE, AUDIT], ids=["validate", "audit"])
def test_verbose_logs_listing_pages(fake_github: FakeGitHub, command: tuple[str, ...]) -> None:
    for n in range(150):
        fake_github.add_comment(1000 + n, "chatter", 878)
    completed = run_cli(
        [*command, "--repo", REPO, "--api-url", fake_github.url, "--verbose"],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    paths = [path for path, _, _, _ in log_lines(completed.stderr)]
    # GitHub links page 2 on under the repository's id (the fake gives octo-org/plans 1001).
    later = PAGE_PATH[command].replace(f"/repos/{REPO}/", "/repositories/1001/")
    assert paths == [
        f"{PAGE_PATH[command]}?per_page=100",
        f"{later}?page=2&per_page=100",
    ]


def test_without_verbose_nothing_is_logged(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    _, _, _, stderr = run_lookup(fake_github.url)
    assert stderr == b""
