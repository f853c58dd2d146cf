"""Serve the loopback fake of the GitHub REST API as a process: for trying the command line
(``make fake-api``, docs/agents.md) and for the container checks (e2e/run.sh).

usage: fake_api.py [STATE_DIR] [--port PORT]

Serves the repository octo-org/plans (tests/fake_github.py: every answer in the shape of
GitHub's published description) with the comments of :data:`SERVED`: the bundled plans of
examples/ and e2e/plans/, each with its sibling, written by the repository's owner
(author_association OWNER), and two plan-like comments by a drive-by commenter
(author_association NONE: SPEC 6.1 says they are never the plan). Its issue listing holds
issues 878, 880 and 901, open, so an audit with the default ``--state open`` finds their
plans. As on a public repository, the permission endpoint answers ``read`` for the drive-by
account (SPEC 6.1: not trusted). Any other comment is 404.

Once listening it prints what it serves, a table (repository, issue, comment id, author and
association, role, the ``generated_at`` of plans and siblings), then two lines to paste into
a shell, ``export GITHUB_API_URL=http://127.0.0.1:PORT`` and ``export GH_TOKEN=...``, and runs
until SIGTERM or SIGINT (Ctrl-C). ``--port`` picks the port (default 0: any free one). With
STATE_DIR it also writes the API URL to STATE_DIR/url and appends one line per request
("GET /path") to STATE_DIR/requests.log.
"""

from __future__ import annotations

import argparse
import logging
import re
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

try:
    from pytest_httpserver import HTTPServer
except ModuleNotFoundError:  # pragma: no cover - only without the test extras
    sys.exit("e2e/fake_api.py needs pytest-httpserver: run `make fake-api`, which installs it")

from tests.fake_github import DRIVE_BY, OWNER, REPO, TOKEN, FakeGitHub, User  # noqa: E402

PLAN_ID = 5013464861
SIBLING_ID = 5013460780
DRIVE_BY_878_ID = 5013469999
VALID_PLAN_ID = 5013470120
VALID_SIBLING_ID = 5013470121
DISPATCH_PLAN_ID = 7000000901
DISPATCH_SIBLING_ID = 7000000902
DRIVE_BY_ID = 7000000999

EXAMPLES, PLANS = ROOT / "examples", ROOT / "e2e" / "plans"
_PLAN_STAMP = re.compile(r"^generated_at: (\S+)$", re.M)
_SIBLING_STAMP = re.compile(r"^<!-- frame-slices-generated-at: (\S+) -->$", re.M)


@dataclass(frozen=True)
class Served:
    """One comment the fake serves: its issue, id, author, role (``plan``, ``sibling`` or
    ``drive-by``), the file of its body and when it was last edited."""

    issue: int
    comment_id: int
    author: User
    role: str
    body: Path
    updated_at: str = "2026-07-18T22:21:00Z"

    def generated_at(self) -> str:
        """The plan's spine ``generated_at`` or the sibling's stamp; ``-`` for a drive-by's
        comment (never a plan, whatever it carries)."""
        pattern = {"plan": _PLAN_STAMP, "sibling": _SIBLING_STAMP}.get(self.role)
        found = pattern.search(self.body.read_text("utf-8")) if pattern else None
        return found.group(1) if found else "-"


SERVED = (
    Served(878, PLAN_ID, OWNER, "plan", EXAMPLES / "plan-878.md"),
    Served(878, SIBLING_ID, OWNER, "sibling", EXAMPLES / "sibling-878.md"),
    Served(878, DRIVE_BY_878_ID, DRIVE_BY, "drive-by", EXAMPLES / "plan-878.md"),
    Served(880, VALID_PLAN_ID, OWNER, "plan", EXAMPLES / "plan-valid.md"),
    Served(880, VALID_SIBLING_ID, OWNER, "sibling", EXAMPLES / "sibling-valid.md"),
    Served(901, DISPATCH_PLAN_ID, OWNER, "plan", PLANS / "plan-901.md"),
    Served(901, DISPATCH_SIBLING_ID, OWNER, "sibling", PLANS / "sibling-901.md"),
    Served(
        901, DRIVE_BY_ID, DRIVE_BY, "drive-by", PLANS / "drive-by-901.md", "2026-08-02T09:00:00Z"
    ),
)


def serve(fake: FakeGitHub) -> None:
    """Add the issues (open) and the comments of :data:`SERVED` to ``fake``."""
    for issue in sorted({served.issue for served in SERVED}):
        fake.add_issue(issue)
    for served in SERVED:
        fake.add_comment(
            served.comment_id,
            served.body.read_text("utf-8"),
            served.issue,
            updated_at=served.updated_at,
            author=served.author,
        )


def table() -> str:
    """What :func:`serve` serves, one row per comment, columns aligned."""
    rows = [("repository", "issue", "comment", "author (association)", "role", "generated_at")]
    rows += [
        (
            REPO,
            str(served.issue),
            str(served.comment_id),
            f"{served.author.login} ({served.author.association})",
            served.role,
            served.generated_at(),
        )
        for served in SERVED
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return "".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        + "\n"
        for row in rows
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="fake_api.py", description=__doc__.split("\n")[0])
    parser.add_argument("state_dir", nargs="?", metavar="STATE_DIR")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    log = None
    if args.state_dir:
        log = Path(args.state_dir) / "requests.log"
        log.write_text("")
    server = HTTPServer(host="127.0.0.1", port=args.port, threaded=True)
    server.start()
    fake = FakeGitHub(server, log_file=log)
    serve(fake)
    if args.state_dir:
        (Path(args.state_dir) / "url").write_text(fake.url)
    print(f"{table()}\nexport GITHUB_API_URL={fake.url}\nexport GH_TOKEN={TOKEN}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
