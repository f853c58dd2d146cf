"""The API token: cleaning it before use, and keeping it out of everything emitted (SPEC 6).

Pure. A token is used with surrounding whitespace removed; a token that still holds a character
an HTTP header cannot carry is refused before any request. :class:`Redactor` is the one
redaction every emitted text passes (outputs, job summary, annotations, stdout, stderr, files).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

#: What a redacted token looks like in emitted text.
REDACTED = "***"
#: Fragments of a multi-line token shorter than this are not redacted on their own (they
#: would blank out ordinary words); the whole value and its escaped forms always are.
_MIN_FRAGMENT = 6


@dataclass(frozen=True, slots=True)
class TokenProblem:
    """A token that cannot be sent: ``message`` says why, without quoting the token."""

    message: str


def _header_problem(token: str) -> str | None:
    for char in token:
        if char in "\r\n":
            return "the token contains a line break"
        if ord(char) < 0x20 or ord(char) == 0x7F:
            return "the token contains a control character"
        if ord(char) > 0xFF:
            return "the token contains a character outside Latin-1"
    return None


def clean_token(raw: str | None) -> str | TokenProblem | None:
    """Clean a token as read from an input or the environment (SPEC 6 "The wire, exactly").

    Args:
        raw: the value as given (``None`` or empty: no token).

    Returns:
        The token with surrounding whitespace removed; ``None`` when nothing is left; or a
        :class:`TokenProblem` when the token holds a character an HTTP header cannot carry
        (a line break, another control character, a character outside Latin-1). Never raises.
    """
    if raw is None:
        return None
    token = raw.strip()
    if not token:
        return None
    problem = _header_problem(token)
    return TokenProblem(problem) if problem is not None else token


def _variants(secret: str) -> set[str]:
    """The forms a secret can take in emitted text: as is, trimmed, JSON-escaped, escaped for
    a workflow command, and (for a multi-line value) each long enough line of it."""
    forms = {secret, secret.strip()}
    forms.add(json.dumps(secret, ensure_ascii=False)[1:-1])
    forms.add(json.dumps(secret)[1:-1])
    forms.add(secret.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    forms.add(repr(secret)[1:-1])
    for piece in secret.replace("\r", "\n").split("\n"):
        forms.add(piece.strip())
    return {form for form in forms if len(form) >= _MIN_FRAGMENT or form == secret.strip()}


class Redactor:
    """Replaces every occurrence of the given secrets (and their escaped forms) by ``***``.

    Args:
        secrets: the raw secret values (e.g. the token input and ``GITHUB_TOKEN`` as given);
            ``None`` and blank values are ignored.

    Calling it on a text returns the text with each secret form replaced, longest first.
    Never raises; with no secrets it returns the text unchanged.
    """

    __slots__ = ("_forms",)

    def __init__(self, *secrets: str | None) -> None:
        forms: set[str] = set()
        for secret in secrets:
            if secret and secret.strip():
                forms |= _variants(secret)
        self._forms = sorted((form for form in forms if form), key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __call__(self, text: str) -> str:
        for form in self._forms:
            if form in text:
                text = text.replace(form, REDACTED)
        return text
