"""TLS (SPEC 6 "The wire, exactly", revision 3): which certificates verify the API
(``REQUESTS_CA_BUNDLE``, else ``CURL_CA_BUNDLE``, else OpenSSL's defaults with
``SSL_CERT_FILE`` and ``SSL_CERT_DIR``, else certifi), a variable naming a path that cannot be
read (``error``, no request), and the failures retrying cannot mend (``error`` at once, one
request). The API is the fake over real loopback TLS, with a CA and certificates made here
(trustme); the CLI runs in this process (``frame_spine.cli.main``) and as a subprocess, the
action's entrypoint as a subprocess."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import certifi
import pytest
import trustme
from pytest_httpserver import HTTPServer

from frame_spine import cli
from frame_spine.github import tls
from tests.conftest import CASES_DIR, clean_env, run_cli
from tests.fake_github import REPO, TOKEN, DripServer, FakeGitHub
from tests.proxies import RecordingProxy
from tests.runner_env import run_action

#: The wire's own tests: the fake API answers on a real loopback socket.
pytestmark = pytest.mark.sockets

SINGLE = (CASES_DIR / "ok-single-comment" / "plan.md").read_text("utf-8")
STAMP = "2026-05-04T14:30:00Z"
WHAT = f"plan comment 7001 in {REPO}"
LOOKUP = ["lookup", "--repo", REPO, "--plan-comment-id", "7001", "--generated-at", STAMP]
LOOKUP += ["--step-id", "s2", "--format", "json"]
#: Every variable this feature reads; each test sets only the ones it names.
VARIABLES = (*tls.BUNDLE_VARIABLES, *tls.OPENSSL_VARIABLES)
UNTRUSTED = (
    f"{WHAT}: the server's TLS certificate is not trusted (its issuer is not among the trusted "
    "certificates): set REQUESTS_CA_BUNDLE, or SSL_CERT_FILE / SSL_CERT_DIR, to the "
    "certificates of the CA that signed it (a TLS-inspecting proxy's CA, a GitHub Enterprise "
    "Server's private CA)"
)


@dataclass
class Pki:
    """The test's CA (``ca.pem``, and ``hashed/`` as ``c_rehash`` makes it) and another CA
    that signed nothing the server shows (``wrong.pem``, ``wrong-hashed/``)."""

    ca: trustme.CA
    right: str
    right_dir: str
    wrong: str
    wrong_dir: str


def hashed_folder(folder: Path, pem: Path) -> str:
    """A folder holding ``pem`` under OpenSSL's ``<subject hash>.0`` name."""
    folder.mkdir()
    digest = subprocess.run(
        ["openssl", "x509", "-subject_hash", "-noout", "-in", str(pem)],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.strip()
    shutil.copy(pem, folder / f"{digest}.0")
    return str(folder)


@pytest.fixture
def pki(tmp_path: Path) -> Pki:
    ca, other = trustme.CA(), trustme.CA()
    right, wrong = tmp_path / "ca.pem", tmp_path / "wrong.pem"
    ca.cert_pem.write_to_path(str(right))
    other.cert_pem.write_to_path(str(wrong))
    return Pki(
        ca,
        str(right),
        hashed_folder(tmp_path / "hashed", right),
        str(wrong),
        hashed_folder(tmp_path / "wrong-hashed", wrong),
    )


class TlsFake(FakeGitHub):
    """The fake over TLS; ``handshakes`` counts the TLS handshakes begun (one per attempt
    that reaches the server, even when the client refuses its certificate)."""

    handshakes: list[str | None]


def server_context(cert: trustme.LeafCert, handshakes: list[str | None]) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    cert.configure_cert(context)

    def hello(_sock: ssl.SSLObject, name: str | None, _context: ssl.SSLContext) -> None:
        handshakes.append(name)

    context.sni_callback = hello  # type: ignore[assignment]
    return context


@contextlib.contextmanager
def https_github(cert: trustme.LeafCert) -> Iterator[TlsFake]:
    """The fake over TLS on 127.0.0.1 with ``cert``, serving comment 7001."""
    handshakes: list[str | None] = []
    context = server_context(cert, handshakes)
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=context, threaded=True)
    server.start()
    try:
        fake = TlsFake(server)
        fake.handshakes = handshakes
        assert fake.url.startswith("https://127.0.0.1:")
        fake.add_comment(7001, SINGLE, 863)
        yield fake
    finally:
        server.clear()
        server.stop()


