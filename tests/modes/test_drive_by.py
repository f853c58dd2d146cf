"""What a drive-by can cost (SPEC 6.1, revision 4), in validate, render and audit against the
loopback fake: discovery walks the plan-like comments newest first and stops at the first
trusted plan, so older comments cost nothing; each login is asked once; at most 20 logins a run
(audit: an issue); a failed request for a newer comment ends the run (audit: the issue); a hidden
comment costs nothing, and a hidden newest trusted plan is never replaced by an older one. Also
the authors no request may be made for: deleted accounts, empty and look-alike logins, bots.
Exact results and request logs; the runs are ``main`` in this process."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fake_github import OWNER, REPO, FakeGitHub, Minimized, User, rate_limited_403
from tests.modes.test_trust import (
    DEFAULT,
    EVIL_PLAN,
    LISTING_901,
    PLAN_901,
    PLAN_901_ID,
    PLAN_ID,
    SIBLING_901,
    SIBLING_901_ID,
    SIBLING_ID,
    comment_get,
    json_cli,
    lookup,
    permission_get,
    serve_878,
)

CAP = (
    "more than 20 authors of plan-like comments on issue #901 need a permission request: hide "
    "(minimize) those comments, which costs nothing, or remove `write` from --trusted-authors "
    "and name planners with @login"
)


def serve_plan(fake: FakeGitHub, updated_at: str = "2026-08-01T09:00:00Z", **extra: Any) -> None:
    fake.add_comment(PLAN_901_ID, PLAN_901, 901, updated_at=updated_at, **extra)
    fake.add_comment(SIBLING_901_ID, SIBLING_901, 901)


def drive_bys(fake: FakeGitHub, count: int, *, accounts: int, newer: bool) -> list[int]:
    """``count`` plan-like comments on issue 901 by ``accounts`` drive-by accounts, each
    newer (or older) than the maintainer's plan; their ids."""
    ids = []
    for index in range(count):
        comment_id = 7100000000 + index
        stamp = f"2026-08-0{2 if newer else 1}T0{index // 60 % 9}:{index % 60:02}:00Z"
        author = User(f"drive-by-{index % accounts}", "NONE", id=990100 + index % accounts)
        fake.add_comment(
            comment_id, EVIL_PLAN.format(issue=901), 901, updated_at=stamp, author=author
        )
        ids.append(comment_id)
    return ids


def permission_gets(fake: FakeGitHub) -> list[str]:
    return [path for path in fake.paths() if path.endswith("/permission")]


# ---- older comments cost nothing ---------------------------------------------------------------


def test_30_older_drive_by_comments_by_30_accounts_cost_no_request(fake_github: FakeGitHub) -> None:
    serve_plan(fake_github, updated_at="2026-08-01T09:00:00Z")
    older = drive_bys(fake_github, 30, accounts=30, newer=False)
    result, code = json_cli("validate", fake_github, "--issue-number", "901")
    assert (result["status"], code) == ("valid", 0)
    codes = [finding["code"] for finding in result["findings"]]
    assert codes == ["older-plan-comments"]
    assert result["findings"][0]["message"] == (
        "issue #901 also has 30 older plan comment(s) ("
        + ", ".join(str(i) for i in sorted(older, reverse=True))
        + f"); validated the newest, {PLAN_901_ID}"
    )
    assert permission_gets(fake_github) == []
    assert fake_github.paths() == [LISTING_901, comment_get(SIBLING_901_ID)]
    fake_github.requests.clear()
    rendered, _ = json_cli("render", fake_github, "--issue-number", "901")
    assert (rendered["status"], rendered["untrusted_plan_comments"]) == ("ok", 0)
    fake_github.requests.clear()
    report, _ = json_cli("audit", fake_github, "--state", "all")
    assert (report["status"], report["untrusted_plan_comments"], report["requests"]) == (
        "clean",
        0,
        1,
    )
    assert report["plans"][0]["duplicate_plans"] is True  # 30 older plan-like comments


# ---- newer comments are judged, each login once ------------------------------------------------


def test_30_newer_comments_by_one_account_cost_one_request(fake_github: FakeGitHub) -> None:
    serve_plan(fake_github)
    drive_bys(fake_github, 30, accounts=1, newer=True)
    result, code = json_cli("validate", fake_github, "--issue-number", "901")
    assert (result["status"], code) == ("valid", 0)
    codes = [finding["code"] for finding in result["findings"]]
    assert codes == ["untrusted-plan-comment"] * 30
    assert permission_gets(fake_github) == [permission_get("drive-by-0")]


