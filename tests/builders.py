"""Shared test builders: dispatch inputs as the public library path checks them, and the
pieces of plan and sibling comments (spine blocks, slices entries, slice blocks, marker and
stamp lines) that every test module composes into its own bodies."""

from __future__ import annotations

from typing import Any

from frame_spine.core.status import Failure
from frame_spine.modes.lookup.models import LookupRequest, LookupResult, parse_request


def checked_request(**raw: Any) -> LookupRequest | LookupResult:
    """:func:`~frame_spine.modes.lookup.models.parse_request`, with a refused input as the
    lookup result a caller reports (as the command line and the action do)."""
    checked = parse_request(raw, has_sibling=bool(raw.pop("has_sibling", False)))
    return LookupResult.of_failure(checked) if isinstance(checked, Failure) else checked


# --- pieces of plan and sibling comments (each a list of lines) -----------------------------

#: The spine's ``generated_at`` most builders default to.
TS = "2026-05-04T14:30:00Z"


def spine_block(*lines: str, generated_at: str = TS) -> list[str]:
    """A spine block: head, ``spine_schema_version: 2``, ``generated_at``, ``lines``, ``-->``."""
    return [
        "<!-- frame-spine",
        "spine_schema_version: 2",
        f"generated_at: {generated_at}",
        *lines,
        "-->",
    ]


def entry(step: str, *props: str, depends_on: str = "[]") -> list[str]:
    """A ``slices:`` entry: ``  sN:`` (+0), ``ac_refs`` (+1), ``depends_on`` (+2), ``props``,
    ``cycle``."""
    return [
        f"  {step}:",
        "    ac_refs: [AC1]",
        f"    depends_on: {depends_on}",
        *props,
        "    cycle: 1",
    ]


def slice_block(step: str, *lines: str) -> list[str]:
    """A slice block: head (+0), ``step_id:`` (+1), ``lines``, ``-->``."""
    return ["<!-- frame-slice", f"step_id: {step}", *lines, "-->"]


def plan_marker(issue: int) -> str:
    """The plan comment's marker line ``<!-- plan-issue-N -->``."""
    return f"<!-- plan-issue-{issue} -->"


def sibling_head(issue: int | None, stamp: str | None) -> list[str]:
    """A sibling's first lines: its marker (when ``issue``), its stamp (when ``stamp``)."""
    head = [] if issue is None else [f"<!-- frame-slices-{issue} -->"]
    if stamp is not None:
        head.append(f"<!-- frame-slices-generated-at: {stamp} -->")
    return head
