"""The one module that touches urllib3 names outside its public API fails at first use, with
a message naming urllib3, its version and the name (issue 19), never a TypeError inside a
retry; and the headers every request carries, written with PyGithub's public Auth."""

from __future__ import annotations

from importlib.metadata import version

import pytest
import urllib3.connection
import urllib3.poolmanager

from frame_spine.core.status import Failure, Status
from frame_spine.github.client import CommentFetcher
from frame_spine.github.session import ApiSession, ApiSettings, request_headers
from tests.fake_github import REPO, TOKEN, FakeGitHub

#: The wire's own tests: the fake API answers on a real loopback socket.
pytestmark = pytest.mark.sockets

URLLIB3 = version("urllib3")
SUPPORTED = "install a urllib3 version frame-spine-lookup supports (see its pyproject.toml)"


def fetch_plan(fake: FakeGitHub) -> Failure:
    fetcher = CommentFetcher(ApiSession(ApiSettings(REPO, fake.url, TOKEN), sleep=lambda _: None))
    outcome = fetcher.fetch(7001, "plan")
    assert isinstance(outcome, Failure)
    return outcome


def test_urllib3_without_new_conn_fails_at_first_use_naming_it(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_github.add_comment(7001, "plan", 5)
    monkeypatch.delattr(urllib3.connection.HTTPConnection, "_new_conn")
    assert fetch_plan(fake_github) == Failure(
        Status.ERROR,
        f"plan comment 7001 in {REPO}: urllib3 {URLLIB3} has no HTTPConnection._new_conn, "
        f"which the per-request deadline (SPEC 6) needs: {SUPPORTED}",
    )
    assert fake_github.requests == []


def test_urllib3_without_pool_classes_by_scheme_fails_at_first_use_naming_it(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:

    fake_github.add_comment(7001, "plan", 5)
    made = urllib3.poolmanager.PoolManager.__init__

    def without_pool_classes(self: urllib3.poolmanager.PoolManager, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        made(self, *args, **kwargs)
        del self.pool_classes_by_scheme

    monkeypatch.setattr(urllib3.poolmanager.PoolManager, "__init__", without_pool_classes)
    assert fetch_plan(fake_github) == Failure(
        Status.ERROR,
        f"plan comment 7001 in {REPO}: urllib3 {URLLIB3} has no "
        f"PoolManager.pool_classes_by_scheme, which the per-request deadline (SPEC 6) needs: "
        f"{SUPPORTED}",
    )
    assert fake_github.requests == []


def test_request_headers_with_a_token() -> None:
    assert request_headers("ghp_0123456789") == {
        "Accept": "application/vnd.github+json",
        "User-Agent": f"frame-spine-lookup/{version('frame-spine-lookup')}",
        "X-GitHub-Api-Version": "2022-11-28",
        "Authorization": "token ghp_0123456789",
    }


def test_request_headers_without_a_token() -> None:
    assert "Authorization" not in request_headers(None)
