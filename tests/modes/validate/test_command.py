"""`frame-spine validate` (SPEC 9, 10): local bodies, by comment id and by discovery through
the loopback fake of the GitHub REST API, with exact findings and request logs. Most runs are
``main`` in this process (tests.in_process: the same argv, environment and bytes); the
installed command runs an invalid plan (JSON and text, exit 1), a valid plan's text (exit 0),
a usage error (exit 2) and an online validation."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from tests.conftest import REPO as REPO_DIR
from tests.conftest import clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub, error
from tests.in_process import run_cli_in_process

PLAN_TEXT = (REPO_DIR / "examples" / "plan-878.md").read_text("utf-8")
SIBLING_TEXT = (REPO_DIR / "examples" / "sibling-878.md").read_text("utf-8")
PLAN = str(REPO_DIR / "examples" / "plan-878.md")
SIBLING = str(REPO_DIR / "examples" / "sibling-878.md")
PLAN_ID = 5013464001
SIBLING_ID = 5013460780
UNRESOLVED = [
    ("error", "unresolved-step", "plan", line, step)
    for line, step in zip(range(36, 79, 6), [f"s{n}" for n in range(2, 10)], strict=True)
]
NON_CANONICAL = ("warning", "non-canonical-order", "plan", 26, None)


def validate(
    *args: str, env: dict[str, str] | None = None, process: bool = False
) -> tuple[dict[str, object], int]:
    """``frame-spine validate ARGS --format json`` through ``main`` in this process, or by the
    installed command when ``process``: its result and exit code."""
    run = run_cli if process else run_cli_in_process
    completed = run(
        ["validate", *args, "--format", "json"],
        env=env if env is not None else clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert completed.stderr == b""
    return json.loads(completed.stdout), completed.returncode


def shape(result: dict[str, object]) -> list[tuple[object, ...]]:
    findings = result["findings"]
    assert isinstance(findings, list)
    return [
        (f["severity"], f["code"], f.get("comment"), f.get("line"), f.get("step")) for f in findings
    ]


def test_real_878_plan_with_its_s1_sibling() -> None:
    result, code = validate("--plan-body", PLAN, "--slices-body", SIBLING, process=True)
    assert code == 1
    assert (result["status"], result["errors"], result["warnings"]) == ("invalid", 8, 1)
    assert shape(result) == [NON_CANONICAL, *UNRESOLVED]


def test_text_format_lists_findings_then_counts() -> None:
    completed = run_cli(["validate", "--plan-body", PLAN, "--slices-body", SIBLING])
    lines = completed.stdout.decode().splitlines()
    assert completed.returncode == 1
    assert lines[0] == (
        "warning non-canonical-order plan:26 port implement-code: ports are not in canonical "
        "(sorted) order: implement-code comes after implement-test (expected: ce-gate-cli, "
        "implement-code, implement-docs, implement-test, review)"
    )
    assert lines[1] == (
        "error unresolved-step plan:36 step s2: step s2 is in the spine but no "
        "frame-slice block carries it (ports routing to it: implement-test)"
    )
    assert lines[-1] == "invalid: 8 errors, 1 warning, 0 notices"
    assert len(lines) == 10


def test_the_issue_number_comes_from_the_plan_marker_unless_given() -> None:
    result, _ = validate("--plan-body", PLAN, "--slices-body", SIBLING, "--issue-number", "900")
    codes = [f[1] for f in shape(result)]
    assert codes.count("plan-identity-mismatch") == 1
    assert codes.count("sibling-identity-mismatch") == 1


def test_a_valid_plan_exits_0(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text(
        "<!-- plan-issue-7 -->\n<!-- frame-spine\nspine_schema_version: 2\n"
        "generated_at: 2026-05-04T14:30:00Z\ncoverage: complete\nports:\n  code: [s1]\n"
        "slices:\n  s1:\n    ac_refs: [AC1]\n    depends_on: []\n    cycle: 1\n-->\n"
        "<!-- frame-slice\nstep_id: s1\nprovides: [code]\n-->\n"
    )
    result, code = validate("--plan-body", str(plan))
    # SPEC 14 (revision 2): a valid plan also gives its dispatch matrix.
    step = {
        "step-id": "s1",
        "issue-number": "7",
        "plan-comment-id": "",
        "slices-comment-id": "",
        "generated-at": "2026-05-04T14:30:00Z",
        "spine-digest": "sha256:34800014c283474877d082cb83e32e9c48e6f64882c03254d9ad97361369a985",
        "ports": ["code"],
        "depends-on": [],
        "wave": 1,
    }
    dispatch = {"steps": [step], "waves": [["s1"]], "ready": [step]}
    assert (result, code) == (
        {"status": "valid", "errors": 0, "warnings": 0, "findings": [], "dispatch": dispatch},
        0,
    )
    completed = run_cli(["validate", "--plan-body", str(plan)])
    assert completed.stdout.decode() == "valid: 0 errors, 0 warnings, 0 notices\n"


def test_unreadable_plan_is_an_error_status(tmp_path: Path) -> None:
    result, code = validate("--plan-body", str(tmp_path / "nope.md"))
    assert (result, code) == (
        {
            "status": "error",
            "errors": 0,
            "warnings": 0,
            "findings": [],
            "message": f"cannot read --plan-body '{tmp_path / 'nope.md'}': "
            "No such file or directory",
        },
        1,
    )


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (
            [],
            "validate needs --plan-body, or --plan-comment-id or --issue-number (with --repo, "
            "or in a checkout whose origin is on GitHub)",
        ),
        (
            ["--plan-body", PLAN, "--repo", REPO],
            "validate needs exactly one of --plan-body or --repo",
        ),
        (["--repo", REPO], "validate --repo needs --plan-comment-id or --issue-number"),
        (
            ["--plan-body", PLAN, "--plan-comment-id", "5"],
            "--plan-body and --plan-comment-id cannot be combined",
        ),
        (
            ["--repo", REPO, "--issue-number", "5", "--slices-body", SIBLING],
            "--slices-body needs --plan-body",
        ),
        (["--plan-body", PLAN, "--step-id", "s1"], "unknown flag --step-id"),
    ],
)
def test_validate_usage_errors(args: list[str], complaint: str) -> None:
    completed = run_cli_in_process(["validate", *args])
    assert completed.returncode == 2
    assert complaint in completed.stderr.decode()


def test_a_validate_usage_error_exits_2_from_the_installed_command() -> None:
    completed = run_cli(["validate", "--plan-body", PLAN, "--step-id", "s1"])
    assert completed.returncode == 2
    assert "unknown flag --step-id" in completed.stderr.decode()


# ---- online -----------------------------------------------------------------------------------

LISTING = f"GET /repos/{REPO}/issues/878/comments"


def online(fake: FakeGitHub, *args: str, process: bool = False) -> tuple[dict[str, object], int]:
    return validate("--repo", REPO, "--api-url", fake.url, *args, process=process)


def test_by_plan_id_follows_the_spine_to_the_sibling(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, 878)
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)
    result, code = online(fake_github, "--plan-comment-id", str(PLAN_ID), process=True)
    assert code == 1
    assert shape(result) == [NON_CANONICAL, *UNRESOLVED]
    assert fake_github.paths() == [
        f"GET /repos/{REPO}/issues/comments/{PLAN_ID}",
        f"GET /repos/{REPO}/issues/comments/{SIBLING_ID}",
    ]


def test_discovery_takes_the_newest_plan_over_two_pages(fake_github: FakeGitHub) -> None:
    # 150 comments on the issue: decoys, three plan comments; the newest by updated_at is
    # not the one with the highest id.
    for n in range(150):
        fake_github.add_comment(1000 + n, f"<!-- design-phase-complete-878 -->\nchatter {n}", 878)
    fake_github.add_comment(
        1010, PLAN_TEXT.replace("22:20:00Z", "20:00:00Z"), 878, updated_at="2026-07-18T20:00:00Z"
    )
    fake_github.add_comment(1120, PLAN_TEXT, 878, updated_at="2026-07-18T22:25:00Z")
    fake_github.add_comment(
        1140, PLAN_TEXT.replace("22:20:00Z", "21:00:00Z"), 878, updated_at="2026-07-18T21:00:00Z"
    )
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)
    fake_github.add_comment(99, PLAN_TEXT, 900)  # a plan of another issue: not listed
    result, code = online(fake_github, "--issue-number", "878")
    assert code == 1
    findings = result["findings"]
    assert isinstance(findings, list)
    assert findings[0] == {
        "severity": "warning",
        "code": "older-plan-comments",
        "message": "issue #878 also has 2 older plan comment(s) (1140, 1010); validated the newest, 1120",
        "comment": "plan",
    }
    assert shape(result)[1:] == [NON_CANONICAL, *UNRESOLVED]
    assert [(r.path, parse_qs(r.query)) for r in fake_github.requests] == [
        (f"/repos/{REPO}/issues/878/comments", {"per_page": ["100"]}),
        # GitHub links page 2 on under the repository's id (the fake's is 1001).
        ("/repositories/1001/issues/878/comments", {"per_page": ["100"], "page": ["2"]}),
        (f"/repos/{REPO}/issues/comments/{SIBLING_ID}", {}),
    ]


def test_discovery_counts_a_plan_listed_twice_once(fake_github: FakeGitHub) -> None:
    # Page 1 ends with the plan comment 1099; a comment created during the listing shifts the
    # offsets, so page 2 starts with 1099 again: it is one plan comment, not two.
    for n in range(150):
        fake_github.add_comment(1000 + n, f"chatter {n}", 878)
    fake_github.add_comment(1099, PLAN_TEXT, 878, updated_at="2026-07-18T22:25:00Z")
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)
    fake_github.during_listing = lambda: fake_github.add_comment(500, "new", 878)
    result, code = online(fake_github, "--issue-number", "878")
    assert code == 1
    assert shape(result) == [NON_CANONICAL, *UNRESOLVED]  # no older-plan-comments warning


def test_discovery_takes_the_newest_version_of_a_plan_edited_during_the_listing(
    fake_github: FakeGitHub,
) -> None:
    # 1099 is listed on page 1 as a plan; edited during the listing, page 2 lists it again
    # without its marker: it is no plan any more, and the older plan 1010 is the newest one.
    for n in range(150):
        fake_github.add_comment(1000 + n, f"chatter {n}", 878)
    fake_github.add_comment(1010, PLAN_TEXT, 878, updated_at="2026-07-18T22:21:00Z")
    fake_github.add_comment(1099, PLAN_TEXT, 878, updated_at="2026-07-18T22:25:00Z")
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)

    def edit() -> None:
        fake_github.add_comment(500, "new", 878)
        fake_github.add_comment(1099, "plan withdrawn", 878, updated_at="2026-07-18T22:30:00Z")

    fake_github.during_listing = edit
    result, code = online(fake_github, "--issue-number", "878")
    assert code == 1
    assert shape(result) == [NON_CANONICAL, *UNRESOLVED]
    assert [r.path for r in fake_github.requests][-1] == (
        f"/repos/{REPO}/issues/comments/{SIBLING_ID}"
    )


def test_discovery_without_a_plan_comment(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(1, "just a comment", 878)
    result, code = online(fake_github, "--issue-number", "878")
    assert (result, code) == (
        {
            "status": "invalid",
            "errors": 1,
            "warnings": 0,
            "findings": [
                {
                    "severity": "error",
                    "code": "missing-spine",
                    "message": "no comment on issue #878 carries a <!-- plan-issue-878 --> line",
                }
            ],
        },
        1,
    )
    assert len(fake_github.requests) == 1


def test_a_listing_failure_is_the_fetch_status(fake_github: FakeGitHub) -> None:
    fake_github.token = "another"
    result, code = online(fake_github, "--issue-number", "878")
    assert (result["status"], code) == ("gh-auth-expired", 1)
    assert result["message"] == (
        f"the comments of issue #878 in {REPO}: the token is invalid or expired "
        "(HTTP 401: Bad credentials) (request id F00D:1234:5678:9ABC:DEF0)"
    )


def test_a_missing_plan_is_comment_not_found(fake_github: FakeGitHub) -> None:
    result, code = online(fake_github, "--plan-comment-id", "12")
    assert (result["status"], code, result["findings"]) == ("comment-not-found", 1, [])


def test_a_missing_sibling_is_a_finding(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, 878)
    result, code = online(fake_github, "--plan-comment-id", str(PLAN_ID))
    assert code == 1
    assert shape(result)[0] == ("error", "sibling-missing", "plan", 22, None)
    assert len(fake_github.requests) == 2


def test_a_sibling_that_is_not_the_pointer_and_from_another_issue(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, 878)
    fake_github.add_comment(77, SIBLING_TEXT, 879)
    result, _ = online(fake_github, "--plan-comment-id", str(PLAN_ID), "--slices-comment-id", "77")
    findings = [(f["code"], f["message"]) for f in result["findings"]]  # type: ignore[union-attr]
    assert (
        "sibling-identity-mismatch",
        "sibling comment 77 was given, but the plan's spine points at "
        "sibling comment 5013460780 (slice_comment_id)",
    ) in findings
    assert (
        "sibling-identity-mismatch",
        "sibling comment 77 belongs to issue #879 (its issue_url), not to issue #878",
    ) in findings
    assert sorted(fake_github.paths()) == sorted(
        [f"GET /repos/{REPO}/issues/comments/{PLAN_ID}", f"GET /repos/{REPO}/issues/comments/77"]
    )


def test_a_plan_from_another_issue(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, 900)
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)
    result, _ = online(fake_github, "--plan-comment-id", str(PLAN_ID), "--issue-number", "878")
    messages = [f["message"] for f in result["findings"] if f["code"] == "plan-identity-mismatch"]  # type: ignore[union-attr, index]
    assert messages == [
        f"plan comment {PLAN_ID} belongs to issue #900 (its issue_url), not to issue #878"
    ]


def test_listing_errors_are_retried_like_single_requests(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, PLAN_TEXT, 878)
    fake_github.add_comment(SIBLING_ID, SIBLING_TEXT, 878)
    fake_github.script(0, error(502, "Bad Gateway"))
    result, _ = online(fake_github, "--issue-number", "878")
    assert result["status"] == "invalid"
    assert [r.path for r in fake_github.requests].count(f"/repos/{REPO}/issues/878/comments") == 2
