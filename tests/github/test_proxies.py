"""Proxies (SPEC 6 "The wire, exactly", revision 3): a loopback ``api-url`` never goes
through one, whatever ``HTTP_PROXY``, ``ALL_PROXY`` or ``NO_PROXY`` say (the proxy would get
the token); any other API URL still does, and a message naming the proxy names it without its
user name and password. The proxy is a real loopback server that records what reaches it
(tests/proxies.py)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.proxies import RecordingProxy
from tests.runner_env import run_action
from tests.test_action import PLAN_ID, SIBLING_ID, SPLIT_INPUTS, serve

#: The wire's own tests: the fake API answers on a real loopback socket.
pytestmark = pytest.mark.sockets

LOOKUP = [
    "lookup",
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
]
CLI_COMMANDS = {
    "lookup": LOOKUP,
    "validate": ["validate", "--plan-comment-id", str(PLAN_ID)],
    "render": ["render", "--plan-comment-id", str(PLAN_ID)],
    "audit": ["audit", "--state", "all"],
}
ACTION_INPUTS = {
    "lookup": SPLIT_INPUTS,
    "validate": {"mode": "validate", "plan-comment-id": str(PLAN_ID)},
    "render": {"mode": "render", "plan-comment-id": str(PLAN_ID)},
    "audit": {"mode": "audit", "issue-state": "all"},
}


def cli(args: list[str], api_url: str, **env: str) -> tuple[dict[str, Any], int, bytes]:
    completed = run_cli(
        [*args, "--repo", REPO, "--api-url", api_url, "--format", "json"],
        env=clean_env(GITHUB_TOKEN=TOKEN, **env),
    )
    return json.loads(completed.stdout), completed.returncode, completed.stdout + completed.stderr


@pytest.mark.parametrize("variable", ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"])
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_loopback_api_url_never_goes_through_the_proxy(
    fake_github: FakeGitHub, variable: str, host: str
) -> None:
    serve(fake_github)
    api_url = fake_github.url.replace("127.0.0.1", host)
    with RecordingProxy() as proxy:
        result, code, _ = cli(LOOKUP, api_url, **{variable: proxy.url, "NO_PROXY": "example.com"})
        assert proxy.heads == []
    assert (result["status"], code) == ("ok", 0)
    assert sorted(fake_github.paths()) == [  # fetched concurrently: in either order
        f"GET /repos/{REPO}/issues/comments/{SIBLING_ID}",
        f"GET /repos/{REPO}/issues/comments/{PLAN_ID}",
    ]
    assert all(r.headers["authorization"] == f"token {TOKEN}" for r in fake_github.requests)


@pytest.mark.parametrize("mode", list(CLI_COMMANDS))
@pytest.mark.parametrize("kind", ["cli", "action"])
def test_every_entry_point_reads_a_loopback_api_url_as_without_a_proxy(
    fake_github: FakeGitHub, tmp_path: Path, kind: str, mode: str
) -> None:
    serve(fake_github)

    def run(**env: str) -> tuple[object, ...]:
        fake_github.requests.clear()
        if kind == "cli":
            result, code, _ = cli(CLI_COMMANDS[mode], fake_github.url, **env)
        else:
            folder = tmp_path / str(len(list(tmp_path.iterdir())))
            done = run_action(
                folder,
                ACTION_INPUTS[mode],
                api_url=fake_github.url,
                token=TOKEN,
                repository=REPO,
                extra_env=env,
            )
            result, code = json.loads(done.outputs["result"]), done.returncode
        return result, code, sorted(fake_github.paths())  # concurrent requests: any order

    without = run()
    with RecordingProxy() as proxy:
        through = run(HTTP_PROXY=proxy.url, HTTPS_PROXY=proxy.url, ALL_PROXY=proxy.url)
        assert proxy.heads == []
    assert through == without
    assert without[2]  # requests were made, all of them to the fake


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


PROXY_USER, PROXY_PASSWORD = "proxy-user", "proxy-secret-pw"
WHAT = f"plan comment {PLAN_ID} in {REPO}: cannot reach the GitHub API after three attempts"


@pytest.mark.parametrize("proxy_answers", [True, False], ids=["bad-gateway", "refused"])
def test_a_proxy_is_named_without_its_user_name_and_password(
    tmp_path: Path, proxy_answers: bool
) -> None:
    api_url = "https://ghe.example.com/api/v3"  # not loopback: through the proxy
    with RecordingProxy() as proxy:
        port = proxy.port if proxy_answers else closed_port()
        configured = f"http://{PROXY_USER}:{PROXY_PASSWORD}@127.0.0.1:{port}"
        shown = f"http://127.0.0.1:{port}"
        result, code, emitted = cli(LOOKUP, api_url, HTTPS_PROXY=configured)
        run = run_action(
            tmp_path,
            {**SPLIT_INPUTS, "api-url": api_url},
            api_url=api_url,
            token=TOKEN,
            repository=REPO,
            extra_env={"HTTPS_PROXY": configured},
        )
        heads = list(proxy.heads)
    refused = f"connection refused, through the proxy {shown}"
    detail = f"the proxy {shown} failed" if proxy_answers else refused
    message = f"{WHAT} ({detail})"
    assert (result, code) == ({"status": "error", "message": message}, 1)
    assert (run.outputs["status"], run.outputs["message"], run.returncode) == (
        "error",
        message,
        1,
    )
    texts = [emitted.decode(), run.stdout, run.stderr, run.output_file_text, run.summary]
    assert [text for text in texts if PROXY_PASSWORD in text or PROXY_USER in text] == []
    # Only tunnels were asked for (plan and sibling, 3 attempts each, in each of the two
    # runs): the token never reached the proxy.
    assert [head.split("\r\n", 1)[0] for head in heads] == (
        ["CONNECT ghe.example.com:443 HTTP/1.0"] * 12 if proxy_answers else []
    )
    assert [head for head in heads if TOKEN in head] == []


# ---- every form a proxy value takes (SPEC 6, revision 4) ------------------------------------

#: Each proxy value form (``{port}``: a closed loopback port, so every attempt fails) and how
#: the message names it: without its user name and password, or, without a scheme, not quoted.
UNQUOTED = (
    "the proxy set in the environment, whose value has no usable scheme (give it as "
    "http://HOST:PORT; the value is not shown)"
)
PROXY_FORMS = {
    "scheme": ("http://alice:S3CRET@127.0.0.1:{port}", "the proxy http://127.0.0.1:{port}"),
    "no-scheme": ("alice:S3CRET@127.0.0.1:{port}", UNQUOTED),
    "one-slash": ("http:/alice:S3CRET@127.0.0.1:{port}", UNQUOTED),
    "no-colon": ("http//alice:S3CRET@127.0.0.1:{port}", UNQUOTED),
    "backslashes": ("http:\\\\alice:S3CRET@127.0.0.1:{port}", UNQUOTED),
    "ipv6": ("http://alice:S3CRET@[::1]:{port}", "the proxy http://[::1]:{port}"),
    "percent-encoded": (
        "http://al%69ce:S3%43RET@127.0.0.1:{port}",
        "the proxy http://127.0.0.1:{port}",
    ),
    "hash-in-password": (
        "http://alice:S3#CRET@127.0.0.1:{port}",
        "the proxy http://127.0.0.1:{port}",
    ),
}
SECRET_PIECES = ("alice", "S3CRET", "al%69ce", "S3%43RET", "S3#CRET")


@pytest.mark.parametrize("variable", ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"])
@pytest.mark.parametrize("form", list(PROXY_FORMS))
def test_no_proxy_secret_survives_in_any_emitted_text(
    tmp_path: Path, form: str, variable: str
) -> None:

    from tests.in_process import run_action_in_process, run_cli_in_process

    api_url = "https://ghe.example.com/api/v3"  # not loopback: through the proxy
    port = closed_port()
    value, shown = (text.format(port=port) for text in PROXY_FORMS[form])
    completed = run_cli_in_process(
        [*LOOKUP, "--repo", REPO, "--api-url", api_url, "--format", "json"],
        env=clean_env(GITHUB_TOKEN=TOKEN, **{variable: value}),
    )
    run = run_action_in_process(
        tmp_path,
        {**SPLIT_INPUTS, "api-url": api_url},
        api_url=api_url,
        token=TOKEN,
        repository=REPO,
        extra_env={variable: value},
    )
    message = json.loads(completed.stdout)["message"]
    assert message.startswith(f"{WHAT} (")
    assert shown in message
    assert run.outputs["message"] == message
    texts = [
        completed.stdout.decode(),
        completed.stderr.decode(),
        run.stdout,
        run.stderr,
        run.output_file_text,
        run.summary,
    ]
    assert [(text, piece) for text in texts for piece in SECRET_PIECES if piece in text] == []
