"""``frame-spine audit`` (SPEC 9, 11); a run imports audit's rules and PyGithub."""

from __future__ import annotations

import argparse

from ... import console
from ...console import Command


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``frame-spine audit`` (SPEC 9, 11)."""
    console.default_repo(args, parser)
    # Imported here: only audits pay for audit mode and PyGithub.
    from ...core.status import Failure
    from ...inputs import parse_inputs
    from .models import AuditReport, AuditTarget
    from .online import audit_online
    from .render import audit_json, audit_text

    target = parse_inputs(AuditTarget, console.api_inputs(args))
    if isinstance(target, Failure):
        report = AuditReport.of_failure(target, repository=str(args.repo))
    else:
        report = audit_online(target, console.fetcher(target, args))
    console.print_result(args.format, report, audit_json, audit_text)
    return report.exit_code


#: audit's flags (SPEC 9).
FLAGS: console.Flags = {
    None: {
        "--repo OWNER/NAME": "the repository (default: the origin remote of the git checkout here)",
        "--state open|closed|all": "audit the plans on open or closed issues, or on all (then no "
        "issue is listed)",
        "--since TS|8d": "only comments updated since a timestamp, or that long ago (8d, 24h, 90m)",
        **console.api_flags(has_local_forms=False),
    }
}

COMMANDS = (
    Command(
        name="audit",
        help="classify every plan of a repository as fresh or drifted (scheduled audits)",
        description="Audit every plan comment of a repository: is each spine fresh, or has "
        "it drifted from its sibling? Exit 0 when clean, "
        "1 when some plan has findings or fetching fails, 2 for a usage error.",
        flags=FLAGS,
        run=run,
    ),
)
