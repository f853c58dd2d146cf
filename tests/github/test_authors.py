"""Judging authors against the loopback fake (SPEC 6.1): comments as GitHub serves them, the
permission request of the ``write`` term (answered write, maintain, admin, read, 403, 404,
and failures), its cache, and exact request counts. In-process, with an injected sleep."""

from __future__ import annotations

import json

import pytest

from frame_spine.core.status import Failure, Status
from frame_spine.core.trust import DEFAULT_POLICY, Permission, parse_policy
from frame_spine.github.authors import AuthorCheck, Untrusted, passed_over_words
from frame_spine.github.client import CommentFetcher
from frame_spine.github.payloads import FetchedComment, read_comment
from frame_spine.github.session import ApiSession, ApiSettings
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
    User,
    error,
    rate_limited_403,
)

RID = " (request id F00D:1234:5678:9ABC:DEF0)"
POLICY = "trusted-authors is OWNER,MEMBER,COLLABORATOR,write"


def fetcher_for(fake: FakeGitHub, waits: list[float] | None = None) -> CommentFetcher:
    sleep = (waits if waits is not None else []).append
    return CommentFetcher(ApiSession(ApiSettings(REPO, fake.url, TOKEN), sleep=sleep))


def served(fake: FakeGitHub, author: User | None, comment_id: int = 5009) -> FetchedComment:
    fake.add_comment(comment_id, "<!-- plan-issue-878 -->", 878, author=author)
    fetched = fetcher_for(fake).fetch(comment_id, "plan")
    assert isinstance(fetched, FetchedComment)
    fake.requests.clear()
    return fetched


def permission_path(login: str) -> str:
    return f"GET /repos/{REPO}/collaborators/{login}/permission"


# ---- the comment's author, read as GitHub serves it ------------------------------------------


def test_a_real_bot_comment_is_read_with_its_login_and_association() -> None:
    # The shape of a real comment by github-actions[bot] (REST API, 2022-11-28), its user
    # whole (the nine URL fields GitHub's schema requires), the rest abridged.
    answer = {
        "url": f"https://api.github.com/repos/{REPO}/issues/comments/5009",
        "html_url": f"https://github.com/{REPO}/issues/878#issuecomment-5009",
        "issue_url": f"https://api.github.com/repos/{REPO}/issues/878",
        "id": 5009,
        "node_id": "IC_kwDOABCDEF5gJ1c5",
        "user": {
            "login": "github-actions[bot]",
            "id": 41898282,
            "node_id": "MDM6Qm90NDE4OTgyODI=",
            "avatar_url": "https://avatars.githubusercontent.com/in/15368?v=4",
            "gravatar_id": "",
            "url": "https://api.github.com/users/github-actions%5Bbot%5D",
            "html_url": "https://github.com/apps/github-actions",
            "followers_url": "https://api.github.com/users/github-actions%5Bbot%5D/followers",
            "following_url": "https://api.github.com/users/github-actions%5Bbot%5D/following{/other_user}",
            "gists_url": "https://api.github.com/users/github-actions%5Bbot%5D/gists{/gist_id}",
            "starred_url": "https://api.github.com/users/github-actions%5Bbot%5D/starred{/owner}{/repo}",
            "subscriptions_url": "https://api.github.com/users/github-actions%5Bbot%5D/subscriptions",
            "organizations_url": "https://api.github.com/users/github-actions%5Bbot%5D/orgs",
            "repos_url": "https://api.github.com/users/github-actions%5Bbot%5D/repos",
            "events_url": "https://api.github.com/users/github-actions%5Bbot%5D/events{/privacy}",
            "received_events_url": "https://api.github.com/users/github-actions%5Bbot%5D/received_events",
            "type": "Bot",
            "user_view_type": "public",
            "site_admin": False,
        },
        "created_at": "2026-07-18T22:20:00Z",
        "updated_at": "2026-07-18T22:21:00Z",
        "author_association": "NONE",
        "body": "<!-- plan-issue-878 -->",
        "reactions": {"total_count": 0},
        "performed_via_github_app": {"id": 15368, "slug": "github-actions"},
    }
    fetched = read_comment(
        json.dumps(answer).encode(), "", comment_id=5009, repository=REPO, redirected=False
    )
    assert isinstance(fetched, FetchedComment)
    assert (fetched.author_login, fetched.author_association) == ("github-actions[bot]", "NONE")
    assert ACTIONS_BOT.payload() == answer["user"]  # the fake serves the same shape


