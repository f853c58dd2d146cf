"""Audit mode (SPEC 11): a generated repository of 1,000 issues and 10,000 comments behind the
loopback fake of the REST API, exact counts and request budgets; the collector and classifier."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from frame_spine.core.plan import scan_bodies
from frame_spine.core.trust import DEFAULT_POLICY
from frame_spine.github.payloads import FetchedComment
from frame_spine.modes.audit.models import AuditState
from frame_spine.modes.audit.rules import Kept, Listing, classify
from frame_spine.validation.rules import validate_scanned
from tests.builders import slice_block
from tests.conftest import clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub, error
from tests.in_process import run_action_in_process, run_cli_in_process
from tests.modes.audit.repo import STAMP, Expected, plan, populate, sibling, slices, spine
from tests.runner_env import run_action

STATES = [state.value for state in AuditState]


def audit(fake: FakeGitHub, *extra: str) -> tuple[dict[str, object], int]:
    """`frame-spine audit --format json` in this process (the text table and the usage error
    below run the installed command)."""
    completed = run_cli_in_process(
        ["audit", "--repo", REPO, "--api-url", fake.url, "--format", "json", *extra],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert completed.stderr == b""
    return json.loads(completed.stdout), completed.returncode


#: The id the fake gives octo-org/plans: GitHub links a listing's second page on as
#: ``/repositories/{id}/...``.
RID = 1001


def listing_requests(fake: FakeGitHub, rest: str) -> list[dict[str, list[str]]]:
    """The query of each request of the listing ``rest`` (``issues/comments``, ``issues``):
    its first page under ``/repos/{REPO}/``, every later one where GitHub links it,
    ``/repositories/{RID}/``."""
    first, later = f"/repos/{REPO}/{rest}", f"/repositories/{RID}/{rest}"
    found = [r for r in fake.requests if r.path in (first, later)]
    assert [r.path for r in found] == [first] + [later] * (len(found) - 1)
    return [parse_qs(r.query) for r in found]


@pytest.fixture
def repository(fake_github: FakeGitHub) -> Expected:
    return populate(fake_github)


def test_all_states_exact_counts_and_request_budget(
    fake_github: FakeGitHub, repository: Expected
) -> None:
    report, code = audit(fake_github, "--state", "all")
    assert code == 1
    assert report["status"] == "findings"
    expected = repository.counts(open_only=False)
    assert report["counts"] == {state: expected[state] for state in STATES}
    assert report["counts"] == {
        "hidden": 0,
        "untrusted-edit": 0,
        "undetermined": 0,
        "no-spine": 328,
        "invalid": 83,
        "sibling-missing": 83,
        "sibling-unstamped": 83,
        "stale-sibling": 83,
        "fresh": 248,
    }
    comment_pages = listing_requests(fake_github, "issues/comments")
    assert len(comment_pages) == 100 == repository.comments // 100
    assert comment_pages[0] == {"per_page": ["100"]}
    assert [q["page"] for q in comment_pages[1:]] == [[str(n)] for n in range(2, 101)]
    sibling_gets = [
        r.path for r in fake_github.requests if r.path.startswith(f"/repos/{REPO}/issues/comments/")
    ]
    assert len(sibling_gets) == repository.sibling_fetches(open_only=False) == 83
    assert len(fake_github.requests) == report["requests"] == 183
    plans = report["plans"]
    assert isinstance(plans, list)
    assert [p["issue"] for p in plans] == sorted(repository.states)
    assert {p["issue"]: p["state"] for p in plans} == repository.states
    assert {p["issue"] for p in plans if p["duplicate_plans"]} == repository.duplicates


def test_default_state_lists_the_open_issues_first(
    fake_github: FakeGitHub, repository: Expected
) -> None:
    report, code = audit(fake_github)
    assert code == 1
    expected = repository.counts(open_only=True)
    assert report["counts"] == {state: expected[state] for state in STATES}
    issue_pages = listing_requests(fake_github, "issues")
    assert len(issue_pages) == 10
    assert issue_pages[0] == {"per_page": ["100"], "state": ["open"]}
    assert (
        fake_github.paths()[:10]
        == [f"GET /repos/{REPO}/issues"] + [f"GET /repositories/{RID}/issues"] * 9
    )
    assert (
        report["requests"]
        == len(fake_github.requests)
        == 10 + 100 + repository.sibling_fetches(open_only=True)
    )
    assert not {p["issue"] for p in report["plans"]} & repository.closed  # type: ignore[union-attr]


def test_a_plan_row_has_every_key(fake_github: FakeGitHub, repository: Expected) -> None:
    report, _ = audit(fake_github, "--state", "all")
    rows = {p["issue"]: p for p in report["plans"]}  # type: ignore[union-attr]
    stale = next(issue for issue, state in repository.states.items() if state == "stale-sibling")
    row = rows[stale]
    assert list(row) == [
        "issue",
        "plan_comment_id",
        "plan_url",
        "sibling_comment_id",
        "state",
        "generated_at",
        "sibling_generated_at",
        "duplicate_plans",
        "errors",
        "warnings",
        "untrusted_plan_comments",
        "hidden_plan_comments",
        "message",
    ]
    assert (row["state"], row["generated_at"], row["sibling_generated_at"], row["errors"]) == (
        "stale-sibling",
        STAMP,
        "2026-05-01T09:00:00Z",
        1,
    )
    assert (
        row["plan_url"]
        == f"https://github.com/{REPO}/issues/{stale}#issuecomment-{row['plan_comment_id']}"
    )


def test_an_empty_repository_costs_one_request(fake_github: FakeGitHub) -> None:
    report, code = audit(fake_github, "--state", "all")
    assert (report, code) == (
        {
            "status": "clean",
            "repository": REPO,
            "requests": 1,
            "plans": [],
            "counts": dict.fromkeys(STATES, 0),
            "untrusted_plan_comments": 0,
            "hidden_plan_comments": 0,
        },
        0,
    )
    assert len(fake_github.requests) == 1
    report, _ = audit(fake_github)
    assert report["requests"] == 2


def test_since_passes_through_and_siblings_are_fetched_by_id(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(10, sibling(5, STAMP), 5, updated_at="2026-01-01T00:00:00Z")
    fake_github.add_comment(11, plan(5, spine(10)), 5, updated_at="2026-06-01T00:00:00Z")
    report, code = audit(fake_github, "--state", "all", "--since", "2026-03-01T00:00:00Z")
    assert code == 0
    assert report["counts"] == {**dict.fromkeys(STATES, 0), "fresh": 1}
    assert [(r.path, parse_qs(r.query)) for r in fake_github.requests] == [
        (
            f"/repos/{REPO}/issues/comments",
            {"per_page": ["100"], "since": ["2026-03-01T00:00:00Z"]},
        ),
        (f"/repos/{REPO}/issues/comments/10", {}),
    ]


@pytest.mark.parametrize(
    ("since", "resolved"),
    [
        ("8d", "2026-04-26T14:30:00Z"),  # the fake clock starts at 2026-05-04T14:30:00Z
        ("24h", "2026-05-03T14:30:00Z"),
        ("90m", "2026-05-04T13:00:00Z"),
        ("9999d", "1998-12-18T14:30:00Z"),
        ("2026-03-01T00:00:00Z", "2026-03-01T00:00:00Z"),
    ],
)
def test_since_takes_a_duration_back_from_the_start_and_the_report_gives_its_timestamp(
    fake_github: FakeGitHub, tmp_path: Path, since: str, resolved: str
) -> None:
    report, code = audit(fake_github, "--state", "all", "--since", since)
    assert (report["since"], code) == (resolved, 0)
    assert parse_qs(fake_github.requests[0].query)["since"] == [resolved]
    run = run_action_in_process(
        tmp_path,
        {"mode": "audit", "issue-state": "all", "since": since},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    assert json.loads(run.outputs["result"])["since"] == resolved
    assert f"comments updated since {resolved}" in run.summary


@pytest.mark.parametrize("since", ["10000d", "7w", "0x1d", "7 d", "1.5h"])
def test_a_since_that_is_neither_is_an_error_naming_the_input(
    fake_github: FakeGitHub, since: str
) -> None:
    report, code = audit(fake_github, "--since", since)
    assert (report["status"], report["message"], code) == (
        "error",
        f"--since {since!r} is neither a timestamp (YYYY-MM-DDTHH:MM:SSZ) nor a duration back "
        "from now (7d, 24h, 90m)",
        1,
    )


def test_text_format_is_a_table(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(11, plan(5, spine(None) + "\n\n" + slices()), 5)
    completed = run_cli(
        ["audit", "--repo", REPO, "--api-url", fake_github.url, "--state", "all"],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert completed.returncode == 0
    assert completed.stdout.decode().splitlines() == [
        "issue  plan comment  state  generated_at          sibling stamp  dup  err  warn",
        f"#5     11            fresh  {STAMP}  -              no   0    0",
        "clean: 1 plan in octo-org/plans (hidden 0, untrusted-edit 0, undetermined 0, "
        "no-spine 0, invalid 0, sibling-missing 0, sibling-unstamped 0, stale-sibling 0, "
        "fresh 1); 1 request",
    ]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--state", "merged"], "--state 'merged' is not one of open, closed, all"),
        (
            ["--since", "yesterday"],
            "--since 'yesterday' is neither a timestamp (YYYY-MM-DDTHH:MM:SSZ) nor a duration "
            "back from now (7d, 24h, 90m)",
        ),
        (["--timeout", "0"], "--timeout '0' is not a whole number of seconds in 1..600"),
    ],
)
def test_bad_audit_inputs(fake_github: FakeGitHub, extra: list[str], message: str) -> None:
    report, code = audit(fake_github, *extra)
    assert (report["status"], report["message"], code) == ("error", message, 1)
    assert fake_github.requests == []


def test_a_listing_failure_is_the_report_status(fake_github: FakeGitHub) -> None:
    fake_github.token = "another"
    report, code = audit(fake_github, "--state", "all")
    assert (report["status"], code) == ("gh-auth-expired", 1)
    assert report["message"] == (
        f"the issue comments of {REPO}: the token is invalid or expired (HTTP 401: Bad credentials)"
        " (request id F00D:1234:5678:9ABC:DEF0)"
    )


def test_audit_needs_a_repository(tmp_path: Path) -> None:
    # Outside a git checkout (tests/test_repo_from_checkout.py: inside one).
    completed = run_cli(
        ["audit"], env=clean_env(GIT_CEILING_DIRECTORIES=str(tmp_path)), cwd=tmp_path
    )
    assert completed.returncode == 2
    assert completed.stderr.decode().endswith(
        "--repo was left out and the current directory is not in a git checkout: give --repo "
        "OWNER/NAME\n"
    )


# ---- the pure parts -----------------------------------------------------------------------------


def comment(
    comment_id: int,
    body: str,
    issue: int,
    updated_at: str = "2026-05-04T15:00:00Z",
    author: tuple[str, str] = ("ana", "OWNER"),
) -> FetchedComment:
    return FetchedComment(
        comment_id,
        body,
        f"https://api.example/repos/{REPO}/issues/{issue}",
        None,
        updated_at,
        *author,
    )


def test_the_listing_keeps_only_what_deciding_needs() -> None:
    listing = Listing(DEFAULT_POLICY)
    listing.add(
        [
            comment(1, "chatter", 5),
            comment(2, plan(5, spine(3)), 5, "2026-05-01T00:00:00Z"),
            comment(3, sibling(5, STAMP), 5),
            comment(4, plan(5, spine(3)), 5, "2026-05-02T00:00:00Z"),
            comment(5, "mentions `<!-- plan-issue-5 -->` in prose", 5),
            comment(6, "```\n<!-- frame-slices-5 -->\n```", 5),
            comment(7, sibling(5, STAMP), 5, author=("drive-by", "NONE")),
            comment(9, plan(5, spine(3)), 5, "2026-05-03T00:00:00Z", ("drive-by", "NONE")),
        ]
    )
    assert listing.seen == 8
    assert sorted(listing.listed) == [2, 3, 4, 7, 9]
    kept = {key: listed.body is not None for key, listed in listing.listed.items()}
    # The newest plan and the sibling by trusted authors; nothing of the drive-by's.
    assert kept == {2: False, 3: True, 4: True, 7: False, 9: False}
    assert [c.id for c in listing.plan_like()[5]] == [9, 4, 2]  # newest first
    taken = listing.take(4)
    assert taken is not None and taken[1] == 3  # its pointer: the listing holds the sibling
    assert listing.take(4) is None  # a plan's body is read once
    assert listing.take(3) is not None and listing.take(3) is not None  # a sibling's stays
    filtered = Listing(DEFAULT_POLICY, issues={7})
    filtered.add([comment(2, plan(5, spine(3)), 5)])
    assert filtered.listed == {}


def test_the_newest_version_of_a_comment_listed_twice_decides_whether_it_is_a_plan() -> None:
    listing = Listing(DEFAULT_POLICY)
    listing.add([comment(4, plan(5, spine(3)), 5, "2026-05-02T00:00:00Z")])
    listing.add([comment(4, "edited into prose", 5, "2026-05-02T00:01:00Z")])
    assert (listing.listed, listing.plan_like()) == ({}, {})
    listing.add([comment(4, plan(5, spine(3)), 5, "2026-05-02T00:00:00Z")])  # an older copy
    assert listing.listed == {}
    listing.add([comment(4, plan(5, spine(3)), 5, "2026-05-02T00:01:00Z")])  # a tie: later wins
    assert list(listing.plan_like()) == [5]


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        ("<!-- frame-slices-5 -->\nplain", b"<!-- frame-slices-5 -->\nplain"),
        ("<!-- frame-slices-5 -->\n# \u2014", b"<!-- frame-slices-5 -->\n# \xe2\x80\x94"),
        ("<!-- frame-slices-5 -->\r\n\U0001f680", b"<!-- frame-slices-5 -->\r\n\xf0\x9f\x9a\x80"),
        ("<!-- frame-slices-5 -->\nlone \ud83d", b"<!-- frame-slices-5 -->\nlone \xed\xa0\xbd"),
    ],
)
def test_a_kept_body_is_utf8_and_comes_back_whole(body: str, kept: bytes) -> None:
    listing = Listing(DEFAULT_POLICY)
    listed = comment(7, body, 5)
    listing.add([listed])
    assert (listing.listed[7].body, listing.listed[7].comment.body) == (kept, "")
    taken = listing.take(7)
    assert taken is not None and taken[0].whole() == listed


def test_two_plans_pointing_at_one_listed_sibling_fetch_nothing(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(3, sibling(5, STAMP), 5)
    fake_github.add_comment(4, plan(5, spine(3)), 5)
    fake_github.add_comment(6, plan(6, spine(3)), 6)
    report, code = audit(fake_github, "--state", "all")
    assert code == 1
    assert [(p["issue"], p["state"], p["sibling_comment_id"]) for p in report["plans"]] == [  # type: ignore[union-attr]
        (5, "fresh", 3),
        (6, "invalid", 3),  # sibling-identity-mismatch: the sibling is #5's
    ]
    assert fake_github.paths() == [f"GET /repos/{REPO}/issues/comments"]
    assert report["requests"] == 1


EXPLORATORY_SLICES = "\n".join(
    [
        *slice_block("s1", "coverage: exploratory - spike"),
        *slice_block("s2", "provides: [review]"),
    ]
)


@pytest.mark.parametrize(
    ("plan_body", "sibling_body", "state"),
    [
        (plan(5, "prose only"), None, AuditState.NO_SPINE),
        (plan(5, spine(None, broken=True) + "\n" + slices()), None, AuditState.INVALID),
        (plan(5, spine(3)), None, AuditState.SIBLING_MISSING),
        (plan(5, spine(3)), sibling(5, None), AuditState.SIBLING_UNSTAMPED),
        (plan(5, spine(3)), sibling(5, "2026-01-01T00:00:00Z"), AuditState.STALE_SIBLING),
        (plan(5, spine(3)), sibling(5, STAMP), AuditState.FRESH),
        (plan(5, spine(3)), sibling(6, STAMP), AuditState.INVALID),  # identity mismatch
        (plan(5, "<!-- frame-spine\nspine_schema_version: 2\n"), None, AuditState.INVALID),
        # SPEC 10 revision 2's codes: spine-omitted next to a spine is a warning (before:
        # invalid); an unknown variant is an error, but a plan without any spine block is
        # no-spine first; slices in a brief plan are no spine either; uncovered-ac is a warning;
        # a port routed to an exploratory slice without provides: is port-not-provided.
        (
            plan(5, spine(3), "spine-omitted: plan-too-small"),
            sibling(5, STAMP),
            AuditState.FRESH,
        ),
        (plan(5, spine(3), "plan-variant: breif"), sibling(5, STAMP), AuditState.INVALID),
        (plan(5, "A brief plan.", "plan-variant: breif"), None, AuditState.NO_SPINE),
        (plan(5, slices(), "plan-variant: brief"), None, AuditState.NO_SPINE),
        (
            plan(5, "## Acceptance Criteria\n\n- **AC9** x\n\n" + spine(3)),
            sibling(5, STAMP),
            AuditState.FRESH,
        ),
        (plan(5, spine(None) + "\n" + EXPLORATORY_SLICES), None, AuditState.INVALID),
    ],
)
def test_classify(plan_body: str, sibling_body: str | None, state: AuditState) -> None:
    comments = scan_bodies(plan_body, sibling_body)
    assert classify(comments, validate_scanned(comments, issue_number=5)) is state


# ---- the action ---------------------------------------------------------------------------------


def test_audit_mode_in_the_action(
    fake_github: FakeGitHub, repository: Expected, tmp_path: Path
) -> None:
    run = run_action(
        tmp_path,
        {
            "mode": "audit",
            "issue-state": "all",
            "report-file": "out/audit.json",
            "fail-on": "never",
        },
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    assert (run.returncode, run.stderr) == (0, "")
    outputs = run.outputs
    expected = repository.counts(open_only=False)
    assert {k: v for k, v in outputs.items() if k.startswith("count-")} == {
        f"count-{state}": str(expected[state]) for state in STATES
    }
    assert (outputs["status"], outputs["exit-code"], outputs["report-path"]) == (
        "findings",
        "1",
        "out/audit.json",
    )
    report = json.loads((run.workspace / "out" / "audit.json").read_text())
    assert json.loads(outputs["result"]) == report
    assert report["requests"] == 183
    lines = run.stdout.splitlines()
    assert (
        lines[0]
        == f"frame-spine audit: status findings, {len(repository.states)} plans, 183 requests"
    )
    assert len(lines) == 1 + 10 + 1  # ten plan annotations (GitHub shows ten), then one count
    assert lines[1].startswith("::warning title=frame-spine audit%3A ")
    left = sum(1 for s in repository.states.values() if s not in ("fresh", "no-spine")) - 10
    assert lines[-1] == (
        "::notice title=frame-spine%3A annotations left out::"
        f"{left} more annotations not shown ({left} warnings): GitHub shows at most 10 of each "
        "kind per step; the `result` output and the report out/audit.json list every plan; "
        "the job summary lists them as far as its size limit allows"
    )
    assert run.summary.startswith(
        f"### ❌ frame-spine audit: `findings` (exit code 1): {len(repository.states)} plans in "
        "octo-org/plans\n\n"
    )
    assert (
        "| Issue | Plan comment | State | Spine generated_at | Sibling stamp | Duplicates | Errors | Warnings |"
        in run.summary
    )
    assert len(run.summary.encode()) < 1024 * 1024


def test_audit_mode_fails_on_findings_by_default(fake_github: FakeGitHub, tmp_path: Path) -> None:
    fake_github.add_comment(11, plan(5, spine(99)), 5)
    run = run_action_in_process(
        tmp_path,
        {"mode": "audit", "issue-state": "all"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    assert (run.returncode, run.outputs["status"], run.outputs["count-sibling-missing"]) == (
        1,
        "findings",
        "1",
    )


def test_audit_mode_fetch_failure(fake_github: FakeGitHub, tmp_path: Path) -> None:
    fake_github.script(0, error(500, "boom"), error(500, "boom"), error(500, "boom"))
    run = run_action_in_process(
        tmp_path,
        {"mode": "audit", "issue-state": "all"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    assert (run.returncode, run.outputs["status"]) == (1, "error")
    assert run.outputs["count-fresh"] == ""
    assert (
        run.outputs["message"]
        == f"the issue comments of {REPO}: the GitHub API answered HTTP 500 three times: boom"
        " (request id F00D:1234:5678:9ABC:DEF0)"
    )


# ---- live listings: a comment on two pages counts once (SPEC 11) --------------------------------


def test_a_plan_listed_twice_in_two_versions_counts_once() -> None:
    older = comment(2, plan(5, spine(3)), 5, "2026-05-01T00:00:00Z")
    edited = comment(2, plan(5, spine(None) + "\n\n" + slices()), 5, "2026-05-02T00:00:00Z")
    for pages in ([[older, comment(3, sibling(5, STAMP), 5)], [edited]], [[edited], [older]]):
        listing = Listing(DEFAULT_POLICY)
        for page in pages:
            listing.add(page)
        assert listing.plan_like() == {5: [replace(edited, body="")]}
        assert listing.take(2) == (Kept.of(edited), None)  # the newer version, whichever page


def test_a_sibling_listed_twice_keeps_its_newest_version() -> None:
    listing = Listing(DEFAULT_POLICY)
    unstamped = comment(3, sibling(5, None), 5, "2026-05-01T00:00:00Z")
    stamped = comment(3, sibling(5, STAMP), 5, "2026-05-02T00:00:00Z")
    listing.add([stamped])
    listing.add([unstamped])
    assert listing.take(3) == (Kept.of(stamped), None)


def test_a_listing_that_shifts_between_pages_is_de_duplicated(fake_github: FakeGitHub) -> None:
    # 150 comments in ascending ids: page 1 holds ids 1001..1100. A comment created while page
    # 1 is served shifts the offsets, so page 2 starts again with id 1100: a plan comment.
    for offset in range(150):
        comment_id = 1001 + offset
        if comment_id == 1100:
            body = plan(5, spine(None) + "\n\n" + slices())
        else:
            body = f"chatter {comment_id}"
        fake_github.add_comment(comment_id, body, 5 if comment_id == 1100 else 6)
    fake_github.during_listing = lambda: fake_github.add_comment(500, "created during the scan", 6)
    report, code = audit(fake_github, "--state", "all")
    listed = listing_requests(fake_github, "issues/comments")
    assert len(listed) == 2
    assert (code, report["status"]) == (0, "clean")
    assert [(p["issue"], p["plan_comment_id"], p["duplicate_plans"]) for p in report["plans"]] == [  # type: ignore[union-attr]
        (5, 1100, False)
    ]


def test_a_plan_with_a_5000_step_dependency_chain_is_audited(fake_github: FakeGitHub) -> None:
    steps = 5000
    lines = [
        "<!-- frame-spine",
        "spine_schema_version: 2",
        f"generated_at: {STAMP}",
        "ports:",
        "  code: [" + ", ".join(f"s{i}" for i in range(1, steps + 1)) + "]",
        "slices:",
    ]
    for i in range(1, steps + 1):
        deps = f"s{i + 1}" if i < steps else ""
        lines += [f"  s{i}:", "    ac_refs: []", f"    depends_on: [{deps}]", "    cycle: 1"]
    blocks = [
        f"<!-- frame-slice\nstep_id: s{i}\nprovides: [code]\n-->" for i in range(1, steps + 1)
    ]
    fake_github.add_comment(10, plan(5, "\n".join([*lines, "-->", *blocks])), 5)
    fake_github.add_comment(11, plan(6, spine(None, broken=True) + "\n\n" + slices()), 6)
    report, code = audit(fake_github, "--state", "all")
    assert (code, report["status"]) == (1, "findings")
    assert [(p["issue"], p["state"], p["errors"]) for p in report["plans"]] == [  # type: ignore[union-attr]
        (5, "fresh", 0),
        (6, "invalid", 1),
    ]
