"""Identity checks (SPEC 6 steps 2a-4): is this comment the one for issue ``N``? Markers count
only as whole lines outside code and blocks, naming exactly ``N``."""

from __future__ import annotations

from .blocks import CommentScan, MarkerKind
from .shown import cut, printable

_LABELS = {"plan-issue": "the plan comment", "frame-slices": "the sibling comment"}


def carries_no(scan: CommentScan, label: str, line: str) -> str:
    """``"{label} carries no {line}"``, saying so when the body is empty (a failed pipe)."""
    if not scan.text.strip():
        return f"{label} is empty, so it carries no {line}"
    return f"{label} carries no {line}"


def pointer_problem(given: int | None, pointer: str | None) -> str | None:
    """Why a sibling id given is not the spine's ``slice_comment_id`` (SPEC 6 step 3), or
    ``None`` when either is absent or they agree."""
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
    """Why a comment's ``<!-- {kind}-N -->`` marker lines do not name issue ``N`` alone (SPEC 6
    steps 3-4), or ``None``. ``label`` names the comment; without ``required`` only foreign
    markers count."""
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
    """Why a fetched comment's issue (of its ``issue_url``) is not issue ``N`` (SPEC 6 step
    2a), or ``None``."""
    if actual == expected:
        return None
    named = f"issue #{actual}" if actual is not None else "no issue"
    return (
        f"{role} comment {comment_id} belongs to {named} (its issue_url), not to issue #{expected}"
    )


def hidden_problem(comment_id: int, hidden: bool, reason: str | None) -> str | None:
    """Why a minimized comment is not the plan or sibling (SPEC 6.1), or ``None``."""
    if not hidden:
        return None
    how = f"as {printable(reason)}" if reason else "(no reason given)"
    return f"comment {comment_id} is hidden {how}: dispatch from the current plan"
