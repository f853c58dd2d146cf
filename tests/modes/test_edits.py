"""Who touched it (SPEC 6.1, revision 4): an edited plan or sibling is trusted only when every
editor is, asked with one GraphQL request for the edited comments, against the fake (which
answers ``POST /graphql`` in GitHub's shape). Lookup, validate, render and audit; GraphQL's
failures; the endpoint derived from ``api-url``. Exact results and request logs; the runs are
``main`` in this process."""

from __future__ import annotations

import pytest

from frame_spine.github.urls import graphql_url
from tests.fake_github import (
    OWNER,
    PLANNER_BOT,
    REPO,
    FakeGitHub,
    User,
    error,
    rate_limited_403,
)
from tests.fake_github import _json_response as json_response
from tests.modes.test_trust import (
    DEFAULT,
    PLAN_878,
    PLAN_901,
    PLAN_901_ID,
    PLAN_ID,
    SIBLING_878,
    SIBLING_901,
    SIBLING_901_ID,
    SIBLING_ID,
    comment_get,
    json_cli,
    lookup,
    permission_get,
)

CREATED = "2026-07-18T22:20:00Z"
EDITED = "2026-07-18T23:00:00Z"
GRAPHQL = "POST /graphql"
CI_BOT = User("ci-bot[bot]", "NONE", type="Bot", id=990500)
BOT_POLICY = "OWNER,MEMBER,COLLABORATOR,write,@planner-app[bot]"


def serve(
    fake: FakeGitHub,
    plan_edits: list[tuple[User | None, str]] | None = None,
    sibling_edits: list[tuple[User | None, str]] | None = None,
    author: User = OWNER,
) -> None:
    """The 878 plan and sibling by ``author``, each edited by the editors given (newest
    first; the creation entry follows), or not edited."""
    for comment_id, body, edits in (
        (PLAN_ID, PLAN_878, plan_edits),
        (SIBLING_ID, SIBLING_878, sibling_edits),
    ):
        fake.add_comment(
            comment_id,
            body,
            878,
            updated_at=EDITED if edits else CREATED,
            created_at=CREATED,
            author=author,
            edits=edits,
        )


def test_an_unedited_lookup_asks_nothing_more(fake_github: FakeGitHub) -> None:
    serve(fake_github)
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result["status"], code) == ("ok", 0)
    assert GRAPHQL not in fake_github.paths()


def test_a_plan_edited_by_its_own_author_is_trusted_with_one_graphql_request(
    fake_github: FakeGitHub,
) -> None:
    serve(fake_github, plan_edits=[(OWNER, EDITED)])
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result["status"], code) == ("ok", 0)
    assert sorted(fake_github.paths()) == sorted(
        [comment_get(PLAN_ID), comment_get(SIBLING_ID), GRAPHQL]
    )


def test_a_bot_planner_editing_its_own_plan_is_trusted_without_a_permission_request(
    fake_github: FakeGitHub,
) -> None:
    serve(fake_github, [(PLANNER_BOT, EDITED)], [(PLANNER_BOT, EDITED)], author=PLANNER_BOT)
    result, code = lookup(
        fake_github, "--slices-comment-id", str(SIBLING_ID), "--trusted-authors", BOT_POLICY
    )
    assert (result["status"], code) == ("ok", 0)
    assert fake_github.paths().count(GRAPHQL) == 1  # plan and sibling together
    assert not any(path.endswith("/permission") for path in fake_github.paths())


def test_an_untrusted_bot_editing_a_trusted_plan_is_refused(fake_github: FakeGitHub) -> None:
    serve(fake_github, plan_edits=[(CI_BOT, EDITED)])
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result, code) == (
        {
            "status": "plan-identity-mismatch",
            "message": f"comment {PLAN_ID} was edited by ci-bot[bot], not a trusted author; "
            f"{DEFAULT}",
            "editor": "ci-bot[bot]",
        },
        1,
    )
    assert not any(path.endswith("/permission") for path in fake_github.paths())


def test_an_untrusted_edit_of_the_sibling_is_a_sibling_identity_mismatch(
    fake_github: FakeGitHub,
) -> None:
    serve(fake_github, sibling_edits=[(CI_BOT, EDITED)])
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result["status"], result["message"], result["editor"], code) == (
        "sibling-identity-mismatch",
        f"comment {SIBLING_ID} was edited by ci-bot[bot], not a trusted author; {DEFAULT}",
        "ci-bot[bot]",
        1,
    )


