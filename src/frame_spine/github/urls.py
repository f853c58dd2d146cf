"""Origins and paths of REST API URLs (RFC 6454; SPEC 6 "The wire, exactly").

Pure. An API URL, a redirect's ``Location`` and a pagination ``Link`` are split into an
:class:`Origin` (scheme, host, port) and a path with its query; requests only ever go to the
origin of ``api-url``. A URL that parses but cannot be used (a port over 65535, a broken IPv6
literal, no host) is refused with a reason in words.

A URL may carry secrets: a user name and password (``https://x-access-token:TOKEN@host``), or
a query or fragment holding one. :func:`hidden_parts` says which of these a value carries,
judged on its characters alone (a value that does not parse is judged too), so that no message
quotes it; :func:`without_secrets` is how a message names a URL (a proxy, a git remote) that
may carry them; :func:`is_loopback` says whether a host is this machine (SPEC 6: plain
``http`` only there, and never through a proxy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, ip_address
from urllib.parse import parse_qs, urlencode, urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
#: An authority without user info: a registered name or an IPv4 address, or an IP literal in
#: brackets; then an optional port (RFC 3986 section 3.2).
_AUTHORITY = re.compile(
    r"(?:\[[0-9A-Za-z:.%]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::[0-9]*)?", re.ASCII
)
#: The loopback hosts (SPEC 6): the name ``localhost``, ``127.0.0.0/8`` and ``::1``.
LOCALHOST = "localhost"
_LOOPBACK_V4 = IPv4Network("127.0.0.0/8")
_LOOPBACK_V6 = IPv6Address("::1")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*", re.ASCII)
#: A word that may carry a user name or password: an ``@`` after anything but ``=`` or ``,``.
_CREDENTIAL_WORD = re.compile(r"[^\s'\"<>()]*[^\s'\"<>()=,@]@[^\s'\"<>()]*")
#: What :func:`hidden_parts` names, in the order a message lists them.
USERINFO = "a user name or password"
QUERY = "a query"
FRAGMENT = "a fragment"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (as :class:`Origin` keeps it: lower case, IPv6 without brackets) is
    this machine (SPEC 6): ``localhost``, an IPv4 address in ``127.0.0.0/8`` written as four
    decimal numbers, or ``::1``. Any other name, and any other spelling of an address (such
    as ``2130706433`` or ``::ffff:127.0.0.1``), is not."""
    if host == LOCALHOST:
        return True
    try:
        address = ip_address(host)
    except ValueError:
        return False
    if isinstance(address, IPv4Address):
        return address in _LOOPBACK_V4
    return address == _LOOPBACK_V6


def hidden_parts(value: str) -> tuple[str, ...]:
    """The parts of a URL value that a message must never quote (SPEC 6): :data:`USERINFO`
    when an ``@`` comes before any ``?`` or ``#`` (a user name or password ends with one, and
    so does anything that could be read as one), :data:`QUERY` when a ``?`` comes before any
    ``#``, :data:`FRAGMENT` when there is a ``#``, in that order; ``()`` for a value that may
    be quoted. Judged on the characters alone: the value need not parse. Never raises."""
    before_fragment, fragment, _ = value.partition("#")
    before_query, query, _ = before_fragment.partition("?")
    parts = ((USERINFO, "@" in before_query), (QUERY, bool(query)), (FRAGMENT, bool(fragment)))
    return tuple(name for name, present in parts if present)


def without_secrets(value: str) -> str | None:
    """``value`` (a proxy, an API URL, a redirect target, a git remote) as a message may
    quote it (SPEC 6, revision 4): everything up to its last ``@`` removed (a scheme kept),
    then its query and fragment; ``None`` when what is left is empty or not one printable
    word, so it is not quoted at all. The one function every message that quotes such a value
    uses. Never raises."""
    text = value.strip()
    scheme, separator, rest = text.partition("://")
    if not separator or not _SCHEME.fullmatch(scheme):
        scheme, separator, rest = "", "", text
    rest = rest.rpartition("@")[2].partition("#")[0].partition("?")[0]
    if not rest or not rest.isprintable() or any(char.isspace() or char == "\\" for char in rest):
        return None
    return f"{scheme}{separator}{rest}"


def without_credentials(text: str) -> str:
    """``text`` (a line another program printed, a usage error quoting flags) with every word
    that may hold a user name or password (an ``@`` after anything but ``=`` or ``,``:
    ``--trusted-authors=@bot`` names a login) shown by :func:`without_secrets`. Never
    raises."""
    return _CREDENTIAL_WORD.sub(lambda word: without_secrets(word[0]) or "(not shown)", text)


@dataclass(frozen=True, slots=True)
class Origin:
    """Scheme, host and port of a URL (RFC 6454), normalised: lower-case scheme and host,
    IPv6 without brackets, the default port filled in."""

    scheme: str
    host: str
    port: int

    @classmethod
    def of(cls, url: str) -> tuple[Origin, str]:
        """Split an absolute ``http(s)`` URL into its origin and its path and query."""
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
        path = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        return cls(scheme, host, port or _DEFAULT_PORTS[scheme]), path

    @property
    def loopback(self) -> bool:
        """Whether the host is this machine (:func:`is_loopback`)."""
        return is_loopback(self.host)

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


def normalised(path: str) -> str:
    """A request's path and query as it goes on the wire: the query re-encoded from its
    parsed parameters, sorted (parameters without a value left out), so that one page of a
    listing has one spelling however a ``Link`` header writes it (SPEC 6: no page is fetched
    twice).

    Example: ``/repos/o/r/issues?per_page=100&page=%32`` -> ``/repos/o/r/issues?page=2
    &per_page=100``; a path without a query is returned as it is.
    """
    bare, _, query = path.partition("?")
    pairs = sorted((key, value) for key, values in parse_qs(query).items() for value in values)
    return f"{bare}?{urlencode(pairs)}" if pairs else bare


def graphql_url(api_url: str) -> str:
    """The GraphQL endpoint of ``api-url`` (SPEC 6.1): ``/api/v3`` becomes ``/api/graphql``,
    anything else gets ``/graphql``."""
    root = api_url.rstrip("/")
    if root.endswith("/api/v3"):
        return root.removesuffix("/api/v3") + "/api/graphql"
    return root + "/graphql"