@pytest.fixture
def fake(pki: Pki) -> Iterator[TlsFake]:
    with https_github(pki.ca.issue_cert("127.0.0.1", "localhost")) as served:
        yield served


def environment(**variables: str) -> dict[str, str]:
    env = {k: v for k, v in clean_env(GITHUB_TOKEN=TOKEN).items() if k not in VARIABLES}
    env.update(variables)
    return env


def lookup(api_url: str, **variables: str) -> tuple[dict[str, Any], int]:
    """``frame-spine lookup`` in this process, with exactly ``variables`` of the TLS ones."""
    out = io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    with (
        mock.patch.dict(os.environ, environment(**variables), clear=True),
        contextlib.redirect_stdout(stdout),
    ):
        code = cli.main([*LOOKUP, "--api-url", api_url])
    stdout.detach()
    return json.loads(out.getvalue()), code


def ok(result: dict[str, Any], code: int) -> bool:
    return (result["status"], code) == ("ok", 0)


# ---- each variable alone, and their order -------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "which"),
    [
        ("REQUESTS_CA_BUNDLE", "file"),
        ("REQUESTS_CA_BUNDLE", "folder"),
        ("CURL_CA_BUNDLE", "file"),
        ("CURL_CA_BUNDLE", "folder"),
        ("SSL_CERT_FILE", "file"),
        ("SSL_CERT_DIR", "folder"),
    ],
)
def test_each_variable_alone_names_the_trusted_certificates(
    fake: TlsFake, pki: Pki, variable: str, which: str
) -> None:
    path = pki.right if which == "file" else pki.right_dir
    assert ok(*lookup(fake.url, **{variable: path}))
    assert (len(fake.handshakes), len(fake.requests)) == (1, 1)


def test_without_a_setting_the_private_ca_is_not_trusted(fake: TlsFake) -> None:
    assert lookup(fake.url) == ({"status": "error", "message": UNTRUSTED}, 1)
    assert (len(fake.handshakes), fake.requests) == (1, [])  # one attempt, not retried


@pytest.mark.parametrize(
    ("variables", "trusted"),
    [
        ({"REQUESTS_CA_BUNDLE": "right", "CURL_CA_BUNDLE": "wrong"}, True),
        ({"REQUESTS_CA_BUNDLE": "wrong", "CURL_CA_BUNDLE": "right"}, False),
        ({"REQUESTS_CA_BUNDLE": "wrong", "SSL_CERT_FILE": "right"}, False),
        ({"REQUESTS_CA_BUNDLE": "wrong", "SSL_CERT_DIR": "right_dir"}, False),
        ({"CURL_CA_BUNDLE": "right", "SSL_CERT_FILE": "wrong"}, True),
        ({"CURL_CA_BUNDLE": "wrong", "SSL_CERT_FILE": "right"}, False),
        ({"CURL_CA_BUNDLE": "wrong_dir", "SSL_CERT_DIR": "right_dir"}, False),
        # OpenSSL reads both of its variables
        ({"SSL_CERT_FILE": "wrong", "SSL_CERT_DIR": "right_dir"}, True),
        ({"SSL_CERT_FILE": "right", "SSL_CERT_DIR": "wrong_dir"}, True),
        # an empty variable counts as unset
        ({"REQUESTS_CA_BUNDLE": "", "CURL_CA_BUNDLE": "right"}, True),
        ({"REQUESTS_CA_BUNDLE": "", "SSL_CERT_FILE": "right"}, True),
        ({"CURL_CA_BUNDLE": "", "SSL_CERT_DIR": "right_dir"}, True),
    ],
    ids=lambda value: (
        "-".join(f"{k}={v}" for k, v in value.items()) if isinstance(value, dict) else str(value)
    ),
)
def test_the_first_variable_set_decides(
    fake: TlsFake, pki: Pki, variables: dict[str, str], trusted: bool
) -> None:
    paths = {"": "", **{name: getattr(pki, name) for name in ("right", "right_dir", "wrong")}}
    paths["wrong_dir"] = pki.wrong_dir
    result, code = lookup(fake.url, **{name: paths[which] for name, which in variables.items()})
    assert (result, code) == (
        ({"status": "ok"} | result, 0)
        if trusted
        else ({"status": "error", "message": UNTRUSTED}, 1)
    )
    assert (len(fake.handshakes), len(fake.requests)) == (1, 1 if trusted else 0)


# ---- a path that cannot be read: error naming the variable, no request -------------------------


