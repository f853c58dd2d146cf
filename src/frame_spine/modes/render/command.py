"""``frame-spine render`` (SPEC 9, 13); a run imports what it needs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ... import console, help_text
from ...console import Command

if TYPE_CHECKING:
    from ...markdown import CommentLink
    from .models import RenderResult

    #: A rendering and the links of the comments drawn (``None`` when not fetched).
    Rendered = tuple[RenderResult, CommentLink | None, CommentLink | None]


def _render(args: argparse.Namespace, canonical: frozenset[str] | None) -> Rendered:
    """Local bodies, or ``--repo`` (fetched or discovered): validated and decided; the links."""
    from ...core.status import Failure
    from ...plan_sources import online_target, read_local_plan
    from .models import RenderResult

    if args.plan_body is None:
        from ...step.context import link_of
        from .online import render_online

        target = online_target(args)
        if isinstance(target, Failure):
            return RenderResult.of_failure(target), None, None
        outcome = render_online(target, console.fetcher(target, args), canonical)
        return outcome.result, link_of(outcome.plan), link_of(outcome.sibling)
    from ...validation.rules import validate_scanned
    from .rules import render_scanned

    local = read_local_plan(args)
    if isinstance(local.comments, Failure):
        return RenderResult.of_failure(local.comments, issue=local.issue), None, None
    findings = validate_scanned(local.comments, issue_number=local.issue)
    result = render_scanned(
        local.comments, findings=findings, issue=local.issue, canonical=canonical
    )
    return result, None, None


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``frame-spine render``: local bodies or ``--repo``."""
    import os
    from functools import partial

    from ...core.status import Failure
    from .models import RenderResult
    from .ports import canonical_ports
    from .render import render_json, render_markdown

    console.check_plan_sources(parser, args, "render")
    canonical = canonical_ports(os.getcwd(), args.ports_dir, contained=False)
    if isinstance(canonical, Failure):
        result, plan, sibling, ports_dir = RenderResult.of_failure(canonical), None, None, None
    else:
        (result, plan, sibling), ports_dir = _render(args, canonical.names), canonical.directory
    repository = args.repo if args.plan_body is None else None
    markdown = partial(
        render_markdown, repository=repository, plan=plan, sibling=sibling, ports_dir=ports_dir
    )
    console.print_result(args.format, result, render_json, markdown)
    return result.exit_code


#: render's flags (SPEC 9).
FLAGS: console.Flags = {
    **console.plan_sources("rendered"),
    None: {
        "--ports-dir DIR": "directory whose *.yaml, *.yml and *.md file names are the canonical "
        "ports (default: frame/ports when it exists)"
    },
}

COMMANDS = (
    Command(
        name="render",
        help="draw a plan: its ports table and step graph (Markdown with Mermaid), or JSON",
        description="Render a plan comment and its sibling: a ports table, a Mermaid "
        "step graph and validate's findings, as Markdown (default) or JSON. Exit 0 for ok and "
        "missing-spine, 1 for invalid-spine or when fetching fails, 2 for a usage error.",
        flags=FLAGS,
        run=run,
        formats=("markdown", help_text.FORMAT_MARKDOWN_JSON),
    ),
)