@pytest.mark.parametrize(
    ("author", "login", "association"),
    [
        (OWNER, "octo-maintainer", "OWNER"),
        (DRIVE_BY, "drive-by", "NONE"),
        (PLANNER_BOT, "planner-app[bot]", "NONE"),
        (User("gone-quiet", None), "gone-quiet", None),  # no author_association key
        (None, None, "NONE"),  # a deleted account: "user": null
    ],
)
def test_the_fake_serves_authors_as_github_does(
    fake_github: FakeGitHub, author: User | None, login: str | None, association: str | None
) -> None:
    fetched = served(fake_github, author)
    assert (fetched.author_login, fetched.author_association) == (login, association)


# ---- the permission request --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("permission", "role", "grants"),
    [
        ("admin", "admin", True),
        ("write", "maintain", True),
        ("write", "write", True),
        ("read", "triage", False),
        ("read", "read", False),
        ("none", "none", False),
        ("read", "Write", False),  # a custom role named like a built-in one: only quoted
    ],
)
def test_the_permission_is_read_once(
    fake_github: FakeGitHub, permission: str, role: str, grants: bool
) -> None:
    fake_github.set_permission("Quiet-Member", permission, role)
    check = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github))
    first = check.permission("quiet-member")
    assert first == Permission(permission, role)
    assert isinstance(first, Permission) and first.grants_write is grants
    assert check.permission("QUIET-MEMBER") is first  # kept for the run, any case
    fetcher = check.fetcher
    assert fake_github.paths() == [permission_path("quiet-member")]
    assert fetcher.requests_made == 1
    headers = fake_github.requests[0].headers
    assert headers["authorization"] == f"token {TOKEN}"
    assert headers["accept"] == "application/vnd.github+json"


def test_a_bot_login_is_sent_escaped(fake_github: FakeGitHub) -> None:
    fake_github.set_permission("planner-app[bot]", "write")
    assert fetcher_for(fake_github).permission("planner-app[bot]") == Permission("write", "write")
    assert fake_github.paths() == [permission_path("planner-app[bot]")]  # the path, decoded
    assert fake_github.requests[0].raw_uri == (
        f"/repos/{REPO}/collaborators/planner-app%5Bbot%5D/permission"
    )


@pytest.mark.parametrize(("status", "message"), [(403, PUSH_ACCESS), (404, "Not Found")])
def test_403_and_404_mean_the_permission_could_not_be_read(
    fake_github: FakeGitHub, status: int, message: str
) -> None:
    fake_github.set_permission("drive-by", error(status, message))
    check = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github))
    assert check.permission("drive-by") == Permission(refused=status)
    assert check.permission("drive-by") == Permission(refused=status)
    assert check.fetcher.requests_made == 1


def test_a_login_the_fake_does_not_know_is_404(fake_github: FakeGitHub) -> None:
    fake_github.unknown_login("nobody")
    assert fetcher_for(fake_github).permission("nobody") == Permission(refused=404)


def test_at_most_20_logins_are_asked_then_the_run_is_an_error(fake_github: FakeGitHub) -> None:
    check = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github), issue=878)
    for index in range(20):
        fake_github.set_permission(f"drive-by-{index}", "read")
        assert check.permission(f"drive-by-{index}") == Permission("read", "read")
    assert check.permission("DRIVE-BY-3") == Permission("read", "read")  # kept: no request
    assert check.permission("drive-by-20") == Failure(
        Status.ERROR,
        "more than 20 authors of plan-like comments on issue #878 need a permission request: "
        "hide (minimize) those comments, which costs nothing, or remove `write` from "
        "trusted-authors and name planners with @login",
    )
    assert check.fetcher.requests_made == 20
    other = check.for_issue(901)  # audit: the answers kept, a count per issue
    assert other.permission("drive-by-0") == Permission("read", "read")
    fake_github.set_permission("drive-by-20", "write")
    assert other.permission("drive-by-20") == Permission("write", "write")
    assert check.fetcher.requests_made == 21


def test_any_account_reads_a_public_repository_and_a_bot_has_none(
    fake_github: FakeGitHub,
) -> None:
    """Without a grant, GitHub answers 200 ``read`` for a user and ``none`` (``role_name``
    empty) for a bot; neither can push."""
    fetcher = fetcher_for(fake_github)
    assert fetcher.permission("drive-by") == Permission("read", "read")
    assert fetcher.permission("github-actions[bot]") == Permission("none", "")
    assert fetcher.requests_made == 2


def test_a_token_that_cannot_push_reads_no_permission(fake_github: FakeGitHub) -> None:
    fake_github.permission_403 = True
    assert fetcher_for(fake_github).permission("drive-by") == Permission(refused=403)


WHAT = f"the permission of drive-by on {REPO}"


