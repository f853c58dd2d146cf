"""Who wrote it: the trust policy (SPEC 6.1), authors judged by it, and the words of a refusal
(asking GitHub is :mod:`frame_spine.github.authors`' job)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .shown import cut, knob, quoted

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
#: The default policy (SPEC 6.1).
DEFAULT_TRUSTED_AUTHORS = "OWNER,MEMBER,COLLABORATOR,write"
#: The login GitHub shows for a deleted account; a comment without a ``user`` has it.
DELETED_LOGIN = "ghost"
#: The ``permission`` values the ``write`` term trusts (GitHub reports ``maintain`` as ``write``).
WRITE_PERMISSIONS = frozenset({"write", "admin"})

_INPUT = "trusted-authors"
_SEPARATORS = re.compile(r"[\s,]+")
# GitHub logins: ASCII letters, digits and hyphens; ``[bot]`` for an app; ``_`` and ``.`` for
# Enterprise managed users (``name_shortcode``).
_LOGIN_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}(?:\[[bB][oO][tT]\])?"
_LOGIN = re.compile(f"@({_LOGIN_NAME})", re.ASCII)
_LOGIN_ONLY = re.compile(_LOGIN_NAME, re.ASCII)


@dataclass(frozen=True, slots=True)
class TrustPolicy:
    """A parsed ``trusted-authors`` value (:func:`parse_policy`): associations upper case,
    logins lower case, and ``shown``, its terms as messages quote them."""

    associations: frozenset[str]
    logins: frozenset[str]
    write: bool
    trust_all: bool
    shown: str


def parse_policy(value: str | None) -> TrustPolicy:
    """Parse a ``trusted-authors`` value (SPEC 6.1; empty: the default), or raise
    ``ValueError`` naming the input."""
    text = (value or "").strip() or DEFAULT_TRUSTED_AUTHORS
    terms = [term for term in _SEPARATORS.split(text) if term]
    if not terms:
        raise ValueError(
            f"{knob(_INPUT)} {quoted(text)} is an empty list: name at least one term (the "
            f"default is {DEFAULT_TRUSTED_AUTHORS})"
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
                f"{knob(_INPUT)}: {quoted(term)} is not a term (an author association such as "
                "OWNER, MEMBER or COLLABORATOR, @login, write, or any alone)"
            )
    if trust_all and len(shown) > 1:
        raise ValueError(
            f"{knob(_INPUT)}: any trusts every author and cannot stand beside other terms "
            f"({','.join(shown.values())})"
        )
    return TrustPolicy(
        frozenset(associations), frozenset(logins), write, trust_all, cut(",".join(shown.values()))
    )


#: The default policy, parsed.
DEFAULT_POLICY = parse_policy(DEFAULT_TRUSTED_AUTHORS)


@dataclass(frozen=True, slots=True)
class Author:
    """Who wrote (or edited) a comment, as GitHub says: ``login`` ``None`` for a deleted
    account, ``association`` ``None`` when not reported (an editor)."""

    login: str | None
    association: str | None

    @property
    def matched_login(self) -> str | None:
        """The login ``@login`` terms are compared with (``None``: one GitHub never issues)."""
        if self.login is None:
            return DELETED_LOGIN
        return self.login.lower() if _LOGIN_ONLY.fullmatch(self.login) else None

    @property
    def is_bot(self) -> bool:
        """Whether the login is an app's (``...[bot]``)."""
        return (self.matched_login or "").endswith("[bot]")


@dataclass(frozen=True, slots=True)
class Permission:
    """What the collaborator permission request answered; ``refused``: the HTTP status of an
    answer that is no permission."""

    permission: str | None = None
    role_name: str | None = None
    refused: int | None = None

    @property
    def grants_write(self) -> bool:
        """Whether ``permission`` is ``write`` or ``admin``."""
        permission = self.permission or ""
        ascii_lower = permission.lower() if permission.isascii() else ""
        return self.refused is None and ascii_lower in WRITE_PERMISSIONS

    def words(self, login: str) -> str:
        """How a refusal names it (``permission read``)."""
        if self.refused == 403:
            return "permission not readable by the token (HTTP 403)"
        if self.refused is not None:
            return f"the repository permission of {login} could not be read (HTTP {self.refused})"
        permission = self.permission or "not reported"
        role = self.role_name
        if role and role.lower() != permission.lower():
            return f"permission {permission}, role {cut(role)}"
        return f"permission {permission}"


class Verdict(Enum):
    """What the policy says of an author before any request."""

    TRUSTED = "trusted"  #: a term trusts the author
    UNTRUSTED = "untrusted"  #: no term does, and asking would not help
    ASK = "ask"  #: only ``write`` can: the author's permission decides


def judge(policy: TrustPolicy, author: Author) -> Verdict:
    """Judge an author by the policy's terms without a request (SPEC 6.1)."""
    login = author.matched_login
    if policy.trust_all or login in policy.logins:
        return Verdict.TRUSTED
    if login is None or login == DELETED_LOGIN:
        return Verdict.UNTRUSTED
    if (author.association or "").upper() in policy.associations:
        return Verdict.TRUSTED
    if policy.write and not author.is_bot:
        return Verdict.ASK
    return Verdict.UNTRUSTED


def author_words(author: Author, permission: Permission | None = None) -> str:
    """An author as messages name one (``drive-by (NONE, permission read)``)."""
    who = cut(author.login) if author.login is not None else f"{DELETED_LOGIN}, a deleted account"
    details = [author.association if author.association is not None else "association not reported"]
    if permission is not None:
        details.append(permission.words(author.login or DELETED_LOGIN))
    return f"{who} ({', '.join(details)})"


def untrusted_message(
    comment_id: int, author: Author, policy: TrustPolicy, permission: Permission | None = None
) -> str:
    """Why a comment is not a plan or sibling: its author is not trusted (SPEC 6.1)."""
    message = (
        f"comment {comment_id} was written by {author_words(author, permission)}, not a "
        f"trusted author; {knob(_INPUT)} is {policy.shown}"
    )
    return message + refused_note(author, permission)


def refused_note(author: Author, permission: Permission | None) -> str:
    """What a message adds when the token may not read permissions (else ``""``)."""
    if permission is None or permission.refused != 403:
        return ""
    return (
        "; the token cannot read repository permissions (GitHub answers 403 to a token that "
        f"cannot push): @{author.login} in {knob(_INPUT)} trusts that account without the request"
    )
