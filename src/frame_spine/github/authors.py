"""Is a fetched comment's author trusted (SPEC 6.1)? The policy of
:mod:`frame_spine.core.trust`, with the permission requests its ``write`` term needs, each
login asked once per run and at most :data:`MAX_ASKED` logins per run (audit: per issue).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..core.shown import cut, knob, listed
from ..core.status import Failure, Status
from ..core.timestamps import parse_instant
from ..core.trust import (
    DELETED_LOGIN,
    Author,
    Permission,
    TrustPolicy,
    Verdict,
    author_words,
    judge,
    refused_note,
    untrusted_message,
)
from .client import CommentFetcher
from .edits import Edit, Edits
from .payloads import FetchedComment

#: The most distinct logins one run (audit: one issue) asks a permission for (SPEC 6.1).
MAX_ASKED = 20
#: The most entries of an edit history GitHub lists (the creation entry counts).
MAX_EDITS = 100


@dataclass(frozen=True, slots=True)
class Untrusted:
    """A comment whose author the policy does not trust.

    Attributes:
        comment: the comment. message: why, in SPEC 6.1's words.
        who: the author as the message names them (``drive-by (NONE)``).
    """

    comment: FetchedComment
    message: str
    who: str

    def keys(self) -> dict[str, str | None]:
        """The result keys that name the author (SPEC 6.1): ``author`` (``ghost`` for a
        deleted account), ``author_association``."""
        login = self.comment.author_login or DELETED_LOGIN
        return {"author": login, "author_association": self.comment.author_association}


class AuthorCheck:
    """The trust policy of one run and the permissions it asked (SPEC 6.1).

    Args:
        policy: the parsed ``trusted-authors``. fetcher: the run's fetcher.
        issue: the issue the run looks at, for the message of :data:`MAX_ASKED`.
        known: the permissions already read in this run (shared by :meth:`for_issue`).
    """

    def __init__(
        self,
        policy: TrustPolicy,
        fetcher: CommentFetcher,
        issue: int | None = None,
        known: dict[str, Permission | Failure] | None = None,
    ) -> None:
        self.policy = policy
        self.fetcher = fetcher
        self.issue = issue
        self._known = known if known is not None else {}
        self._asked = 0

    def for_issue(self, issue: int) -> AuthorCheck:
        """The same run's check for one issue of an audit: the answers kept, a fresh count."""
        return AuthorCheck(self.policy, self.fetcher, issue, self._known)

    def permission(self, login: str) -> Permission | Failure:
        """``login``'s permission, asked at most once per run; ``error`` past
        :data:`MAX_ASKED` requests. Never raises."""
        key = login.lower()
        if (known := self._known.get(key)) is not None:
            return known
        if self._asked >= MAX_ASKED:
            where = f" on issue #{self.issue}" if self.issue is not None else ""
            return Failure(
                Status.ERROR,
                f"more than {MAX_ASKED} authors of plan-like comments{where} need a permission "
                "request: hide (minimize) those comments, which costs nothing, or remove `write` "
                f"from {knob('trusted-authors')} and name planners with @login",
            )
        self._asked += 1
        return self._known.setdefault(key, self.fetcher.permission(login))

    def verdict(self, author: Author) -> Literal[True] | Permission | Failure | None:
        """``True`` when ``author`` is trusted; else the :class:`Permission` asked (it grants
        no write), ``None`` when nothing was asked, or the :class:`Failure` of asking."""
        verdict = judge(self.policy, author)
        if verdict is not Verdict.ASK:
            return True if verdict is Verdict.TRUSTED else None
        assert author.login is not None  # judge asks only for an account
        asked = self.permission(author.login)
        return True if isinstance(asked, Permission) and asked.grants_write else asked

    def untrusted(self, comment: FetchedComment) -> Untrusted | Failure | None:
        """``None`` when ``comment``'s author is trusted, :class:`Untrusted` when not, or the
        :class:`Failure` of asking (the run stops there). Never raises."""
        author = comment.author
        verdict = self.verdict(author)
        if verdict is True or isinstance(verdict, Failure):
            return None if verdict is True else verdict
        message = untrusted_message(comment.id, author, self.policy, verdict)
        return Untrusted(comment, message, author_words(author, verdict))


#: How many passed-over comments a message names before it says how many there are.
NAMED_LIMIT = 10


def passed_over_words(passed: list[Untrusted] | tuple[Untrusted, ...], policy: TrustPolicy) -> str:
    """The plan-like comments discovery passed over (SPEC 6.1), for a message: ``comment 5009
    by drive-by (NONE) and comment 5010 by x (CONTRIBUTOR, permission read) were passed over:
    not trusted authors (trusted-authors is ...)``; at most :data:`NAMED_LIMIT` named."""
    named = [f"comment {item.comment.id} by {item.who}" for item in passed[:NAMED_LIMIT]]
    if len(passed) > NAMED_LIMIT:
        named.append(f"{len(passed) - NAMED_LIMIT} more")
    verb = "was" if len(passed) == 1 else "were"
    return (
        f"{listed(named)} {verb} passed over: not "
        f"{'a trusted author' if len(passed) == 1 else 'trusted authors'} "
        f"({knob('trusted-authors')} is {policy.shown})"
    )


