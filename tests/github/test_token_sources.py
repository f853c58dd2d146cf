"""The token variables and their order (SPEC 9), pure; the same rules as the ``gh`` program:
``GH_TOKEN`` then ``GITHUB_TOKEN``, and for a GitHub Enterprise Server
``GH_ENTERPRISE_TOKEN`` then ``GITHUB_ENTERPRISE_TOKEN`` first. (The command line and the
action reading them, and ``gh auth token`` after them: tests/test_auth.py.)"""

from __future__ import annotations

import pytest

from frame_spine.github.auth import (
    TokenProblem,
    no_token,
    token_from_environment,
    token_variables,
)

PUBLIC = "https://api.github.com"
GHES = "https://ghe.example.com/api/v3"
ALL = {
    "GH_ENTERPRISE_TOKEN": "a",
    "GITHUB_ENTERPRISE_TOKEN": "b",
    "GH_TOKEN": "c",
    "GITHUB_TOKEN": "d",
}


def test_the_variables_in_order() -> None:
    assert token_variables(PUBLIC) == ("GH_TOKEN", "GITHUB_TOKEN")
    assert token_variables(GHES) == (
        "GH_ENTERPRISE_TOKEN",
        "GITHUB_ENTERPRISE_TOKEN",
        "GH_TOKEN",
        "GITHUB_TOKEN",
    )
    # A GitHub Enterprise Cloud tenant is not an Enterprise Server: gh reads GH_TOKEN there.
    assert token_variables("https://api.octocorp.ghe.com") == ("GH_TOKEN", "GITHUB_TOKEN")


@pytest.mark.parametrize(
    ("api_url", "unset", "chosen"),
    [
        (PUBLIC, (), ("GH_TOKEN", "c")),
        (PUBLIC, ("GH_TOKEN",), ("GITHUB_TOKEN", "d")),
        (PUBLIC, ("GH_TOKEN", "GITHUB_TOKEN"), None),  # enterprise variables: not for github.com
        (GHES, (), ("GH_ENTERPRISE_TOKEN", "a")),
        (GHES, ("GH_ENTERPRISE_TOKEN",), ("GITHUB_ENTERPRISE_TOKEN", "b")),
        (GHES, ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"), ("GH_TOKEN", "c")),
        (
            GHES,
            ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_TOKEN"),
            ("GITHUB_TOKEN", "d"),
        ),
        (GHES, tuple(ALL), None),
    ],
)
def test_the_first_variable_set_is_chosen(
    api_url: str, unset: tuple[str, ...], chosen: tuple[str, str] | None
) -> None:
    environ = {name: value for name, value in ALL.items() if name not in unset}
    assert token_from_environment(environ, api_url) == chosen


def test_an_empty_or_blank_variable_is_not_set_and_the_value_is_kept_as_given() -> None:
    environ = {"GH_TOKEN": "", "GITHUB_TOKEN": " \t\n"}
    assert token_from_environment(environ, PUBLIC) is None
    environ = {"GH_TOKEN": "  ", "GITHUB_TOKEN": "  tok\n"}
    assert token_from_environment(environ, PUBLIC) == ("GITHUB_TOKEN", "  tok\n")
    # A value a header cannot carry is still the choice (the fetcher refuses it).
    assert token_from_environment({"GH_TOKEN": "a\nb"}, PUBLIC) == ("GH_TOKEN", "a\nb")


def test_no_token_is_the_whole_message_and_a_bad_token_names_the_request() -> None:
    missing = no_token("set GH_TOKEN or run gh auth login")
    assert missing == TokenProblem("no token: set GH_TOKEN or run gh auth login", missing=True)
    assert missing.refusal("plan comment 5 in o/r") == (
        "no token: set GH_TOKEN or run gh auth login"
    )
    assert TokenProblem("the token contains a line break").refusal("plan comment 5 in o/r") == (
        "plan comment 5 in o/r: the token contains a line break, which an HTTP header cannot "
        "carry: no request was made; fix the token"
    )
