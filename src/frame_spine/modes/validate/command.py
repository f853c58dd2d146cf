"""``frame-spine validate`` (SPEC 9, 10); a run imports what it needs."""

from __future__ import annotations

import argparse
import gc
from typing import TYPE_CHECKING

from ... import console
from ...console import Command

if TYPE_CHECKING:
    from ...validation.models import ValidationResult


def _validate(args: argparse.Namespace) -> ValidationResult:
    """Local bodies or ``--repo``, validated, with the dispatch matrix (SPEC 14)."""
    from ...core.status import Failure
    from ...inputs import parse_inputs
    from ...plan_sources import online_target, read_local_plan
    from ...validation.dispatch import DispatchIds, DispatchRequest
    from ...validation.models import ValidationResult, with_dispatch
    from ...validation.rules import validate_scanned

    request = parse_inputs(DispatchRequest, {"completed-steps": args.completed_steps})
    if isinstance(request, Failure):
        return ValidationResult.of_failure(request)
    completed = request.completed_steps
    if args.plan_body is None:
        from .online import validate_online

        target = online_target(args)
        if isinstance(target, Failure):
            return ValidationResult.of_failure(target)
        return validate_online(target, console.fetcher(target, args), completed).result
    local = read_local_plan(args)
    if isinstance(local.comments, Failure):
        return ValidationResult.of_failure(local.comments)
    result = validate_scanned(local.comments, issue_number=local.issue)
    return with_dispatch(result, local.comments, DispatchIds(local.issue), completed)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``frame-spine validate``: local bodies or ``--repo``."""
    from .render import validation_json, validation_text

    console.check_plan_sources(parser, args, "validate")
    # The cyclic garbage collector paused for the run: a large plan's tens of thousands of small
    # objects are freed by reference count, and the collector's passes over them cost a fifth
    # of the run.
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = _validate(args)
        console.print_result(args.format, result, validation_json, validation_text)
        return result.exit_code
    finally:
        if enabled:
            gc.enable()


#: validate's flags (SPEC 9).
FLAGS: console.Flags = {
    **console.plan_sources("validated"),
    None: {
        "--completed-steps IDS": "step ids already done, separated by commas or whitespace: the "
        "dispatch matrix's ready list then holds the steps whose dependencies are all done "
        "(JSON only)"
    },
}

COMMANDS = (
    Command(
        name="validate",
        help="report every finding about a plan and its sibling (pre-dispatch validation)",
        description="Validate a plan comment and its sibling before dispatch: every finding, "
        "and with --format json the dispatch matrix of the steps. Exit 0 when valid, "
        "1 when invalid or when fetching fails, 2 for a usage error.",
        flags=FLAGS,
        run=run,
    ),
)
