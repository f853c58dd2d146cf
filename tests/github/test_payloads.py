"""Reading the API's answers (SPEC 6 "The wire, exactly"), API URL origins, and debug lines:
pure functions, exact values."""

from __future__ import annotations

import json
from typing import Any

import pytest

from frame_spine.core.trust import Author, Permission
from frame_spine.github.payloads import (
    FetchedComment,
    Unusable,
    api_message,
    decode_json,
    issue_url_problem,
    read_comment,
    read_comment_page,
    read_issue_numbers,
    read_permission,
)
from frame_spine.github.request_log import RequestRecord, request_log_line
from frame_spine.github.urls import Origin

REPO = "octo-org/plans"
ISSUE_URL = f"https://api.github.com/repos/{REPO}/issues/863"


def comment(**changes: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": 7001,
        "body": "text",
        "issue_url": ISSUE_URL,
        "html_url": f"https://github.com/{REPO}/issues/863#issuecomment-7001",
        "updated_at": "2026-07-18T22:21:00Z",
        "user": {"login": "planner-bot"},
    }
    payload.update(changes)
    return payload


def read(payload: Any, *, redirected: bool = False, raw: bytes | None = None) -> Any:
    data = raw if raw is not None else json.dumps(payload).encode()
    return read_comment(data, "", comment_id=7001, repository=REPO, redirected=redirected)


# ---- decoding ----------------------------------------------------------------------------------


def test_utf8_is_decoded_whatever_the_content_type_says() -> None:
    data = json.dumps({"a": "für €"}, ensure_ascii=False).encode()
    assert decode_json(data, "text/plain; charset=iso-8859-1") == {"a": "für €"}


@pytest.mark.parametrize(
    ("data", "byte", "offset"),
    [(b'{"a": "\xff"}', 0xFF, 7), (b'{"a": "\xc3"}', 0xC3, 7), (b"\xef\xbb\xbf[\x80]", 0x80, 4)],
)
def test_bytes_that_are_not_utf8_name_their_offset(data: bytes, byte: int, offset: int) -> None:
    assert decode_json(data) == Unusable(
        f"the GitHub API's answer is not UTF-8 (byte 0x{byte:02x} at offset {offset})"
    )


def test_a_utf8_bom_is_skipped() -> None:
    assert decode_json(b"\xef\xbb\xbf[1]") == [1]


@pytest.mark.parametrize(
    ("content_type", "note"),
    [
        ("text/html; charset=utf-8", " (it is text/html)"),
        ("application/json", ""),
        ("application/vnd.github+json", ""),
        ("", ""),
        ("text/\x01evil", ""),
    ],
)
def test_text_that_is_not_json_names_a_content_type_that_is_not_json(
    content_type: str, note: str
) -> None:
    assert decode_json(b"<html>", content_type) == Unusable(
        f"the GitHub API's answer is not JSON{note}"
    )


def test_unpaired_surrogates_become_replacement_characters() -> None:
    raw = json.dumps(comment(body="a\ud800b\udfffc \U0001f600")).encode("ascii")
    assert b"\\ud800" in raw and b"\\ud83d\\ude00" in raw  # escaped in the JSON
    fetched = read(None, raw=raw)
    assert isinstance(fetched, FetchedComment)
    assert fetched.body == "a\ufffdb\ufffdc \U0001f600"  # a pair stays one character
    assert fetched.body.encode("utf-8")


# ---- one comment ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload", [comment(body=None), {k: v for k, v in comment().items() if k != "body"}]
)
def test_a_null_or_absent_body_is_the_empty_body(payload: dict[str, Any]) -> None:
    assert read(payload) == FetchedComment(
        7001, "", ISSUE_URL, comment()["html_url"], "2026-07-18T22:21:00Z", "planner-bot"
    )


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"body": 5}, "its body is a number, not text or null"),
        ({"body": ["x"]}, "its body is a list, not text or null"),
        ({"body": False}, "its body is true or false, not text or null"),
        ({"id": "7001"}, "its id is text, not a whole number"),
        ({"id": 7001.0}, "its id is a number, not a whole number"),
        ({"id": True}, "its id is true or false, not a whole number"),
        ({"issue_url": None}, "its issue_url is null, not text"),
        ({"updated_at": 1}, "its updated_at is a number, not text or null"),
        ({"user": "planner-bot"}, "its user is text, not an object or null"),
        ({"user": ["planner-bot"]}, "its user is a list, not an object or null"),
        ({"user": {"login": 5}}, "its user.login is a number, not text or null"),
        ({"minimized": "spam"}, "its minimized is text, not an object or null"),
        ({"minimized": {"reason": 3}}, "its minimized.reason is a number, not text or null"),
        ({"node_id": 7}, "its node_id is a number, not text or null"),
        ({"created_at": False}, "its created_at is true or false, not text or null"),
        ({"author_association": 1}, "its author_association is a number, not text or null"),
        ({"author_association": ["OWNER"]}, "its author_association is a list, not text or null"),
    ],
)
def test_fields_of_another_json_type_are_named(changes: dict[str, Any], problem: str) -> None:
    assert read(comment(**changes)) == Unusable(
        f"the GitHub API's answer is not an issue comment: {problem}"
    )


