"""Issue comments as the GitHub REST API describes them (the fields this project reads).

Pure data, shared by the fetching edge and the pure audit collector.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

_ISSUE_URL = re.compile(r"/issues/([0-9]{1,20})/?$", re.ASCII)


@dataclass(frozen=True, slots=True)
class FetchedComment:
    """An issue comment as fetched.

    Attributes:
        id: the comment id. body: its text (``""`` when the API says ``null``).
        issue_url: the API URL of its issue (``.../issues/N``). html_url: its web URL.
        updated_at: when it was last edited (``YYYY-MM-DDTHH:MM:SSZ``), when the API says.
    """

    id: int
    body: str
    issue_url: str
    html_url: str | None
    updated_at: str | None = None

    @property
    def issue_number(self) -> int | None:
        """The issue number at the end of ``issue_url`` (``.../issues/N``), or ``None``."""
        match = _ISSUE_URL.search(self.issue_url)
        return int(match.group(1)) if match else None


_NEVER = datetime(1970, 1, 1, tzinfo=UTC)


def recency(comment: FetchedComment) -> tuple[datetime, int]:
    """Sort key for "newest": ``updated_at``, then id (SPEC 10; a missing or malformed
    ``updated_at`` counts as oldest)."""
    try:
        updated = datetime.fromisoformat((comment.updated_at or "").replace("Z", "+00:00"))
    except ValueError:
        updated = _NEVER
    if updated.tzinfo is None:
        updated = updated.replace(tzinfo=UTC)
    return updated, comment.id
