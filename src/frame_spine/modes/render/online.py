"""Render against GitHub, and the canonical port names (SPEC 13): the mode's edges.

:func:`render_online` fetches the plan (by id, or the newest ``plan-issue-N`` comment of the
issue) and its sibling exactly as validate does (:func:`~..validate.online.fetch_plan`),
validates them, and hands everything to the pure :func:`.rules.render_scanned`.
:func:`read_port_names` lists a ``ports-dir``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ...core.status import Failure, error
from ...github.client import CommentFetcher
from ...github.payloads import FetchedComment
from ..validate.models import ValidateTarget
from ..validate.online import NotFetched, fetch_plan
from ..validate.rules import validate_scanned
from .models import RenderResult
from .rules import render_scanned

#: The extensions of the files whose names are canonical port names (SPEC 13).
PORT_FILE_EXTENSIONS = (".yaml", ".yml", ".md")
#: The default ``ports-dir``, relative to the workspace (action) or the current directory.
DEFAULT_PORTS_DIR = os.path.join("frame", "ports")


def read_port_names(directory: str, shown: str) -> frozenset[str] | Failure:
    """The canonical port names (SPEC 13): the names, without extension and lower-cased, of
    the ``*.yaml``, ``*.yml`` and ``*.md`` files directly in ``directory``.

    Args:
        directory: the directory to list. shown: how a message names it (the input as given).

    Returns:
        The names, or an ``error`` failure naming ``ports-dir`` when it is not a readable
        directory. Never raises ``OSError``.
    """
    names: set[str] = set()
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                stem, extension = os.path.splitext(entry.name)
                if extension.lower() in PORT_FILE_EXTENSIONS and stem and entry.is_file():
                    names.add(stem.lower())
    except NotADirectoryError:
        return error(f"ports-dir {shown!r} is not a directory")
    except FileNotFoundError:
        return error(f"ports-dir {shown!r} does not exist")
    except OSError as exc:
        return error(f"cannot read ports-dir {shown!r}: {exc.strerror or exc.__class__.__name__}")
    return frozenset(names)


@dataclass(frozen=True, slots=True)
class OnlineRendering:
    """The outcome of :func:`render_online`: the result and the comments drawn (for links in
    the summary; ``None`` when not fetched)."""

    result: RenderResult
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None


def render_online(
    target: ValidateTarget, fetcher: CommentFetcher, canonical: frozenset[str] | None
) -> OnlineRendering:
    """Fetch (or discover) a plan and its sibling, validate them, and decide the picture
    (SPEC 13). Requests: those of :func:`~..validate.online.fetch_plan`.

    Returns:
        :class:`OnlineRendering`; a fetch failure is the result's SPEC 6 status, and an issue
        without a plan comment is ``comment-not-found``. Never raises.
    """
    fetched = fetch_plan(target, fetcher)
    if isinstance(fetched, NotFetched):
        failed = RenderResult.of_failure(
            fetched.failure, issue=target.issue_number, plan_comment_id=target.plan_comment_id
        )
        return OnlineRendering(failed, fetched.plan)
    findings = validate_scanned(
        fetched.comments,
        issue_number=fetched.issue_number,
        sibling_id=fetched.sibling_id,
        extra=fetched.extra,
    )
    result = render_scanned(
        fetched.comments,
        findings=findings,
        issue=fetched.issue_number,
        plan_comment_id=fetched.plan.id,
        canonical=canonical,
    )
    return OnlineRendering(result, fetched.plan, fetched.sibling)


def canonical_ports(
    base: str, given: str | None, *, contained: bool
) -> frozenset[str] | Failure | None:
    """The canonical port names of a run (SPEC 13): those of ``given`` (relative to
    ``base``, or absolute for the CLI), else of ``frame/ports`` under ``base`` when that
    directory exists, else ``None`` (no port is checked).

    Args:
        base: the workspace (action) or the current directory (CLI).
        given: the ``ports-dir`` input or ``--ports-dir``, or ``None``.
        contained: refuse a directory that resolves outside ``base`` (the action: a symbolic
            link must not lead out of the workspace).

    Returns:
        The lower-cased names, ``None``, or an ``error`` failure naming ``ports-dir``.
    """
    if given is None:
        default = os.path.join(base, DEFAULT_PORTS_DIR)
        if not os.path.isdir(default):
            return None
        given, path = DEFAULT_PORTS_DIR, default
    else:
        path = os.path.join(base, given)
    if contained:
        root = os.path.realpath(base)
        real = os.path.realpath(path)
        if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
            return error(f"ports-dir {given!r} resolves outside the workspace")
    return read_port_names(path, given)