def test_a_missing_field_is_named() -> None:
    payload = comment()
    del payload["id"]
    assert read(payload) == Unusable(
        "the GitHub API's answer is not an issue comment: its id is missing"
    )


@pytest.mark.parametrize(
    ("payload", "named"), [([], "a list"), ("x", "text"), (None, "null"), (1.5, "a number")]
)
def test_an_answer_that_is_not_an_object_is_named(payload: Any, named: str) -> None:
    assert read(payload) == Unusable(f"the GitHub API's answer is {named}, not an issue comment")


def test_another_id_is_another_comment() -> None:
    assert read(comment(id=7002)) == Unusable(
        "the GitHub API answered with another comment (id 7002)"
    )


@pytest.mark.parametrize(
    "issue_url",
    [
        ISSUE_URL,
        ISSUE_URL + "/",
        "https://api.github.com/repos/OCTO-ORG/Plans/issues/863",
        "https://ghe.example.com/api/v3/repos/octo-org/plans/issues/863",
        "http://127.0.0.1:8080/repos/octo-org/plans/issues/863?x=1",
    ],
)
def test_issue_urls_of_the_repository(issue_url: str) -> None:
    assert issue_url_problem(issue_url, REPO, redirected=False) is None


@pytest.mark.parametrize(
    "issue_url",
    [
        "https://api.github.com/repos/octo-org/plans-old/issues/863",
        "https://api.github.com/repos/x/octo-org/plans/issues/863/x",
        "https://api.github.com/repos/octo-org/plans/issues/863/comments",
        "https://api.github.com/repos/octo-org/plans/pulls/863",
        "https://api.github.com/repositories/42/issues/863",
        "",
        "http://[::1/repos/octo-org/plans/issues/863",
    ],
)
def test_issue_urls_of_another_repository_or_no_issue(issue_url: str) -> None:
    assert issue_url_problem(issue_url, REPO, redirected=False) == (
        f"its issue_url {issue_url!r} is not an issue of {REPO}"
    )


def test_after_a_redirect_only_an_issue_url_is_required() -> None:
    moved = "https://api.github.com/repos/new-org/renamed/issues/863"
    assert issue_url_problem(moved, REPO, redirected=True) is None
    assert (
        issue_url_problem(
            "https://api.github.com/repositories/42/issues/863", REPO, redirected=True
        )
        is None
    )
    assert issue_url_problem(moved + "/comments", REPO, redirected=True) == (
        f"its issue_url {moved + '/comments'!r} is not the URL of an issue"
    )
    assert read(comment(issue_url=moved), redirected=True) == FetchedComment(
        7001, "text", moved, comment()["html_url"], "2026-07-18T22:21:00Z", "planner-bot"
    )


def test_a_long_issue_url_is_shortened_in_messages() -> None:
    long_url = "https://x/" + "a" * 300
    problem = issue_url_problem(long_url, REPO, redirected=False)
    assert problem == f"its issue_url {long_url[:117] + '...'!r} is not an issue of {REPO}"


# ---- listing pages -------------------------------------------------------------------------------


def page(items: Any, *, issue: int | None = None, redirected: bool = False) -> Any:
    data = json.dumps(items).encode()
    return read_comment_page(data, "", repository=REPO, issue_number=issue, redirected=redirected)


def test_a_page_of_comments() -> None:
    fetched = page([comment(), comment(id=7002, body=None)], issue=863)
    assert [(c.id, c.body, c.issue_number) for c in fetched] == [
        (7001, "text", 863),
        (7002, "", 863),
    ]


