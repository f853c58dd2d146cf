"""Which GitHub a URL names (SPEC 9), pure: the host of an API URL (for ``gh auth token
--hostname`` and the token variables), and the repository of a git remote URL."""

from __future__ import annotations

import pytest

from frame_spine.github.hosts import (
    RemoteRepository,
    github_host,
    is_public_api,
    parse_remote,
    remote_hosts,
    shown_remote,
)


@pytest.mark.parametrize(
    ("api_url", "public"),
    [
        ("https://api.github.com", True),
        ("https://api.github.com/", True),
        ("HTTPS://API.GITHUB.COM", True),
        ("https://api.github.com:443", True),
        (" https://api.github.com ", True),
        ("http://api.github.com", False),
        ("https://api.github.com:8443", False),
        ("https://api.github.com/api/v3", False),
        ("https://ghe.example.com/api/v3", False),
        ("https://api.octocorp.ghe.com", False),
        ("http://127.0.0.1:8080", False),
        ("not a url", False),
        ("", False),
    ],
)
def test_only_the_public_api_is_public(api_url: str, public: bool) -> None:
    assert is_public_api(api_url) is public


@pytest.mark.parametrize(
    ("api_url", "host"),
    [
        ("https://api.github.com", "github.com"),
        ("https://api.github.com/", "github.com"),
        ("https://ghe.example.com/api/v3", "ghe.example.com"),
        ("https://GHE.Example.com:8443/api/v3", "ghe.example.com"),
        ("https://api.octocorp.ghe.com", "octocorp.ghe.com"),
        ("http://127.0.0.1:5000", "127.0.0.1"),
        ("http://[::1]:5000/api/v3", "::1"),
        ("https://api.example.com", "api.example.com"),
        ("http://host:99999", ""),
        ("nonsense", ""),
    ],
)
def test_the_github_host_of_an_api_url(api_url: str, host: str) -> None:
    assert github_host(api_url) == host


def test_remote_hosts_of_github_com_include_its_ssh_and_www_hosts() -> None:
    assert remote_hosts("https://api.github.com") == {
        "github.com",
        "www.github.com",
        "ssh.github.com",
    }
    assert remote_hosts("https://ghe.example.com/api/v3") == {"ghe.example.com"}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/octo-org/plans", ("github.com", "octo-org/plans")),
        ("https://github.com/octo-org/plans.git", ("github.com", "octo-org/plans")),
        ("https://github.com/octo-org/plans/", ("github.com", "octo-org/plans")),
        ("https://github.com/octo-org/plans.git\n", ("github.com", "octo-org/plans")),
        ("http://GitHub.com/Octo-Org/Plans", ("github.com", "Octo-Org/Plans")),
        ("https://user@github.com/octo-org/plans.git", ("github.com", "octo-org/plans")),
        (
            "https://x-access-token:ghs_secret@github.com/octo-org/plans.git",
            ("github.com", "octo-org/plans"),
        ),
        ("git@github.com:octo-org/plans.git", ("github.com", "octo-org/plans")),
        ("git@github.com:octo-org/plans", ("github.com", "octo-org/plans")),
        ("github.com:octo-org/plans.git", ("github.com", "octo-org/plans")),
        ("org-123@github.com:octo-org/plans.git", ("github.com", "octo-org/plans")),
        ("ssh://git@github.com/octo-org/plans", ("github.com", "octo-org/plans")),
        ("ssh://git@github.com/octo-org/plans.git", ("github.com", "octo-org/plans")),
        ("ssh://git@ssh.github.com:443/octo-org/plans.git", ("ssh.github.com", "octo-org/plans")),
        ("git+ssh://git@github.com/octo-org/plans.git", ("github.com", "octo-org/plans")),
        ("git://github.com/octo-org/plans.git", ("github.com", "octo-org/plans")),
        ("git@ghe.example.com:team/plans.git", ("ghe.example.com", "team/plans")),
        ("https://ghe.example.com:8443/team/plans.git", ("ghe.example.com", "team/plans")),
        ("ssh://git@[::1]:2222/team/plans.git", ("::1", "team/plans")),
    ],
)
def test_the_repository_of_a_remote_url(url: str, expected: tuple[str, str]) -> None:
    assert parse_remote(url) == RemoteRepository(*expected)


@pytest.mark.parametrize(
    "url",
    [
        "",
        "/srv/git/plans.git",
        "../plans",
        "./plans.git",
        "file:///srv/git/plans.git",
        "C:/repos/plans.git",
        "C:\\repos\\plans.git",
        "https://github.com/octo-org",
        "https://github.com/octo-org/plans/tree/main",
        "https://github.com/",
        "https://github.com//plans",
        "git@github.com:plans.git",
        "git@github.com:a/b/c.git",
        "ftp://github.com/octo-org/plans.git",
        "https:///octo-org/plans",
        "https://[::1/octo-org/plans",
    ],
)
def test_urls_naming_no_repository_on_a_host_are_not_remotes(url: str) -> None:
    assert parse_remote(url) is None


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "https://x-access-token:ghs_secret@github.com/o/r.git",
            "https://github.com/o/r.git",
        ),
        ("https://user@gitlab.com/o/r.git", "https://gitlab.com/o/r.git"),
        ("git@gitlab.com:o/r.git", "gitlab.com:o/r.git"),
        ("x-access-token:ghs_secret@github.com:o/r.git", "github.com:o/r.git"),
        ("/srv/git/plans.git\n", "/srv/git/plans.git"),
        ("https://a@b@host/x\ny", "(a value not shown)"),
        ("https://github.com/o/r.git?access_token=secret#part", "https://github.com/o/r.git"),
        ("https://host/" + "x" * 300, "https://host/" + "x" * 104 + "..."),
    ],
)
def test_a_remote_is_shown_without_credentials(url: str, shown: str) -> None:
    assert shown_remote(url) == shown
