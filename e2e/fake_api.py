"""Serve the loopback fake of the GitHub REST API as a process, for the container checks.

usage: fake_api.py STATE_DIR

Serves the real plan of issue 878 (comment 5013464001) and its sibling (5013460780) from
examples/, and the dispatch plan of issue 901 (comment 7000000901) and its sibling
(7000000902) from e2e/plans/, in repository octo-org/plans, written by the repository's owner
(author_association OWNER), accepting the test token; and a newer plan-like comment on issue
901 (7000000999, e2e/plans/drive-by-901.md) by a drive-by commenter (NONE; the permission
endpoint answers 404 for that account, as for every account without a permission set): SPEC
6.1 says it is never the plan. Any other comment is 404.
Writes the API URL to STATE_DIR/url once listening, appends one line per request
("GET /path") to STATE_DIR/requests.log, and runs until SIGTERM or SIGINT.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_httpserver import HTTPServer  # noqa: E402

from tests.fake_github import DRIVE_BY, FakeGitHub  # noqa: E402

PLAN_ID = 5013464001
SIBLING_ID = 5013460780
DISPATCH_PLAN_ID = 7000000901
DISPATCH_SIBLING_ID = 7000000902
DRIVE_BY_ID = 7000000999


def main(state_dir: str) -> int:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    state = Path(state_dir)
    log = state / "requests.log"
    log.write_text("")
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    fake = FakeGitHub(server, log_file=log)
    fake.add_comment(PLAN_ID, (ROOT / "examples/plan-878.md").read_text("utf-8"), 878)
    fake.add_comment(SIBLING_ID, (ROOT / "examples/sibling-878.md").read_text("utf-8"), 878)
    plans = ROOT / "e2e" / "plans"
    fake.add_comment(DISPATCH_PLAN_ID, (plans / "plan-901.md").read_text("utf-8"), 901)
    fake.add_comment(DISPATCH_SIBLING_ID, (plans / "sibling-901.md").read_text("utf-8"), 901)
    fake.add_comment(
        DRIVE_BY_ID,
        (plans / "drive-by-901.md").read_text("utf-8"),
        901,
        updated_at="2026-08-02T09:00:00Z",
        author=DRIVE_BY,
    )
    (state / "url").write_text(fake.url)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
