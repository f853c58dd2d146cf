"""``make fake-api`` (e2e/fake_api.py) says what it serves, and serves it: the table it prints
before the export lines (who wrote and who edited each comment, and which are hidden), its
issue listing (the issues of the table, open, so an audit with the default ``--state open``
finds their plans), the drive-by's permission as GitHub answers it on a public repository
(``read``), and the edit histories and hidden comments the table names."""

from __future__ import annotations

import json

import pytest

from tests.conftest import clean_env
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.in_process import run_cli_in_process
from tests.test_agents_doc import fake_api_module

TABLE = """\
repository      issue  comment     author (association)     role      generated_at          edited by         hidden
octo-org/plans  878    5013464861  octo-maintainer (OWNER)  plan      2026-07-18T22:20:00Z  -                 -
octo-org/plans  878    5013460780  octo-maintainer (OWNER)  sibling   2026-07-18T22:20:00Z  -                 -
octo-org/plans  878    5013469999  drive-by (NONE)          drive-by  -                     -                 -
octo-org/plans  880    5013470120  octo-maintainer (OWNER)  plan      2026-07-20T09:30:00Z  -                 -
octo-org/plans  880    5013470121  octo-maintainer (OWNER)  sibling   2026-07-20T09:30:00Z  -                 -
octo-org/plans  901    7000000901  octo-maintainer (OWNER)  plan      2026-08-01T09:00:00Z  -                 -
octo-org/plans  901    7000000902  octo-maintainer (OWNER)  sibling   2026-08-01T09:00:00Z  -                 -
octo-org/plans  901    7000000999  drive-by (NONE)          drive-by  -                     -                 -
octo-org/plans  903    7000000903  octo-maintainer (OWNER)  plan      2026-08-03T09:00:00Z  ci-bot[bot]       -
octo-org/plans  904    7000000904  planner-app[bot] (NONE)  plan      2026-08-04T09:00:00Z  planner-app[bot]  -
octo-org/plans  905    7000000905  octo-maintainer (OWNER)  plan      2026-08-05T09:00:00Z  -                 outdated
octo-org/plans  906    7000000906  octo-maintainer (OWNER)  plan      2026-08-06T09:00:00Z  -                 -
"""


def test_the_table_names_every_comment_served(fake_github: FakeGitHub) -> None:
    module = fake_api_module()
    assert module.table() == TABLE
    module.serve(fake_github)
    served = {
        comment_id: (repo, payload["issue_url"].rsplit("/", 1)[1], payload["user"]["login"])
        for (repo, comment_id), payload in fake_github.comments.items()
    }
    rows = [line.split() for line in TABLE.splitlines()[1:]]
    assert served == {int(row[2]): (row[0], row[1], row[3]) for row in rows}
    assert sorted(fake_github.issues) == [(REPO, n) for n in (878, 880, 901, 903, 904, 905, 906)]
    assert {payload["state"] for payload in fake_github.issues.values()} == {"open"}


