"""Which certificates verify the GitHub API, and which TLS and proxy failures retrying cannot
mend (SPEC 6 "The wire, exactly", TLS, revision 3).

Two halves:

- :func:`resolve`: an environment mapping in, a :class:`Trust` (what verifies the server,
  and where it came from) or a :class:`TrustRefusal` (a variable naming a path that cannot
  be read; no request is made) out. The order is the one a self-hosted runner's tools follow:
  ``REQUESTS_CA_BUNDLE``, else ``CURL_CA_BUNDLE`` (that file or directory alone, as requests
  and curl do); else OpenSSL's defaults as ``ssl.create_default_context()`` loads them, which
  honour ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` (both, as OpenSSL does); else, when the
  system has no certificates at all, certifi's bundle. An empty variable counts as unset.
  Reading the files is the only I/O (the mapping is a parameter, not ``os.environ``).
- :func:`final_failure`: a transport exception (with its causes) in, the words of a failure
  that retrying cannot mend out — an untrusted or expired certificate, a host name mismatch,
  a proxy answering ``CONNECT`` with 403 or 407, an answer whose headers are too large or too
  many — or ``None`` for every other failure (retried as SPEC 6 says). Each message names the
  setting to use.

:class:`TrustingAdapter` puts a :class:`Trust` on requests' adapter through its public
subclassing hooks (``init_poolmanager``/``proxy_manager_for`` take urllib3's ``ssl_context``;
``cert_verify`` is where requests would otherwise add certifi's bundle to it).

Two facts are read from the standard library's exception texts, because ``http.client``
carries them in no attribute: the status of a refused ``CONNECT`` (``"Tunnel connection
failed: 407 ..."``) and "more than 100 headers" (``"got more than 100 headers"``). When a
Python release words them otherwise, those failures are retried as any connection failure
(tests/github/test_tls.py then fails and says which).
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import ssl
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import certifi

from ..core.shown import quoted
from .deadline import WatchedAdapter

#: The variables that name trusted certificates, in the order they are consulted (SPEC 6).
BUNDLE_VARIABLES = ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")
OPENSSL_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR")
#: What an untrusted certificate's message tells the user to set.
_CA_SETTINGS = "REQUESTS_CA_BUNDLE, or SSL_CERT_FILE / SSL_CERT_DIR"
#: OpenSSL's hashed names in a certificate directory (``c_rehash``: ``<hash>.<n>``).
_HASHED = re.compile(r"[0-9a-f]{8}\.r?[0-9]+")
#: ``http.client``'s words for a refused tunnel (``HTTPConnection._tunnel``).
_TUNNEL_REFUSED = re.compile(r"Tunnel connection failed: ([0-9]{3})\b")
#: ``http.client``'s words for an answer with more than ``_MAXHEADERS`` (100) headers.
_TOO_MANY_HEADERS = "got more than"
#: OpenSSL's verification results (X509_V_ERR_*) that mean "expired" or "not yet valid".
_EXPIRED_CODES = {10: "has expired", 9: "is not yet valid"}
#: ... and "not issued for this host" (host name, e-mail, IP address mismatch).
_MISMATCH_CODES = frozenset({62, 63, 64})
#: ... and why a certificate is not trusted, in words.
_UNTRUSTED_WHY = {
    18: "it is self-signed",
    19: "its chain ends in a self-signed certificate that is not trusted",
    20: "its issuer is not among the trusted certificates",
    21: "its issuer is not among the trusted certificates",
}

#: Why a path cannot be read, by the error met (the first that matches).
_OS_REASONS = (
    (FileNotFoundError, "does not exist"),
    (PermissionError, "cannot be read (permission denied)"),
    (IsADirectoryError, "is a folder, not a file"),
    (OSError, "cannot be read"),
)


@dataclass(frozen=True, slots=True)
class Trust:
    """What verifies the server's certificate (SPEC 6 TLS).

    Attributes:
        context: the client TLS context holding exactly the trusted certificates (host
            names are checked too).
        source: where they came from, for messages: ``"REQUESTS_CA_BUNDLE=/etc/ca.pem"``,
            ``"SSL_CERT_FILE=/x.pem and the system's certificates"``, ``"the system's
            certificates"`` or ``"certifi's bundle"``.
    """

    context: ssl.SSLContext
    source: str


@dataclass(frozen=True, slots=True)
class TrustRefusal:
    """A variable names a path that cannot be read: ``error``, without a request.

    Attributes:
        variable: e.g. ``"SSL_CERT_FILE"``. message: the whole reason, naming the variable.
    """

    variable: str
    message: str


def _problem(path: str, folder: bool) -> str | None:
    """Why ``path`` is not a folder that can be listed (``folder``), or not a readable file
    holding at least one PEM certificate; ``None`` when it is."""
    try:
        if folder:
            os.listdir(path)
            return None
        with open(path, "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except NotADirectoryError:
        if os.path.exists(path):
            return "is a file, not a folder"
        return "does not exist (a part of it is not a folder)"
    except OSError as error:
        return next(why for kind, why in _OS_REASONS if isinstance(error, kind))
    try:  # (cadata "" would load the system's certificates instead)
        loaded = ssl.create_default_context(cadata=text) if text.strip() else None
    except (ssl.SSLError, ValueError):
        loaded = None
    if loaded is None or not loaded.cert_store_stats()["x509"]:
        return "holds no PEM certificate"
    return None


def _refusal(
    variable: str, path: str, folder: bool, environ: Mapping[str, str]
) -> TrustRefusal | None:
    """The refusal naming ``variable`` when ``path`` cannot be used (:func:`_problem`); in
    the Docker action only the workspace is shared with the container (SPEC 6)."""
    why = _problem(path, folder)
    if why is None:
        return None
    workspace = environ.get("GITHUB_WORKSPACE", "")
    outside = not os.path.abspath(path).startswith(workspace.rstrip("/") + "/")
    if environ.get("GITHUB_ACTIONS") == "true" and workspace and outside:
        why += (
            f" (in the Docker action only files under the workspace, {workspace}, are seen: "
            "put the certificates there and name that path)"
        )
    shown = quoted(" ".join(path.split()))
    message = f"the TLS certificates cannot be loaded: {variable} names {shown}, which {why}"
    return TrustRefusal(variable, message)


def _has_certificates(cafile: str, capath: str) -> bool:
    """Whether OpenSSL's default locations hold any certificate (else certifi is used)."""
    if os.path.isfile(cafile):
        with contextlib.suppress(ssl.SSLError, OSError):
            if ssl.create_default_context(cafile=cafile).cert_store_stats()["x509_ca"]:
                return True
    for folder in capath.split(os.pathsep):
        with contextlib.suppress(OSError):
            if folder and any(_HASHED.fullmatch(name) for name in os.listdir(folder)):
                return True
    return False


