"""The two forms of ``frame-spine validate`` and ``frame-spine render`` (SPEC 9), read into
what their rules take: local bodies (``--plan-body``, ``--slices-body``) scanned, or the
GitHub target of ``--repo``.

An edge (it reads files through :mod:`frame_spine.console`). The command modules import it
inside ``run`` only, so loading a command still costs argparse only.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from . import console
from .core.plan import ScannedComments, scan_bodies
from .core.status import Failure, error
from .validation.models import ValidateTarget, parse_target
from .values import parse_positive_id


@dataclass(frozen=True, slots=True)
class LocalPlan:
    """The local form, read (SPEC 9).

    Attributes:
        issue: ``--issue-number``, else the plan's own ``plan-issue-N`` marker (once the plan
            is read), else ``None``.
        comments: the scanned plan and sibling bodies, or the ``error`` failure: a bad
            ``--issue-number`` (``issue`` is then ``None``) or a body that could not be read.
    """

    issue: int | None
    comments: ScannedComments | Failure


def read_local_plan(args: argparse.Namespace) -> LocalPlan:
    """Check ``--issue-number``, then read and scan ``--plan-body`` and ``--slices-body``
    (:func:`~frame_spine.console.read_plan_and_sibling`). Never raises."""
    try:
        issue = parse_positive_id(args.issue_number, "issue-number")
    except ValueError as exc:
        return LocalPlan(None, error(str(exc)))
    bodies = console.read_plan_and_sibling(args.plan_body, args.slices_body)
    if isinstance(bodies, Failure):
        return LocalPlan(issue, bodies)
    comments = scan_bodies(*bodies)
    if issue is None:
        own = comments.plan.marker_values("plan-issue")
        issue = int(own[0]) if own and len(own[0]) <= 20 else None
    return LocalPlan(issue, comments)


def online_target(args: argparse.Namespace) -> ValidateTarget | Failure:
    """The online form's target from the flags (:func:`~.models.parse_target`). No request
    is made; never raises."""
    return parse_target(console.api_inputs(args))
