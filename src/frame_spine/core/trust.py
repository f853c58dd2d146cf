"""Who wrote it: the trust policy (SPEC 6.1).

Pure: the ``trusted-authors`` value in, a :class:`TrustPolicy` out (or a ``ValueError``
naming the input); a comment's :class:`Author` (and, when the policy has to ask, the
author's repository :class:`Permission`) in, a verdict and the words of a refusal out.
Asking GitHub for a permission is the fetching edge's job
(:mod:`frame_spine.github.authors`); here :func:`judge` only says when it is needed.

A policy is a list of terms separated by commas or whitespace:

- an ``author_association`` word as the REST API reports it (:data:`ASSOCIATIONS`,
  case-insensitive);
- ``@login`` (a ``user.login``, case-insensitive, e.g. ``@planner-app[bot]``);
- ``write``: an author with ``write``, ``maintain`` or ``admin`` permission on the
  repository (one permission request per distinct author no other term trusts);
- or ``any`` alone (every author).

The list is the whole policy: ``MEMBER`` alone refuses an ``OWNER``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

#: Every ``author_association`` value of the REST API, in GitHub's documentation order.
ASSOCIATIONS = (
    "OWNER",
    "MEMBER",
    "COLLABORATOR",
    "CONTRIBUTOR",
    "FIRST_TIME_CONTRIBUTOR",
    "FIRST_TIMER",
    "MANNEQUIN",
    "NONE",
)
#: The default policy (SPEC 6.1): the associations a repository trusts, and ``write`` for an
#: organization member whose membership is private (reported as ``CONTRIBUTOR`` or ``NONE``).
DEFAULT_TRUSTED_AUTHORS = "OWNER,MEMBER,COLLABORATOR,write"
#: The login GitHub shows for a deleted account; a comment without a ``user`` has it.
DELETED_LOGIN = "ghost"
#: The permissions (``permission``) and roles (``role_name``) that can push to a
#: repository: the ``write`` term trusts them.
WRITE_ROLES = frozenset({"write", "maintain", "admin"})

_INPUT = "trusted-authors"
_SEPARATORS = re.compile(r"[\s,]+")
# GitHub logins: letters, digits and hyphens; ``[bot]`` for an app; ``_`` and ``.`` for
# Enterprise managed users (``name_shortcode``).
_LOGIN = re.compile(r"@([A-Za-z0-9][A-Za-z0-9_.-]{0,99}(?i:\[bot\])?)", re.ASCII)
_SHOWN_LIMIT = 40


def _shown(term: str) -> str:
    return repr(term if len(term) <= _SHOWN_LIMIT else term[:_SHOWN_LIMIT] + "...")


@dataclass(frozen=True, slots=True)
class TrustPolicy:
    """A parsed ``trusted-authors`` value (SPEC 6.1); build it with :func:`parse_policy`.

    Attributes:
        associations: the trusted ``author_association`` words, upper case.
        logins: the trusted logins (``@login`` terms), lower case.
        write: whether authors with write, maintain or admin permission are trusted.
        trust_all: ``any``: every author is trusted.
        shown: the policy as messages quote it: its terms in their order, each once,
            associations in upper case, joined by commas (``OWNER,MEMBER,COLLABORATOR,write``).
    """

    associations: frozenset[str]
    logins: frozenset[str]
    write: bool
    trust_all: bool
    shown: str


def parse_policy(value: str | None) -> TrustPolicy:
    """Parse a ``trusted-authors`` value (SPEC 6.1); no request is ever needed for it.

    Args:
        value: the input as given (``None``, empty or whitespace: the default,
            :data:`DEFAULT_TRUSTED_AUTHORS`).

    Returns:
        The :class:`TrustPolicy`.

    Raises:
        ValueError: naming ``trusted-authors``, for a term that is no association, no
            ``@login``, not ``write`` and not ``any``; for a value of separators only (an
            empty list); for ``any`` beside other terms.
    """
    text = (value or "").strip()
    if not text:
        text = DEFAULT_TRUSTED_AUTHORS
    terms = [term for term in _SEPARATORS.split(text) if term]
    if not terms:
        raise ValueError(
            f"{_INPUT} {text!r} is an empty list: name at least one term (the default is "
            f"{DEFAULT_TRUSTED_AUTHORS})"
        )
    shown: dict[str, str] = {}  # each term once (logins ignoring case), as first written
    associations: set[str] = set()
    logins: set[str] = set()
    write = trust_all = False
    for term in terms:
        word = term.upper()
        login = _LOGIN.fullmatch(term)
        if word in ASSOCIATIONS:
            associations.add(word)
            shown.setdefault(word, word)
        elif login is not None:
            logins.add(login.group(1).lower())
            shown.setdefault("@" + login.group(1).lower(), term)
        elif word == "WRITE":
            write = True
            shown.setdefault("write", "write")
        elif word == "ANY":
            trust_all = True
            shown.setdefault("any", "any")
        else:
            raise ValueError(
                f"{_INPUT}: {_shown(term)} is not a term (an author association such as "
                "OWNER, MEMBER or COLLABORATOR, @login, write, or any alone)"
            )
    if trust_all and len(shown) > 1:
        raise ValueError(
            f"{_INPUT}: any trusts every author and cannot stand beside other terms "
            f"({','.join(shown.values())})"
        )
    return TrustPolicy(
        frozenset(associations), frozenset(logins), write, trust_all, ",".join(shown.values())
    )


#: The default policy, parsed.
DEFAULT_POLICY = parse_policy(DEFAULT_TRUSTED_AUTHORS)


@dataclass(frozen=True, slots=True)
class Author:
    """Who wrote a comment, as the REST API says.

    Attributes:
        login: ``user.login``, or ``None`` when the comment has no ``user`` (a deleted
            account, which GitHub shows as ``ghost``).
        association: ``author_association`` as given, or ``None`` when not reported.
    """

    login: str | None
    association: str | None

    @property
    def matched_login(self) -> str:
        """The login ``@login`` terms are compared with, lower case (``ghost`` for no user)."""
        return (self.login or DELETED_LOGIN).lower()


@dataclass(frozen=True, slots=True)
class Permission:
    """What ``GET /repos/{o}/{r}/collaborators/{login}/permission`` answered.

    Attributes:
        permission: the ``permission`` field (``admin``, ``write``, ``read``, ``none``; a
            ``maintain`` role is reported as ``write`` there), or ``None``.
        role_name: the ``role_name`` field (``admin``, ``maintain``, ``write``, ``triage``,
            ``read``, or a custom role's name), or ``None``.
        unreadable: the HTTP status (403, 404) when the permission could not be read.
    """

    permission: str | None = None
    role_name: str | None = None
    unreadable: int | None = None

    @property
    def grants_write(self) -> bool:
        """Whether the author can push: ``permission`` or ``role_name`` is ``write``,
        ``maintain`` or ``admin`` (a custom role based on write reports ``permission:
        write``)."""
        if self.unreadable is not None:
            return False
        return any(
            (value or "").lower() in WRITE_ROLES for value in (self.permission, self.role_name)
        )

    def words(self, login: str) -> str:
        """How a refusal names it: ``permission read`` (with the role when it differs), or
        that the permission of ``login`` could not be read."""
        if self.unreadable is not None:
            return (
                f"the repository permission of {login} could not be read (HTTP {self.unreadable})"
            )
        permission = self.permission or "not reported"
        role = self.role_name
        if role and role.lower() != permission.lower():
            return f"permission {permission}, role {role}"
        return f"permission {permission}"


class Verdict(Enum):
    """What the policy says of an author before any request."""

    TRUSTED = "trusted"  #: a term trusts the author
    UNTRUSTED = "untrusted"  #: no term does, and asking would not help
    ASK = "ask"  #: only ``write`` can: the author's permission decides


def judge(policy: TrustPolicy, author: Author) -> Verdict:
    """Judge an author by the policy's terms (SPEC 6.1), without a request.

    ``any`` trusts everyone; then ``@login`` (``@ghost`` for a comment without a ``user``),
    then the association; an author no term trusts is :attr:`Verdict.ASK` when the policy
    has ``write`` and the author is an account (a deleted one has no permission), else
    :attr:`Verdict.UNTRUSTED`. A missing association matches no association term.
    """
    if policy.trust_all or author.matched_login in policy.logins:
        return Verdict.TRUSTED
    if author.association is not None and author.association.upper() in policy.associations:
        return Verdict.TRUSTED
    if policy.write and author.login is not None and author.login.lower() != DELETED_LOGIN:
        return Verdict.ASK
    return Verdict.UNTRUSTED


def author_words(author: Author, permission: Permission | None = None) -> str:
    """An author as messages name one: ``drive-by (NONE)``, ``drive-by (association not
    reported)``, ``ghost, a deleted account (NONE)``, with the permission when it was asked
    (``drive-by (NONE, permission read)``)."""
    who = author.login if author.login is not None else f"{DELETED_LOGIN}, a deleted account"
    details = [author.association if author.association is not None else "association not reported"]
    if permission is not None:
        details.append(permission.words(author.login or DELETED_LOGIN))
    return f"{who} ({', '.join(details)})"


def untrusted_message(
    comment_id: int, author: Author, policy: TrustPolicy, permission: Permission | None = None
) -> str:
    """Why a comment is not a plan or sibling (SPEC 6.1), e.g. ``comment 5009 was written by
    drive-by (NONE), not a trusted author; trusted-authors is
    OWNER,MEMBER,COLLABORATOR,write``; ``permission`` when it was asked."""
    return (
        f"comment {comment_id} was written by {author_words(author, permission)}, not a "
        f"trusted author; {_INPUT} is {policy.shown}"
    )
