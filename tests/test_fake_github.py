"""The fake GitHub of tests/fake_github.py answers as GitHub does (issue 28).

Every body the fake serves of its own accord is validated, as it comes over the wire, against
GitHub's published OpenAPI description of the endpoint (tests/schemas/github-rest-subset.json,
from ``@octokit/openapi`` 23.0.2): each comment shape (owner, drive-by, bots, a private member,
no association, a deleted account, hidden comments), the listings page by page, the issue
listing with issues and pull requests, each permission answer and each error answer. The
recorded real issue listing (tests/recorded/) passes the same schema, so the subset and its
conversion to JSON Schema accept what GitHub sends. The fake's choices where GitHub's
documentation decides (newest first, ``since`` strictly after, pages linked as
``/repositories/{id}/...``, the permission answers) are checked with exact values; the faults
it injects on purpose are shown not to be GitHub answers where that is what they are.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from jsonschema import Draft202012Validator, FormatChecker

from tests.conftest import REPO as ROOT
from tests.fake_github import (
    ACTIONS_BOT,
    DRIVE_BY,
    OWNER,
    PLANNER_BOT,
    PRIVATE_MEMBER,
    PUSH_ACCESS,
    REPO,
    TOKEN,
    FakeGitHub,
    Minimized,
    User,
    error,
    html_page,
    rate_limited_403,
    redirect,
    too_many_requests,
)

SUBSET = json.loads((ROOT / "tests" / "schemas" / "github-rest-subset.json").read_text("utf-8"))
RECORDED = json.loads((ROOT / "tests" / "recorded" / "paginate-issues.json").read_text("utf-8"))
FORMATS = FormatChecker(formats=())


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    return "T" in value and datetime.fromisoformat(value.replace("Z", "+00:00")).tzinfo is not None


@FORMATS.checks("uri")
def _uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parts = urlsplit(value)
    return bool(parts.scheme and parts.netloc)


def schema(operation: str, status: str = "200") -> dict[str, Any]:
    found: dict[str, Any] = SUBSET["operations"][operation]["responses"][status]["schema"]
    return found


def problems(body: Any, against: dict[str, Any]) -> list[str]:
    """Where ``body`` breaks ``against`` (``path: message``), none when it is valid."""
    validator = Draft202012Validator(against, format_checker=FORMATS)
    return [
        f"{'/'.join(str(part) for part in e.absolute_path)}: {e.message}"
        for e in sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    ]


def get(fake: FakeGitHub, path: str, **params: Any) -> requests.Response:
    """A GET as the product sends it (token, API version)."""
    url = path if path.startswith("http") else f"{fake.url}{path}"
    return requests.get(
        url,
        params=params or None,
        headers={"Authorization": f"Bearer {TOKEN}", "X-GitHub-Api-Version": "2022-11-28"},
        timeout=10,
    )


def next_url(response: requests.Response) -> str | None:
    link = response.links.get("next")
    return link["url"] if link else None


GONE = User("gone-quiet", None, id=880001)
AUTHORS: dict[str, User | None] = {
    "owner": OWNER,
    "drive-by": DRIVE_BY,
    "planner bot": PLANNER_BOT,
    "actions bot": ACTIONS_BOT,
    "private member": PRIVATE_MEMBER,
    "no association": GONE,
    "deleted account": None,
}


def serve_every_comment_shape(fake: FakeGitHub) -> list[int]:
    ids = []
    for index, author in enumerate(AUTHORS.values()):
        fake.add_comment(5000 + index, f"comment {index}", 878, author=author)
        ids.append(5000 + index)
    fake.add_comment(5100, "hidden", 878, minimized=Minimized("outdated"))
    fake.add_comment(5101, "hidden, no reason", 879, minimized=Minimized(None))
    return [*ids, 5100, 5101]


# ---- the schema subset itself ---------------------------------------------------------------


def test_the_subset_names_its_source_and_holds_the_endpoints_the_product_calls() -> None:
    assert SUBSET["source"] == {
        "package": "@octokit/openapi",
        "version": "23.0.2",
        "file": "generated/api.github.com.json",
        "license": "MIT",
        "openapi": "3.0.3",
        "info_version": "23.0.2",
    }
    assert {name: (o["method"], o["path"]) for name, o in SUBSET["operations"].items()} == {
        "issues/get-comment": ("GET", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),
        "issues/list-comments-for-repo": ("GET", "/repos/{owner}/{repo}/issues/comments"),
        "issues/list-comments": ("GET", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
        "issues/list-for-repo": ("GET", "/repos/{owner}/{repo}/issues"),
        "repos/get-collaborator-permission-level": (
            "GET",
            "/repos/{owner}/{repo}/collaborators/{username}/permission",
        ),
    }
    assert {name: e["status"] for name, e in SUBSET["errors"].items()} == {
        "moved_permanently": 301,
        "requires_authentication": 401,
        "forbidden": 403,
        "not_found": 404,
        "gone": 410,
        "validation_failed": 422,
        "internal_error": 500,
        "service_unavailable": 503,
    }
    for name in ("LICENSE-octokit-openapi.md", "README.md"):
        assert (ROOT / "tests" / "schemas" / name).is_file()


def test_the_description_says_since_means_after_and_issues_come_newest_first() -> None:
    """What the fake follows, as the description writes it."""
    for operation in (
        "issues/list-comments-for-repo",
        "issues/list-comments",
        "issues/list-for-repo",
    ):
        (since,) = (
            p for p in SUBSET["operations"][operation]["parameters"] if p["name"] == "since"
        )
        assert since["description"].startswith(
            "Only show results that were last updated after the given time."
        )
    issues = {p["name"]: p for p in SUBSET["operations"]["issues/list-for-repo"]["parameters"]}
    assert (issues["sort"]["schema"]["default"], issues["direction"]["schema"]["default"]) == (
        "created",
        "desc",
    )
    assert issues["state"]["schema"]["default"] == "open"
    assert "ordered by ascending ID" in SUBSET["operations"]["issues/list-comments"]["description"]


def test_the_schema_refuses_a_comment_without_a_required_field() -> None:
    """The validation can fail: a comment without ``user`` or with a wrong type is refused."""
    comment = {
        "id": 1,
        "node_id": "IC_1",
        "url": "https://api.github.com/repos/o/r/issues/comments/1",
        "html_url": "https://github.com/o/r/issues/1#issuecomment-1",
        "issue_url": "https://api.github.com/repos/o/r/issues/1",
        "created_at": "2026-07-18T22:20:00Z",
        "updated_at": "not a time",
        "author_association": "STRANGER",
    }
    assert problems(comment, schema("issues/get-comment")) == [
        ": 'user' is a required property",
        "author_association: 'STRANGER' is not one of ['COLLABORATOR', 'CONTRIBUTOR', "
        "'FIRST_TIMER', 'FIRST_TIME_CONTRIBUTOR', 'MANNEQUIN', 'MEMBER', 'NONE', 'OWNER']",
        "updated_at: 'not a time' is not a 'date-time'",
    ]


def test_the_recorded_real_issue_listing_passes_the_schema() -> None:
    """GitHub's own answers (octokit/fixtures' recording) are valid against the subset: the
    conversion of ``nullable`` and the inlined references accept what GitHub sends."""
    assert [len(answer["response"]) for answer in RECORDED] == [3, 3, 3, 3, 1]
    for answer in RECORDED:
        assert problems(answer["response"], schema("issues/list-for-repo")) == []


# ---- every body the fake serves -------------------------------------------------------------


def test_every_comment_shape_is_a_github_issue_comment(fake_github: FakeGitHub) -> None:
    ids = serve_every_comment_shape(fake_github)
    for comment_id in ids:
        answer = get(fake_github, f"/repos/{REPO}/issues/comments/{comment_id}")
        assert answer.status_code == 200
        assert problems(answer.json(), schema("issues/get-comment")) == [], comment_id
    deleted = get(fake_github, f"/repos/{REPO}/issues/comments/5006").json()
    assert (deleted["user"], deleted["author_association"]) == (None, "NONE")
    assert (
        "author_association" not in get(fake_github, f"/repos/{REPO}/issues/comments/5005").json()
    )
    hidden = get(fake_github, f"/repos/{REPO}/issues/comments/5100").json()
    assert hidden["minimized"] == {"reason": "outdated"}
    assert get(fake_github, f"/repos/{REPO}/issues/comments/5101").json()["minimized"] == {
        "reason": None
    }
    bot = get(fake_github, f"/repos/{REPO}/issues/comments/5003").json()["user"]
    assert (bot["login"], bot["type"], bot["url"], bot["followers_url"]) == (
        "github-actions[bot]",
        "Bot",
        "https://api.github.com/users/github-actions%5Bbot%5D",
        "https://api.github.com/users/github-actions%5Bbot%5D/followers",
    )


def test_a_null_body_is_deliberately_not_a_github_answer(fake_github: FakeGitHub) -> None:
    """``add_comment(..., None)`` serves ``"body": null``, which GitHub's schema does not allow
    (``body`` is a string): a fault the product must read as an empty body (SPEC 6)."""
    fake_github.add_comment(5200, None, 878)
    answer = get(fake_github, f"/repos/{REPO}/issues/comments/5200").json()
    assert problems(answer, schema("issues/get-comment")) == ["body: None is not of type 'string'"]


@pytest.mark.parametrize(
    ("path", "operation"),
    [
        ("issues/comments", "issues/list-comments-for-repo"),
        ("issues/878/comments", "issues/list-comments"),
    ],
)
def test_every_page_of_a_comment_listing_is_githubs(
    fake_github: FakeGitHub, path: str, operation: str
) -> None:
    serve_every_comment_shape(fake_github)
    rid = fake_github.repository_id(REPO)
    url: str | None = f"{fake_github.url}/repos/{REPO}/{path}?per_page=3"
    pages, listed = [], []
    while url is not None:
        answer = get(fake_github, url)
        assert answer.status_code == 200
        assert problems(answer.json(), schema(operation)) == []
        pages.append(urlsplit(answer.url).path)
        listed += [comment["id"] for comment in answer.json()]
        url = next_url(answer)
    expected_ids = [5000, 5001, 5002, 5003, 5004, 5005, 5006, 5100]
    if path == "issues/comments":
        expected_ids.append(5101)
    assert listed == expected_ids
    assert pages == [f"/repos/{REPO}/{path}"] + [f"/repositories/{rid}/{path}"] * (len(pages) - 1)
    assert len(pages) == -(-len(expected_ids) // 3)


def test_the_issue_listing_holds_issues_and_pull_requests_as_github_does(
    fake_github: FakeGitHub,
) -> None:
    fake_github.add_issue(1)
    fake_github.add_issue(2, "closed")
    fake_github.add_issue(3, pull_request=True)
    fake_github.add_issue(4, created_at="2025-12-31T00:00:00Z")  # opened before the others
    fake_github.add_comment(7, "a comment", 3)
    answer = get(fake_github, f"/repos/{REPO}/issues", state="all")
    assert problems(answer.json(), schema("issues/list-for-repo")) == []
    assert [(i["number"], i["state"], i["comments"]) for i in answer.json()] == [
        (3, "open", 1),
        (2, "closed", 0),
        (1, "open", 0),
        (4, "open", 0),
    ]
    assert answer.json()[0]["pull_request"] == {
        "url": f"{fake_github.url}/repos/{REPO}/pulls/3",
        "html_url": f"https://github.com/{REPO}/pull/3",
        "diff_url": f"https://github.com/{REPO}/pull/3.diff",
        "patch_url": f"https://github.com/{REPO}/pull/3.patch",
        "merged_at": None,
    }
    default = get(fake_github, f"/repos/{REPO}/issues")
    assert [issue["number"] for issue in default.json()] == [3, 1, 4]  # open, newest first
    oldest_first = get(fake_github, f"/repos/{REPO}/issues", direction="asc")
    assert [issue["number"] for issue in oldest_first.json()] == [4, 1, 3]


def test_later_issue_pages_are_linked_and_served_under_the_repository_id(
    fake_github: FakeGitHub,
) -> None:
    for number in range(1, 8):
        fake_github.add_issue(number)
    rid = fake_github.repository_id(REPO)
    assert rid == 1001
    first = get(fake_github, f"/repos/{REPO}/issues", per_page=3, state="open")
    base = f"{fake_github.url}/repositories/1001/issues?per_page=3&state=open"
    assert first.headers["link"] == (f'<{base}&page=2>; rel="next", <{base}&page=3>; rel="last"')
    second = get(fake_github, f"/repositories/{rid}/issues", per_page=3, state="open", page=2)
    assert second.headers["link"] == (
        f'<{base}&page=1>; rel="prev", <{base}&page=3>; rel="next", '
        f'<{base}&page=3>; rel="last", <{base}&page=1>; rel="first"'
    )
    third = get(fake_github, f"/repositories/{rid}/issues", per_page=3, state="open", page=3)
    assert third.headers["link"] == f'<{base}&page=2>; rel="prev", <{base}&page=1>; rel="first"'
    assert [[i["number"] for i in page.json()] for page in (first, second, third)] == [
        [7, 6, 5],
        [4, 3, 2],
        [1],
    ]
    assert get(fake_github, "/repositories/999/issues").status_code == 404


def test_since_lists_what_was_updated_strictly_after_it(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(1, "before", 5, updated_at="2026-05-01T09:59:59Z")
    fake_github.add_comment(2, "at", 5, updated_at="2026-05-01T10:00:00Z")
    fake_github.add_comment(3, "after", 5, updated_at="2026-05-01T10:00:01Z")
    for path in (f"/repos/{REPO}/issues/comments", f"/repos/{REPO}/issues/5/comments"):
        listed = get(fake_github, path, since="2026-05-01T10:00:00Z").json()
        assert [comment["id"] for comment in listed] == [3]
    fake_github.add_issue(8, created_at="2026-05-01T10:00:00Z")
    fake_github.add_issue(9, created_at="2026-05-01T10:00:01Z")
    listed = get(fake_github, f"/repos/{REPO}/issues", since="2026-05-01T10:00:00Z").json()
    assert [issue["number"] for issue in listed] == [9]


def test_the_api_version_is_echoed_only_when_asked(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(1, "x", 5)
    asked = get(fake_github, f"/repos/{REPO}/issues/comments/1")
    assert asked.headers["x-github-api-version-selected"] == "2022-11-28"
    plain = requests.get(
        f"{fake_github.url}/repos/{REPO}/issues/comments/1",
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=10,
    )
    assert plain.status_code == 200
    assert "x-github-api-version-selected" not in plain.headers


# ---- the permission endpoint ----------------------------------------------------------------


def permission(fake: FakeGitHub, login: str) -> requests.Response:
    return get(fake, f"/repos/{REPO}/collaborators/{login}/permission")


def test_each_permission_answer_is_githubs(fake_github: FakeGitHub) -> None:
    fake_github.set_permission("the-admin", "admin")
    fake_github.set_permission("a-maintainer", "write", "maintain")
    fake_github.set_permission("a-writer", "write")
    fake_github.set_permission("custom", "write", "Write (custom)")
    fake_github.set_permission("a-reader", "read", "triage")
    seen = {}
    for login in (
        "the-admin",
        "a-maintainer",
        "a-writer",
        "custom",
        "a-reader",
        "drive-by",
        "github-actions[bot]",
    ):
        answer = permission(fake_github, login)
        assert answer.status_code == 200
        body = answer.json()
        assert problems(body, schema("repos/get-collaborator-permission-level")) == [], login
        seen[login] = (body["permission"], body["role_name"], body["user"]["login"])
    assert seen == {
        "the-admin": ("admin", "admin", "the-admin"),
        "a-maintainer": ("write", "maintain", "a-maintainer"),
        "a-writer": ("write", "write", "a-writer"),
        "custom": ("write", "Write (custom)", "custom"),
        "a-reader": ("read", "triage", "a-reader"),
        "drive-by": ("read", "read", "drive-by"),  # any account, on a public repository
        "github-actions[bot]": ("none", "", "github-actions[bot]"),
    }
    bot = permission(fake_github, "github-actions[bot]").json()["user"]
    assert (bot["type"], bot["permissions"]) == (
        "Bot",
        {"admin": False, "maintain": False, "push": False, "triage": False, "pull": False},
    )
    reader = permission(fake_github, "drive-by").json()["user"]["permissions"]
    assert reader == {
        "admin": False,
        "maintain": False,
        "push": False,
        "triage": False,
        "pull": True,
    }


def test_a_token_that_cannot_push_gets_403_and_an_unknown_login_404(
    fake_github: FakeGitHub,
) -> None:
    fake_github.unknown_login("no-such-account")
    missing = permission(fake_github, "no-such-account")
    assert (missing.status_code, missing.json()) == (
        404,
        {
            "message": "Not Found",
            "documentation_url": "https://docs.github.com/rest",
            "status": "404",
        },
    )
    assert problems(missing.json(), SUBSET["errors"]["not_found"]["schema"]) == []
    fake_github.permission_403 = True
    refused = permission(fake_github, "drive-by")
    assert (refused.status_code, refused.json()["message"]) == (403, PUSH_ACCESS)
    assert PUSH_ACCESS == "Must have push access to view collaborator permission."
    assert problems(refused.json(), SUBSET["errors"]["forbidden"]["schema"]) == []
    assert permission(fake_github, "no-such-account").status_code == 404


# ---- error answers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("responder", "status", "error_name"),
    [
        (None, 404, "not_found"),
        (error(410, "Gone"), 410, "gone"),
        (error(401, "Bad credentials"), 401, "requires_authentication"),
        (rate_limited_403(), 403, "forbidden"),
        (too_many_requests(30), 429, "forbidden"),
        (error(422, "Validation Failed"), 422, "validation_failed"),
        (error(500, "Server Error"), 500, "internal_error"),
        (error(502, "Server Error"), 502, "internal_error"),
        (error(503, "Service Unavailable"), 503, "service_unavailable"),
        (redirect(301, "/repositories/42/issues/comments/1"), 301, "moved_permanently"),
    ],
)
def test_every_error_answer_is_a_github_error_body(
    fake_github: FakeGitHub, responder: Any, status: int, error_name: str
) -> None:
    if responder is not None:
        fake_github.script(1, responder)
    answer = requests.get(
        f"{fake_github.url}/repos/{REPO}/issues/comments/1",
        headers={"Authorization": f"Bearer {TOKEN}"},
        allow_redirects=False,
        timeout=10,
    )
    assert answer.status_code == status
    assert problems(answer.json(), SUBSET["errors"][error_name]["schema"]) == []
    assert sorted(answer.json()) in (
        ["documentation_url", "message", "status"],
        ["documentation_url", "message", "url"],
    )


def test_a_wrong_token_is_a_github_401(fake_github: FakeGitHub) -> None:
    answer = requests.get(
        f"{fake_github.url}/repos/{REPO}/issues/comments",
        headers={"Authorization": "Bearer wrong-token-0000"},
        timeout=10,
    )
    assert (answer.status_code, answer.json()["message"]) == (401, "Bad credentials")
    assert problems(answer.json(), SUBSET["errors"]["requires_authentication"]["schema"]) == []


def test_an_html_page_is_deliberately_not_a_github_answer(fake_github: FakeGitHub) -> None:
    """A proxy's or captive portal's page: not JSON at all, so no schema can pass it."""
    fake_github.script(1, html_page)
    answer = get(fake_github, f"/repos/{REPO}/issues/comments/1")
    assert (answer.status_code, answer.headers["content-type"]) == (200, "text/html; charset=utf-8")
    with pytest.raises(ValueError):
        answer.json()