def resolve(
    environ: Mapping[str, str], system: tuple[str, str] | None = None
) -> Trust | TrustRefusal:
    """The trusted certificates the environment names (SPEC 6 TLS)."""
    for variable in BUNDLE_VARIABLES:
        path = environ.get(variable, "")
        if not path:
            continue
        folder = os.path.isdir(path)
        if refused := _refusal(variable, path, folder, environ):
            return refused
        context = ssl.create_default_context(
            cafile=None if folder else path, capath=path if folder else None
        )
        return Trust(context, f"{variable}={path}")
    cafile, capath = (environ.get(name, "") for name in OPENSSL_VARIABLES)
    checked = [("SSL_CERT_FILE", cafile, False)]
    checked += [("SSL_CERT_DIR", folder, True) for folder in capath.split(os.pathsep)]
    for variable, path, folder in checked:
        if path and (refused := _refusal(variable, path, folder, environ)):
            return refused
    named = [f"{name}={environ[name]}" for name in OPENSSL_VARIABLES if environ.get(name)]
    if system is None:
        defaults = ssl.get_default_verify_paths()
        system = (defaults.openssl_cafile, defaults.openssl_capath)
    cafile, capath = cafile or system[0], capath or system[1]
    if not named and not _has_certificates(cafile, capath):
        return Trust(ssl.create_default_context(cafile=certifi.where()), "certifi's bundle")
    folders = os.pathsep.join(f for f in capath.split(os.pathsep) if f and os.path.isdir(f))
    context = ssl.create_default_context(
        cafile=cafile if os.path.isfile(cafile) else None, capath=folders or None
    )
    return Trust(context, ", ".join(named) or "the system's certificates")


