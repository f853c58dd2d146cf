"""The wire hazards of SPEC 6 ("The wire, exactly"), measured through the installed CLI.

For each hazard it prints the status the CLI reported, the wall time, the requests the server
saw and the peak resident memory of the CLI process (the loopback fake of the GitHub API
serves every hazard; runs that do not end within 30 s are killed and reported as such).

    .venv/bin/python benchmarks/bench_wire.py            # every hazard
    .venv/bin/python benchmarks/bench_wire.py drip bomb  # hazards whose name contains a word
    .venv/bin/python benchmarks/bench_wire.py --src /tmp/old/src  # another checkout's code
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_httpserver import HTTPServer  # noqa: E402

from tests.fake_github import (  # noqa: E402
    REPO,
    TOKEN,
    DripServer,
    FakeGitHub,
    dripping_body,
    gzip_bomb,
    raw,
    redirect,
    retry_after_date,
    too_many_requests,
)

CLI = [str(Path(sys.executable).parent / "frame-spine")]
GIVE_UP = 30.0
SINGLE = (ROOT / "tests/conformance/cases/ok-single-comment/plan.md").read_text("utf-8")
COMMENT = f"/repos/{REPO}/issues/comments"


@dataclass
class Outcome:
    status: str
    message: str
    seconds: float
    peak_mib: float
    stdout: bytes
    stderr: bytes


def run(args: list[str], env: dict[str, str] | None = None) -> Outcome:
    """Run the CLI under /usr/bin/time (its peak RSS); kill it after GIVE_UP seconds."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_"))}
    base.update(env if env is not None else {"GITHUB_TOKEN": TOKEN})
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r") as peak,
    ):
        started = time.monotonic()
        command = ["/usr/bin/time", "-f", "%M", "-o", peak.name, *CLI, *args]
        process = subprocess.Popen(command, stdout=out, stderr=err, env=base)
        try:
            process.wait(timeout=GIVE_UP)
        except subprocess.TimeoutExpired:
            process.kill()  # /usr/bin/time passes the kill on to its child
            process.wait()
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
        figures = peak.read().split()
        peak_kib = float(figures[-1]) if figures and figures[-1].isdigit() else 0.0
    try:
        result = json.loads(stdout)
        status, message = str(result.get("status")), str(result.get("message") or "")
        if result.get("slice") is not None:
            message = "slice: " + str(result["slice"]).replace("\n", " ")
    except ValueError:
        status, message = (
            ("killed" if seconds >= GIVE_UP else "no JSON"),
            stdout[:120].decode("utf-8", "replace"),
        )
    return Outcome(status, message, seconds, peak_kib / 1024, stdout, stderr)


def lookup_args(api: str, comment: int = 7001, *extra: str) -> list[str]:
    return [
        "lookup",
        "--repo",
        REPO,
        "--api-url",
        api,
        "--plan-comment-id",
        str(comment),
        "--generated-at",
        "current",
        "--step-id",
        "s2",
        "--format",
        "json",
        *extra,
    ]


def comment_json(fake: FakeGitHub, body: str) -> bytes:
    return json.dumps(fake.add_comment(7001, body, 863), ensure_ascii=False).encode("utf-8")


Scenario = Callable[[FakeGitHub, FakeGitHub], Outcome]


