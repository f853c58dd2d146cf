"""The token on the command line (SPEC 6 "The wire, exactly", SPEC 9): used with surrounding
whitespace removed, refused without a request when an HTTP header cannot carry it, and found in
nothing the CLI writes (stdout, stderr; json and text; --verbose), whatever the status."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from werkzeug import Request, Response

from tests.conftest import CASES_DIR, clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub, error, too_many_requests
from tests.in_process import run_cli_in_process

SINGLE = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
AT = "2026-05-04T14:30:00Z"
WITH_TOKEN = SINGLE.replace("GREEN code action", f"GREEN code action, token {TOKEN}")
# An unknown spine line quoting the token: invalid-spine and validate messages quote it.
QUOTING = SINGLE.replace("coverage: complete\n", f"coverage: complete\nowner: {TOKEN}\n")


def echo(status: int) -> Callable[[Request], Response]:
    """An error answer whose message repeats the Authorization header (a chatty proxy)."""

    def respond(request: Request) -> Response:
        said = request.headers.get("Authorization", "")
        return error(status, f"refused {said}")(request)

    return respond


def lookup_args(*extra: str, step: str = "s2", at: str = AT) -> list[str]:
    return ["lookup", "--plan-comment-id", "7001", "--generated-at", at, "--step-id", step, *extra]


Setup = Callable[[FakeGitHub], list[str]]


def serving(body: str, *extra: str, step: str = "s2", at: str = AT) -> Setup:
    def setup(fake: FakeGitHub) -> list[str]:
        fake.add_comment(7001, body, 863)
        return lookup_args(*extra, step=step, at=at)

    return setup


def failing(responder: Callable[[Request], Response]) -> Setup:
    def setup(fake: FakeGitHub) -> list[str]:
        fake.add_comment(7001, WITH_TOKEN, 863)
        fake.script(7001, forever=responder)
        return lookup_args()

    return setup


def validating(fake: FakeGitHub) -> list[str]:
    fake.add_comment(7001, QUOTING, 863)
    return ["validate", "--plan-comment-id", "7001"]


def auditing(fake: FakeGitHub) -> list[str]:
    fake.add_comment(7001, QUOTING, 863)
    fake.add_comment(7002, WITH_TOKEN.replace("plan-issue-863", "plan-issue-864"), 864)
    return ["audit", "--state", "all"]


def listing_refused(fake: FakeGitHub) -> list[str]:
    fake.script(0, echo(401))
    return ["audit", "--state", "all"]


SCENARIOS: dict[str, tuple[str, Setup]] = {
    "ok": ("ok", serving(WITH_TOKEN)),
    "stale-spine": ("stale-spine", serving(WITH_TOKEN, at="2026-05-04T15:00:00Z")),
    "missing-slice": ("missing-slice", serving(WITH_TOKEN, step="s9")),
    "invalid-spine": ("invalid-spine", serving(QUOTING)),
    "missing-spine": ("missing-spine", serving(f"no spine here, {TOKEN}")),
    "plan-identity-mismatch": (
        "plan-identity-mismatch",
        serving(
            WITH_TOKEN.replace("plan-issue-863", f"plan-issue-{TOKEN}"), "--issue-number", "863"
        ),
    ),
    "comment-not-found": ("comment-not-found", failing(echo(404))),
    "gh-auth-expired": ("gh-auth-expired", failing(echo(401))),
    "gh-auth-expired-403": ("gh-auth-expired", failing(echo(403))),
    "gh-rate-limited": ("gh-rate-limited", failing(too_many_requests(999_999))),
    "error-status": ("error", failing(echo(400))),
    "validate": ("invalid", validating),
    "audit": ("findings", auditing),
    "audit-refused": ("gh-auth-expired", listing_refused),
}


def forms_of(secret: str) -> list[bytes]:
    """How the secret could show: as is, trimmed, JSON-escaped, and each line of it."""
    forms = {secret, secret.strip(), json.dumps(secret)[1:-1]}
    forms |= {line.strip() for line in secret.splitlines() if len(line.strip()) >= 6}
    return [form.encode("utf-8") for form in forms if form]


@pytest.mark.parametrize("output_format", ["json", "text"])
@pytest.mark.parametrize("given", [TOKEN, f"  {TOKEN}\n"], ids=["plain", "surrounded"])
@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=list(SCENARIOS))
def test_the_token_appears_in_nothing_the_cli_writes(
    fake_github: FakeGitHub, scenario: str, given: str, output_format: str
) -> None:
    status, setup = SCENARIOS[scenario]
    args = setup(fake_github)
    # Each scenario once through the installed command (every byte the process writes, a
    # child's included); its other forms in this process, through the same streams.
    run = run_cli if (given, output_format) == (TOKEN, "json") else run_cli_in_process
    completed = run(
        [
            *args,
            "--repo",
            REPO,
            "--api-url",
            fake_github.url,
            "--verbose",
            "--format",
            output_format,
        ],
        env=clean_env(GITHUB_TOKEN=given),
    )
    written = completed.stdout + completed.stderr
    if output_format == "json":
        assert json.loads(completed.stdout)["status"] == status
    else:
        assert status.encode() in completed.stdout
    # --verbose: where the token came from, then the request lines
    assert completed.stderr.startswith(b"token: from GITHUB_TOKEN\nGET /repos/")
    for form in forms_of(given):
        assert form not in written
    assert fake_github.requests  # the token was used: every form above was at stake
    assert all(r.headers.get("authorization") == f"token {TOKEN}" for r in fake_github.requests)


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        (f"{TOKEN[:10]}\n{TOKEN[10:]}", "the token contains a line break"),
        (f"{TOKEN[:10]}\r{TOKEN[10:]}", "the token contains a line break"),
        (f"{TOKEN[:10]}\t{TOKEN[10:]}", "the token contains a control character"),
        (f"{TOKEN[:10]}\x7f{TOKEN[10:]}", "the token contains a control character"),
        (f"{TOKEN}€", "the token contains a character outside Latin-1"),
    ],
    ids=["newline", "carriage-return", "tab", "delete", "euro"],
)
@pytest.mark.parametrize("mode", ["lookup", "validate", "audit"])
def test_a_token_a_header_cannot_carry_is_refused_without_a_request(
    fake_github: FakeGitHub, given: str, problem: str, mode: str
) -> None:
    args, what = {
        "lookup": (lookup_args(), f"plan comment 7001 in {REPO}"),
        "validate": (["validate", "--plan-comment-id", "7001"], f"plan comment 7001 in {REPO}"),
        "audit": (["audit", "--state", "all"], f"the issue comments of {REPO}"),
    }[mode]
    completed = run_cli(
        [*args, "--repo", REPO, "--api-url", fake_github.url, "--verbose", "--format", "json"],
        env=clean_env(GITHUB_TOKEN=given),
    )
    result = json.loads(completed.stdout)
    assert (result["status"], result["message"], completed.returncode) == (
        "gh-auth-expired",
        f"{what}: {problem}, which an HTTP header cannot carry: no request was made; fix the token",
        1,
    )
    assert fake_github.requests == []
    assert completed.stderr == b"token: from GITHUB_TOKEN\n"  # no request, no request line
    for form in forms_of(given):
        assert form not in completed.stdout


def test_the_token_is_sent_trimmed(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    completed = run_cli(
        [*lookup_args(), "--repo", REPO, "--api-url", fake_github.url, "--format", "json"],
        env=clean_env(GH_TOKEN=f"\t {TOKEN} \r\n"),
    )
    assert json.loads(completed.stdout)["status"] == "ok"
    assert fake_github.requests[0].headers["authorization"] == f"token {TOKEN}"


def test_every_token_variable_is_redacted_whichever_is_used(fake_github: FakeGitHub) -> None:
    other = "ghp_unused0123456789abcdef"
    fake_github.add_comment(7001, WITH_TOKEN.replace(TOKEN, f"{TOKEN} and {other}"), 863)
    # The fake is an Enterprise Server (not api.github.com): GH_ENTERPRISE_TOKEN comes first.
    completed = run_cli(
        [*lookup_args(), "--repo", REPO, "--api-url", fake_github.url, "--format", "json"],
        env=clean_env(GH_ENTERPRISE_TOKEN=TOKEN, GITHUB_TOKEN=other),
    )
    result = json.loads(completed.stdout)
    assert result["status"] == "ok"
    assert "token ***" in result["slice"] and "and ***" in result["slice"]
    assert other.encode() not in completed.stdout


def test_a_usage_error_quoting_the_token_is_redacted() -> None:
    completed = run_cli(
        ["lookup", "--format", TOKEN, "--generated-at", "current", "--step-id", "s1"],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert completed.returncode == 2
    assert b"invalid choice: '***'" in completed.stderr
    assert TOKEN.encode() not in completed.stdout + completed.stderr


# ---- values too short to be tokens (SPEC 6, revision 3) -----------------------------------

SHORT = "s"  # GH_TOKEN=s once turned the JSON into {"***tatu***":"ok",...}
NEAR = "abcdefg"  # 7 characters: still not a token
EIGHT = "abcdefgh"  # 8 characters: a token
NOTED = SINGLE.replace("GREEN code action", f"GREEN code action, notes {NEAR} {EIGHT}")
VARIABLES = ("GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")


def local_lookup(
    tmp_path: Path, output_format: str, **env: str
) -> subprocess.CompletedProcess[bytes]:
    plan = tmp_path / "plan.md"
    plan.write_text(NOTED, "utf-8")
    args = ["lookup", "--plan-body", str(plan), "--generated-at", AT, "--step-id", "s2"]
    return run_cli([*args, "--format", output_format], env=clean_env(**env))


@pytest.mark.parametrize("output_format", ["json", "text"])
@pytest.mark.parametrize(
    ("variable", "value"),
    [*((name, SHORT) for name in VARIABLES), ("GH_TOKEN", NEAR), ("GH_TOKEN", f" \t{NEAR} \n")],
)
def test_a_value_too_short_to_be_a_token_changes_nothing_written_for_local_bodies(
    tmp_path: Path, variable: str, value: str, output_format: str
) -> None:
    plain = local_lookup(tmp_path, output_format)
    completed = local_lookup(tmp_path, output_format, **{variable: value})
    assert (completed.stdout, completed.stderr, completed.returncode) == (
        plain.stdout,
        plain.stderr,
        0,
    )
    assert b"***" not in completed.stdout
    assert f"notes {NEAR} {EIGHT}".encode() in completed.stdout


def test_eight_characters_are_redacted_from_local_output(tmp_path: Path) -> None:
    completed = local_lookup(tmp_path, "json", GH_TOKEN=EIGHT)
    slice_text = json.loads(completed.stdout)["slice"]
    assert f"notes {NEAR} ***" in slice_text
    assert EIGHT.encode() not in completed.stdout


def test_a_usage_error_is_not_corrupted_by_a_short_value() -> None:
    args = ["lookup", "--format", "yaml", "--generated-at", "current", "--step-id", "s1"]
    plain = run_cli(args)
    completed = run_cli(args, env=clean_env(GH_TOKEN=SHORT))
    assert (completed.stderr, completed.returncode) == (plain.stderr, 2)
    assert completed.stderr.endswith(
        b"frame-spine lookup: error: argument --format: invalid choice: 'yaml' (choose from "
        b"'text', 'json')\n"
    )


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_a_short_token_is_sent_as_given_and_not_redacted_online(
    fake_github: FakeGitHub, output_format: str
) -> None:
    fake_github.add_comment(7001, NOTED, 863)
    args = [*lookup_args(), "--repo", REPO, "--api-url", fake_github.url]
    args += ["--format", output_format]
    normal = run_cli(args, env=clean_env(GH_TOKEN=TOKEN))
    fake_github.token = SHORT
    completed = run_cli(args, env=clean_env(GH_TOKEN=SHORT))
    assert (completed.stdout, completed.stderr, completed.returncode) == (
        normal.stdout,
        normal.stderr,
        0,
    )
    assert [r.headers["authorization"] for r in fake_github.requests] == [
        f"token {TOKEN}",
        f"token {SHORT}",
    ]