@pytest.mark.parametrize("variable", VARIABLES)
def test_a_missing_path_is_an_error_naming_the_variable(
    fake: TlsFake, tmp_path: Path, variable: str
) -> None:
    missing = f"{tmp_path}/gone/ca.pem"
    assert lookup(fake.url, **{variable: missing}) == (
        {
            "status": "error",
            "message": f"{WHAT}: the TLS certificates cannot be loaded: {variable} names "
            f"'{missing}', which does not exist: no request was made",
        },
        1,
    )
    assert (fake.handshakes, fake.requests) == ([], [])


@pytest.mark.parametrize(
    ("variable", "kind", "why"),
    [
        ("REQUESTS_CA_BUNDLE", "not-pem", "holds no PEM certificate"),
        ("CURL_CA_BUNDLE", "empty", "holds no PEM certificate"),
        ("SSL_CERT_FILE", "not-pem", "holds no PEM certificate"),
        ("SSL_CERT_FILE", "folder", "is a folder, not a file"),
        ("SSL_CERT_DIR", "not-pem", "is a file, not a folder"),
        ("SSL_CERT_DIR", "through-a-file", "does not exist (a part of it is not a folder)"),
    ],
)
def test_a_path_that_holds_no_certificates_is_an_error_naming_the_variable(
    fake: TlsFake, tmp_path: Path, variable: str, kind: str, why: str
) -> None:
    (tmp_path / "not-pem").write_text("-----BEGIN NOTHING-----\nxyz\n")
    (tmp_path / "empty").write_text("")
    (tmp_path / "folder").mkdir()
    path = f"{tmp_path}/not-pem/x" if kind == "through-a-file" else f"{tmp_path}/{kind}"
    assert lookup(fake.url, **{variable: path}) == (
        {
            "status": "error",
            "message": f"{WHAT}: the TLS certificates cannot be loaded: {variable} names "
            f"'{path}', which {why}: no request was made",
        },
        1,
    )
    assert (fake.handshakes, fake.requests) == ([], [])


def test_a_variable_passed_over_is_not_read(fake: TlsFake, pki: Pki, tmp_path: Path) -> None:
    gone = f"{tmp_path}/gone.pem"
    assert ok(*lookup(fake.url, REQUESTS_CA_BUNDLE=pki.right, CURL_CA_BUNDLE=gone))
    assert ok(*lookup(fake.url, CURL_CA_BUNDLE=pki.right, SSL_CERT_FILE=gone, SSL_CERT_DIR=gone))


