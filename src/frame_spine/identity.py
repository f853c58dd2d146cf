"""Identity checks on comment bodies (SPEC 6 steps 3-4).

Pure: a scanned comment and the dispatched issue number in, a problem message (or ``None``)
out. Markers count only as whole lines outside fenced code and blocks: a marker quoted in
prose, or copy-pasted next to another issue's marker, does not pass.
"""

from __future__ import annotations

from .blocks import CommentScan, MarkerKind


def _marker_problem(
    scan: CommentScan, kind: MarkerKind, issue_number: int, comment: str
) -> str | None:
    numbers = [int(value) for value in scan.marker_values(kind)]
    others = sorted({number for number in numbers if number != issue_number})
    named = ", ".join(f"#{number}" for number in others)
    if issue_number not in numbers:
        if others:
            return f"the {comment} is for issue {named} (a {kind} marker line), not #{issue_number}"
        return f"the {comment} carries no <!-- {kind}-{issue_number} --> line"
    if others:
        return f"the {comment} also carries a {kind} marker line for issue {named}"
    return None


def sibling_identity_problem(scan: CommentScan, issue_number: int) -> str | None:
    """Check the sibling's identity (SPEC 6 step 3).

    Args:
        scan: the scanned sibling comment.
        issue_number: the dispatched issue number ``N``.

    Returns:
        ``None`` when the sibling has a ``<!-- frame-slices-N -->`` line and no such line for
        another number; otherwise the reason, for a ``sibling-identity-mismatch`` message.
    """
    return _marker_problem(scan, "frame-slices", issue_number, "sibling comment")


def plan_identity_problem(scan: CommentScan, issue_number: int) -> str | None:
    """Check the plan's identity (SPEC 6 step 4).

    Args:
        scan: the scanned plan comment.
        issue_number: the dispatched issue number ``N``.

    Returns:
        ``None`` when the plan has a ``<!-- plan-issue-N -->`` line and no such line for
        another number; otherwise the reason, for a ``plan-identity-mismatch`` message.
    """
    return _marker_problem(scan, "plan-issue", issue_number, "plan comment")


def foreign_sibling_markers(scan: CommentScan, issue_number: int) -> str | None:
    """For one pre-concatenated body: a ``frame-slices-M`` line with ``M != N`` is a mismatch.

    Returns the reason, or ``None`` when every such line names ``issue_number`` (or none exists).
    """
    others = sorted({int(v) for v in scan.marker_values("frame-slices") if int(v) != issue_number})
    if not others:
        return None
    named = ", ".join(f"#{number}" for number in others)
    return f"the body carries a frame-slices marker for issue {named}, not #{issue_number}"
