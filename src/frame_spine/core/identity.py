"""Identity checks (SPEC 6 steps 2a-4): is this comment the one for issue ``N``?

Pure: a scanned comment (or a fetched comment's issue number) and the dispatched issue number
in, a problem message (or ``None``) out. Markers count only as whole lines outside code
(SPEC 2.4) and blocks, and only when they name exactly ``N`` (``plan-issue-0878`` is not issue
878): a marker quoted in prose or shown in a code example, or copy-pasted next to another
issue's marker, does not pass.
"""

from __future__ import annotations

from .blocks import CommentScan, MarkerKind
from .shown import cut, printable

_LABELS = {"plan-issue": "the plan comment", "frame-slices": "the sibling comment"}


def carries_no(scan: CommentScan, label: str, line: str) -> str:
    """The message for a comment lacking a line: ``"{label} carries no {line}"``, or, when the
    body is empty or only whitespace, ``"{label} is empty, so it carries no {line}"`` (an
    empty body is the usual cause: a failed ``gh api ... |`` pipe, a cleared comment)."""
    if not scan.text.strip():
        return f"{label} is empty, so it carries no {line}"
    return f"{label} carries no {line}"


def pointer_problem(given: int | None, pointer: str | None) -> str | None:
    """A sibling id given (dispatched, or a flag) that is not the one the plan's spine points
    at (``slice_comment_id``; SPEC 6 step 3, SPEC 10 ``sibling-identity-mismatch``): the
    message, or ``None`` when either is absent or they agree."""
    if given is None or pointer is None or str(given) == pointer:
        return None
    return (
        f"sibling comment {given} was given, but the plan's spine points at sibling comment "
        f"{pointer} (slice_comment_id)"
    )


def marker_problem(
    scan: CommentScan,
    kind: MarkerKind,
    issue_number: int,
    label: str | None = None,
    *,
    required: bool = True,
) -> str | None:
    """Check a comment's ``<!-- {kind}-N -->`` marker lines against issue ``N``: the plan's
    identity for ``"plan-issue"`` (SPEC 6 step 4), the sibling's for ``"frame-slices"``
    (step 3).

    Args:
        scan: the scanned comment.
        kind: ``"plan-issue"`` or ``"frame-slices"``.
        issue_number: the dispatched issue number ``N``.
        label: how the message names the comment ("the body", ...); by default "the plan
            comment" or "the sibling comment" by ``kind``.
        required: whether a marker for ``N`` must be present (else only foreign markers count).

    Returns:
        ``None`` when the markers agree with ``N``; otherwise the reason, for an identity
        mismatch message. Digits are compared as written, so this never raises.
    """
    label = label if label is not None else _LABELS.get(kind, "the comment")
    wanted = str(issue_number)
    values = scan.marker_values(kind)
    others = sorted({value for value in values if value != wanted}, key=lambda v: (len(v), v))
    named = ", ".join(f"#{cut(value)}" for value in others)
    if wanted not in values and required:
        if others:
            return f"{label} is for issue {named} (a {kind} marker line), not #{wanted}"
        return carries_no(scan, label, f"<!-- {kind}-{wanted} --> line")
    if others:
        return f"{label} also carries a {kind} marker line for issue {named}"
    return None


def issue_number_problem(
    role: str, comment_id: int, actual: int | None, expected: int
) -> str | None:
    """Check a fetched comment's issue (the ``N`` of its ``issue_url``) against issue ``N``
    (SPEC 6 step 2a).

    Args:
        role: ``"plan"`` or ``"sibling"``, for the message.
        comment_id: the comment's id. actual: the issue number of its ``issue_url``, or
            ``None`` when it names none. expected: the dispatched issue number.

    Returns:
        ``None`` when they agree; otherwise the reason, for an identity mismatch (a status in
        lookup, a finding in validate and audit).
    """
    if actual == expected:
        return None
    named = f"issue #{actual}" if actual is not None else "no issue"
    return (
        f"{role} comment {comment_id} belongs to {named} (its issue_url), not to issue #{expected}"
    )


def hidden_problem(comment_id: int, hidden: bool, reason: str | None) -> str | None:
    """Why a comment GitHub shows minimized is not the plan or sibling (SPEC 6.1), or
    ``None`` when it is not hidden."""
    if not hidden:
        return None
    how = f"as {printable(reason)}" if reason else "(no reason given)"
    return f"comment {comment_id} is hidden {how}: dispatch from the current plan"