@dataclass(frozen=True, slots=True)
class Walk:
    """Discovery's walk over an issue's plan-like comments, newest first (SPEC 6.1).

    Attributes:
        plan: the newest plan-like comment by a trusted author, or ``None``.
        older: the plan-like comments older than ``plan``, not judged.
        passed_over: the newer ones whose authors are not trusted.
        hidden: the hidden plan-like comments passed over without a request.
        stopped: why the walk could not go on (a failed or capped permission request; a
            hidden newest trusted plan, ``plan-identity-mismatch``), with ``at``, the comment.
    """

    plan: FetchedComment | None = None
    older: tuple[FetchedComment, ...] = ()
    passed_over: tuple[Untrusted, ...] = ()
    hidden: tuple[FetchedComment, ...] = ()
    stopped: Failure | None = None
    at: FetchedComment | None = None

    def counts(self) -> dict[str, int]:
        """The result keys counting the comments passed over (SPEC 6.1, 11, 13)."""
        return {
            "untrusted_plan_comments": len(self.passed_over),
            "hidden_plan_comments": len(self.hidden),
        }


def walk(plan_like: list[FetchedComment], check: AuthorCheck) -> Walk:
    """Walk ``plan_like`` (newest first) until a trusted plan (SPEC 6.1 "What a drive-by can
    cost", "Hidden comments"): authors are asked only as far as needed. Never raises."""
    passed: list[Untrusted] = []
    hidden: list[FetchedComment] = []
    for index, comment in enumerate(plan_like):
        if comment.hidden:
            if judge(check.policy, comment.author) is Verdict.TRUSTED:
                stopped = Failure(Status.PLAN_IDENTITY_MISMATCH, str(comment.hidden_problem))
                return Walk(None, (), tuple(passed), tuple(hidden), stopped, comment)
            hidden.append(comment)
            continue
        judged = check.untrusted(comment)
        if isinstance(judged, Failure):
            return Walk(None, (), tuple(passed), tuple(hidden), judged, comment)
        if judged is None:
            return Walk(comment, tuple(plan_like[index + 1 :]), tuple(passed), tuple(hidden))
        passed.append(judged)
    return Walk(None, (), tuple(passed), tuple(hidden))


def edited(comment: FetchedComment) -> bool:
    """Whether GitHub says ``comment`` was edited: ``updated_at`` later than ``created_at``."""
    created, updated = (
        parse_instant(value or "") for value in (comment.created_at, comment.updated_at)
    )
    return created is not None and updated is not None and updated > created


@dataclass(frozen=True, slots=True)
class UntrustedEdit:
    """An edit no term trusts (SPEC 6.1): why, and the editor as the JSON ``editor`` names
    them (``ghost`` for a deleted account)."""

    message: str
    editor: str


def untrusted_edit(
    check: AuthorCheck, comment: FetchedComment, edits: Edits | None
) -> UntrustedEdit | Failure | None:
    """The newest edit of ``comment`` whose editor ``check``'s policy does not trust (SPEC 6.1,
    "Who last touched it"), ``None`` when every editor is trusted, or the failure of asking.
    Never raises."""
    shown = f"{knob('trusted-authors')} is {check.policy.shown}"
    if edits is not None and edits.total > MAX_EDITS:
        return UntrustedEdit(
            f"comment {comment.id} has {edits.total} edits, more than the {MAX_EDITS} GitHub "
            f"lists: its editors cannot all be checked; {shown}",
            DELETED_LOGIN,
        )
    entries = edits.entries if edits is not None else (Edit("", None),)
    author = comment.author.matched_login
    for entry in sorted(entries, key=lambda entry: entry.at, reverse=True):
        editor = Author(entry.editor, None)
        if author is not None and editor.matched_login == author and entry.editor is not None:
            continue  # the author's own edit: the author's verdict, already given
        permission = check.verdict(editor)
        if permission is True:
            continue
        if isinstance(permission, Failure):
            return permission
        who = cut(entry.editor) if entry.editor else f"{DELETED_LOGIN}, a deleted account"
        asked = f" ({permission.words(entry.editor or DELETED_LOGIN)})" if permission else ""
        return UntrustedEdit(
            f"comment {comment.id} was edited by {who}{asked}, not a trusted author; {shown}"
            + refused_note(editor, permission),
            entry.editor or DELETED_LOGIN,
        )
    return None


def untrusted_edits(
    check: AuthorCheck, comments: Sequence[FetchedComment | None]
) -> dict[int, UntrustedEdit] | Failure:
    """The ``comments`` someone ``check``'s policy does not trust edited (SPEC 6.1), by id:
    one GraphQL request for those edited (none with ``any``); or the failure. Never
    raises."""
    touched = [comment for comment in comments if comment is not None and edited(comment)]
    if not touched or check.policy.trust_all:
        return {}
    histories = check.fetcher.edits(touched)
    if isinstance(histories, Failure):
        return histories
    found: dict[int, UntrustedEdit] = {}
    for comment in touched:
        edit = untrusted_edit(check, comment, histories[comment.id])
        if isinstance(edit, Failure):
            return edit
        if edit is not None:
            found[comment.id] = edit
    return found