def text_plain_utf8(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.script(7001, raw(comment_json(fake, SINGLE.replace("GREEN", "GRÜN für")), "text/plain"))
    outcome = run(lookup_args(fake.url))
    shown = "GRÜN für" in outcome.message, "Ã" in outcome.message
    outcome.message = f"UTF-8 kept: {shown[0]}, mojibake: {shown[1]}; {outcome.message}"
    return outcome


def unpaired_surrogate(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    data = comment_json(fake, SINGLE.replace("GREEN", "GREEN MARK")).replace(b"MARK", b"\\ud800")
    fake.script(7001, raw(data), forever=raw(data))
    text = run([*lookup_args(fake.url)[:-2], "--format", "text"])
    outcome = run(lookup_args(fake.url))
    outcome.message = f"text format: {text.stdout[:60]!r}; json: {outcome.message}"
    return outcome


def retry_after_http_date(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.add_comment(7001, SINGLE, 863)
    fake.script(7001, retry_after_date(3))
    return run(lookup_args(fake.url))


def retry_after_far_future(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.add_comment(7001, SINGLE, 863)
    fake.script(7001, too_many_requests(999_999_999_999))
    return run(lookup_args(fake.url))


def redirect_307_same_origin(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.add_comment(7001, SINGLE, 863)
    fake.repository_ids[42] = REPO
    fake.script(7001, redirect(307, f"{fake.url}/repositories/42/issues/comments/7001"))
    return run(lookup_args(fake.url))


def redirect_loop(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.add_comment(7001, SINGLE, 863)
    fake.script(7001, forever=redirect(301, f"{fake.url}{COMMENT}/7002"))
    fake.script(7002, forever=redirect(301, f"{fake.url}{COMMENT}/7001"))
    return run(lookup_args(fake.url))


def redirect_cross_origin(fake: FakeGitHub, other: FakeGitHub) -> Outcome:
    other.add_comment(7001, SINGLE, 863)
    fake.script(7001, redirect(302, f"{other.url}{COMMENT}/7001"))
    return run(lookup_args(fake.url))


def link_loop(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    page = f"{fake.url}/repos/{REPO}/issues/878/comments?per_page=100&page=2"
    fake.script(0, forever=raw(b"[]", headers={"link": f'<{page}>; rel="next"'}))
    args = ["validate", "--repo", REPO, "--api-url", fake.url, "--issue-number", "878"]
    return run([*args, "--format", "json"])


def drip_body(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.script(7001, dripping_body(comment_json(fake, SINGLE), 0.5))
    return run(lookup_args(fake.url, 7001, "--timeout", "2"))


def drip_headers(_fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
    server = DripServer(answer, 0.5)
    try:
        return run(lookup_args(server.url, 7001, "--timeout", "2"))
    finally:
        server.stop()


def gzip_bomb_512_mib(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.script(7001, gzip_bomb(512 << 20))
    return run(lookup_args(fake.url))


def api_url_bad_port(_fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    return run(lookup_args("http://127.0.0.1:99999"))


def api_url_broken_ipv6(_fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    return run(lookup_args("http://[::1"))


def token_with_line_break(fake: FakeGitHub, _other: FakeGitHub) -> Outcome:
    fake.add_comment(7001, SINGLE, 863)
    outcome = run(lookup_args(fake.url), env={"GITHUB_TOKEN": "s3cr3t-t0ken\nmore"})
    leaked = b"s3cr3t-t0ken" in outcome.stdout + outcome.stderr
    outcome.message = f"token in output: {leaked}; " + outcome.message
    return outcome


SCENARIOS: dict[str, Scenario] = {
    "text/plain UTF-8": text_plain_utf8,
    "unpaired surrogate": unpaired_surrogate,
    "retry-after HTTP-date +3 s": retry_after_http_date,
    "retry-after far future": retry_after_far_future,
    "redirect 307 same origin": redirect_307_same_origin,
    "redirect loop": redirect_loop,
    "redirect cross-origin": redirect_cross_origin,
    "pagination link loop": link_loop,
    "drip body, timeout 2": drip_body,
    "drip headers, timeout 2": drip_headers,
    "gzip bomb 512 MiB": gzip_bomb_512_mib,
    "api-url port 99999": api_url_bad_port,
    "api-url broken IPv6": api_url_broken_ipv6,
    "token with line break": token_with_line_break,
}


def main(words: list[str]) -> int:
    if "--src" in words:
        at = words.index("--src")
        source = words[at + 1]
        del words[at : at + 2]
        CLI[:] = [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, {source!r}); "
            "from frame_spine.cli import main; sys.exit(main())",
        ]
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    print(f"{'hazard':<28} {'status':<16} {'seconds':>8} {'requests':>9} {'peak MiB':>9}  message")
    for name, scenario in SCENARIOS.items():
        if words and not any(word.lower() in name.lower() for word in words):
            continue
        servers = [HTTPServer(host="127.0.0.1", port=0, threaded=True) for _ in range(2)]
        for server in servers:
            server.start()
        try:
            fake, other = FakeGitHub(servers[0]), FakeGitHub(servers[1])
            outcome = scenario(fake, other)
            seen = len(fake.requests) + len(other.requests)
            message = " ".join(outcome.message.split())[:150]
            print(
                f"{name:<28} {outcome.status:<16} {outcome.seconds:>8.2f} {seen:>9} "
                f"{outcome.peak_mib:>9.0f}  {message}"
                + (f" (other server: {len(other.requests)})" if other.requests else "")
            )
        finally:
            for server in servers:
                server.clear()
                server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
