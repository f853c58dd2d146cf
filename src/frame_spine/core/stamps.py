"""The sibling's stamp against the spine (SPEC 5 checks 5-6, SPEC 10): one verdict.

Pure: the spine and the comment that should carry the stamp in, a :class:`StampVerdict` out.
Lookup turns the verdict into a status (``sibling-unstamped``, ``stale-spine``), validate into
a finding (``sibling-unstamped``, ``stale-sibling``), audit into a state; the rule itself, its
words (:func:`verdict_message`) and which stamp a result shows (:func:`shown_stamp`) are
written only here.
"""

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
    """The verdict on a comment's stamp lines.

    Attributes:
        kind: the :class:`StampKind`.
        stamp: the stamp line it is about: the first malformed one, the second of conflicting
            ones, the first one when stale or fresh; ``None`` for ``NONE``.
        count: how many stamp lines the comment carries.
    """

    kind: StampKind
    stamp: MarkerLine | None = None
    count: int = 0


def read_stamp(spine: Spine, holder: CommentScan) -> StampVerdict:
    """Judge the stamp lines of ``holder`` against the spine (SPEC 5 checks 5-6).

    Args:
        spine: the valid spine (its ``generated_at`` instant is what the stamp must name).
        holder: the comment that carries the stamp: the sibling, or in single-body mode the
            one body. Stamp lines count only as whole lines outside code and blocks.

    Returns:
        The first verdict that applies: no stamp, a malformed stamp, stamps of different
        instants, a stamp of another instant (stale), else fresh. Never raises.
    """
    stamps = [marker for marker in holder.markers if marker.kind == "stamp"]
    if not stamps:
        return StampVerdict(StampKind.NONE)
    instants = [parse_instant(marker.value) for marker in stamps]
    for marker, instant in zip(stamps, instants, strict=True):
        if instant is None:
            return StampVerdict(StampKind.MALFORMED, marker, len(stamps))
    if len(set(instants)) > 1:
        return StampVerdict(StampKind.CONFLICTING, stamps[1], len(stamps))
    if instants[0] != spine.instant:
        return StampVerdict(StampKind.STALE, stamps[0], len(stamps))
    return StampVerdict(StampKind.FRESH, stamps[0], len(stamps))


def verdict_message(verdict: StampVerdict, holder: CommentScan, where: str, spine: Spine) -> str:
    """The verdict in words, the same for lookup's status and validate's finding (SPEC 5
    checks 5-6, SPEC 10).

    Args:
        verdict: :func:`read_stamp` of ``holder`` against ``spine``; not ``FRESH``.
        holder: the comment judged. where: how the message names it (``"the sibling
            comment"``, ``"the body"``).
        spine: the spine (its ``generated_at`` as written, for a stale stamp).

    Returns:
        No stamp: ``"{where} carries no <!-- frame-slices-generated-at: ... --> stamp line"``
        (``is empty, so it carries no`` for an empty body); a malformed one: ``"the stamp of
        {where} is not a timestamp: '...'"`` (the value shortened); conflicting ones:
        ``"{where} carries N stamps that name different instants"``; a stale one: ``"the
        sibling is stamped T, but the spine's generated_at is U: ..."`` with the remedy.
    """
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
    """The stamp a result shows as ``sibling_generated_at`` (SPEC 5, 11, 13): the holder's
    first stamp line, as written; ``None`` without a holder or a stamp line."""
    if holder is None:
        return None
    stamps = holder.marker_values("stamp")
    return stamps[0] if stamps else None
