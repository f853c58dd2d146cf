"""Serve the loopback fake of the GitHub REST API as a process: for trying the command line
(``make fake-api``, docs/agents.md) and for the container checks (e2e/run.sh).

usage: fake_api.py [STATE_DIR] [--port PORT]

Serves the repository octo-org/plans (tests/fake_github.py: every answer in the shape of
GitHub's published description) with the comments of :data:`SERVED`: the bundled plans of
examples/ and e2e/plans/, each with its sibling where it has one, written by the repository's
owner (author_association OWNER); two plan-like comments by a drive-by commenter
(author_association NONE: SPEC 6.1 says they are never the plan); a plan the owner wrote and
an untrusted bot, ``ci-bot[bot]``, edited (issue 903); a plan that the planner bot
``planner-app[bot]`` wrote and edited (issue 904: trusted where ``trusted-authors`` names it);
a plan hidden as outdated (issue 905); and a chain of eleven steps (issue 906: eleven waves).
An edited comment's ``updated_at`` is later than its ``created_at``, and ``POST /graphql``
answers its edit history (SPEC 6.1, revision 4). Its issue listing holds the issues of the
table, open, so an audit with the default ``--state open`` finds their plans. As on a public
repository, the permission endpoint answers ``read`` for the drive-by account (SPEC 6.1: not
trusted) and ``none`` for a bot. Any other comment is 404.

Once listening it prints what it serves, a table (repository, issue, comment id, author and
association, role, the ``generated_at`` of plans and siblings, who edited the comment after its
author, and why it is hidden), then two lines to paste into a shell,
``export GITHUB_API_URL=http://127.0.0.1:PORT`` and ``export GH_TOKEN=...``, and runs until
SIGTERM or SIGINT (Ctrl-C). ``--port`` picks the port (default 0: any free one). With
STATE_DIR it also writes the API URL to STATE_DIR/url and appends one line per request
("GET /path", "POST /graphql") to STATE_DIR/requests.log.
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

from tests.fake_github import (  # noqa: E402
    DRIVE_BY,
    OWNER,
    PLANNER_BOT,
    REPO,
    TOKEN,
    FakeGitHub,
    Minimized,
    User,
)

PLAN_ID = 5013464861
SIBLING_ID = 5013460780
DRIVE_BY_878_ID = 5013469999
VALID_PLAN_ID = 5013470120
VALID_SIBLING_ID = 5013470121
DISPATCH_PLAN_ID = 7000000901
DISPATCH_SIBLING_ID = 7000000902
DRIVE_BY_ID = 7000000999
UNTRUSTED_EDIT_ID = 7000000903
BOT_PLAN_ID = 7000000904
HIDDEN_PLAN_ID = 7000000905
CHAIN_PLAN_ID = 7000000906
#: An app the repository does not trust, which edited the owner's plan of issue 903.
CI_BOT = User("ci-bot[bot]", "NONE", type="Bot", id=990500)

EXAMPLES, PLANS = ROOT / "examples", ROOT / "e2e" / "plans"
_PLAN_STAMP = re.compile(r"^generated_at: (\S+)$", re.M)
_SIBLING_STAMP = re.compile(r"^<!-- frame-slices-generated-at: (\S+) -->$", re.M)


@dataclass(frozen=True)
class Served:
    """One comment the fake serves: its issue, id, author, role (``plan``, ``sibling`` or
    ``drive-by``), the file of its body, when it was created and last edited, who edited it
    (newest first: GitHub's edit history without the creation entry; empty when
    ``created_at`` is ``updated_at``) and why it is hidden (``None``: not hidden)."""

    issue: int
    comment_id: int
    author: User
    role: str
    body: Path
    updated_at: str = "2026-07-18T22:21:00Z"
    created_at: str | None = None  # None: the same as updated_at (never edited)
    edits: tuple[tuple[User, str], ...] = ()
    hidden: str | None = None

    def generated_at(self) -> str:
        """The plan's spine ``generated_at`` or the sibling's stamp; ``-`` for a drive-by's
        comment (never a plan, whatever it carries)."""
        pattern = {"plan": _PLAN_STAMP, "sibling": _SIBLING_STAMP}.get(self.role)
        found = pattern.search(self.body.read_text("utf-8")) if pattern else None
        return found.group(1) if found else "-"

    def edited_by(self) -> str:
        """The logins of its edit history, newest first, each once; ``-`` when unedited."""
        logins = dict.fromkeys(user.login for user, _at in self.edits)
        return ",".join(logins) or "-"


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
    Served(
        903,
        UNTRUSTED_EDIT_ID,
        OWNER,
        "plan",
        PLANS / "plan-903.md",
        "2026-08-03T10:00:00Z",
        "2026-08-03T09:01:00Z",
        ((CI_BOT, "2026-08-03T10:00:00Z"),),
    ),
    Served(
        904,
        BOT_PLAN_ID,
        PLANNER_BOT,
        "plan",
        PLANS / "plan-904.md",
        "2026-08-04T10:00:00Z",
        "2026-08-04T09:01:00Z",
        ((PLANNER_BOT, "2026-08-04T10:00:00Z"),),
    ),
    Served(
        905,
        HIDDEN_PLAN_ID,
        OWNER,
        "plan",
        PLANS / "plan-905.md",
        "2026-08-05T09:01:00Z",
        hidden="outdated",
    ),
    Served(906, CHAIN_PLAN_ID, OWNER, "plan", PLANS / "plan-906.md", "2026-08-06T09:01:00Z"),
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
            created_at=served.created_at,
            edits=list(served.edits) or None,
            minimized=Minimized(served.hidden) if served.hidden else None,
        )


def table() -> str:
    """What :func:`serve` serves, one row per comment, columns aligned."""
    rows = [
        (
            "repository",
            "issue",
            "comment",
            "author (association)",
            "role",
            "generated_at",
            "edited by",
            "hidden",
        )
    ]
    rows += [
        (
            REPO,
            str(served.issue),
            str(served.comment_id),
            f"{served.author.login} ({served.author.association})",
            served.role,
            served.generated_at(),
            served.edited_by(),
            served.hidden or "-",
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