def causes_of(exc: BaseException) -> Iterable[BaseException]:
    """The exception and everything it wraps (causes, contexts, urllib3 reasons, args), each
    once, breadth first, at most 32."""
    seen: set[int] = set()
    pending = [exc]
    while pending and len(seen) < 32:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        linked = [current.__cause__, current.__context__, getattr(current, "reason", None)]
        linked += list(current.args)
        pending += [item for item in linked if isinstance(item, BaseException)]


def _certificate_words(error: ssl.SSLCertVerificationError) -> str:
    code = error.verify_code
    if code in _EXPIRED_CODES:
        return (
            f"the server's TLS certificate {_EXPIRED_CODES[code]}: it must be renewed on the "
            "server (or on the TLS-inspecting proxy that presents it); no CA setting "
            f"({_CA_SETTINGS}) makes it valid"
        )
    if code in _MISMATCH_CODES:
        return (
            "the server's TLS certificate is not issued for the host of api-url: set api-url "
            "to a host name the certificate names"
        )
    why = _UNTRUSTED_WHY.get(code, "it is not signed by a trusted certificate")
    return (
        f"the server's TLS certificate is not trusted ({why}): set {_CA_SETTINGS}, to the "
        "certificates of the CA that signed it (a TLS-inspecting proxy's CA, a GitHub "
        "Enterprise Server's private CA)"
    )


def final_failure(causes: list[BaseException], proxy: str | None) -> str | None:
    """The words of a failure that retrying cannot mend, from a transport exception's
    :func:`causes_of`, or ``None`` (SPEC 6 TLS)."""
    for cause in causes:
        if isinstance(cause, ssl.SSLCertVerificationError):
            return _certificate_words(cause)
    for cause in causes:
        if isinstance(cause, http.client.LineTooLong):
            answer = "a header line over 64 KiB"
        elif isinstance(cause, http.client.HTTPException) and str(cause).startswith(
            _TOO_MANY_HEADERS
        ):
            answer = "more than 100 headers"
        else:
            continue
        return (
            f"the answer has {answer}: check that api-url names the GitHub API, and any proxy "
            "in between (HTTPS_PROXY, NO_PROXY)"
        )
    for cause in causes:
        match = _TUNNEL_REFUSED.search(str(cause)) if type(cause) is OSError else None
        if match is None or match.group(1) not in ("403", "407"):
            continue
        through = f"the proxy {proxy}" if proxy else "the proxy"
        if match.group(1) == "407":
            return (
                f"{through} asks for authentication (HTTP 407 to CONNECT): give its "
                "user name and password in HTTPS_PROXY (http://USER:PASSWORD@HOST:PORT), or "
                "name the host in NO_PROXY"
            )
        return (
            f"{through} refused the tunnel (HTTP 403 to CONNECT): allow the API's host on "
            "the proxy, or name it in NO_PROXY"
        )
    return None


class TrustingAdapter(WatchedAdapter):
    """requests' adapter (with the deadline's watched connections) that verifies with a
    :class:`Trust`'s context alone, direct and through a proxy's tunnel, whatever ``verify``
    the caller passes (requests would read ``REQUESTS_CA_BUNDLE`` or use certifi).

    Args:
        trust: the :class:`Trust`. Other arguments: :class:`requests.adapters.HTTPAdapter`'s.
    """

    def __init__(self, trust: Trust, **options: Any) -> None:
        self.trust = trust
        super().__init__(**options)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["ssl_context"] = self.trust.context
        super().init_poolmanager(*args, **kwargs)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        proxy_kwargs.setdefault("ssl_context", self.trust.context)
        return super().proxy_manager_for(proxy, **proxy_kwargs)

    def send(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs["verify"] = True  # the context decides what is trusted
        return super().send(request, *args, **kwargs)

    def cert_verify(self, conn: Any, url: str, verify: Any, cert: Any) -> None:
        super().cert_verify(conn, url, verify, cert)
        # requests names certifi's bundle here; urllib3 would add it to the context.
        conn.ca_certs = None
        conn.ca_cert_dir = None
