"""The retry / give-up policy of SPEC 6, decided without any network or sleeping."""

from __future__ import annotations

import pytest

from frame_spine.core.status import Failure, Status
from frame_spine.github.retry import (
    RequestFailure,
    RetryAfter,
    RetryContext,
    decide,
    request_id_note,
    retry_after_instant,
)

NOW = 1_800_000_000.0  # 2027-01-15T08:00:00Z
WHAT = "plan comment 5 in o/r"


def policy(
    failure: RequestFailure,
    attempt: int = 1,
    waited: float = 0.0,
    max_wait: float = 60,
    retries: int = 0,
) -> RetryAfter | Failure:
    return decide(failure, RetryContext(WHAT, attempt, retries, waited, max_wait, 10, NOW))


def http(status: int, detail: str = "", **headers: str) -> RequestFailure:
    return RequestFailure(
        "http", status, {k.replace("_", "-"): v for k, v in headers.items()}, detail
    )


@pytest.mark.parametrize("status", [500, 502, 503, 599])
def test_5xx_is_retried_after_1_then_2_seconds_then_an_error(status: int) -> None:
    assert policy(http(status), attempt=1) == RetryAfter(1.0)
    assert policy(http(status), attempt=2, waited=1.0) == RetryAfter(2.0)
    assert policy(http(status, "Server Error"), attempt=3, waited=3.0) == Failure(
        Status.ERROR, f"{WHAT}: the GitHub API answered HTTP {status} three times: Server Error"
    )


def test_connection_failures_are_retried_then_an_error() -> None:
    refused = RequestFailure("connection", detail="connection refused")
    assert policy(refused, attempt=1) == RetryAfter(1.0)
    assert policy(refused, attempt=2) == RetryAfter(2.0)
    assert policy(refused, attempt=3) == Failure(
        Status.ERROR,
        f"{WHAT}: cannot reach the GitHub API after three attempts (connection refused)",
    )


def test_a_timeout_is_an_error_at_once() -> None:
    assert policy(RequestFailure("timeout")) == Failure(
        Status.ERROR, f"{WHAT}: the GitHub API did not answer within 10 s"
    )


def test_an_unusable_answer_is_an_error_at_once_in_its_own_words() -> None:
    detail = "the GitHub API's answer is larger than 32 MiB"
    assert policy(RequestFailure("malformed", detail=detail)) == Failure(
        Status.ERROR, f"{WHAT}: {detail}"
    )


@pytest.mark.parametrize("status", [404, 410])
def test_gone_comments_are_not_found(status: int) -> None:
    assert policy(http(status, "Not Found")) == Failure(
        Status.COMMENT_NOT_FOUND,
        f"{WHAT} was not found (HTTP {status}): check the comment id and repository, and that "
        "the token can read the repository",
    )


def test_401_is_an_expired_token() -> None:
    assert policy(http(401, "Bad credentials")) == Failure(
        Status.GH_AUTH_EXPIRED,
        f"{WHAT}: the token is invalid or expired (HTTP 401: Bad credentials)",
    )


def test_403_without_a_rate_limit_signal_is_a_permission_failure() -> None:
    failure = http(403, "Resource not accessible by integration", x_ratelimit_remaining="4000")
    assert policy(failure) == Failure(
        Status.GH_AUTH_EXPIRED,
        f"{WHAT}: permission denied (HTTP 403: Resource not accessible by integration): the "
        "token lacks issues: read on the repository",
    )


def test_primary_rate_limit_waits_until_the_reset_when_it_fits() -> None:
    failure = http(
        403,
        "API rate limit exceeded",
        x_ratelimit_remaining="0",
        x_ratelimit_reset=str(int(NOW) + 20),
    )
    assert policy(failure) == RetryAfter(20.0, rate_limit=True)
    # 45 s already waited: 20 more would exceed 60.
    assert policy(failure, attempt=2, waited=45.0) == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: rate limited by the GitHub API until 2027-01-15T08:00:20Z (HTTP 403; waiting "
        "20 s more would exceed max-wait 60 s)",
    )


def test_a_far_reset_is_rate_limited_at_once() -> None:
    failure = http(
        403,
        "API rate limit exceeded",
        x_ratelimit_remaining="0",
        x_ratelimit_reset=str(int(NOW) + 3600),
    )
    assert policy(failure) == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: rate limited by the GitHub API until 2027-01-15T09:00:00Z (HTTP 403; waiting "
        "3600 s more would exceed max-wait 60 s)",
    )