@pytest.mark.parametrize(
    ("responder", "status", "message", "requests"),
    [
        (
            error(401, "Bad credentials"),
            Status.GH_AUTH_EXPIRED,
            f"{WHAT}: the token is invalid or expired (HTTP 401: Bad credentials){RID}",
            1,
        ),
        (
            error(502, "Bad Gateway"),
            Status.ERROR,
            f"{WHAT}: the GitHub API answered HTTP 502 three times: Bad Gateway{RID}",
            3,
        ),
    ],
)
def test_other_failures_are_the_runs_status(
    fake_github: FakeGitHub, responder: object, status: Status, message: str, requests: int
) -> None:
    fake_github.set_permission("drive-by", responder)  # type: ignore[arg-type]
    waits: list[float] = []
    fetcher = fetcher_for(fake_github, waits)
    assert fetcher.permission("drive-by") == Failure(status, message)
    assert fetcher.requests_made == requests
    assert waits == [1.0, 2.0][: requests - 1]


def test_a_rate_limit_on_the_permission_is_waited_out_or_reported(
    fake_github: FakeGitHub,
) -> None:
    fake_github.set_permission("drive-by", rate_limited_403(reset_in=3600))
    waits: list[float] = []
    outcome = fetcher_for(fake_github, waits).permission("drive-by")
    assert isinstance(outcome, Failure) and outcome.status is Status.GH_RATE_LIMITED
    assert outcome.message.startswith(f"{WHAT}: rate limited by the GitHub API until 20")
    assert waits == []


def test_an_answer_that_is_not_a_permission_is_an_error(fake_github: FakeGitHub) -> None:
    fake_github.permissions[(REPO, "drive-by")] = {"permission": 3}
    outcome = fetcher_for(fake_github).permission("drive-by")
    assert outcome == Failure(
        Status.ERROR,
        f"{WHAT}: the GitHub API's answer is not a repository permission: its permission is a "
        f"number, not text or null{RID}",
    )


def test_without_a_usable_token_no_permission_is_asked(fake_github: FakeGitHub) -> None:
    from frame_spine.github.auth import no_token
    from frame_spine.inputs import ApiTarget

    target = ApiTarget(repository=REPO, api_url=fake_github.url)
    fetcher = target.fetcher(no_token("set GH_TOKEN"))
    outcome = fetcher.permission("drive-by")
    assert isinstance(outcome, Failure) and outcome.status is Status.GH_AUTH_EXPIRED
    assert fake_github.requests == []


# ---- judging a fetched comment ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("author", "asked"),
    [
        (OWNER, False),
        (User("m", "MEMBER"), False),
        (User("c", "COLLABORATOR"), False),
        (User("k", "CONTRIBUTOR"), True),
        (User("f", "FIRST_TIME_CONTRIBUTOR"), True),
        (User("t", "FIRST_TIMER"), True),
        (User("q", "MANNEQUIN"), True),
        (DRIVE_BY, True),
    ],
)
def test_the_default_policy_asks_only_when_the_association_does_not_decide(
    fake_github: FakeGitHub, author: User, asked: bool
) -> None:
    comment = served(fake_github, author)
    fake_github.set_permission(author.login, "read")
    check = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github))
    outcome = check.untrusted(comment)
    if not asked:
        assert outcome is None
        assert fake_github.requests == []
        return
    assert outcome == Untrusted(
        comment,
        f"comment 5009 was written by {author.login} ({author.association}, permission read), "
        f"not a trusted author; {POLICY}",
        f"{author.login} ({author.association}, permission read)",
    )
    assert fake_github.paths() == [permission_path(author.login)]


def test_a_private_organization_member_is_trusted_by_write(fake_github: FakeGitHub) -> None:
    # A real answer's shape: the member's association is CONTRIBUTOR, the permission write.
    comment = served(fake_github, PRIVATE_MEMBER)
    fake_github.set_permission(PRIVATE_MEMBER.login, "write")
    answer = fake_github.permissions[(REPO, "quiet-member")]
    assert isinstance(answer, dict)
    assert (answer["permission"], answer["role_name"]) == ("write", "write")
    assert answer["user"]["permissions"] == {
        "admin": False,
        "maintain": False,
        "push": True,
        "triage": True,
        "pull": True,
    }
    assert AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github)).untrusted(comment) is None
    assert fake_github.paths() == [permission_path("quiet-member")]


def test_the_same_policy_without_write_refuses_that_member_without_a_request(
    fake_github: FakeGitHub,
) -> None:
    comment = served(fake_github, PRIVATE_MEMBER)
    policy = parse_policy("OWNER,MEMBER,COLLABORATOR")
    outcome = AuthorCheck(policy, fetcher_for(fake_github)).untrusted(comment)
    assert isinstance(outcome, Untrusted)
    assert outcome.message == (
        "comment 5009 was written by quiet-member (CONTRIBUTOR), not a trusted author; "
        "trusted-authors is OWNER,MEMBER,COLLABORATOR"
    )
    assert fake_github.requests == []


