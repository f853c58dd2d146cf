"""Reading the GitHub REST API's answers: body bytes in, comments out (SPEC 6 "The wire,
exactly").

Pure. A body is decoded as UTF-8 whatever ``Content-Type`` says (JSON is UTF-8, RFC 8259
section 8.1); bytes that are not UTF-8 name their offset. JSON ``\\ud800``-style unpaired
surrogates become U+FFFD, so every later output is valid UTF-8. ``body: null`` (or no
``body``) is the empty body; a ``body`` of another JSON type, or an answer that is not the
expected JSON, is an :class:`Unusable` answer saying why. The answer must be the comment asked
for: its ``id``, and the repository and issue in the path of its ``issue_url``.
:class:`FetchedComment` is what the rest of the program reads of a comment.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from types import NoneType
from typing import Any, TypeVar, get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from ..core.identity import hidden_problem, issue_number_problem
from ..core.shown import quoted
from ..core.trust import Author, Permission
from ..core.utf8 import valid_utf8

#: The path of an issue's API URL: ``[/api/v3]/repos/{owner}/{repo}/issues/{N}``.
_ISSUE_PATH = re.compile(r"/repos/([^/]+/[^/]+)/issues/[0-9]{1,20}/?$", re.ASCII)
#: The end of an issue's API URL, ``/issues/{N}``.
_ISSUE_URL = re.compile(r"/issues/([0-9]{1,20})/?$", re.ASCII)
_UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class FetchedComment:
    """An issue comment as fetched.

    Attributes:
        id: the comment id. body: its text (``""`` when the API says ``null``).
        issue_url: the API URL of its issue (``.../issues/N``). html_url: its web URL.
        updated_at: when it was last edited (``YYYY-MM-DDTHH:MM:SSZ``), when the API says.
        author_login: ``user.login``, or ``None`` for a deleted account (no ``user``, or an
            empty login). author_association: ``author_association``, or ``None`` when
            the API does not report it (SPEC 6.1).
        created_at: when it was written. node_id: its GraphQL id.
        hidden: whether GitHub shows it minimized; hidden_reason: the reason given.
    """

    id: int
    body: str
    issue_url: str
    html_url: str | None
    updated_at: str | None = None
    author_login: str | None = None
    author_association: str | None = None
    created_at: str | None = None
    node_id: str | None = None
    hidden: bool = False
    hidden_reason: str | None = None

    @property
    def author(self) -> Author:
        """Who wrote it, for the trust policy (SPEC 6.1)."""
        return Author(self.author_login, self.author_association)

    @property
    def issue_number(self) -> int | None:
        """The issue number at the end of ``issue_url`` (``.../issues/N``), or ``None``."""
        match = _ISSUE_URL.search(self.issue_url)
        return int(match.group(1)) if match else None

    @property
    def hidden_problem(self) -> str | None:
        """Why it is not a plan or sibling when GitHub shows it hidden (SPEC 6.1), or ``None``."""
        return hidden_problem(self.id, self.hidden, self.hidden_reason)

    def issue_problem(self, role: str, expected: int | None) -> str | None:
        """Whether this comment belongs to issue ``expected`` by its ``issue_url`` (SPEC 6
        step 2a; see :func:`~frame_spine.core.identity.issue_number_problem`): ``None`` when
        it does or when no issue number is known, else the reason."""
        if expected is None:
            return None
        return issue_number_problem(role, self.id, self.issue_number, expected)


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


@dataclass(frozen=True, slots=True)
class Unusable:
    """An answer that cannot be used: ``detail`` is the phrase a message puts after the
    request's name, e.g. ``the GitHub API's answer is not UTF-8 (byte 0xff at offset 12)``."""

    detail: str


class StrictPayload(BaseModel):
    """A payload read with JSON types as they are, no coercion (SPEC 6 "The wire, exactly")."""

    model_config = ConfigDict(strict=True)


class _UserPayload(StrictPayload):
    """The fields read from a comment's ``user``."""

    login: str | None = None


class _MinimizedPayload(StrictPayload):
    """A comment's ``minimized``: why GitHub hides it."""

    reason: str | None = None