def test_retry_after_is_honoured_for_429_and_403() -> None:
    assert policy(http(429, retry_after="1")) == RetryAfter(1.0, rate_limit=True)
    assert policy(http(403, "secondary", retry_after="7")) == RetryAfter(7.0, rate_limit=True)
    assert policy(http(429, retry_after="61")) == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: rate limited by the GitHub API until 2027-01-15T08:01:01Z (HTTP 429; waiting "
        "61 s more would exceed max-wait 60 s)",
    )


def test_max_wait_zero_never_waits() -> None:
    assert isinstance(policy(http(429, retry_after="1"), max_wait=0), Failure)


def test_a_rate_limit_message_without_headers_waits_a_minute() -> None:
    assert policy(http(403, "You have exceeded a secondary rate limit")) == RetryAfter(
        60.0, rate_limit=True
    )
    assert policy(http(429)) == RetryAfter(60.0, rate_limit=True)


def test_rate_limit_waits_are_not_capped_by_the_5xx_attempts() -> None:
    # Three 1-second waits fit in 60 s: each is honoured, up to the safety cap of 10.
    assert policy(http(429, retry_after="1"), attempt=3, waited=2.0, retries=2) == RetryAfter(
        1.0, rate_limit=True
    )
    assert policy(http(429, retry_after="0"), waited=0.0, retries=10) == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: still rate limited by the GitHub API after 10 waits; it clears at "
        "2027-01-15T08:00:00Z",
    )


def test_unicode_digits_are_not_seconds() -> None:
    # "²" is str.isdigit() but not a number of seconds: fall back to a minute, never raise.
    assert policy(http(429, retry_after="²")) == RetryAfter(60.0, rate_limit=True)


@pytest.mark.parametrize("status", [400, 409, 422, 301])
def test_other_statuses_are_errors(status: int) -> None:
    assert policy(http(status, "Validation Failed")) == Failure(
        Status.ERROR, f"{WHAT}: the GitHub API answered HTTP {status}: Validation Failed"
    )


# ---- retry-after as an HTTP-date, far-future resets, request ids ------------------------------


@pytest.mark.parametrize(
    "date",
    [
        "Fri, 15 Jan 2027 08:00:07 GMT",  # IMF-fixdate
        "Friday, 15-Jan-27 08:00:07 GMT",  # obsolete RFC 850
        "Fri Jan 15 08:00:07 2027",  # obsolete asctime (no zone: UTC)
    ],
)
def test_retry_after_as_an_http_date_waits_until_then(date: str) -> None:
    assert retry_after_instant(date, NOW) == NOW + 7
    assert policy(http(429, retry_after=date)) == RetryAfter(7.0, rate_limit=True)


def test_retry_after_http_date_beyond_max_wait_gives_the_reset_instant() -> None:
    assert policy(http(429, retry_after="Fri, 15 Jan 2027 08:02:00 GMT")) == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: rate limited by the GitHub API until 2027-01-15T08:02:00Z (HTTP 429; waiting "
        "120 s more would exceed max-wait 60 s)",
    )


def test_retry_after_http_date_in_the_past_retries_at_once() -> None:
    assert policy(http(429, retry_after="Sun, 06 Nov 1994 08:49:37 GMT")) == RetryAfter(
        0.0, rate_limit=True
    )


@pytest.mark.parametrize("value", ["soon", "1.5", "-3", "", "Fri, 99 Jan 2027 08:00:07 GMT"])
def test_a_retry_after_that_is_neither_form_is_ignored(value: str) -> None:
    assert retry_after_instant(value, NOW) is None


@pytest.mark.parametrize(
    "headers",
    [
        {"retry_after": "999999999999"},
        {"retry_after": "9" * 400},
        {"retry_after": "Fri, 31 Dec 9999 23:59:59 GMT"},
        {"x_ratelimit_remaining": "0", "x_ratelimit_reset": "99999999999999"},
        {"x_ratelimit_remaining": "0", "x_ratelimit_reset": "9" * 400},
    ],
)
def test_a_far_future_reset_is_rate_limited_never_an_overflow(headers: dict[str, str]) -> None:
    decision = policy(http(429, "API rate limit exceeded", **headers))
    assert isinstance(decision, Failure)
    assert decision.status is Status.GH_RATE_LIMITED
    assert decision.message.startswith(f"{WHAT}: rate limited by the GitHub API until ")
    assert "would exceed max-wait 60 s" in decision.message


