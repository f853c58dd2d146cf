"""Audit's issue walk on GitHub's own answers (SPEC 11): the recorded real issue listing of
tests/recorded/paginate-issues.json (octokit/fixtures, MIT), replayed from a loopback server
with its status, headers and bodies. GitHub links page 2 on as ``/repositories/{id}/issues``,
not as the ``/repos/{owner}/{repo}/issues`` the first request names: the walk must follow
that form to the last page and keep every open issue."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from werkzeug import Request, Response

from frame_spine.core.status import Failure
from frame_spine.github.client import CommentFetcher
from frame_spine.github.session import ApiSession, ApiSettings
from tests.conftest import REPO as ROOT
from tests.conftest import clean_env
from tests.fake_github import TOKEN, FakeGitHub, error
from tests.in_process import run_cli_in_process
from tests.modes.audit.repo import plan, slices, spine

RECORDED = json.loads((ROOT / "tests" / "recorded" / "paginate-issues.json").read_text("utf-8"))
RECORDED_REPO = "octokit-fixture-org/paginate-issues"
RECORDED_ID = 1000  # the repository id in the recording's links
#: The first request as the product sends it (the recording asked for 3 per page: the
#: recorded links then carry ``per_page=3``, which the walk follows as given).
FIRST = f"/repos/{RECORDED_REPO}/issues"


def replay(fake: FakeGitHub, answer: dict[str, Any], first: bool) -> Any:
    """Answer one recorded request: the recorded status, headers (links pointing at the
    loopback server instead of api.github.com) and body; a request for another page than
    the recorded one is a 404, so a walk that goes astray fails (the product sends a link's
    query parameters sorted: they are compared as parameters)."""
    path, _, query = answer["path"].partition("?")

    def respond(request: Request) -> Response:
        asked = parse_qs(request.query_string.decode())
        if (request.path, asked) != (path, parse_qs(query)) and not (
            first and request.path == FIRST
        ):
            return error(404, "Not Found")(request)
        headers = {
            name: value.replace("https://api.github.com", fake.url)
            for name, value in answer["headers"].items()
        }
        return Response(json.dumps(answer["response"]), answer["status"], headers)

    return respond


def serve_recording(fake: FakeGitHub) -> None:
    fake.repository_ids[RECORDED_ID] = RECORDED_REPO
    fake.script(-1, *(replay(fake, answer, index == 0) for index, answer in enumerate(RECORDED)))


def test_the_recording_links_page_2_on_under_the_repository_id() -> None:
    assert [answer["path"] for answer in RECORDED] == [
        f"/repos/{RECORDED_REPO}/issues?per_page=3",
        *(f"/repositories/{RECORDED_ID}/issues?per_page=3&page={page}" for page in (2, 3, 4, 5)),
    ]
    assert RECORDED[0]["headers"]["link"] == (
        '<https://api.github.com/repositories/1000/issues?per_page=3&page=2>; rel="next", '
        '<https://api.github.com/repositories/1000/issues?per_page=3&page=5>; rel="last"'
    )


def test_the_issue_walk_follows_githubs_links_to_the_last_page(fake_github: FakeGitHub) -> None:
    serve_recording(fake_github)
    fetcher = CommentFetcher(ApiSession(ApiSettings(RECORDED_REPO, fake_github.url, TOKEN)))
    pages = list(fetcher.issue_numbers("open", f"the open issues of {RECORDED_REPO}"))
    assert not any(isinstance(page, Failure) for page in pages), pages
    assert pages == [[13, 12, 11], [10, 9, 8], [7, 6, 5], [4, 3, 2], [1]]
    assert fake_github.paths() == [f"GET {FIRST}"] + [f"GET /repositories/{RECORDED_ID}/issues"] * 4
    assert [r.query for r in fake_github.requests] == [
        "per_page=100&state=open",
        *(f"page={page}&per_page=3" for page in (2, 3, 4, 5)),
    ]
    assert fetcher.requests_made == 5


def test_audit_keeps_the_plans_of_every_recorded_open_issue(fake_github: FakeGitHub) -> None:
    """``frame-spine audit`` (default ``--state open``): plans of issues 13 and 1 (first and
    last recorded page) are audited; the plan of issue 20, which the listing does not hold,
    is not."""
    serve_recording(fake_github)
    for comment_id, issue in ((501, 13), (502, 1), (503, 20)):
        body = plan(issue, spine(None) + "\n\n" + slices())  # a fresh plan, slices inline
        fake_github.add_comment(comment_id, body, issue, repo=RECORDED_REPO)
    completed = run_cli_in_process(
        ["audit", "--repo", RECORDED_REPO, "--api-url", fake_github.url, "--format", "json"],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    report = json.loads(completed.stdout)
    assert (completed.returncode, completed.stderr) == (0, b"")
    assert [(row["issue"], row["plan_comment_id"], row["state"]) for row in report["plans"]] == [
        (1, 502, "fresh"),
        (13, 501, "fresh"),
    ]
    assert report["requests"] == 6  # five issue pages, one comment page
    assert fake_github.paths()[5:] == [f"GET /repos/{RECORDED_REPO}/issues/comments"]