def test_the_newest_untrusted_editor_is_named_and_a_user_editor_is_asked_once(
    fake_github: FakeGitHub,
) -> None:
    editor = User("maintainer-two", "MEMBER", id=4242)  # GraphQL reports no association
    fake_github.set_permission("maintainer-two", "write")
    serve(
        fake_github,
        plan_edits=[
            (editor, "2026-07-18T23:30:00Z"),
            (CI_BOT, "2026-07-18T22:50:00Z"),
            (editor, "2026-07-18T22:40:00Z"),
        ],
    )
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result["status"], result["editor"], code) == (
        "plan-identity-mismatch",
        "ci-bot[bot]",
        1,
    )
    assert fake_github.paths().count(permission_get("maintainer-two")) == 1


@pytest.mark.parametrize(
    ("editors", "words"),
    [
        ([(None, EDITED)], "ghost, a deleted account"),
        ([(User("drive-by", "NONE"), EDITED)], "drive-by (permission read)"),
    ],
)
def test_a_deleted_or_read_only_editor_is_refused(
    fake_github: FakeGitHub, editors: list[tuple[User | None, str]], words: str
) -> None:
    serve(fake_github, plan_edits=editors)
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result["message"], code) == (
        f"comment {PLAN_ID} was edited by {words}, not a trusted author; {DEFAULT}",
        1,
    )
    ghost_policy, _ = lookup(
        fake_github, "--slices-comment-id", str(SIBLING_ID), "--trusted-authors", "OWNER,@ghost"
    )
    assert ghost_policy["status"] == ("ok" if editors[0][0] is None else "plan-identity-mismatch")


def test_any_asks_no_edit_history(fake_github: FakeGitHub) -> None:
    serve(fake_github, plan_edits=[(CI_BOT, EDITED)])
    result, _ = lookup(
        fake_github, "--slices-comment-id", str(SIBLING_ID), "--trusted-authors", "any"
    )
    assert result["status"] == "ok"
    assert GRAPHQL not in fake_github.paths()


def test_more_than_100_edits_are_not_trusted(fake_github: FakeGitHub) -> None:
    serve(
        fake_github,
        plan_edits=[(OWNER, f"2026-07-19T{n // 60:02}:{n % 60:02}:00Z") for n in range(101)],
    )
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result["message"], code) == (
        f"comment {PLAN_ID} has 102 edits, more than the 100 GitHub lists: its editors cannot "
        f"all be checked; {DEFAULT}",
        1,
    )


# ---- GraphQL's own answers ---------------------------------------------------------------------


def graphql_answer(payload: dict[str, object], status: int = 200, **headers: str):  # type: ignore[no-untyped-def]
    return lambda _request: json_response(status, payload, headers)


@pytest.mark.parametrize(
    ("answer", "status", "message"),
    [
        (
            graphql_answer(
                {
                    "errors": [
                        {"type": "FORBIDDEN", "message": "Resource not accessible by integration"}
                    ]
                }
            ),
            "gh-auth-expired",
            f"the edit history of comment {PLAN_ID} in {REPO}: the token cannot read comment edit "
            "history (Resource not accessible by integration)",
        ),
        (
            graphql_answer({"errors": [{"type": "SOMETHING", "message": "Something went wrong"}]}),
            "error",
            f"the edit history of comment {PLAN_ID} in {REPO}: the GitHub API answered: Something "
            "went wrong",
        ),
        (
            graphql_answer({"data": {"nodes": [{"id": "IC_other", "userContentEdits": None}]}}),
            "error",
            f"the edit history of comment {PLAN_ID} in {REPO}: the GitHub API answered with "
            "another comment (node 'IC_other') (request id F00D:1234:5678:9ABC:DEF0)",
        ),
        (
            error(404, "Not Found"),
            "error",
            f"the edit history of comment {PLAN_ID} in {REPO}: the GraphQL endpoint "
            "{url}/graphql (from api-url {url}) answered HTTP 404: check api-url",
        ),
        (
            lambda _request: json_response(301, {}, {"location": "/elsewhere"}),
            "error",
            f"the edit history of comment {PLAN_ID} in {REPO}: the GraphQL endpoint "
            "{url}/graphql (from api-url {url}) answered HTTP 301: check api-url",
        ),
    ],
    ids=["forbidden", "other-error", "another-node", "404", "redirect"],
)
def test_graphql_failures_are_statuses(
    fake_github: FakeGitHub, answer: object, status: str, message: str
) -> None:
    serve(fake_github, plan_edits=[(OWNER, EDITED)])
    fake_github.script(-2, answer)  # type: ignore[arg-type]
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result, code) == (
        {"status": status, "message": message.format(url=fake_github.url)},
        1,
    )


