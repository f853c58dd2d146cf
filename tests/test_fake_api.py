"""``make fake-api`` (e2e/fake_api.py) says what it serves, and serves it: the table it prints
before the export lines, its issue listing (the issues of the table, open, so an audit with
the default ``--state open`` finds their plans), and the drive-by's permission as GitHub
answers it on a public repository (``read``)."""

from __future__ import annotations

import json

from tests.conftest import clean_env
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.in_process import run_cli_in_process
from tests.test_agents_doc import fake_api_module

TABLE = """\
repository      issue  comment     author (association)     role      generated_at
octo-org/plans  878    5013464861  octo-maintainer (OWNER)  plan      2026-07-18T22:20:00Z
octo-org/plans  878    5013460780  octo-maintainer (OWNER)  sibling   2026-07-18T22:20:00Z
octo-org/plans  878    5013469999  drive-by (NONE)          drive-by  -
octo-org/plans  880    5013470120  octo-maintainer (OWNER)  plan      2026-07-20T09:30:00Z
octo-org/plans  880    5013470121  octo-maintainer (OWNER)  sibling   2026-07-20T09:30:00Z
octo-org/plans  901    7000000901  octo-maintainer (OWNER)  plan      2026-08-01T09:00:00Z
octo-org/plans  901    7000000902  octo-maintainer (OWNER)  sibling   2026-08-01T09:00:00Z
octo-org/plans  901    7000000999  drive-by (NONE)          drive-by  -
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
    assert sorted(fake_github.issues) == [(REPO, 878), (REPO, 880), (REPO, 901)]
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
    assert [(p["issue"], p["plan_comment_id"], p["state"]) for p in report["plans"]] == [
        (878, 5013464861, "invalid"),
        (880, 5013470120, "fresh"),
        (901, 7000000901, "fresh"),
    ]
    assert (report["status"], report["untrusted_plan_comments"], report["requests"]) == (
        "findings",
        2,
        3,
    )
    # The open issues, the comments, and once the drive-by's permission: read, not trusted.
    assert fake_github.paths() == [
        f"GET /repos/{REPO}/issues",
        f"GET /repos/{REPO}/issues/comments",
        f"GET /repos/{REPO}/collaborators/drive-by/permission",
    ]