class _CommentPayload(StrictPayload):
    """The fields read from GitHub's issue-comment JSON (others are ignored)."""

    id: int
    body: str | None = None
    issue_url: str
    html_url: str | None = None
    updated_at: str | None = None
    user: _UserPayload | None = None
    author_association: str | None = None
    created_at: str | None = None
    node_id: str | None = None
    minimized: _MinimizedPayload | None = None

    def fetched(self) -> FetchedComment:
        """The comment as the rest of the program reads it."""
        return FetchedComment(
            id=self.id,
            body=self.body or "",
            issue_url=self.issue_url,
            html_url=self.html_url,
            updated_at=self.updated_at,
            author_association=self.author_association,
            created_at=self.created_at,
            node_id=self.node_id,
            author_login=(self.user.login or None) if self.user is not None else None,
            hidden=self.minimized is not None,
            hidden_reason=self.minimized.reason if self.minimized is not None else None,
        )


class _PermissionPayload(StrictPayload):
    """The fields read from ``GET .../collaborators/{login}/permission``."""

    permission: str | None = None
    role_name: str | None = None


class _IssuePayload(StrictPayload):
    number: int
    pull_request: dict[str, Any] | None = None


_COMMENT = TypeAdapter(_CommentPayload)
_PERMISSION = TypeAdapter(_PermissionPayload)
_COMMENTS = TypeAdapter(list[_CommentPayload])
_ISSUES = TypeAdapter(list[_IssuePayload])

_WORDS = {int: "a whole number", str: "text"}


def _expected(model: type[BaseModel], prefix: str = "") -> dict[str, str]:
    """What each field of ``model`` must be, for messages: ``{"id": "a whole number",
    "user": "an object or null", "user.login": "text or null", ...}``."""
    expected: dict[str, str] = {}
    for name, field in model.model_fields.items():
        kinds = get_args(field.annotation) or (field.annotation,)
        kind = next(kind for kind in kinds if kind is not NoneType)
        words = _WORDS.get(kind, "an object")
        expected[prefix + name] = words if field.is_required() else f"{words} or null"
        if hasattr(kind, "model_fields"):
            expected.update(_expected(kind, f"{prefix}{name}."))
    return expected


_EXPECTED = _expected(_CommentPayload) | _expected(_PermissionPayload) | _expected(_IssuePayload)


#: How a message names a JSON value's type (the first that matches; else an object).
_JSON_TYPES = (
    (type(None), "null"),
    (bool, "true or false"),
    (int | float, "a number"),
    (str, "text"),
    (list, "a list"),
)


def _json_type(value: Any) -> str:
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), "an object")


def _first_problem(exc: ValidationError) -> str:
    """The first validation error in words: ``item 3: its id is missing``."""
    error: ErrorDetails = exc.errors()[0]
    location = list(error["loc"])
    where = ""
    if location and isinstance(location[0], int):
        where = f"item {int(location.pop(0)) + 1}: "
    if not location:
        return f"{where}it is {_json_type(error['input'])}, not an object"
    field = ".".join(str(part) for part in location)
    if error["type"] == "missing":
        return f"{where}its {field} is missing"
    expected = _EXPECTED.get(field, "something else")
    return f"{where}its {field} is {_json_type(error['input'])}, not {expected}"


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _valid(data: Any) -> Any:
    """``data`` with every string valid UTF-8 (:func:`~frame_spine.core.utf8.valid_utf8`)."""
    if isinstance(data, str):
        return valid_utf8(data)
    if isinstance(data, list):
        return [_valid(item) for item in data]
    if isinstance(data, dict):
        return {valid_utf8(key): _valid(value) for key, value in data.items()}
    return data


