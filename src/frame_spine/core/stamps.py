"""The sibling's stamp against the spine (SPEC 5 checks 5-6, SPEC 10): one verdict, its words
and the stamp a result shows, for lookup's statuses, validate's findings and audit's states."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .blocks import CommentScan, MarkerLine
from .identity import carries_no
from .plan import shorten
from .spine_model import Spine
from .timestamps import parse_instant


class StampKind(StrEnum):
    """What the stamp lines say, in the order the rule checks them."""

    NONE = "none"  #: no ``<!-- frame-slices-generated-at: T -->`` line
    MALFORMED = "malformed"  #: a stamp whose value is not a timestamp
    CONFLICTING = "conflicting"  #: several stamps that are not the same instant
    STALE = "stale"  #: one instant, not the spine's ``generated_at``
    FRESH = "fresh"  #: the spine's ``generated_at``


@dataclass(frozen=True, slots=True)
class StampVerdict:
    """The verdict on a comment's stamp lines: the stamp it is about (the first malformed,
    the second of conflicting ones, else the first) and how many the comment carries."""

    kind: StampKind
    stamp: MarkerLine | None = None
    count: int = 0


def read_stamp(spine: Spine, holder: CommentScan) -> StampVerdict:
    """Judge the stamp lines of ``holder`` (the sibling, or the one body) against the spine."""
    stamps = [marker for marker in holder.markers if marker.kind == "stamp"]
    if not stamps:
        return StampVerdict(StampKind.NONE)
    instants = [parse_instant(marker.value) for marker in stamps]
    if None in instants:
        return StampVerdict(StampKind.MALFORMED, stamps[instants.index(None)], len(stamps))
    if len(set(instants)) > 1:
        return StampVerdict(StampKind.CONFLICTING, stamps[1], len(stamps))
    if instants[0] != spine.instant:
        return StampVerdict(StampKind.STALE, stamps[0], len(stamps))
    return StampVerdict(StampKind.FRESH, stamps[0], len(stamps))


def verdict_message(verdict: StampVerdict, holder: CommentScan, where: str, spine: Spine) -> str:
    """A verdict other than ``FRESH`` in words (``where`` names ``holder``)."""
    value = verdict.stamp.value if verdict.stamp is not None else ""
    if verdict.kind is StampKind.NONE:
        return carries_no(holder, where, "<!-- frame-slices-generated-at: ... --> stamp line")
    if verdict.kind is StampKind.MALFORMED:
        return f"the stamp of {where} is not a timestamp: {shorten(value)!r}"
    if verdict.kind is StampKind.CONFLICTING:
        return f"{where} carries {verdict.count} stamps that name different instants"
    return (
        f"the sibling is stamped {value}, but the spine's generated_at is "
        f"{spine.generated_at}: its slices were written for another spine; re-run "
        "the planner's persist step so plan and sibling match"
    )


def shown_stamp(holder: CommentScan | None) -> str | None:
    """The ``sibling_generated_at`` a result shows: the holder's first stamp, as written."""
    stamps = holder.marker_values("stamp") if holder is not None else []
    return stamps[0] if stamps else None