@pytest.mark.parametrize(
    ("items", "problem"),
    [
        ({"a": 1}, "the GitHub API's answer is an object, not a list of comments"),
        (
            [comment(), "x"],
            "the GitHub API's answer is not a list of issue comments: item 2: it is text, not an "
            "object",
        ),
        (
            [comment(), comment(body=3)],
            "the GitHub API's answer is not a list of issue comments: item 2: its body is a "
            "number, not text or null",
        ),
        (
            [comment(issue_url="https://api.github.com/repos/a/b/issues/1")],
            "the GitHub API listed another comment (comment 7001: its issue_url "
            "'https://api.github.com/repos/a/b/issues/1' is not an issue of octo-org/plans)",
        ),
    ],
)
def test_an_unusable_page_says_why(items: Any, problem: str) -> None:
    assert page(items) == Unusable(problem)


def test_a_page_of_an_issue_listing_holds_only_that_issue() -> None:
    assert page([comment()], issue=864) == Unusable(
        f"the GitHub API listed another comment (comment 7001: its issue_url {ISSUE_URL!r} is "
        "not issue #864)"
    )


def test_a_page_after_a_redirect_may_name_the_new_repository() -> None:
    moved = "https://api.github.com/repos/new-org/renamed/issues/863"
    assert [c.id for c in page([comment(issue_url=moved)], redirected=True)] == [7001]


def test_issue_numbers_leave_pull_requests_out() -> None:
    data = json.dumps([{"number": 1}, {"number": 2, "pull_request": {"url": "x"}}]).encode()
    assert read_issue_numbers(data, "") == [1]
    assert read_issue_numbers(b'[{"number": "1"}]', "") == Unusable(
        "the GitHub API's answer is not a list of issues: item 1: its number is text, not a "
        "whole number"
    )
    assert read_issue_numbers(b"{}", "") == Unusable(
        "the GitHub API's answer is an object, not a list of issues"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"message": "Bad credentials"}', "Bad credentials"),
        (b'{"message": 5}', ""),
        (b"<html>", ""),
        (b"\xff", ""),
        (b'{"message": "a\\ud800"}', "a\ufffd"),
    ],
)
def test_the_api_message_of_an_error_answer(data: bytes, message: str) -> None:
    assert api_message(data) == message


# ---- origins of API URLs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "origin", "path"),
    [
        ("https://api.github.com", Origin("https", "api.github.com", 443), "/"),
        ("HTTPS://API.GitHub.com:443/x?y=1", Origin("https", "api.github.com", 443), "/x?y=1"),
        ("http://127.0.0.1:8080/api/v3", Origin("http", "127.0.0.1", 8080), "/api/v3"),
        ("http://[::1]:8080/a", Origin("http", "::1", 8080), "/a"),
    ],
)
def test_origins_are_normalised(url: str, origin: Origin, path: str) -> None:
    assert Origin.of(url) == (origin, path)


def test_origin_urls_and_names() -> None:
    api = Origin("https", "api.github.com", 443)
    assert api.url("/repos") == "https://api.github.com/repos"
    assert Origin("http", "::1", 8080).url("/a") == "http://[::1]:8080/a"
    assert Origin("https", "evil.example", 443).named_from(api) == "another host (evil.example)"
    assert Origin("http", "api.github.com", 80).named_from(api) == (
        "another origin (http://api.github.com)"
    )
    assert Origin("https", "api.github.com", 8443).named_from(api) == (
        "another origin (https://api.github.com:8443)"
    )


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://h:99999", "its port is not a number in 1..65535"),
        ("http://h:0", "its port is not a number in 1..65535"),
        ("http://h:x1", "its port is not a number in 1..65535"),
        ("http://[::1", "its IPv6 address in brackets is broken"),
        ("http://[1.2.3]/", "its IPv6 address in brackets is broken"),
        ("http://[::1]x/", "its host '[::1]x' is not a host name or an address"),
        ("ftp://h", "it is not an http or https URL"),
        ("/relative", "it is not an http or https URL"),
        ("http:///x", "it has no host"),
        ("http://u:p@h", "it carries a user name or password"),
        ("http://h/a b", "it contains a control character or a space"),
        ("http://h/a\x7f", "it contains a control character or a space"),
    ],
)
def test_urls_that_cannot_be_used_say_why(url: str, why: str) -> None:
    with pytest.raises(ValueError) as raised:
        Origin.of(url)
    assert str(raised.value) == why