def test_plain_http_on_loopback_reads_no_certificate_setting(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    fake_github.add_comment(7001, SINGLE, 863)
    gone = f"{tmp_path}/gone.pem"
    assert ok(*lookup(fake_github.url, REQUESTS_CA_BUNDLE=gone, SSL_CERT_FILE=gone))


# ---- failures retrying cannot mend: error at once, one request ----------------------------------


def test_a_certificate_for_another_host_is_an_error_at_once(pki: Pki) -> None:
    with https_github(pki.ca.issue_cert("ghe.example.com")) as fake:
        result = lookup(fake.url, SSL_CERT_FILE=pki.right)
        requests = len(fake.handshakes)
    assert result == (
        {
            "status": "error",
            "message": f"{WHAT}: the server's TLS certificate is not issued for the host of "
            "api-url: set api-url to a host name the certificate names",
        },
        1,
    )
    assert requests == 1


def test_a_certificate_for_another_host_name_is_an_error_at_once(pki: Pki) -> None:
    with https_github(pki.ca.issue_cert("127.0.0.1", "ghe.example.com")) as fake:
        api_url = fake.url.replace("127.0.0.1", "localhost")
        result = lookup(api_url, REQUESTS_CA_BUNDLE=pki.right)
        requests = len(fake.handshakes)
    assert result[0]["message"] == (
        f"{WHAT}: the server's TLS certificate is not issued for the host of api-url: set "
        "api-url to a host name the certificate names"
    )
    assert requests == 1


@pytest.mark.parametrize("when", ["expired", "not-yet-valid"])
def test_an_expired_certificate_is_an_error_at_once(pki: Pki, when: str) -> None:
    now = datetime.now(UTC)
    window = (
        {"not_before": now - timedelta(days=3), "not_after": now - timedelta(days=1)}
        if when == "expired"
        else {"not_before": now + timedelta(days=1), "not_after": now + timedelta(days=3)}
    )
    words = "has expired" if when == "expired" else "is not yet valid"
    with https_github(pki.ca.issue_cert("127.0.0.1", **window)) as fake:
        result = lookup(fake.url, REQUESTS_CA_BUNDLE=pki.right)
        requests = len(fake.handshakes)
    assert result == (
        {
            "status": "error",
            "message": f"{WHAT}: the server's TLS certificate {words}: it must be renewed on "
            "the server (or on the TLS-inspecting proxy that presents it); no CA setting "
            "(REQUESTS_CA_BUNDLE, or SSL_CERT_FILE / SSL_CERT_DIR) makes it valid",
        },
        1,
    )
    assert requests == 1


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (
            b"HTTP/1.1 407 Proxy Authentication Required\r\n"
            b'proxy-authenticate: Basic realm="corp"\r\ncontent-length: 0\r\n\r\n',
            "asks for authentication (HTTP 407 to CONNECT): give its user name and password "
            "in HTTPS_PROXY (http://USER:PASSWORD@HOST:PORT), or name the host in NO_PROXY",
        ),
        (
            b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n",
            "refused the tunnel (HTTP 403 to CONNECT): allow the API's host on the proxy, or "
            "name it in NO_PROXY",
        ),
    ],
    ids=["407", "403"],
)
def test_a_proxy_refusing_the_tunnel_is_an_error_at_once(
    tmp_path: Path, answer: bytes, words: str
) -> None:
    api_url = "https://ghe.example.com/api/v3"  # not loopback: through the proxy
    with RecordingProxy(answer) as proxy:
        configured = f"http://proxy-user:proxy-secret@127.0.0.1:{proxy.port}"
        result = lookup(api_url, HTTPS_PROXY=configured)
        heads = proxy.request_lines()
    assert result == (
        {
            "status": "error",
            "message": f"{WHAT}: the proxy http://127.0.0.1:{proxy.port} {words}",
        },
        1,
    )
    assert heads == ["CONNECT ghe.example.com:443 HTTP/1.0"]


def header_answer(kind: str) -> bytes:
    if kind == "too-large":
        headers = b"x-big: " + b"a" * 70_000 + b"\r\n"
    else:
        headers = b"".join(b"x-h%d: 1\r\n" % index for index in range(101))
    return b"HTTP/1.1 200 OK\r\n" + headers + b"content-length: 2\r\n\r\n{}"


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("too-large", "a header line over 64 KiB"),
        ("too-many", "more than 100 headers"),
    ],
)
def test_headers_too_large_or_too_many_are_an_error_at_once(kind: str, words: str) -> None:
    server = DripServer(header_answer(kind), 0.0)
    try:
        result = lookup(server.url)
        requests = server.requests
    finally:
        server.stop()
    assert result == (
        {
            "status": "error",
            "message": f"{WHAT}: the answer has {words}: check that api-url names the GitHub "
            "API, and any proxy in between (HTTPS_PROXY, NO_PROXY)",
        },
        1,
    )
    assert requests == 1


# ---- the pure resolution ------------------------------------------------------------------------


def test_the_resolution_names_its_source(pki: Pki, tmp_path: Path) -> None:
    none = (f"{tmp_path}/no-such.pem", f"{tmp_path}/no-such-dir")
    sources = [
        tls.resolve(env, none)
        for env in (
            {"REQUESTS_CA_BUNDLE": pki.right, "SSL_CERT_FILE": pki.wrong},
            {"CURL_CA_BUNDLE": pki.right_dir},
            {"SSL_CERT_FILE": pki.right, "SSL_CERT_DIR": pki.wrong_dir},
            {"SSL_CERT_DIR": pki.right_dir},
            {},
        )
    ]
    assert [getattr(source, "source", source) for source in sources] == [
        f"REQUESTS_CA_BUNDLE={pki.right}",
        f"CURL_CA_BUNDLE={pki.right_dir}",
        f"SSL_CERT_FILE={pki.right}, SSL_CERT_DIR={pki.wrong_dir}",
        f"SSL_CERT_DIR={pki.right_dir}",
        "certifi's bundle",  # the system has no certificates
    ]