def decode_json(body: bytes | bytearray, content_type: str = "") -> Any | Unusable:
    """Decode an answer as UTF-8 (an optional BOM skipped) and parse it as JSON."""
    start = 3 if body.startswith(_UTF8_BOM) else 0
    try:
        text = body[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = start + exc.start
        return Unusable(
            f"the GitHub API's answer is not UTF-8 (byte 0x{body[offset]:02x} at offset {offset})"
        )
    try:
        data = json.loads(text)
        return _valid(data) if _ESCAPED_SURROGATE.search(text) else data
    except (ValueError, RecursionError):  # JSONDecodeError, too many digits, too deep
        kind = content_type.split(";", 1)[0].strip()
        shown = kind if kind.isascii() and kind.isprintable() and len(kind) <= 60 else ""
        note = f" (it is {shown})" if shown and not kind.endswith("json") else ""
        return Unusable(f"the GitHub API's answer is not JSON{note}")


def issue_url_problem(issue_url: str, repository: str, *, redirected: bool) -> str | None:
    """Why ``issue_url`` does not name an issue of ``repository``, or ``None`` (SPEC 6).

    The path of the URL must end with ``/repos/{owner}/{repo}/issues/N`` (compared
    case-insensitively; a GitHub Enterprise Server path starts with ``/api/v3``). After a
    redirect within the API (a renamed or transferred repository) only ``/issues/N`` is
    required: the repository has another name now.
    """
    try:
        path = urlsplit(issue_url).path
    except ValueError:
        path = ""
    if redirected:
        if _ISSUE_URL.search(path):
            return None
        return f"its issue_url {quoted(issue_url)} is not the URL of an issue"
    match = _ISSUE_PATH.search(path)
    if match and match.group(1).lower() == repository.lower():
        return None
    return f"its issue_url {quoted(issue_url)} is not an issue of {repository}"


Shape = TypeVar("Shape")


def read_json(
    body: bytes | bytearray,
    content_type: str,
    adapter: TypeAdapter[Shape],
    container: type,
    kind: str,
    what: str,
) -> Shape | Unusable:
    """Decode an answer and check it against ``adapter``. Messages name the expected JSON
    ``kind`` ("a list of comments") and, for a wrong field, ``what`` it must be ("a list of
    issue comments"); ``container`` is the JSON type of ``kind``."""
    data = decode_json(body, content_type)
    if isinstance(data, Unusable):
        return data
    if not isinstance(data, container):
        return Unusable(f"the GitHub API's answer is {_json_type(data)}, not {kind}")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        return Unusable(f"the GitHub API's answer is not {what}: {_first_problem(exc)}")


def read_comment(
    body: bytes | bytearray, content_type: str, comment_id: int, repository: str, redirected: bool
) -> FetchedComment | Unusable:
    """Read the answer to ``GET .../issues/comments/{comment_id}`` (SPEC 6)."""
    payload = read_json(body, content_type, _COMMENT, dict, "an issue comment", "an issue comment")
    if isinstance(payload, Unusable):
        return payload
    if payload.id != comment_id:
        return Unusable(f"the GitHub API answered with another comment (id {payload.id})")
    problem = issue_url_problem(payload.issue_url, repository, redirected=redirected)
    if problem is not None:
        return Unusable(f"the GitHub API answered with another comment ({problem})")
    return payload.fetched()


def read_comment_page(
    body: bytes | bytearray,
    content_type: str,
    repository: str,
    issue_number: int | None,
    redirected: bool,
) -> list[FetchedComment] | Unusable:
    """Read one page of a comment listing (``.../issues/comments`` or
    ``.../issues/{issue_number}/comments``).
    """
    payloads = read_json(
        body, content_type, _COMMENTS, list, "a list of comments", "a list of issue comments"
    )
    if isinstance(payloads, Unusable):
        return payloads
    comments = [payload.fetched() for payload in payloads]
    for comment in comments:
        problem = issue_url_problem(comment.issue_url, repository, redirected=redirected)
        if problem is None and issue_number is not None and comment.issue_number != issue_number:
            problem = f"its issue_url {quoted(comment.issue_url)} is not issue #{issue_number}"
        if problem is not None:
            return Unusable(
                f"the GitHub API listed another comment (comment {comment.id}: {problem})"
            )
    return comments


def read_permission(body: bytes | bytearray, content_type: str) -> Permission | Unusable:
    """Read the answer to ``GET /repos/{o}/{r}/collaborators/{login}/permission`` (SPEC
    6.1): its ``permission`` and ``role_name`` (``{"permission": "write", "role_name":
    "maintain", "user": {...}}``), or :class:`Unusable`. Never raises."""
    payload = read_json(
        body, content_type, _PERMISSION, dict, "a permission", "a repository permission"
    )
    if isinstance(payload, Unusable):
        return payload
    return Permission(payload.permission, payload.role_name)


def read_issue_numbers(body: bytes | bytearray, content_type: str) -> list[int] | Unusable:
    """Read one page of ``GET /repos/{o}/{r}/issues``: the issue numbers, pull requests
    (which that listing also returns) left out; or :class:`Unusable`. Never raises."""
    issues = read_json(body, content_type, _ISSUES, list, "a list of issues", "a list of issues")
    if isinstance(issues, Unusable):
        return issues
    return [issue.number for issue in issues if issue.pull_request is None]


def api_message(body: bytes | bytearray) -> str:
    """The ``message`` of an error answer (GitHub's ``{"message": ...}``), or ``""`` when the
    answer is not such JSON. Never raises."""
    data = decode_json(body)
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        return str(data["message"])
    return ""