def test_25_newer_comments_by_25_accounts_stop_at_20_requests(fake_github: FakeGitHub) -> None:
    serve_plan(fake_github)
    drive_bys(fake_github, 25, accounts=25, newer=True)
    result, code = json_cli("validate", fake_github, "--issue-number", "901")
    assert (result["status"], result["message"], code) == ("error", CAP, 1)
    assert len(permission_gets(fake_github)) == 20
    fake_github.requests.clear()
    rendered, code = json_cli("render", fake_github, "--issue-number", "901")
    assert (rendered["status"], rendered["message"], code) == ("error", CAP, 1)
    assert len(permission_gets(fake_github)) == 20


def test_audit_marks_that_issue_undetermined_and_goes_on(fake_github: FakeGitHub) -> None:
    serve_plan(fake_github)
    drive_bys(fake_github, 25, accounts=25, newer=True)
    fake_github.add_comment(7000000950, PLAN_901.replace("plan-issue-901", "plan-issue-950"), 950)
    report, code = json_cli("audit", fake_github, "--state", "all")
    assert (report["status"], code) == ("findings", 1)
    rows = {row["issue"]: row for row in report["plans"]}
    assert (rows[901]["state"], rows[901]["message"]) == ("undetermined", CAP)
    assert rows[901]["plan_comment_id"] == 7100000004  # the comment a 21st request was for
    assert rows[950]["state"] == "invalid"  # the next issue is classified
    assert report["counts"]["undetermined"] == 1
    assert len(permission_gets(fake_github)) == 20


def serve_sibling_that_cannot_be_judged(fake: FakeGitHub) -> None:
    """Issue 901's trusted plan under two newer drive-by plan-like comments, and a sibling whose
    author needs a permission request that fails (rate limited past max-wait)."""
    fake.add_comment(PLAN_901_ID, PLAN_901, 901, updated_at="2026-08-01T09:00:00Z")
    helper = User("plan-helper", "CONTRIBUTOR", id=990300)
    fake.add_comment(SIBLING_901_ID, SIBLING_901, 901, author=helper)
    fake.set_permission("plan-helper", rate_limited_403(3600, fake.clock.time))
    drive_bys(fake, 2, accounts=2, newer=True)


RATE_LIMITED = f"the permission of plan-helper on {REPO}: rate limited by the GitHub API until "


def test_an_audit_row_of_a_plan_it_cannot_use_counts_what_the_walk_met(
    fake_github: FakeGitHub,
) -> None:
    serve_sibling_that_cannot_be_judged(fake_github)
    fake_github.add_comment(7000000800, PLAN_901, 901, updated_at="2026-07-01T00:00:00Z")  # older
    report, code = json_cli("audit", fake_github, "--state", "all")
    assert (report["status"], code) == ("findings", 1)
    row = report["plans"][0]
    counts = (row["untrusted_plan_comments"], row["hidden_plan_comments"], row["duplicate_plans"])
    assert (row["state"], counts) == ("undetermined", (2, 0, True))
    assert row["message"].startswith(RATE_LIMITED)
    assert report["untrusted_plan_comments"] == 2


def test_a_render_that_fails_past_the_walk_counts_the_comments_passed_over(
    fake_github: FakeGitHub,
) -> None:
    serve_sibling_that_cannot_be_judged(fake_github)
    rendered, code = json_cli("render", fake_github, "--issue-number", "901")
    assert (rendered["status"], code) == ("gh-rate-limited", 1)
    assert rendered["message"].startswith(RATE_LIMITED)
    assert (rendered["untrusted_plan_comments"], rendered["hidden_plan_comments"]) == (2, 0)


def test_a_rate_limited_request_for_a_newer_comment_ends_the_run(fake_github: FakeGitHub) -> None:
    serve_plan(fake_github)
    drive_bys(fake_github, 1, accounts=1, newer=True)
    fake_github.set_permission("drive-by-0", rate_limited_403(3600, fake_github.clock.time))
    result, code = json_cli("validate", fake_github, "--issue-number", "901")
    assert (result["status"], code) == ("gh-rate-limited", 1)
    assert result["message"].startswith(
        f"the permission of drive-by-0 on {REPO}: rate limited by the GitHub API until "
    )


def test_a_rate_limited_login_of_an_older_comment_is_never_asked(fake_github: FakeGitHub) -> None:
    serve_plan(fake_github)
    drive_bys(fake_github, 1, accounts=1, newer=False)
    fake_github.set_permission("drive-by-0", rate_limited_403(3600, fake_github.clock.time))
    result, code = json_cli("validate", fake_github, "--issue-number", "901")
    assert (result["status"], code) == ("valid", 0)
    assert permission_gets(fake_github) == []


# ---- hidden comments ---------------------------------------------------------------------------


