"""Is a fetched comment's author trusted (SPEC 6.1)? The policy of
:mod:`frame_spine.core.trust`, with the permission requests its ``write`` term needs.

An edge: the only request is the fetcher's
:meth:`~frame_spine.github.client.CommentFetcher.permission` (one per distinct author that
no other term trusts, kept for the run), so an author the associations or logins decide
costs no request.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.status import Failure
from ..core.trust import (
    DELETED_LOGIN,
    Permission,
    TrustPolicy,
    Verdict,
    author_words,
    judge,
    untrusted_message,
)
from .client import CommentFetcher
from .payloads import FetchedComment


@dataclass(frozen=True, slots=True)
class Untrusted:
    """A comment whose author the policy does not trust.

    Attributes:
        comment: the comment. message: why, in SPEC 6.1's words (comment, login,
            association, the permission when it was asked, the policy).
        who: the author as the message names them (``drive-by (NONE)``).
    """

    comment: FetchedComment
    message: str
    who: str

    @property
    def login(self) -> str:
        """The author's login (``ghost`` for a comment without a ``user``), for the JSON
        result's ``author``."""
        return self.comment.author_login or DELETED_LOGIN


@dataclass(frozen=True, slots=True)
class AuthorCheck:
    """The trust policy of one run, and the fetcher that asks for permissions.

    Attributes:
        policy: the parsed ``trusted-authors``. fetcher: the run's fetcher.
    """

    policy: TrustPolicy
    fetcher: CommentFetcher

    def untrusted(self, comment: FetchedComment) -> Untrusted | Failure | None:
        """Judge ``comment``'s author (SPEC 6.1).

        Returns:
            ``None`` when a term trusts the author; :class:`Untrusted` when none does (with
            ``write``, after asking for the author's permission: ``read``, ``none``, or a 403
            or 404 answer); a :class:`Failure` when that request failed otherwise (its SPEC 6
            status: the run stops there). Requests: none unless only ``write`` can decide.
            Never raises.
        """
        author = comment.author
        verdict = judge(self.policy, author)
        if verdict is Verdict.TRUSTED:
            return None
        permission: Permission | None = None
        if verdict is Verdict.ASK:
            assert author.login is not None  # judge asks only for an account
            asked = self.fetcher.permission(author.login)
            if isinstance(asked, Failure):
                return asked
            if asked.grants_write:
                return None
            permission = asked
        return Untrusted(
            comment,
            untrusted_message(comment.id, author, self.policy, permission),
            author_words(author, permission),
        )


#: How many passed-over comments a message names before it says how many there are.
NAMED_LIMIT = 10


def passed_over_words(passed: list[Untrusted] | tuple[Untrusted, ...], policy: TrustPolicy) -> str:
    """The plan-like comments discovery passed over (SPEC 6.1), for a message: ``comment 5009
    by drive-by (NONE) and comment 5010 by x (CONTRIBUTOR, permission read) were passed over:
    not trusted authors (trusted-authors is ...)``; at most :data:`NAMED_LIMIT` named."""
    named = [f"comment {item.comment.id} by {item.who}" for item in passed[:NAMED_LIMIT]]
    if len(passed) > NAMED_LIMIT:
        named.append(f"{len(passed) - NAMED_LIMIT} more")
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    verb = "was" if len(passed) == 1 else "were"
    return (
        f"{listed} {verb} passed over: not "
        f"{'a trusted author' if len(passed) == 1 else 'trusted authors'} "
        f"(trusted-authors is {policy.shown})"
    )