def test_a_graphql_rate_limit_answered_200_is_waited_out(fake_github: FakeGitHub) -> None:
    serve(fake_github, plan_edits=[(OWNER, EDITED)])
    limited = graphql_answer(
        {"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded for user ID 1."}]},
        **{"retry-after": "30"},
    )
    fake_github.script(-2, limited)
    result, _ = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert result["status"] == "ok"
    assert fake_github.paths().count(GRAPHQL) == 2
    fake_github.requests.clear()
    fake_github.script(-2, limited, limited, limited)
    result, _ = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID), "--max-wait", "40")
    assert (result["status"], result["message"].split(":")[0]) == (
        "gh-rate-limited",
        f"the edit history of comment {PLAN_ID} in {REPO}",
    )


def test_a_graphql_rate_limit_answered_403_is_a_rate_limit(fake_github: FakeGitHub) -> None:
    serve(fake_github, plan_edits=[(OWNER, EDITED)])
    fake_github.script(-2, rate_limited_403(3600, fake_github.clock.time))
    result, _ = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert result["status"] == "gh-rate-limited"


@pytest.mark.parametrize(
    ("api_url", "endpoint"),
    [
        ("https://api.github.com", "https://api.github.com/graphql"),
        ("https://ghe.example.com/api/v3", "https://ghe.example.com/api/graphql"),
        ("https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"),
        ("http://127.0.0.1:8878", "http://127.0.0.1:8878/graphql"),
        ("https://proxy.example/github", "https://proxy.example/github/graphql"),
    ],
)
def test_the_graphql_endpoint_comes_from_api_url_alone(api_url: str, endpoint: str) -> None:
    assert graphql_url(api_url) == endpoint


# ---- validate, render and audit ----------------------------------------------------------------


def serve_901(fake: FakeGitHub, plan_edits: list[tuple[User | None, str]] | None = None) -> None:
    fake.add_comment(
        PLAN_901_ID,
        PLAN_901,
        901,
        updated_at=EDITED if plan_edits else CREATED,
        created_at=CREATED,
        edits=plan_edits,
    )
    fake.add_comment(SIBLING_901_ID, SIBLING_901, 901)


def test_discovery_stops_at_a_plan_with_an_untrusted_edit(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7000000800, PLAN_901, 901, updated_at="2026-07-01T00:00:00Z")  # older
    serve_901(fake_github, plan_edits=[(CI_BOT, EDITED)])
    message = f"comment {PLAN_901_ID} was edited by ci-bot[bot], not a trusted author; {DEFAULT}"
    for command in ("validate", "render"):
        result, code = json_cli(command, fake_github, "--issue-number", "901")
        assert (result["status"], result["message"], result["editor"], code) == (
            "plan-identity-mismatch",
            message,
            "ci-bot[bot]",
            1,
        )
    report, code = json_cli("audit", fake_github, "--state", "all")
    assert [
        (p["issue"], p["state"], p["plan_comment_id"], p["message"], p["duplicate_plans"])
        for p in report["plans"]
    ] == [(901, "untrusted-edit", PLAN_901_ID, message, True)]  # the older plan counts too
    assert (report["counts"]["untrusted-edit"], code) == (1, 1)


def test_audit_asks_the_edit_histories_of_many_plans_in_batches_of_100(
    fake_github: FakeGitHub,
) -> None:
    for issue in range(1, 102):  # 101 plans: 100 node ids a request, then 1
        body = PLAN_901.replace("plan-issue-901", f"plan-issue-{issue}").replace(
            "slice_comment_id: 7000000902\n", ""
        )
        fake_github.add_comment(
            10_000 + issue,
            body,
            issue,
            updated_at=EDITED,
            created_at=CREATED,
            edits=[(OWNER, EDITED)],
        )
    report, _ = json_cli("audit", fake_github, "--state", "all")
    assert len(report["plans"]) == 101
    assert fake_github.paths().count(GRAPHQL) == 2
    assert report["counts"]["untrusted-edit"] == 0
