"""Serve the loopback fake of the GitHub REST API as a process: for trying the command line
(``make fake-api``, docs/agents.md) and for the container checks (e2e/run.sh).

usage: fake_api.py [STATE_DIR] [--port PORT]

Serves, in repository octo-org/plans, written by the repository's owner (author_association
OWNER) and readable with the token it prints:

- the real plan of issue 878 (comment 5013464861) and its sibling (5013460780) from examples/,
  and a drive-by commenter's copy of that plan (5013469999, author_association NONE: SPEC 6.1
  says it is never the plan);
- the complete plan of issue 880 (comment 5013470120) and its sibling (5013470121) from
  examples/;
- the dispatch plan of issue 901 (comment 7000000901) and its sibling (7000000902) from
  e2e/plans/, and a newer plan-like comment on issue 901 (7000000999, e2e/plans/drive-by-901.md)
  by the drive-by commenter.

The permission endpoint answers 404 for the drive-by account, as for every account without a
permission set. Any other comment is 404.

Once listening it prints two lines to paste into a shell, ``export GITHUB_API_URL=http://
127.0.0.1:PORT`` and ``export GH_TOKEN=...``, and runs until SIGTERM or SIGINT (Ctrl-C).
``--port`` picks the port (default 0: any free one). With STATE_DIR it also writes the API URL
to STATE_DIR/url and appends one line per request ("GET /path") to STATE_DIR/requests.log.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

try:
    from pytest_httpserver import HTTPServer
except ModuleNotFoundError:  # pragma: no cover - only without the test extras
    sys.exit("e2e/fake_api.py needs pytest-httpserver: run `make fake-api`, which installs it")

from tests.fake_github import DRIVE_BY, TOKEN, FakeGitHub  # noqa: E402

PLAN_ID = 5013464861
SIBLING_ID = 5013460780
DRIVE_BY_878_ID = 5013469999
VALID_PLAN_ID = 5013470120
VALID_SIBLING_ID = 5013470121
DISPATCH_PLAN_ID = 7000000901
DISPATCH_SIBLING_ID = 7000000902
DRIVE_BY_ID = 7000000999


def serve(fake: FakeGitHub) -> None:
    """Add every comment the module docstring lists to ``fake``."""
    examples, plans = ROOT / "examples", ROOT / "e2e" / "plans"
    plan_878 = (examples / "plan-878.md").read_text("utf-8")
    fake.add_comment(PLAN_ID, plan_878, 878)
    fake.add_comment(SIBLING_ID, (examples / "sibling-878.md").read_text("utf-8"), 878)
    fake.add_comment(DRIVE_BY_878_ID, plan_878, 878, author=DRIVE_BY)
    fake.add_comment(VALID_PLAN_ID, (examples / "plan-valid.md").read_text("utf-8"), 880)
    fake.add_comment(VALID_SIBLING_ID, (examples / "sibling-valid.md").read_text("utf-8"), 880)
    fake.add_comment(DISPATCH_PLAN_ID, (plans / "plan-901.md").read_text("utf-8"), 901)
    fake.add_comment(DISPATCH_SIBLING_ID, (plans / "sibling-901.md").read_text("utf-8"), 901)
    fake.add_comment(
        DRIVE_BY_ID,
        (plans / "drive-by-901.md").read_text("utf-8"),
        901,
        updated_at="2026-08-02T09:00:00Z",
        author=DRIVE_BY,
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
    print(f"export GITHUB_API_URL={fake.url}\nexport GH_TOKEN={TOKEN}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