def test_a_reset_past_year_9999_says_so() -> None:
    decision = policy(http(429, retry_after="999999999999"))
    assert decision == Failure(
        Status.GH_RATE_LIMITED,
        f"{WHAT}: rate limited by the GitHub API until after 9999-12-31T23:59:59Z (HTTP 429; "
        "waiting 999999999999 s more would exceed max-wait 60 s)",
    )


def test_messages_carry_githubs_request_id() -> None:
    failure = http(502, "Bad Gateway", x_github_request_id="F00D:1234:5678:9ABC:DEF0")
    assert policy(failure, attempt=3) == Failure(
        Status.ERROR,
        f"{WHAT}: the GitHub API answered HTTP 502 three times: Bad Gateway "
        "(request id F00D:1234:5678:9ABC:DEF0)",
    )
    unusable = RequestFailure(
        "malformed", headers={"x-github-request-id": "AB:CD"}, detail="the answer is odd"
    )
    assert policy(unusable) == Failure(
        Status.ERROR, f"{WHAT}: the answer is odd (request id AB:CD)"
    )


@pytest.mark.parametrize("value", ["", "  ", "has space", "::error::x", "a" * 101, "ID\nX"])
def test_a_request_id_that_does_not_look_like_one_is_left_out(value: str) -> None:
    assert request_id_note({"x-github-request-id": value}) == ""
    assert request_id_note(None) == ""


# ---- rules a mutation pass found unpinned (issue 20 part 4) ------------------------------------


def test_a_reset_counts_only_when_nothing_remains() -> None:
    # A 429 with a reset but requests remaining: the reset is not the limit that was hit
    # (a secondary limit): GitHub's advice, a minute.
    failure = http(429, x_ratelimit_remaining="12", x_ratelimit_reset=str(int(NOW) + 5))
    assert policy(failure) == RetryAfter(60.0, rate_limit=True)


def test_retry_after_comes_before_the_reset() -> None:
    failure = http(
        403,
        "API rate limit exceeded",
        retry_after="5",
        x_ratelimit_remaining="0",
        x_ratelimit_reset=str(int(NOW) + 30),
    )
    assert policy(failure) == RetryAfter(5.0, rate_limit=True)


@pytest.mark.parametrize(
    "message", ["You have exceeded a Secondary Rate Limit", "API RATE LIMIT exceeded"]
)
def test_rate_limit_in_the_message_is_found_in_any_case(message: str) -> None:
    assert policy(http(403, message)) == RetryAfter(60.0, rate_limit=True)


@pytest.mark.parametrize(
    ("header", "signal"),
    [("retry_after", "3"), ("x_ratelimit_remaining", "0")],
)
def test_a_403_with_one_rate_limit_header_alone_is_rate_limited(header: str, signal: str) -> None:
    headers = {header: signal}
    expected = 3.0 if header == "retry_after" else 60.0  # no reset given: a minute
    assert policy(http(403, "Forbidden", **headers)) == RetryAfter(expected, rate_limit=True)


def test_the_last_instant_a_message_can_show_is_shown() -> None:
    decision = policy(http(429, retry_after="Fri, 31 Dec 9999 23:59:59 GMT"))
    assert isinstance(decision, Failure)
    assert decision.message.startswith(
        f"{WHAT}: rate limited by the GitHub API until 9999-12-31T23:59:59Z (HTTP 429; waiting "
    )


def test_a_message_of_200_characters_is_kept_whole_and_a_longer_one_is_cut_to_200() -> None:
    whole = "x" * 200
    assert policy(http(400, whole)) == Failure(
        Status.ERROR, f"{WHAT}: the GitHub API answered HTTP 400: {whole}"
    )
    cut = policy(http(400, "y" * 201))
    assert cut == Failure(Status.ERROR, f"{WHAT}: the GitHub API answered HTTP 400: {'y' * 197}...")


def test_an_http_date_without_a_zone_is_utc_whatever_the_local_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        assert retry_after_instant("Fri Jan 15 08:00:07 2027", NOW) == NOW + 7
    finally:
        monkeypatch.undo()
        time.tzset()
