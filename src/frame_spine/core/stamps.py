"""The sibling's stamp against the spine (SPEC 5 checks 5-6, SPEC 10): one verdict.

Pure: the spine and the comment that should carry the stamp in, a :class:`StampVerdict` out.
Lookup turns the verdict into a status (``sibling-unstamped``, ``stale-spine``), validate into
a finding (``sibling-unstamped``, ``stale-sibling``), audit into a state; the rule itself is
written only here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .blocks import CommentScan, MarkerLine
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
