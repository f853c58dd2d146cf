"""Origins and paths of REST API URLs (RFC 6454; SPEC 6 "The wire, exactly").

Pure. An API URL, a redirect's ``Location`` and a pagination ``Link`` are split into an
:class:`Origin` (scheme, host, port) and a path with its query; requests only ever go to the
origin of ``api-url``. A URL that parses but cannot be used (a port over 65535, a broken IPv6
literal, no host) is refused with a reason in words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from ipaddress import IPv6Address
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
#: An authority without user info: a registered name or an IPv4 address, or an IP literal in
#: brackets; then an optional port (RFC 3986 section 3.2).
_AUTHORITY = re.compile(
    r"(?:\[[0-9A-Za-z:.%]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::[0-9]*)?", re.ASCII
)


@dataclass(frozen=True, slots=True)
class Origin:
    """Scheme, host and port of a URL (RFC 6454), normalised: lower-case scheme and host,
    IPv6 without brackets, the default port filled in."""

    scheme: str
    host: str
    port: int

    @classmethod
    def of(cls, url: str) -> tuple[Origin, str]:
        """Split an absolute ``http(s)`` URL into its origin and its path and query.

        Raises:
            ValueError: why the URL cannot be used, in words (``"its port is not a number in
                1..65535"``): not absolute ``http(s)``, a control character or a space, no
                host, a broken IPv6 literal, a bad port.
        """
        if any(char <= " " or char == "\x7f" for char in url):
            raise ValueError("it contains a control character or a space")
        try:
            parts = urlsplit(url)
        except ValueError:  # urllib: "Invalid IPv6 URL"
            raise ValueError("its IPv6 address in brackets is broken") from None
        scheme = parts.scheme.lower()
        if scheme not in _DEFAULT_PORTS:
            raise ValueError("it is not an http or https URL")
        host = (parts.hostname or "").lower()
        if not host:
            raise ValueError("it has no host")
        if "@" in parts.netloc:
            raise ValueError("it carries a user name or password")
        if "[" in parts.netloc or "]" in parts.netloc:
            try:
                IPv6Address(host.split("%", 1)[0])
            except ValueError:
                raise ValueError("its IPv6 address in brackets is broken") from None
        try:
            port = parts.port
        except ValueError:  # urllib: "Port out of range 0-65535", "Port could not be cast"
            port = 0
        if port == 0:
            raise ValueError("its port is not a number in 1..65535")
        if not _AUTHORITY.fullmatch(parts.netloc):
            raise ValueError(f"its host {parts.netloc!r} is not a host name or an address")
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        return cls(scheme, host, port or _DEFAULT_PORTS[scheme]), path

    @property
    def netloc(self) -> str:
        """``host:port`` (IPv6 in brackets), the default port left out."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == _DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"

    def url(self, path: str) -> str:
        """The absolute URL of ``path`` (with its query) at this origin."""
        return f"{self.scheme}://{self.netloc}{path}"

    def named_from(self, other: Origin) -> str:
        """How a message names this origin seen from ``other``: ``another host (h:p)``, or
        ``another origin (scheme://h:p)`` when only the scheme or port differ."""
        if self.host != other.host:
            return f"another host ({self.netloc})"
        return f"another origin ({self.scheme}://{self.netloc})"
