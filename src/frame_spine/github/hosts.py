"""Which GitHub a URL names (SPEC 9): the host of an API URL, and the repository of a git
remote URL.

Pure. The public API is ``https://api.github.com``; every other API URL is a GitHub Enterprise
Server (its host, e.g. ``ghe.example.com`` for ``https://ghe.example.com/api/v3``). The host
name :func:`github_host` gives is the one the ``gh`` program keys its stored credentials by
(``gh auth token --hostname HOST``) and the one git remotes of that GitHub name.
:func:`parse_remote` reads the repository from the remote URL forms git accepts:
``https://HOST/OWNER/NAME(.git)``, ``git@HOST:OWNER/NAME.git``, ``ssh://git@HOST/OWNER/NAME``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..core.shown import cut
from .urls import Origin, without_secrets

#: The host of github.com, as ``gh`` names it.
PUBLIC_HOST = "github.com"
#: Hosts a git remote of github.com may name (the web host, and SSH over port 443).
_PUBLIC_REMOTE_HOSTS = frozenset({"github.com", "www.github.com", "ssh.github.com"})
#: The URL schemes of git remotes that can name a GitHub repository.
_SCHEMES = frozenset({"https", "http", "ssh", "git", "git+ssh", "ssh+git"})
#: ``[user@]host:path``, git's scp-like syntax (a host of two characters at least: ``C:/x``
#: is a Windows path).
_SCP_LIKE = re.compile(r"(?:[^/\\]*@)?(?P<host>[^@/:\\]{2,}):(?P<path>(?!//)[^@\\]+)")


#: The domain of GitHub Enterprise Cloud tenants with data residency (``TENANT.ghe.com``).
TENANT_SUFFIX = ".ghe.com"


def is_public_api(api_url: str) -> bool:
    """Whether ``api_url`` is the public API ``https://api.github.com`` (any case, with or
    without a trailing slash, the default port spelled out or not); anything else, including
    an API URL that cannot be parsed, is a GitHub Enterprise Server (SPEC 9)."""
    try:
        origin, path = Origin.of(api_url.strip())
    except ValueError:
        return False
    return origin == Origin("https", "api.github.com", 443) and not path.rstrip("/")


def github_host(api_url: str) -> str:
    """The host name of the GitHub an API URL belongs to, as ``gh`` names it (SPEC 9)."""
    if is_public_api(api_url):
        return PUBLIC_HOST
    try:
        host = Origin.of(api_url.strip())[0].host
    except ValueError:
        return ""
    return host.removeprefix("api.") if host.endswith(TENANT_SUFFIX) else host


def remote_hosts(api_url: str) -> frozenset[str]:
    """The hosts a git remote of the GitHub of ``api_url`` may name: for github.com also
    ``www.github.com`` and ``ssh.github.com`` (SSH over port 443)."""
    host = github_host(api_url)
    return _PUBLIC_REMOTE_HOSTS if host == PUBLIC_HOST else frozenset({host})


@dataclass(frozen=True, slots=True)
class RemoteRepository:
    """The repository a git remote URL names.

    Attributes:
        host: the remote's host, lower case, without user or port (``github.com``).
        repository: ``OWNER/NAME`` as the URL spells it, without ``.git``.
    """

    host: str
    repository: str


def parse_remote(url: str) -> RemoteRepository | None:
    """Read the host and ``OWNER/NAME`` from a git remote URL (SPEC 9)."""
    text = url.strip()
    if "://" in text:
        try:
            parts = urlsplit(text)
            host = (parts.hostname or "").lower()
        except ValueError:
            return None
        if parts.scheme.lower() not in _SCHEMES or not host:
            return None
        path = parts.path
    else:
        scp = _SCP_LIKE.fullmatch(text)
        if scp is None:
            return None
        host, path = scp.group("host").lower(), scp.group("path")
    owner_and_name = path.strip("/").removesuffix(".git").split("/")
    if len(owner_and_name) != 2 or not all(owner_and_name):
        return None
    return RemoteRepository(host, "/".join(owner_and_name))


def shown_remote(url: str) -> str:
    """A remote URL as a message may quote it (SPEC 6:
    :func:`~frame_spine.github.urls.without_secrets`, cut), or ``(a value not shown)``."""
    shown = without_secrets(url)
    return cut(shown) if shown is not None else "(a value not shown)"
