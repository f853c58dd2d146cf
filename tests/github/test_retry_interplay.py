"""How rate-limit waits and 5xx attempts combine (SPEC 6): exact request logs and exact
waits, in-process against the loopback fake, with an injected sleep and clock.

The rules pinned here: a rate-limit retry is not one of the three attempts that 5xx answers
and connection failures get, and does not give them back either; 5xx backoffs are not
rate-limit waiting (``max-wait`` counts only the latter); the rate-limit budget is shared by
every request of one fetcher, and a wait that makes it exactly ``max-wait`` is still
allowed; at most 10 rate-limit waits per request; a reset is counted from the clock's now.
"""

from __future__ import annotations

from frame_spine.core.status import Failure, Status
from frame_spine.github.client import CommentFetcher
from frame_spine.github.payloads import FetchedComment
from frame_spine.github.session import ApiSession, ApiSettings
from tests.fake_github import REPO, TOKEN, FakeGitHub, Responder, error

NOW = 1_800_000_000.0  # 2027-01-15T08:00:00Z, the injected clock
RID = " (request id F00D:1234:5678:9ABC:DEF0)"
COMMENT = 7001
PATH = f"GET /repos/{REPO}/issues/comments/{COMMENT}"
WHAT = f"plan comment {COMMENT} in {REPO}"


def fetcher_for(fake: FakeGitHub, waits: list[float], max_wait: int = 60) -> CommentFetcher:
    """A fetcher whose sleep records the waits (and does not wait) and whose clock stands
    still at :data:`NOW`."""
    settings = ApiSettings(REPO, fake.url, TOKEN, max_wait=max_wait)
    return CommentFetcher(ApiSession(settings, sleep=waits.append, clock=lambda: NOW))


def secondary(retry_after: str) -> Responder:
    return error(429, "You have exceeded a secondary rate limit.", {"retry-after": retry_after})


def primary(reset: float) -> Responder:
    """A primary rate limit (403, nothing remaining) that resets at ``reset``."""
    return error(
        403,
        "API rate limit exceeded for installation ID 1234.",
        {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(reset))},
    )


BAD_GATEWAY = error(502, "Bad Gateway")


def serve(fake: FakeGitHub, *answers: Responder, comment: int = COMMENT) -> None:
    fake.add_comment(comment, "<!-- plan-issue-878 -->", 878)
    fake.script(comment, *answers)


def fetched(outcome: FetchedComment | Failure, comment: int = COMMENT) -> None:
    assert isinstance(outcome, FetchedComment), outcome
    assert outcome.id == comment


def test_a_rate_limit_then_two_502s_waits_0_1_2_and_succeeds(fake_github: FakeGitHub) -> None:
    serve(fake_github, secondary("0"), BAD_GATEWAY, BAD_GATEWAY)
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits).fetch(COMMENT, "plan"))
    assert waits == [0.0, 1.0, 2.0]
    assert fake_github.paths() == [PATH] * 4


def test_a_rate_limit_between_two_502s_does_not_reset_the_backoff(
    fake_github: FakeGitHub,
) -> None:
    serve(fake_github, BAD_GATEWAY, secondary("3"), BAD_GATEWAY)
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits).fetch(COMMENT, "plan"))
    assert waits == [1.0, 3.0, 2.0]
    assert fake_github.paths() == [PATH] * 4


def test_three_502s_with_a_rate_limit_among_them_give_up_after_four_requests(
    fake_github: FakeGitHub,
) -> None:
    serve(fake_github, BAD_GATEWAY, BAD_GATEWAY, secondary("0"), BAD_GATEWAY)
    waits: list[float] = []
    outcome = fetcher_for(fake_github, waits).fetch(COMMENT, "plan")
    assert outcome == Failure(
        Status.ERROR, f"{WHAT}: the GitHub API answered HTTP 502 three times: Bad Gateway{RID}"
    )
    assert waits == [1.0, 2.0, 0.0]
    assert fake_github.paths() == [PATH] * 4


def test_backoffs_are_not_rate_limit_waiting(fake_github: FakeGitHub) -> None:
    # 1 s + 2 s of backoff, then a 1 s rate-limit wait: within max-wait 1, since only the
    # rate-limit wait counts.
    serve(fake_github, BAD_GATEWAY, BAD_GATEWAY, secondary("1"))
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits, max_wait=1).fetch(COMMENT, "plan"))
    assert waits == [1.0, 2.0, 1.0]
    assert fake_github.paths() == [PATH] * 4


def test_a_wait_that_fills_max_wait_exactly_is_allowed(fake_github: FakeGitHub) -> None:
    serve(fake_github, secondary("20"), secondary("40"))
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits).fetch(COMMENT, "plan"))
    assert waits == [20.0, 40.0]
    assert fake_github.paths() == [PATH] * 3


