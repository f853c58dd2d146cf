"""``api-url`` (SPEC 6 "The wire, exactly", revision 3): a user name, a password, a query or a
fragment makes it unusable and is never echoed; plain ``http`` only to a loopback host; every
entry point (the CLI's online commands, the action in every mode) and both sources (the
input or flag, and the ``GITHUB_API_URL`` it falls back to) refuse the same values with the
same message, without a request.

The refusals run the installed ``frame-spine`` and the action's entrypoint as processes; the
property test runs the same entry points in this process (``frame_spine.cli.main``,
``frame_spine.action.main``), with their real stdout, stderr, ``GITHUB_OUTPUT`` and summary
files, so that it can try many values.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import string
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frame_spine import action, cli
from frame_spine.github.urls import (
    FRAGMENT,
    QUERY,
    USERINFO,
    hidden_parts,
    is_loopback,
    without_credentials,
    without_secrets,
)
from frame_spine.values import check_api_url
from tests.conftest import clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub, LoopbackServer
from tests.runner_env import parse_output_file, run_action, runner_environment
from tests.test_action import PLAN, PLAN_ID, SIBLING, SIBLING_ID, SPLIT_INPUTS

USER = "api-url carries a user name or password (the value is not shown): give the API URL "
MESSAGES = {
    (USERINFO,): USER + "without it, and the token as the token",
    (QUERY,): "api-url carries a query (the value is not shown): give the API URL without it",
    (FRAGMENT,): "api-url carries a fragment (the value is not shown): give the API URL without it",
    (USERINFO, QUERY): "api-url carries a user name or password and a query (the value is not "
    "shown): give the API URL without them, and the token as the token",
    (USERINFO, FRAGMENT): "api-url carries a user name or password and a fragment (the value is "
    "not shown): give the API URL without them, and the token as the token",
    (QUERY, FRAGMENT): "api-url carries a query and a fragment (the value is not shown): give "
    "the API URL without them",
    (USERINFO, QUERY, FRAGMENT): "api-url carries a user name or password, a query and a "
    "fragment (the value is not shown): give the API URL without them, and the token as the "
    "token",
}
PLAIN_HTTP = "api-url uses plain http: the token would cross the network unencrypted; use https"

#: The command line of each online command, up to ``--repo`` and ``--api-url``.
CLI_COMMANDS = {
    "lookup": ["lookup", "--plan-comment-id", "5", "--generated-at", "current", "--step-id", "s1"],
    "validate": ["validate", "--plan-comment-id", "5"],
    "render": ["render", "--plan-comment-id", "5"],
    "audit": ["audit"],
}
#: The action's inputs of each mode, ``api-url`` aside.
ACTION_INPUTS = {
    "lookup": {"plan-comment-id": "5", "generated-at": "current", "step-id": "s1"},
    "validate": {"mode": "validate", "plan-comment-id": "5"},
    "render": {"mode": "render", "plan-comment-id": "5"},
    "audit": {"mode": "audit"},
}
ENTRY_POINTS = [(kind, mode) for kind in ("cli", "action") for mode in CLI_COMMANDS]
ENTRY_IDS = [f"{kind}-{mode}" for kind, mode in ENTRY_POINTS]


# ---- the rules, pure ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "parts"),
    [
        ("https://api.github.com", ()),
        ("https://ghe.example.com/api/v3/@v", (USERINFO,)),  # any "@" could end a password
        ("https://me:pw@host", (USERINFO,)),
        ("me@host", (USERINFO,)),
        ("https://u:p/w@host", (USERINFO,)),
        ("https://host/?", (QUERY,)),
        ("https://host/?a=b@c", (QUERY,)),  # the "@" is in the query
        ("https://host/#", (FRAGMENT,)),
        ("https://host/#a?b@c", (FRAGMENT,)),
        ("https://me@host/?q#f", (USERINFO, QUERY, FRAGMENT)),
        ("not a url", ()),
    ],
)
def test_the_hidden_parts_of_a_value_are_judged_on_its_characters(
    value: str, parts: tuple[str, ...]
) -> None:
    assert hidden_parts(value) == parts


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("127.255.255.254", True),
        ("127.0.0.0", True),
        ("::1", True),
        ("128.0.0.1", False),
        ("10.0.0.1", False),
        ("localhost.", False),
        ("localhost.example.com", False),
        ("127.0.0.1.nip.io", False),
        ("2130706433", False),  # 127.0.0.1 to inet_aton, not a spelling the rule accepts
        ("127.1", False),
        ("::ffff:127.0.0.1", False),
        ("::2", False),
        ("example.com", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("value", "checked"),
    [
        ("https://api.github.com/", "https://api.github.com"),
        (" https://ghe.example.com/api/v3 ", "https://ghe.example.com/api/v3"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://127.255.255.254", "http://127.255.255.254"),
        ("http://localhost:1/api/v3/", "http://localhost:1/api/v3"),
        ("HTTP://LOCALHOST", "http://LOCALHOST"),
        ("HTTPS://GHE.Example.com/api/v3", "https://GHE.Example.com/api/v3"),
        ("http://[::1]:8080", "http://[::1]:8080"),
    ],
)
def test_https_anywhere_and_plain_http_to_loopback_are_accepted(value: str, checked: str) -> None:
    assert check_api_url(value) == checked


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("http://example.com", PLAIN_HTTP),
        ("HTTP://GHE.EXAMPLE.COM/api/v3", PLAIN_HTTP),
        ("http://10.0.0.8:8080/api/v3", PLAIN_HTTP),
        ("http://[::ffff:127.0.0.1]:8080", PLAIN_HTTP),
        ("https://me:pw@host", MESSAGES[(USERINFO,)]),
        ("ftp://host", "api-url 'ftp://host' is not an http(s) URL"),
        (
            "https://host:99999",
            "api-url 'https://host:99999' cannot be used: its port is not a number in 1..65535",
        ),
        ("", "api-url '' is not an http(s) URL"),
    ],
)
def test_refused_values_name_api_url(value: str, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        check_api_url(value)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://proxy.corp:3128", "http://proxy.corp:3128"),
        ("http://me:pw@proxy.corp:3128/", "http://proxy.corp:3128/"),
        ("http://me:p/w@proxy.corp:3128", "http://proxy.corp:3128"),
        ("socks5h://me@proxy.corp:1080", "socks5h://proxy.corp:1080"),
        ("https://github.com/o/r.git?token=x#y", "https://github.com/o/r.git"),
        ("proxy.corp:3128", "proxy.corp:3128"),
        ("alice:S3CRET@proxy.corp.example:3128", "proxy.corp.example:3128"),
        ("http:/alice:S3CRET@proxy.corp:3128", "proxy.corp:3128"),
        ("http//alice:S3CRET@proxy.corp:3128", "proxy.corp:3128"),
        ("http:\\\\alice:S3CRET@proxy.corp:3128", "proxy.corp:3128"),
        ("http://alice:pa#ss@proxy.corp:3128", "http://proxy.corp:3128"),
        ("http://alice:pa ss@proxy.corp:3128", "http://proxy.corp:3128"),
        ("http://al%40ice:S3%2FCRET@[::1]:3128", "http://[::1]:3128"),
        ("http://alice:S3@CR@ET@proxy.corp", "http://proxy.corp"),
        ("http://proxy corp:3128", None),
        ("", None),
    ],
)
def test_a_url_is_named_without_its_secrets(url: str, shown: str | None) -> None:
    assert without_secrets(url) == shown


def test_credentials_in_a_programs_line_are_removed() -> None:
    line = "fatal: unable to access 'https://x-access-token:ghs_0123@github.com/o/r/': 403"
    assert without_credentials(line) == "fatal: unable to access 'https://github.com/o/r/': 403"


# ---- through every entry point, as processes ------------------------------------------------


def leaks(pieces: tuple[str, ...], texts: dict[str, str]) -> list[tuple[str, str]]:
    """``(where, piece)`` for each secret piece found in an emitted text; the summary's
    Markdown escapes (backslashes, ``<!-- -->`` breaking links and mentions) are undone
    first, so that an escaped copy counts too."""
    found = []
    for where, text in texts.items():
        plain = text.replace("<!-- -->", "").replace("\\", "")
        found += [(where, piece) for piece in pieces if piece in text or piece in plain]
    return found


#: name -> (value, with ``{port}`` for the fake's: a value that names the fake would reach it
#: if it were not refused; the message; the pieces of the value that must appear nowhere).
REFUSED = {
    "token-and-empty-fragment": (
        "https://x-access-token:ghs_0123456789abcdefSECRET@ghe.example.com/api/v3#",
        MESSAGES[(USERINFO, FRAGMENT)],
        ("x-access-token", "ghs_0123456789abcdefSECRET"),
    ),
    "user-and-password": (
        "https://me:hunter22@ghe.example.com",
        MESSAGES[(USERINFO,)],
        ("hunter22",),
    ),
    "user-alone": (
        "https://planner-user@ghe.example.com/api/v3",
        MESSAGES[(USERINFO,)],
        ("planner-user",),
    ),
    "query": (
        "https://ghe.example.com/api/v3?access_token=ghs_querySECRET",
        MESSAGES[(QUERY,)],
        ("access_token", "ghs_querySECRET"),
    ),
    "empty-query": ("https://ghe.example.com/api/v3?", MESSAGES[(QUERY,)], ("api/v3?",)),
    "fragment": (
        "https://ghe.example.com/api/v3#ghs_fragmentSECRET",
        MESSAGES[(FRAGMENT,)],
        ("ghs_fragmentSECRET",),
    ),
    "all-three": (
        "https://user:hunter22@ghe.example.com/api/v3?k=querySECRET#fragmentSECRET",
        MESSAGES[(USERINFO, QUERY, FRAGMENT)],
        ("hunter22", "querySECRET", "fragmentSECRET"),
    ),
    "not-http-with-password": (
        "ftp://me:hunter22@ghe.example.com",
        MESSAGES[(USERINFO,)],
        ("hunter22",),
    ),
    "no-scheme-with-password": (
        "me:hunter22@ghe.example.com/api/v3",
        MESSAGES[(USERINFO,)],
        ("hunter22",),
    ),
    "password-with-slash": (
        "https://me:hunter/22x@ghe.example.com",
        MESSAGES[(USERINFO,)],
        ("hunter", "22x@"),
    ),
    "broken-with-query": ("https://[::1?q=hunter22", MESSAGES[(QUERY,)], ("hunter22",)),
    "loopback-with-password": (
        "http://me:hunter22@127.0.0.1:{port}",
        MESSAGES[(USERINFO,)],
        ("hunter22",),
    ),
    "plain-http": ("http://example.com", PLAIN_HTTP, ()),
    "plain-http-address": ("http://10.0.0.8:8080/api/v3", PLAIN_HTTP, ()),
    "plain-http-upper-case": ("HTTP://GHE.EXAMPLE.COM/api/v3", PLAIN_HTTP, ()),
    "plain-http-decimal-loopback": ("http://2130706433:{port}", PLAIN_HTTP, ()),
    "plain-http-mapped-loopback": ("http://[::ffff:127.0.0.1]:{port}", PLAIN_HTTP, ()),
    "plain-http-localhost-dot": ("http://localhost.:{port}", PLAIN_HTTP, ()),
}


def as_called(message: str, kind: str, fallback: bool) -> str:
    """``message`` naming the API URL as the caller set it (SPEC 9): ``--api-url`` or
    ``GITHUB_API_URL`` on the command line, ``api-url`` in the action."""
    if kind != "cli" or not message.startswith("api-url "):
        return message
    return ("GITHUB_API_URL" if fallback else "--api-url") + message.removeprefix("api-url")


def port_of(fake: FakeGitHub) -> str:
    return fake.url.rsplit(":", 1)[1]


def cli_run(
    mode: str, api_url: str, *, fallback: bool = False
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """An online command given ``api_url`` (``fallback``: through ``GITHUB_API_URL``)."""
    args = [*CLI_COMMANDS[mode], "--repo", REPO, "--format", "json"]
    env = clean_env(GITHUB_TOKEN=TOKEN)
    if fallback:
        env["GITHUB_API_URL"] = api_url
    else:
        args += ["--api-url", api_url]
    completed = run_cli(args, env=env)
    texts = {"stdout": completed.stdout.decode(), "stderr": completed.stderr.decode()}
    return json.loads(completed.stdout), completed.returncode, texts


def action_run(
    tmp_path: Path, mode: str, api_url: str, *, fallback: bool = False
) -> tuple[dict[str, str], int, dict[str, str]]:
    """The action in ``mode`` given ``api_url`` (``fallback``: an empty ``api-url`` input and
    ``GITHUB_API_URL``)."""
    inputs = {**ACTION_INPUTS[mode], "api-url": "" if fallback else api_url}
    run = run_action(tmp_path, inputs, api_url=api_url, token=TOKEN, repository=REPO)
    texts = {
        "stdout": run.stdout,
        "stderr": run.stderr,
        "GITHUB_OUTPUT": run.output_file_text,
        "summary": run.summary,
    }
    return run.outputs, run.returncode, texts


@pytest.mark.parametrize("name", list(REFUSED))
def test_the_cli_refuses_the_value_without_a_request_or_an_echo(
    fake_github: FakeGitHub, name: str
) -> None:
    value, message, pieces = REFUSED[name]
    value = value.format(port=port_of(fake_github))
    result, code, texts = cli_run("lookup", value)
    assert (result, code) == ({"status": "error", "message": as_called(message, "cli", False)}, 1)
    assert texts["stderr"] == ""
    assert leaks(pieces, texts) == []
    assert fake_github.requests == []


@pytest.mark.parametrize(("kind", "mode"), ENTRY_POINTS, ids=ENTRY_IDS)
@pytest.mark.parametrize("name", ["token-and-empty-fragment", "plain-http-decimal-loopback"])
@pytest.mark.parametrize("source", ["given", "GITHUB_API_URL"])
def test_every_entry_point_refuses_it_from_either_source(
    fake_github: FakeGitHub, tmp_path: Path, kind: str, mode: str, name: str, source: str
) -> None:
    value, message, pieces = REFUSED[name]
    value = value.format(port=port_of(fake_github))
    fallback = source == "GITHUB_API_URL"
    if kind == "cli":
        result, code, texts = cli_run(mode, value, fallback=fallback)
        status, shown = result["status"], result["message"]
    else:
        outputs, code, texts = action_run(tmp_path, mode, value, fallback=fallback)
        result = json.loads(outputs["result"])
        status, shown = outputs["status"], outputs["message"]
        assert (result["status"], result["message"]) == (status, shown)
        assert f"::{message}\n" in texts["stdout"]  # the annotation
        assert message.replace("(", "\\(").replace(")", "\\)") in texts["summary"]
    assert (status, shown, code) == ("error", as_called(message, kind, fallback), 1)
    assert texts["stderr"] == ""
    assert leaks(pieces, texts) == []
    assert fake_github.requests == []


def test_a_usage_error_quoting_a_url_leaves_out_its_user_name_and_password() -> None:
    # A stray argument: argparse quotes the arguments it did not recognise. (A mistyped flag
    # gets "unknown flag --api-ur (did you mean --api-url?)" and quotes no value.)
    url = "https://me:hunter22@ghe.example.com/api/v3"
    completed = run_cli(["lookup", "--generated-at", "current", "--step-id", "s1", url])
    assert (completed.returncode, completed.stdout) == (2, b"")
    assert completed.stderr.decode().splitlines()[-1] == (
        "frame-spine lookup: error: unrecognized arguments: https://ghe.example.com/api/v3"
    )
    assert b"hunter22" not in completed.stderr


# ---- the property: nothing of a refused URL's secrets is emitted -----------------------------


@dataclass
class Emitted:
    code: int
    status: str
    message: str
    texts: dict[str, str]


@contextlib.contextmanager
def captured() -> Iterator[dict[str, str]]:
    """stdout and stderr of this process, as the entry points write them (bytes, through
    ``sys.stdout.buffer`` too); the texts are in the dictionary once the block is left."""
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    texts: dict[str, str] = {}
    saved = sys.stderr
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            yield texts
        finally:
            sys.stderr = saved  # the entrypoint puts a filter in front of stderr
            stdout.detach()
            stderr.detach()
            texts.update(stdout=out.getvalue().decode(), stderr=err.getvalue().decode())


def cli_in_process(mode: str, api_url: str, fallback: bool) -> Emitted:
    args = [*CLI_COMMANDS[mode], "--repo", REPO, "--format", "json"]
    env = clean_env(GITHUB_TOKEN=TOKEN)
    if fallback:
        env["GITHUB_API_URL"] = api_url
    else:
        args += ["--api-url", api_url]
    with mock.patch.dict(os.environ, env, clear=True), captured() as texts:
        try:
            code = cli.main(args)
        except SystemExit as exited:  # a usage error would be a failure of the property
            code = int(exited.code or 0)
    result = json.loads(texts["stdout"]) if code == 1 else {}
    return Emitted(code, result.get("status", ""), result.get("message", ""), texts)


def action_in_process(mode: str, api_url: str, fallback: bool) -> Emitted:
    inputs = {**ACTION_INPUTS[mode], "api-url": "" if fallback else api_url}
    with tempfile.TemporaryDirectory() as folder:
        env, files = runner_environment(
            Path(folder), inputs, api_url=api_url, token=TOKEN, repository=REPO
        )
        with mock.patch.dict(os.environ, env, clear=True), captured() as texts:
            code = action.main()
        output_text = files.output_file.read_text("utf-8")
        texts.update(GITHUB_OUTPUT=output_text, summary=files.summary_file.read_text("utf-8"))
    outputs = parse_output_file(output_text)
    return Emitted(code, outputs.get("status", ""), outputs.get("message", ""), texts)


SAFE = string.ascii_letters + string.digits + "-._~"
#: A secret piece: it starts with "Qx", which no fixed text of any output holds (a piece such
#: as "frame-sp" would be found in "frame-spine lookup: ..." without any leak), and is made
#: of characters that the summary's escaping and the annotation's encoding leave alone.
piece = st.text(alphabet=SAFE, min_size=6, max_size=22).map(lambda text: "Qx" + text)


@dataclass(frozen=True)
class Drawn:
    """A refused value, the parts it carries, and its secret pieces."""

    value: str
    parts: tuple[str, ...]
    pieces: tuple[str, ...]


@st.composite
def refused_urls(draw: st.DrawFn, port: str) -> Drawn:
    scheme = draw(st.sampled_from(["https://", "http://", "HTTPS://", "ftp://", "", "https:/"]))
    user = draw(st.one_of(st.none(), piece))
    password = draw(st.one_of(st.none(), piece, piece.map(lambda text: text[:4] + "/" + text)))
    if user is None and password is not None:
        user = ""  # ":password@"
    userinfo = "" if user is None else user + ("" if password is None else ":" + password) + "@"
    host = draw(
        st.sampled_from(
            [f"127.0.0.1:{port}", f"localhost:{port}", "ghe.example.com", "[::1", "host:99999"]
        )
    )
    path = draw(st.sampled_from(["", "/", "/api/v3"]))
    query = draw(st.one_of(st.none(), st.just(""), piece, piece.map(lambda text: "k=" + text)))
    fragment = draw(st.one_of(st.none(), st.just(""), piece))
    if user is None and query is None and fragment is None:
        fragment = draw(piece)
    value = scheme + userinfo + host + path
    value += "" if query is None else "?" + query
    value += "" if fragment is None else "#" + fragment
    present = (
        (USERINFO, user is not None),
        (QUERY, query is not None),
        (FRAGMENT, fragment is not None),
    )
    pieces = [user, password, query, fragment]
    return Drawn(
        draw(st.sampled_from(["", " "])) + value,
        tuple(name for name, there in present if there),
        tuple(piece for piece in pieces if piece),
    )


@pytest.fixture(scope="module")
def quiet_fake() -> Iterator[FakeGitHub]:
    """A loopback fake that no refused value may reach (shared by the property's examples)."""
    server = LoopbackServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    try:
        yield FakeGitHub(server)
    finally:
        server.stop()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_part_of_a_refused_urls_secrets_is_ever_emitted(
    quiet_fake: FakeGitHub, data: st.DataObject
) -> None:
    drawn = data.draw(refused_urls(port_of(quiet_fake)), label="api-url")
    kind, mode = data.draw(st.sampled_from(ENTRY_POINTS), label="entry point")
    fallback = data.draw(st.booleans(), label="through GITHUB_API_URL")
    run = (cli_in_process if kind == "cli" else action_in_process)(mode, drawn.value, fallback)
    message = as_called(MESSAGES[drawn.parts], kind, fallback)
    assert (run.code, run.status, run.message) == (1, "error", message)
    assert leaks(drawn.pieces, run.texts) == []
    assert quiet_fake.requests == []


# ---- loopback URLs are used -----------------------------------------------------------------


@pytest.fixture
def ipv6_fake() -> Iterator[FakeGitHub]:
    """The fake on ``::1``."""
    server = LoopbackServer(host="::1", port=0, threaded=True)
    server.start()
    try:
        yield FakeGitHub(server)
    finally:
        server.stop()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_plain_http_to_a_loopback_host_is_used(
    fake_github: FakeGitHub, ipv6_fake: FakeGitHub, host: str
) -> None:
    fake = ipv6_fake if host == "[::1]" else fake_github
    fake.add_comment(PLAN_ID, PLAN, 878)
    fake.add_comment(SIBLING_ID, SIBLING, 878)
    completed = run_cli(
        [
            "lookup",
            "--repo",
            REPO,
            "--api-url",
            f"http://{host}:{port_of(fake)}",
            "--plan-comment-id",
            str(PLAN_ID),
            "--slices-comment-id",
            str(SIBLING_ID),
            "--issue-number",
            "878",
            "--step-id",
            SPLIT_INPUTS["step-id"],
            "--generated-at",
            SPLIT_INPUTS["generated-at"],
            "--format",
            "json",
        ],
        env=clean_env(GITHUB_TOKEN=TOKEN),
    )
    assert (json.loads(completed.stdout)["status"], completed.returncode) == ("ok", 0)
    assert len(fake.requests) == 2


_PIECE = st.text(alphabet="ab:/@#?% \\\\.[]-", min_size=0, max_size=6)


@settings(max_examples=400, derandomize=True)
@given(
    scheme=st.sampled_from(
        ["http://", "https://", "socks5h://", "", "http:/", "http//", "http:\\\\"]
    ),
    user=_PIECE,
    password=_PIECE,
    with_password=st.booleans(),
    host=st.sampled_from(["proxy.corp.example", "127.0.0.1", "[::1]", "[fe80::1%25eth0]"]),
    port=st.sampled_from(["", ":3128"]),
    tail=st.sampled_from(["", "/", "/path", "/o/r.git?token=QSECRET#FSECRET"]),
)
def test_no_user_name_or_password_survives_any_url_form(
    scheme: str, user: str, password: str, with_password: bool, host: str, port: str, tail: str
) -> None:
    userinfo = f"USER{user}" + (f":PASS{password}" if with_password else "")
    value = f"{scheme}{userinfo}@{host}{port}{tail}"
    texts = [without_secrets(value) or ""]
    if " " not in value:  # free text is read word by word
        texts.append(without_credentials(f"x '{value}' y"))
    for text in texts:
        assert "USER" not in text
        assert "PASS" not in text
        assert "QSECRET" not in text
        assert "FSECRET" not in text