def test_certifi_is_used_only_when_the_system_has_no_certificates(pki: Pki, tmp_path: Path) -> None:
    empty = tmp_path / "empty-dir"
    empty.mkdir()
    system = tls.resolve({}, (pki.right, str(empty)))
    from_folder = tls.resolve({}, (f"{tmp_path}/none.pem", pki.right_dir))
    fallback = tls.resolve({}, (f"{tmp_path}/none.pem", str(empty)))
    assert isinstance(system, tls.Trust) and isinstance(from_folder, tls.Trust)
    assert isinstance(fallback, tls.Trust)
    assert (system.source, from_folder.source) == ("the system's certificates",) * 2
    assert system.context.cert_store_stats()["x509_ca"] == 1
    with open(certifi.where(), "rb") as handle:
        bundled = handle.read().count(b"-----BEGIN CERTIFICATE-----")
    assert (fallback.source, fallback.context.cert_store_stats()["x509_ca"]) == (
        "certifi's bundle",
        bundled,
    )


def test_a_missing_path_in_the_action_says_only_the_workspace_is_seen(tmp_path: Path) -> None:
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": "/github/workspace",
        "SSL_CERT_FILE": "/etc/corp/ca.pem",
    }
    refusal = tls.resolve(env, (f"{tmp_path}/x", f"{tmp_path}/y"))
    assert refusal == tls.TrustRefusal(
        "SSL_CERT_FILE",
        "the TLS certificates cannot be loaded: SSL_CERT_FILE names '/etc/corp/ca.pem', which "
        "does not exist (in the Docker action only files under the workspace, "
        "/github/workspace, are seen: put the certificates there and name that path)",
    )
    inside = {**env, "SSL_CERT_FILE": "/github/workspace/ca.pem"}
    assert tls.resolve(inside, (f"{tmp_path}/x", f"{tmp_path}/y")) == tls.TrustRefusal(
        "SSL_CERT_FILE",
        "the TLS certificates cannot be loaded: SSL_CERT_FILE names '/github/workspace/ca.pem', "
        "which does not exist",
    )


# ---- through processes: the installed command and the action's entrypoint ----------------------


def test_the_command_trusts_ssl_cert_file_and_stops_at_once_when_untrusted(
    fake: TlsFake, pki: Pki
) -> None:
    args = [*LOOKUP, "--api-url", fake.url]
    started = time.monotonic()
    trusted = run_cli(args, env=environment(SSL_CERT_FILE=pki.right))
    trusted_elapsed = time.monotonic() - started
    assert (json.loads(trusted.stdout)["status"], trusted.returncode) == ("ok", 0)
    started = time.monotonic()
    untrusted = run_cli(args, env=environment(SSL_CERT_FILE=pki.wrong))
    elapsed = time.monotonic() - started
    assert (json.loads(untrusted.stdout), untrusted.returncode) == (
        {"status": "error", "message": UNTRUSTED},
        1,
    )
    assert (len(fake.handshakes), len(fake.requests)) == (2, 1)
    assert elapsed < trusted_elapsed + 2.5  # no backoff (1 s + 2 s) before giving up


ACTION_INPUTS = {"plan-comment-id": "7001", "step-id": "s2", "generated-at": STAMP}


def test_the_action_trusts_a_bundle_in_the_workspace(
    fake: TlsFake, pki: Pki, tmp_path: Path
) -> None:

    bundle = tmp_path / "workspace" / "certs" / "corp-ca.pem"
    bundle.parent.mkdir(parents=True)
    shutil.copy(pki.right, bundle)
    run = run_action(
        tmp_path,
        {**ACTION_INPUTS, "api-url": fake.url},
        api_url=fake.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"SSL_CERT_FILE": str(bundle)},
        drop=("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_DIR"),
    )
    assert (run.returncode, run.outputs["status"]) == (0, "ok")
    assert len(fake.requests) == 1


def test_the_action_refuses_a_bundle_it_cannot_see(fake: TlsFake, tmp_path: Path) -> None:
    run = run_action(
        tmp_path,
        {**ACTION_INPUTS, "api-url": fake.url},
        api_url=fake.url,
        token=TOKEN,
        repository=REPO,
        extra_env={"REQUESTS_CA_BUNDLE": "/etc/corp/ca.pem"},
    )
    workspace = tmp_path / "workspace"
    assert (run.returncode, run.outputs["status"], run.outputs["message"]) == (
        1,
        "error",
        f"{WHAT}: the TLS certificates cannot be loaded: REQUESTS_CA_BUNDLE names "
        "'/etc/corp/ca.pem', which does not exist (in the Docker action only files under the "
        f"workspace, {workspace}, are seen: put the certificates there and name that path): no "
        "request was made",
    )
    assert (fake.handshakes, fake.requests) == ([], [])
