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
