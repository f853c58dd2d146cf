"""The token never reaches anything the action emits (SPEC 6 "The wire, exactly", SPEC 8).

For every status the entrypoint can reach, and for three forms of the ``token`` input (plain,
with an inner line break, with surrounding whitespace), the token's value is put where it
would be echoed (comment bodies, API error messages, other inputs, a refused path) and must
appear in none of: stdout, stderr, the ``GITHUB_OUTPUT`` file, the job summary, the files
written. A token held in ``GITHUB_TOKEN`` is redacted the same way.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from werkzeug import Request, Response

from tests.fake_github import REPO, TOKEN, FakeGitHub, error
from tests.in_process import run_action_in_process
from tests.modes.audit.repo import STAMP as AUDIT_STAMP
from tests.modes.audit.repo import plan as audit_plan
from tests.modes.audit.repo import sibling as audit_sibling
from tests.modes.audit.repo import spine as audit_spine
from tests.runner_env import ActionRun, run_action
from tests.test_action import (
    PLAN,
    PLAN_ID,
    SIBLING,
    SIBLING_ID,
    SPLIT_INPUTS,
    STAMP,
    VALID_UNSORTED,
)

#: A second secret, in the environment only (``GITHUB_TOKEN``): redacted all the same.
ENV_SECRET = "ghp_EnvironmentSecret0123456789"
TOKEN_FORMS = {
    "plain": TOKEN,
    "inner-newline": "test-token\n-0123456789",
    "surrounding-whitespace": f" \t{TOKEN} \n",
}
OLD_STAMP = "2026-07-18T21:00:00Z"


def forms_of(secret: str) -> set[str]:
    """The ways a secret could show in emitted text: as is, each line of it, JSON-escaped,
    escaped as workflow-command data."""
    value = secret.strip()
    found = {value, json.dumps(value)[1:-1], value.replace("\n", "%0A")}
    found |= {line.strip() for line in value.split("\n")}
    return found


@dataclass(frozen=True)
class Scenario:
    """One way to reach a status: ``setup(fake, secret, workspace)`` serves comments (with
    ``secret`` where it could be echoed) and returns the inputs."""

    name: str
    status: str
    setup: Callable[[FakeGitHub, str, Path], dict[str, str]]
    fetches: bool = True  # whether the status needs a request (else no token is used)


def lookup(
    plan: str = PLAN, sibling: str | None = SIBLING, **inputs: str
) -> Callable[[FakeGitHub, str, Path], dict[str, str]]:
    def setup(fake: FakeGitHub, secret: str, _workspace: Path) -> dict[str, str]:
        fake.add_comment(PLAN_ID, plan.replace("SECRET", secret), 878)
        if sibling is not None:
            fake.add_comment(SIBLING_ID, sibling.replace("SECRET", secret), 878)
        return {**SPLIT_INPUTS, "slice-file": "out/s1.md", **inputs}

    return setup


def scripted(
    responder: Callable[[str], Callable[[Request], Response]], **inputs: str
) -> Callable[[FakeGitHub, str, Path], dict[str, str]]:
    def setup(fake: FakeGitHub, secret: str, workspace: Path) -> dict[str, str]:
        chosen = lookup(**inputs)(fake, secret, workspace)
        fake.script(PLAN_ID, responder(secret))
        return chosen

    return setup


def refused_path(fake: FakeGitHub, secret: str, workspace: Path) -> dict[str, str]:
    inputs = lookup()(fake, secret, workspace)
    name = secret.replace("\n", " ").strip()
    (workspace / name).mkdir(parents=True)
    return {**inputs, "slice-file": name}


def malformed_page(secret: str) -> Callable[[Request], Response]:
    return lambda _request: Response(
        f"<html>{secret}</html>", 200, {"content-type": "text/html", "x-token": secret}
    )


def rate_limited(secret: str) -> Callable[[Request], Response]:
    reset = str(int(time.time()) + 3600)
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": reset}
    return error(403, f"API rate limit exceeded for {secret}.", headers)


def validate_plan(body: str) -> Callable[[FakeGitHub, str, Path], dict[str, str]]:
    def setup(fake: FakeGitHub, secret: str, _workspace: Path) -> dict[str, str]:
        fake.add_comment(PLAN_ID, body.replace("SECRET", secret), 878)
        return {"mode": "validate", "plan-comment-id": str(PLAN_ID)}

    return setup


def audit(fresh: bool) -> Callable[[FakeGitHub, str, Path], dict[str, str]]:
    def setup(fake: FakeGitHub, secret: str, _workspace: Path) -> dict[str, str]:
        body = audit_plan(5, audit_spine(12) + f"\n\nnote: {secret}\n")
        fake.add_comment(11, body, 5)
        if fresh:
            fake.add_comment(12, audit_sibling(5, AUDIT_STAMP), 5)
        return {"mode": "audit", "issue-state": "all", "report-file": "out/audit.json"}

    return setup


def bad_input(name: str) -> Callable[[FakeGitHub, str, Path], dict[str, str]]:
    def setup(fake: FakeGitHub, secret: str, workspace: Path) -> dict[str, str]:
        return {**lookup()(fake, secret, workspace), name: secret}

    return setup


SLICE_WITH_SECRET = SIBLING.replace(
    "step_id: s1\n", f"step_id: s1\nnote: SECRET\nenv: {ENV_SECRET}\n"
)
BROKEN_SPINE = PLAN.replace("coverage: complete", "coverage: complete\nx: SECRET")
SCENARIOS = [
    Scenario("ok", "ok", lookup(sibling=SLICE_WITH_SECRET)),
    Scenario(
        "stale-spine", "stale-spine", lookup(PLAN + "\nSECRET\n", **{"generated-at": OLD_STAMP})
    ),
    Scenario(
        "missing-spine",
        "missing-spine",
        lookup("<!-- plan-issue-878 -->\nSECRET\n", None, **{"slices-comment-id": ""}),
    ),
    Scenario(
        "invalid-spine", "invalid-spine", lookup(BROKEN_SPINE, None, **{"slices-comment-id": ""})
    ),
    Scenario("missing-slice", "missing-slice", lookup(**{"step-id": "s2"})),
    Scenario(
        "duplicate-slice-id",
        "duplicate-slice-id",
        lookup(sibling=SLICE_WITH_SECRET + "\n<!-- frame-slice\nstep_id: s1\nSECRET\n-->\n"),
    ),
    Scenario(
        "sibling-unstamped",
        "sibling-unstamped",
        lookup(
            sibling=SLICE_WITH_SECRET.replace(f"<!-- frame-slices-generated-at: {STAMP} -->", "")
        ),
    ),
    Scenario(
        "sibling-identity-mismatch",
        "sibling-identity-mismatch",
        lookup(sibling=SLICE_WITH_SECRET.replace("frame-slices-878", "frame-slices-999")),
    ),
    Scenario(
        "plan-identity-mismatch",
        "plan-identity-mismatch",
        lookup(PLAN.replace("plan-issue-878", "plan-issue-999") + "\nSECRET\n"),
    ),
    Scenario(
        "comment-id-missing",
        "comment-id-missing",
        lookup(**{"plan-comment-id": ""}),
        fetches=False,
    ),
    Scenario(
        "comment-not-found", "comment-not-found", scripted(lambda s: error(404, f"Not Found {s}"))
    ),
    Scenario(
        "gh-auth-expired", "gh-auth-expired", scripted(lambda s: error(401, f"Bad credentials {s}"))
    ),
    Scenario("gh-rate-limited", "gh-rate-limited", scripted(rate_limited)),
    Scenario("error-http-422", "error", scripted(lambda s: error(422, f"Validation Failed: {s}"))),
    Scenario("error-malformed-answer", "error", scripted(malformed_page)),
    Scenario("error-refused-slice-file", "error", refused_path),
    Scenario("bad-input-step-id", "error", bad_input("step-id"), fetches=False),
    Scenario("bad-input-mode", "error", bad_input("mode"), fetches=False),
    Scenario("validate-valid", "valid", validate_plan(VALID_UNSORTED + "\nSECRET\n")),
    Scenario(
        "validate-invalid",
        "invalid",
        validate_plan(
            VALID_UNSORTED.replace("coverage: complete", "coverage: complete\nx: SECRET")
        ),
    ),
    Scenario(
        "validate-comment-not-found",
        "comment-not-found",
        scripted(lambda s: error(404, f"Not Found {s}"), mode="validate"),
    ),
    Scenario("audit-clean", "clean", audit(fresh=True)),
    Scenario("audit-findings", "findings", audit(fresh=False)),
]


def emitted_texts(run: ActionRun) -> dict[str, str]:
    texts = {
        "stdout": run.stdout,
        "stderr": run.stderr,
        "GITHUB_OUTPUT": run.output_file_text,
        "summary": run.summary,
    }
    for path in run.workspace.rglob("*"):
        if path.is_file():
            texts[f"file {path.relative_to(run.workspace)}"] = path.read_text("utf-8")
    return texts


#: With a token a header cannot carry every fetching scenario stops at the same place (before
#: any request), so one per mode stands for them.
CASES = [
    (scenario, form)
    for scenario in SCENARIOS
    for form in TOKEN_FORMS
    if form != "inner-newline"
    or not scenario.fetches
    or scenario.name in ("ok", "validate-valid", "audit-clean")
]


@pytest.mark.parametrize(
    ("scenario", "form"), CASES, ids=[f"{scenario.name}-{form}" for scenario, form in CASES]
)
def test_token_appears_in_nothing_the_action_emits(
    fake_github: FakeGitHub, tmp_path: Path, scenario: Scenario, form: str
) -> None:
    token = TOKEN_FORMS[form]
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    secret = token.strip()
    inputs = scenario.setup(fake_github, secret, workspace)
    inputs = {key: value.replace("SECRET", secret) for key, value in inputs.items()}
    # ENV_SECRET rides along in every comment body the fake serves.
    for payload in fake_github.comments.values():
        payload["body"] = (payload["body"] or "") + f"\n{ENV_SECRET}\n"
    # Each scenario's plain token through the entrypoint as a process (every byte it writes);
    # the other forms in this process, with the same environment and files.
    run_entrypoint = run_action if form == "plain" else run_action_in_process
    run = run_entrypoint(
        tmp_path,
        {**inputs, "token": token},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"GITHUB_TOKEN": ENV_SECRET},
    )
    expected = scenario.status
    if form == "inner-newline" and scenario.fetches:
        expected = "gh-auth-expired"  # a token a header cannot carry: no request at all
        assert fake_github.requests == []
        assert "the token contains a line break" in run.outputs["message"]
    assert run.outputs["status"] == expected
    assert not run.outputs["message"].startswith("internal error")
    leaks = [
        (where, form_found)
        for where, text in emitted_texts(run).items()
        for secret_value in (secret, ENV_SECRET)
        for form_found in forms_of(secret_value)
        if form_found in text
    ]
    assert leaks == []


def test_a_token_in_the_slice_is_redacted_in_every_copy(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    lookup(sibling=SLICE_WITH_SECRET)(fake_github, TOKEN, tmp_path)
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "slice-file": "out/s1.md", "token": f"  {TOKEN}\n"},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"GH_TOKEN": ENV_SECRET},
    )
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    assert run.outputs["slice"].startswith("step_id: s1\nnote: ***\nenv: ***\ncommit-index: 1\n")
    assert json.loads(run.outputs["result"])["slice"] == run.outputs["slice"]
    assert (run.workspace / "out" / "s1.md").read_text("utf-8") == run.outputs["slice"]
    assert "\nnote: ***\nenv: ***\n" in run.summary


# ---- values too short to be tokens (SPEC 6, revision 3) -----------------------------------

NEAR, EIGHT = "abcdefg", "abcdefgh"  # 7 characters: not a token; 8: a token
NOTED = SIBLING.replace("step_id: s1\n", f"step_id: s1\nnote: {NEAR} {EIGHT}\n")


def comparable(run: ActionRun) -> tuple[object, ...]:
    """What a run emits, as the runner reads it (outputs parsed: their delimiters are random)."""
    return (run.returncode, run.outputs, run.summary, run.stdout, run.stderr)


@pytest.mark.parametrize(
    ("token", "variables"),
    [
        ("s", {}),  # the token input
        (" \ts \n", {}),
        ("", {"GITHUB_TOKEN": "s"}),  # an empty input: the variable
        ("", {"GH_TOKEN": NEAR}),
    ],
    ids=["input", "input-surrounded", "GITHUB_TOKEN", "GH_TOKEN-7-characters"],
)
@pytest.mark.parametrize("fetches", [True, False], ids=["online", "refused-input"])
def test_a_value_too_short_to_be_a_token_changes_nothing_the_action_emits(
    fake_github: FakeGitHub,
    tmp_path: Path,
    token: str,
    variables: dict[str, str],
    fetches: bool,
) -> None:
    fake_github.add_comment(PLAN_ID, PLAN, 878)
    fake_github.add_comment(SIBLING_ID, NOTED, 878)
    inputs = {**SPLIT_INPUTS, "slice-file": "out/s1.md"}
    if not fetches:
        inputs["step-id"] = "step one"  # refused before any request

    def run(folder: str, given: str, **env: str) -> ActionRun:  # in this process
        return run_action_in_process(
            tmp_path / folder,
            {**inputs, "token": given},
            api_url=fake_github.url,
            token=TOKEN,
            repository=REPO,
            extra_env=env,
        )

    normal = run("normal", TOKEN)
    fake_github.token = (token or next(iter(variables.values()))).strip()
    short = run("short", token, **variables)
    assert comparable(short) == comparable(normal)
    assert short.output_file_text.count("***") == 0
    if fetches:
        assert short.outputs["status"] == "ok"
        assert f"note: {NEAR} {EIGHT}\n" in short.outputs["slice"]
        assert (short.workspace / "out" / "s1.md").read_text("utf-8") == short.outputs["slice"]
        assert [r.headers["authorization"] for r in fake_github.requests][2:] == [
            f"token {fake_github.token}"
        ] * 2
    else:
        assert short.outputs["status"] == "error"
        assert fake_github.requests == []


def test_eight_characters_are_redacted_from_what_the_action_emits(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    fake_github.add_comment(PLAN_ID, PLAN, 878)
    fake_github.add_comment(SIBLING_ID, NOTED, 878)
    fake_github.token = EIGHT
    run = run_action(
        tmp_path,
        {**SPLIT_INPUTS, "token": EIGHT},
        api_url=fake_github.url,
        token=TOKEN,
        repository=REPO,
    )
    assert run.outputs["status"] == "ok"
    assert f"note: {NEAR} ***\n" in run.outputs["slice"]
    assert EIGHT not in run.output_file_text + run.summary + run.stdout
