"""``frame-spine lookup`` and ``frame-spine digest`` (SPEC 9); a run imports what it needs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ... import console
from ...console import Command

if TYPE_CHECKING:
    from .models import LookupResult


def _check_sources(parser: argparse.ArgumentParser, args: argparse.Namespace) -> bool:
    """Exactly one source of bodies (usage errors otherwise); whether it is GitHub (SPEC 9)."""
    online_only = console.given(args, *console.ONLINE_ONLY)
    flags = ("--plan-body", "--comment-body-path", "--comment-body-stdin", "--repo")
    sources = console.given(args, *flags)
    if not sources and not online_only:
        parser.error(
            "lookup needs one of --plan-body, --comment-body-path, --comment-body-stdin or "
            "--plan-comment-id (with --repo, or in a checkout whose origin is on GitHub)"
        )
    if len(sources) > 1:
        parser.error(f"{' and '.join(sources)} cannot be combined: choose one source")
    if sources and sources[0] != "--repo" and online_only:
        console.mixed_sources(parser, sources[0], online_only)
    if args.slices_body is not None and args.plan_body is None:
        parser.error(console.SLICES_BODY_NEEDS_PLAN_BODY)
    console.check_one_stdin(parser, args)
    online = not sources or sources[0] == "--repo"
    if online:
        console.default_repo(args, parser)
    return online


def _lookup_local(args: argparse.Namespace) -> LookupResult:
    from ...core.status import Failure
    from ...declared import raw_inputs
    from .models import LookupResult, parse_request
    from .rules import lookup

    request = parse_request(raw_inputs(args, "lookup"), has_sibling=args.slices_body is not None)
    if isinstance(request, Failure):
        return LookupResult.of_failure(request)
    if args.comment_body_path is not None or args.comment_body_stdin:
        flag = "--comment-body-stdin" if args.comment_body_stdin else "--comment-body-path"
        body = console.read_body("-" if args.comment_body_stdin else args.comment_body_path, flag)
        if isinstance(body, Failure):
            return LookupResult.of_failure(body)
        return lookup(request, body, single_body=True)
    bodies = console.read_plan_and_sibling(args.plan_body, args.slices_body)
    if isinstance(bodies, Failure):
        return LookupResult.of_failure(bodies)
    return lookup(request, *bodies)


def _lookup_online(args: argparse.Namespace) -> LookupResult:
    # Imported here: the offline path must not pay for fetching (nor for PyGithub).
    from ...core.status import Failure
    from .models import LookupResult, parse_online_inputs
    from .online import lookup_online

    validated = parse_online_inputs(console.api_inputs(args))
    if isinstance(validated, Failure):
        return LookupResult.of_failure(validated)
    target, request = validated
    return lookup_online(target, request, console.fetcher(target, args)).result


def run_lookup(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``frame-spine lookup``: local bodies, one pre-concatenated body, or GitHub."""
    from .render import result_json, result_text

    online = _check_sources(parser, args)
    result = _lookup_online(args) if online else _lookup_local(args)
    console.print_result(args.format, result, result_json, result_text)
    return result.exit_code


def run_digest(args: argparse.Namespace, _parser: argparse.ArgumentParser) -> int:
    """``frame-spine digest``: the spine digest (SPEC 7), or the lookup status (exit 1)."""
    from ...core.plan import current_spine, scan_bodies
    from ...core.status import Failure, Status
    from ...workflow_commands import json_line
    from .models import LookupResult
    from .render import result_json, result_text

    body = console.read_body(args.plan_body, "--plan-body")
    current = body if isinstance(body, Failure) else current_spine(scan_bodies(body))
    if isinstance(current, Failure):
        failed = LookupResult.of_failure(current)
        console.print_result(args.format, failed, result_json, result_text)
        return failed.exit_code
    shown = current.digest
    if args.format == "json":
        known = {"spine_digest": shown, "generated_at": current.spine.generated_at}
        shown = json_line({"status": Status.OK.value, **known})
    console.emit(shown + "\n", untrusted=False)
    return 0


#: The flags of lookup, then of digest (SPEC 9).
LOOKUP_FLAGS: console.Flags = {
    "comment bodies (choose one source)": {
        "--plan-body PATH": "plan comment body file, or - for stdin",
        "--slices-body PATH": "sibling comment body file",
        "--comment-body-path PATH": "one pre-concatenated body (plan + sibling) file",
        "--comment-body-stdin": "read one pre-concatenated body from stdin",
        **console.online_flags(auto=True),
    },
    "dispatch inputs": {
        "--issue-number N": "the plan's issue number",
        "--generated-at TS": "the spine's generated_at at dispatch time, or current",
        "--step-id ID": "the step, e.g. s4",
        "--spine-digest D": "the spine digest at dispatch time",
    },
}
DIGEST_FLAGS: console.Flags = {None: {"--plan-body PATH": "plan comment body file, or - for stdin"}}

COMMANDS = (
    Command(
        name="lookup",
        help="find one step's slice and report a status",
        description="Find one step's slice. Exit 0 for ok and stale-spine (branch on status!), "
        "1 for any other status, 2 for a usage error.",
        flags=LOOKUP_FLAGS,
        run=run_lookup,
        required=("--generated-at", "--step-id"),
    ),
    Command(
        name="digest",
        help="print the spine digest of a plan comment",
        description="Print the digest of the plan's spine: record it at dispatch time and give "
        "it to lookup as --spine-digest (a new generated_at alone does not change it). Exit 1 "
        "with the lookup status when the plan has no single valid spine.",
        flags=DIGEST_FLAGS,
        run=run_digest,
        required=("--plan-body",),
    ),
)