def test_a_hidden_drive_by_comment_is_passed_over_without_a_request(
    fake_github: FakeGitHub,
) -> None:
    serve_plan(fake_github)
    fake_github.add_comment(
        7100000000,
        EVIL_PLAN.format(issue=901),
        901,
        updated_at="2026-08-02T09:00:00Z",
        author=User("drive-by", "NONE"),
        minimized=Minimized("spam"),
    )
    result, code = json_cli("validate", fake_github, "--issue-number", "901")
    assert (result["status"], code) == ("valid", 0)
    assert [(f["code"], f["severity"], f["message"]) for f in result["findings"]] == [
        (
            "hidden-plan-comment",
            "notice",
            "comment 7100000000 is hidden as spam: dispatch from the current plan; it carries "
            "a <!-- plan-issue-901 --> line but is passed over",
        )
    ]
    assert permission_gets(fake_github) == []
    fake_github.requests.clear()
    rendered, _ = json_cli("render", fake_github, "--issue-number", "901")
    assert (rendered["hidden_plan_comments"], rendered["untrusted_plan_comments"]) == (1, 0)
    report, _ = json_cli("audit", fake_github, "--state", "all")
    assert (report["hidden_plan_comments"], report["plans"][0]["state"]) == (1, "fresh")


@pytest.mark.parametrize(
    ("reason", "words"), [("outdated", "hidden as outdated"), (None, "hidden (no reason given)")]
)
def test_a_hidden_newest_trusted_plan_is_never_replaced_by_an_older_one(
    fake_github: FakeGitHub, reason: str | None, words: str
) -> None:
    serve_plan(fake_github)  # the older plan
    fake_github.add_comment(
        7000000990,
        PLAN_901,
        901,
        updated_at="2026-08-03T09:00:00Z",
        author=OWNER,
        minimized=Minimized(reason),
    )
    message = f"comment 7000000990 is {words}: dispatch from the current plan"
    for command in ("validate", "render"):
        result, code = json_cli(command, fake_github, "--issue-number", "901")
        assert (result["status"], result["message"], code) == (
            "plan-identity-mismatch",
            message,
            1,
        )
    report, _ = json_cli("audit", fake_github, "--state", "all")
    assert [(p["state"], p["plan_comment_id"], p["message"]) for p in report["plans"]] == [
        ("hidden", 7000000990, message)
    ]
    assert permission_gets(fake_github) == []


def test_a_hidden_plan_or_sibling_is_refused_in_lookup_without_a_request(
    fake_github: FakeGitHub,
) -> None:
    serve_878(fake_github)
    fake_github.comments[(REPO, PLAN_ID)]["minimized"] = {"reason": "outdated"}
    result, code = lookup(fake_github)
    assert (result, code) == (
        {
            "status": "plan-identity-mismatch",
            "message": f"comment {PLAN_ID} is hidden as outdated: dispatch from the current plan",
        },
        1,
    )
    assert fake_github.paths() == [comment_get(PLAN_ID)]
    fake_github.comments[(REPO, PLAN_ID)]["minimized"] = None
    fake_github.comments[(REPO, SIBLING_ID)]["minimized"] = {"reason": None}
    fake_github.requests.clear()
    result, code = lookup(fake_github, "--slices-comment-id", str(SIBLING_ID))
    assert (result["status"], result["message"], code) == (
        "sibling-identity-mismatch",
        f"comment {SIBLING_ID} is hidden (no reason given): dispatch from the current plan",
        1,
    )
    assert permission_gets(fake_github) == []


# ---- authors no request is made for ------------------------------------------------------------


@pytest.mark.parametrize(
    ("user", "shown"),
    [
        (None, "ghost, a deleted account (OWNER)"),
        (User("", "OWNER"), "ghost, a deleted account (OWNER)"),
        (User("ghost", "OWNER"), "ghost (OWNER)"),
        (User("\u212aevin", "OWNER"), "\u212aevin (OWNER)"),
    ],
)
def test_a_deleted_account_or_a_login_github_never_issues_is_refused_without_a_request(
    fake_github: FakeGitHub, user: User | None, shown: str
) -> None:
    serve_878(fake_github, plan=user)
    payload = fake_github.comments[(REPO, PLAN_ID)]
    payload["author_association"] = "OWNER"
    result, code = lookup(fake_github, "--trusted-authors", "OWNER,MEMBER,write,@kevin")
    assert (result["status"], code) == ("plan-identity-mismatch", 1)
    assert result["message"] == (
        f"comment {PLAN_ID} was written by {shown}, not a trusted author; --trusted-authors is "
        "OWNER,MEMBER,write,@kevin"
    )
    assert fake_github.paths() == [comment_get(PLAN_ID)]


def test_a_bot_is_never_asked(fake_github: FakeGitHub) -> None:
    serve_878(fake_github, plan=User("helper-app[bot]", "NONE", type="Bot"))
    result, code = lookup(fake_github)
    assert (result["status"], code) == ("plan-identity-mismatch", 1)
    assert result["message"] == (
        f"comment {PLAN_ID} was written by helper-app[bot] (NONE), not a trusted author; {DEFAULT}"
    )
    assert fake_github.paths() == [comment_get(PLAN_ID)]