def test_one_second_more_than_max_wait_is_rate_limited(fake_github: FakeGitHub) -> None:
    serve(fake_github, secondary("20"), secondary("41"))
    waits: list[float] = []
    outcome = fetcher_for(fake_github, waits).fetch(COMMENT, "plan")
    assert outcome == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: rate limited by the GitHub API until 2027-01-15T08:00:41Z (HTTP 429; "
        f"waiting 41 s more would exceed max-wait 60 s){RID}",
    )
    assert waits == [20.0]
    assert fake_github.paths() == [PATH] * 2


def test_the_rate_limit_budget_is_shared_by_the_requests_of_a_fetcher(
    fake_github: FakeGitHub,
) -> None:
    serve(fake_github, secondary("40"))
    serve(fake_github, secondary("21"), comment=7002)
    waits: list[float] = []
    fetcher = fetcher_for(fake_github, waits)
    fetched(fetcher.fetch(COMMENT, "plan"))
    outcome = fetcher.fetch(7002, "sibling")
    assert outcome == Failure(
        Status.GH_RATE_LIMITED,
        f"sibling comment 7002 in {REPO}: rate limited by the GitHub API until "
        f"2027-01-15T08:00:21Z (HTTP 429; waiting 21 s more would exceed max-wait 60 s){RID}",
    )
    assert waits == [40.0]
    assert fake_github.paths() == [PATH, PATH, f"GET /repos/{REPO}/issues/comments/7002"]


def test_ten_rate_limit_waits_are_allowed_per_request(fake_github: FakeGitHub) -> None:
    serve(fake_github, *[secondary("0")] * 10)
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits).fetch(COMMENT, "plan"))
    assert waits == [0.0] * 10
    assert fake_github.paths() == [PATH] * 11


def test_an_eleventh_rate_limit_gives_up(fake_github: FakeGitHub) -> None:
    serve(fake_github, *[secondary("0")] * 11)
    waits: list[float] = []
    outcome = fetcher_for(fake_github, waits).fetch(COMMENT, "plan")
    assert outcome == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: still rate limited by the GitHub API after 10 waits; it clears at "
        f"2027-01-15T08:00:00Z{RID}",
    )
    assert waits == [0.0] * 10
    assert fake_github.paths() == [PATH] * 11


def test_the_wait_cap_counts_per_request_not_per_fetcher(fake_github: FakeGitHub) -> None:
    serve(fake_github, *[secondary("0")] * 6)
    serve(fake_github, *[secondary("0")] * 6, comment=7002)
    waits: list[float] = []
    fetcher = fetcher_for(fake_github, waits)
    fetched(fetcher.fetch(COMMENT, "plan"))
    fetched(fetcher.fetch(7002, "sibling"), 7002)
    assert waits == [0.0] * 12
    assert len(fake_github.requests) == 14


def test_a_primary_reset_is_waited_for_from_the_clocks_now(fake_github: FakeGitHub) -> None:
    serve(fake_github, primary(NOW + 20))
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits).fetch(COMMENT, "plan"))
    assert waits == [20.0]
    assert fake_github.paths() == [PATH] * 2


def test_a_reset_already_past_retries_at_once(fake_github: FakeGitHub) -> None:
    serve(fake_github, primary(NOW - 5))
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits).fetch(COMMENT, "plan"))
    assert waits == [0.0]
    assert fake_github.paths() == [PATH] * 2


def test_a_reset_that_fills_max_wait_exactly_is_waited_for(fake_github: FakeGitHub) -> None:
    serve(fake_github, primary(NOW + 60))
    waits: list[float] = []
    fetched(fetcher_for(fake_github, waits).fetch(COMMENT, "plan"))
    assert waits == [60.0]


def test_a_rate_limit_after_the_first_502_leaves_it_two_more_attempts(
    fake_github: FakeGitHub,
) -> None:
    serve(fake_github, BAD_GATEWAY, secondary("0"), BAD_GATEWAY, BAD_GATEWAY)
    waits: list[float] = []
    outcome = fetcher_for(fake_github, waits).fetch(COMMENT, "plan")
    assert outcome == Failure(
        Status.ERROR, f"{WHAT}: the GitHub API answered HTTP 502 three times: Bad Gateway{RID}"
    )
    assert waits == [1.0, 0.0, 2.0]
    assert fake_github.paths() == [PATH] * 4


def test_every_rate_limit_wait_adds_to_the_budget(fake_github: FakeGitHub) -> None:
    # 20 + 20 = 40 waited; 21 more would make 61.
    serve(fake_github, secondary("20"), secondary("20"), secondary("21"))
    waits: list[float] = []
    outcome = fetcher_for(fake_github, waits).fetch(COMMENT, "plan")
    assert outcome == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: rate limited by the GitHub API until 2027-01-15T08:00:21Z (HTTP 429; "
        f"waiting 21 s more would exceed max-wait 60 s){RID}",
    )
    assert waits == [20.0, 20.0]
    assert fake_github.paths() == [PATH] * 3