def test_a_planner_bot_is_refused_by_default_and_trusted_by_its_login(
    fake_github: FakeGitHub,
) -> None:
    comment = served(fake_github, PLANNER_BOT)
    outcome = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github)).untrusted(comment)
    assert isinstance(outcome, Untrusted)
    assert outcome.message == (
        f"comment 5009 was written by planner-app[bot] (NONE), not a trusted author; {POLICY}"
    )
    assert fake_github.requests == []  # a bot is never asked
    fake_github.requests.clear()
    named = parse_policy("OWNER,MEMBER,COLLABORATOR,write,@planner-app[bot]")
    assert AuthorCheck(named, fetcher_for(fake_github)).untrusted(comment) is None
    assert fake_github.requests == []


def test_a_missing_association_is_judged_on_the_other_terms(fake_github: FakeGitHub) -> None:
    comment = served(fake_github, User("gone-quiet", None))
    fake_github.set_permission("gone-quiet", error(403, PUSH_ACCESS))
    outcome = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github)).untrusted(comment)
    assert isinstance(outcome, Untrusted)
    assert outcome.message == (
        "comment 5009 was written by gone-quiet (association not reported, permission not "
        f"readable by the token (HTTP 403)), not a trusted author; {POLICY}; the token cannot "
        "read repository permissions (GitHub answers 403 to a token that cannot push): "
        "@gone-quiet in trusted-authors trusts that account without the request"
    )
    by_login = AuthorCheck(parse_policy("@gone-quiet"), fetcher_for(fake_github))
    assert by_login.untrusted(comment) is None


def test_a_deleted_account_is_refused_without_a_request(fake_github: FakeGitHub) -> None:
    comment = served(fake_github, None)
    outcome = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github)).untrusted(comment)
    assert isinstance(outcome, Untrusted)
    assert (outcome.keys()["author"], outcome.message) == (
        "ghost",
        f"comment 5009 was written by ghost, a deleted account (NONE), not a trusted author; "
        f"{POLICY}",
    )
    assert fake_github.requests == []
    for policy in ("@ghost", "any"):
        check = AuthorCheck(parse_policy(policy), fetcher_for(fake_github))
        assert check.untrusted(comment) is None


def test_any_trusts_everyone_without_a_request(fake_github: FakeGitHub) -> None:
    check = AuthorCheck(parse_policy("any"), fetcher_for(fake_github))
    for index, author in enumerate((DRIVE_BY, PLANNER_BOT, User("x", None), None)):
        assert check.untrusted(served(fake_github, author, 6000 + index)) is None
    assert fake_github.requests == []


def test_two_comments_by_one_author_ask_once(fake_github: FakeGitHub) -> None:
    first = served(fake_github, PRIVATE_MEMBER, 5009)
    second = served(fake_github, User("QUIET-MEMBER", "CONTRIBUTOR"), 5010)
    fake_github.set_permission("quiet-member", "read")
    check = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github))
    assert isinstance(check.untrusted(first), Untrusted)
    assert isinstance(check.untrusted(second), Untrusted)
    assert fake_github.paths() == [permission_path("quiet-member")]


def test_a_failed_permission_request_is_the_failure(fake_github: FakeGitHub) -> None:
    comment = served(fake_github, DRIVE_BY)
    fake_github.set_permission("drive-by", error(401, "Bad credentials"))
    outcome = AuthorCheck(DEFAULT_POLICY, fetcher_for(fake_github)).untrusted(comment)
    assert outcome == Failure(
        Status.GH_AUTH_EXPIRED,
        f"{WHAT}: the token is invalid or expired (HTTP 401: Bad credentials){RID}",
    )


def test_passed_over_comments_are_named_with_their_authors(fake_github: FakeGitHub) -> None:
    check = AuthorCheck(parse_policy("OWNER"), fetcher_for(fake_github))
    passed = []
    for index in range(12):
        outcome = check.untrusted(served(fake_github, DRIVE_BY, 7000 + index))
        assert isinstance(outcome, Untrusted)
        passed.append(outcome)
    assert passed_over_words(passed[:1], check.policy) == (
        "comment 7000 by drive-by (NONE) was passed over: not a trusted author "
        "(trusted-authors is OWNER)"
    )
    assert passed_over_words(passed[:2], check.policy) == (
        "comment 7000 by drive-by (NONE) and comment 7001 by drive-by (NONE) were passed "
        "over: not trusted authors (trusted-authors is OWNER)"
    )
    named = ", ".join(f"comment {7000 + n} by drive-by (NONE)" for n in range(10))
    assert passed_over_words(passed, check.policy) == (
        f"{named} and 2 more were passed over: not trusted authors (trusted-authors is OWNER)"
    )