def test_an_audit_with_the_default_state_finds_the_plans_of_the_table(
    fake_github: FakeGitHub,
) -> None:
    fake_api_module().serve(fake_github)
    completed = run_cli_in_process(
        ["audit", "--repo", REPO, "--api-url", fake_github.url, "--format", "json"],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    report = json.loads(completed.stdout)
    assert completed.returncode == 1  # the real plan of issue 878 is invalid: findings
    # 903: the owner's plan that ci-bot[bot] edited; 904: the planner bot's plan, which the
    # default trusted-authors does not trust (no row; counted as untrusted); 905: hidden.
    assert [(p["issue"], p["plan_comment_id"], p["state"]) for p in report["plans"]] == [
        (878, 5013464861, "invalid"),
        (880, 5013470120, "fresh"),
        (901, 7000000901, "fresh"),
        (903, 7000000903, "untrusted-edit"),
        (905, 7000000905, "hidden"),
        (906, 7000000906, "fresh"),
    ]
    assert (report["status"], report["untrusted_plan_comments"], report["requests"]) == (
        "findings",
        3,
        4,
    )
    # The open issues, the comments, once the drive-by's permission (read, not trusted; a bot
    # is never asked), and the edit history of the one edited plan chosen (903's).
    assert fake_github.paths() == [
        f"GET /repos/{REPO}/issues",
        f"GET /repos/{REPO}/issues/comments",
        f"GET /repos/{REPO}/collaborators/drive-by/permission",
        "POST /graphql",
    ]


def test_the_edits_and_hidden_comments_are_served_as_the_table_says(
    fake_github: FakeGitHub,
) -> None:
    """A comment with an editor in the table is edited (``created_at`` before ``updated_at``)
    and ``POST /graphql`` answers that history (the author's creation entry last); a comment
    hidden in the table is ``minimized`` with that reason."""
    fake_api_module().serve(fake_github)
    rows = {int(line.split()[2]): line.split() for line in TABLE.splitlines()[1:]}
    for (_repo, comment_id), payload in fake_github.comments.items():
        edited_by, hidden = rows[comment_id][-2:]
        assert (payload["created_at"] < payload["updated_at"]) == (edited_by != "-")
        history = fake_github.edits.get(payload["node_id"], [])
        editors = dict.fromkeys(user.login for user, _at in history[:-1] if user is not None)
        assert (",".join(editors) or "-") == edited_by
        if history:  # the creation entry, last: the author at created_at
            creator, created = history[-1]
            assert creator is not None
            assert (creator.login, created) == (payload["user"]["login"], payload["created_at"])
        assert (payload.get("minimized") or {"reason": "-"})["reason"] == hidden


# What make e2e expects of the comments of issues 903-905 (e2e/run_container.py and
# e2e/workflows/act.yml): the status, the start of the message, and the requests.
BOT_POLICY = "OWNER,MEMBER,COLLABORATOR,write,@planner-app[bot]"
WHO_TOUCHED_IT = [
    (
        ["--plan-comment-id", "7000000903", "--issue-number", "903"],
        "2026-08-03T09:00:00Z",
        "plan-identity-mismatch",
        "comment 7000000903 was edited by ci-bot[bot], not a trusted author;",
        ["GET /repos/octo-org/plans/issues/comments/7000000903", "POST /graphql"],
    ),
    (
        [
            "--plan-comment-id",
            "7000000904",
            "--issue-number",
            "904",
            "--trusted-authors",
            BOT_POLICY,
        ],
        "2026-08-04T09:00:00Z",
        "ok",
        None,
        ["GET /repos/octo-org/plans/issues/comments/7000000904", "POST /graphql"],
    ),
    (
        ["--plan-comment-id", "7000000904", "--issue-number", "904"],
        "2026-08-04T09:00:00Z",
        "plan-identity-mismatch",
        "comment 7000000904 was written by planner-app[bot] (NONE), not a trusted author;",
        ["GET /repos/octo-org/plans/issues/comments/7000000904"],
    ),
    (
        ["--plan-comment-id", "7000000905", "--issue-number", "905"],
        "2026-08-05T09:00:00Z",
        "plan-identity-mismatch",
        "comment 7000000905 is hidden as outdated: dispatch from the current plan",
        ["GET /repos/octo-org/plans/issues/comments/7000000905"],
    ),
]


@pytest.mark.parametrize(
    "flags,stamp,status,message,paths", WHO_TOUCHED_IT, ids=["903", "904-bot", "904", "905"]
)
def test_who_touched_the_plans_of_903_to_905(
    fake_github: FakeGitHub,
    flags: list[str],
    stamp: str,
    status: str,
    message: str | None,
    paths: list[str],
) -> None:
    fake_api_module().serve(fake_github)
    argv = ["lookup", "--repo", REPO, "--api-url", fake_github.url, *flags, "--step-id", "s1"]
    argv += ["--generated-at", stamp, "--format", "json"]
    completed = run_cli_in_process(argv, env=clean_env(GITHUB_TOKEN=TOKEN))
    result = json.loads(completed.stdout)
    assert result["status"] == status
    assert (result.get("message") or "").startswith(message or "")
    assert b"CI-BOT-EDIT" not in completed.stdout
    assert b"HIDDEN-PLAN-SLICE" not in completed.stdout
    assert fake_github.paths() == paths
