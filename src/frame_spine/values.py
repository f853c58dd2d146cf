"""The inputs that name things, checked (SPEC 5, 6): ids (and the links people paste
instead, with what to pass), the API URL. Pure; :mod:`frame_spine.inputs` types use them."""

from __future__ import annotations

import re
from typing import Any

from .core.shown import knob, listed, quoted
from .github.urls import USERINFO, Origin, hidden_parts

_DIGITS = re.compile(r"[0-9]{1,20}", re.ASCII)  # ids are 64-bit on GitHub
#: A comment's link (``...#issuecomment-N``, or the fragment alone) or API URL
#: (``.../issues/comments/N``): the id is its ``N``.
_COMMENT_LINK = re.compile(r"(?:issuecomment-|/issues/comments/)([0-9]{1,20})/?", re.ASCII)
#: An issue's or pull request's link (``.../issues/N``, ``.../pull/N``, maybe with a fragment).
_ISSUE_LINK = re.compile(r"/(?:issues|pull)/([0-9]{1,20})(?:[/?#].*)?", re.ASCII)
_API_URL = re.compile(r"https?://[^\s/?#]+(?:/[^\s?#]*)?", re.ASCII | re.IGNORECASE)


def parse_positive_id(value: Any, name: str) -> int | None:
    """Parse an id input (issue number, comment id): a positive decimal integer or empty."""
    name = knob(name)
    if value is None:
        return None
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if not text:
            return None
        if not _DIGITS.fullmatch(text):
            raise ValueError(
                f"{name} {quoted(text)} is not a positive integer{_id_hint(text, name)}"
            )
        number = int(text)
    if number <= 0 or isinstance(value, bool):  # True is an int, not an id
        raise ValueError(f"{name} {value!r} is not a positive integer")
    return number


def _id_hint(text: str, name: str) -> str:
    """What to pass instead of a link given as an id (SPEC 5: ids stay positive integers):
    the ``N`` of ``#issuecomment-N`` (or of an API URL) for a comment id, the ``N`` of
    ``/issues/N`` or ``#N`` for an issue number; ``""`` when ``text`` is no such link."""
    comment = _COMMENT_LINK.search(text)
    issue = _ISSUE_LINK.search(text)
    if name.endswith("comment-id"):
        if comment is not None and comment.end() == len(text):
            return f": that is a comment's link, pass its id {comment.group(1)}"
        if issue is not None:
            return (
                f": that is the link of issue {issue.group(1)}; a comment's id is the N of "
                "#issuecomment-N in the comment's own link (its menu: Copy link)"
            )
        return ""
    if issue is not None:
        return f": that is the link of issue {issue.group(1)}, pass {issue.group(1)}"
    if re.fullmatch(r"#([0-9]{1,20})", text, re.ASCII):
        return f": pass {text[1:]}, without the #"
    return ""


def check_api_url(value: Any) -> str:
    """Check an API URL (SPEC 6 "The wire, exactly": ``api-url``, ``--api-url``, or the
    ``GITHUB_API_URL`` they fall back to) before any request.
    """
    text = str(value or "").strip()
    hidden = hidden_parts(text)
    if hidden:
        advice = ", and the token as the token" if USERINFO in hidden else ""
        it = "it" if len(hidden) == 1 else "them"
        raise ValueError(
            f"{knob('api-url')} carries {listed(hidden)} (the value is not shown): give the "
            f"API URL without {it}{advice}"
        )
    if not _API_URL.fullmatch(text):
        raise ValueError(f"{knob('api-url')} {quoted(text)} is not an http(s) URL")
    try:
        origin, _ = Origin.of(text)
    except ValueError as exc:
        raise ValueError(f"{knob('api-url')} {quoted(text)} cannot be used: {exc}") from None
    if origin.scheme == "http" and not origin.loopback:
        raise ValueError(
            f"{knob('api-url')} uses plain http: the token would cross the network "
            "unencrypted; use https"
        )
    return origin.scheme + text[len(origin.scheme) :].rstrip("/")