# ---- debug lines -----------------------------------------------------------------------------------


def test_a_debug_line_per_request() -> None:
    record = RequestRecord("GET", "/repos/o/r/issues/comments/5", 200, 12.4, "4999", "F00D:1")
    assert request_log_line(record) == (
        "GET /repos/o/r/issues/comments/5 -> 200 in 12 ms (rate limit remaining 4999, request id "
        "F00D:1)"
    )
    assert request_log_line(RequestRecord("GET", "/x", None, 2000.2)) == (
        "GET /x -> no answer in 2000 ms (rate limit remaining -, request id -)"
    )


def test_a_debug_line_stays_one_printable_line_whatever_the_server_sent() -> None:
    record = RequestRecord(
        "GET", "/a\r\n::error::x", 301, 1.0, "4\x1b[31m", "id\u2028x" + "y" * 200
    )
    line = request_log_line(record)
    assert line == (
        "GET /a\\r\\n::error::x -> 301 in 1 ms (rate limit remaining 4\\x1b[31m, request id "
        "id\\u2028x" + "y" * 88 + "...)"
    )
    assert line.isprintable()


# ---- who wrote it (SPEC 6.1) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "author"),
    [
        ({}, Author("planner-bot", None)),  # no author_association key: not reported
        ({"author_association": "OWNER"}, Author("planner-bot", "OWNER")),
        ({"author_association": None}, Author("planner-bot", None)),
        ({"user": None, "author_association": "NONE"}, Author(None, "NONE")),  # deleted
        ({"user": {"login": "x\ud800", "type": "Bot"}}, Author("x\ufffd", None)),
        ({"user": {"login": ""}, "author_association": "OWNER"}, Author(None, "OWNER")),
        ({"user": {"login": None}, "author_association": "OWNER"}, Author(None, "OWNER")),
        ({"user": {"id": 5}, "author_association": "OWNER"}, Author(None, "OWNER")),
    ],
)
def test_the_author_is_read_from_user_login_and_author_association(
    changes: dict[str, Any], author: Author
) -> None:
    payload = comment(**changes)
    if "user" in changes and changes["user"] is None:
        del payload["user"]  # an absent user is a deleted account too
        fetched = read(payload)
        assert isinstance(fetched, FetchedComment) and fetched.author == author
        payload["user"] = None
    fetched = read(payload)
    assert isinstance(fetched, FetchedComment)
    assert fetched.author == author


@pytest.mark.parametrize(
    ("answer", "read_as"),
    [
        (
            {"permission": "write", "role_name": "maintain", "user": {"login": "m"}},
            Permission("write", "maintain"),
        ),
        ({"permission": "admin"}, Permission("admin", None)),
        ({"permission": None, "role_name": None}, Permission(None, None)),
        ({}, Permission(None, None)),
        ({"permission": "r\ud800"}, Permission("r\ufffd", None)),
        (
            {"permission": 3},
            Unusable(
                "the GitHub API's answer is not a repository permission: its permission is a "
                "number, not text or null"
            ),
        ),
        (
            {"permission": "write", "role_name": True},
            Unusable(
                "the GitHub API's answer is not a repository permission: its role_name is true "
                "or false, not text or null"
            ),
        ),
        ([], Unusable("the GitHub API's answer is a list, not a permission")),
    ],
)
def test_a_permission_answer(answer: Any, read_as: Permission | Unusable) -> None:
    assert read_permission(json.dumps(answer).encode(), "") == read_as


@pytest.mark.parametrize(
    ("changes", "hidden"),
    [
        ({}, (False, None)),
        ({"minimized": None}, (False, None)),
        ({"minimized": {"reason": "outdated"}}, (True, "outdated")),
        ({"minimized": {"reason": None}}, (True, None)),
        ({"minimized": {}}, (True, None)),
    ],
)
def test_a_minimized_comment_is_read_as_hidden(
    changes: dict[str, Any], hidden: tuple[bool, str | None]
) -> None:
    fetched = read(comment(**changes))
    assert isinstance(fetched, FetchedComment)
    assert (fetched.hidden, fetched.hidden_reason) == hidden
