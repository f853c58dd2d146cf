"""The API token: where it comes from, cleaning it before use, and keeping it out of
everything emitted (SPEC 6, 9).

Pure. The token variables are read in the order of the ``gh`` program (:func:`token_variables`,
:func:`token_from_environment`); running ``gh auth token`` itself is an edge's job
(:mod:`frame_spine.programs`). A token is used with surrounding whitespace removed; a token that
still holds a character an HTTP header cannot carry is refused before any request, and so is
the absence of any token (:func:`no_token`). :class:`Redactor` is the one redaction every
emitted text passes (outputs, job summary, annotations, stdout, stderr, files).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from .hosts import TENANT_SUFFIX, github_host, is_public_api

#: What a redacted token looks like in emitted text.
REDACTED = "***"
#: The shortest text ever redacted, in characters (SPEC 6): a token value shorter than this
#: is not a token GitHub issues (it is still sent as given), and redacting it, or a piece of
#: a multi-line token as short, would blank out ordinary words (``s`` out of ``status``).
MIN_REDACTED_LENGTH = 8


#: The variables ``gh`` reads a token from, for github.com, in order (SPEC 9).
PUBLIC_TOKEN_VARIABLES = ("GH_TOKEN", "GITHUB_TOKEN")
#: The variables ``gh`` reads first for a GitHub Enterprise Server, in order (SPEC 9).
ENTERPRISE_TOKEN_VARIABLES = ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")
#: Every variable ``gh`` reads a token from (the one home of these names: the command line's
#: redaction, the action's and the environment ``gh`` is run with all use this).
TOKEN_VARIABLES = PUBLIC_TOKEN_VARIABLES + ENTERPRISE_TOKEN_VARIABLES


@dataclass(frozen=True, slots=True)
class TokenProblem:
    """A token that cannot be sent, or no token at all; nothing is requested either way.

    Attributes:
        message: why, without quoting the token: a reason (``the token contains a line
            break``), or for a missing token the whole message (:func:`no_token`).
        missing: ``True`` when there is no token at all.
    """

    message: str
    missing: bool = False

    def refusal(self, what: str) -> str:
        """The ``gh-auth-expired`` message for a request about ``what`` (``plan comment 5 in
        o/r``) that is not sent (SPEC 6, 9)."""
        if self.missing:
            return self.message
        return (
            f"{what}: {self.message}, which an HTTP header cannot carry: no request was made; "
            "fix the token"
        )


def no_token(advice: str) -> TokenProblem:
    """No token from any source (SPEC 9): ``gh-auth-expired`` without a request, since GitHub
    answers 404 for a private repository read without a token, which would read as
    ``comment-not-found``.
    """
    return TokenProblem(f"no token: {advice}", missing=True)


def token_variables(api_url: str) -> tuple[str, ...]:
    """The environment variables a token is read from for ``api_url``, in order (SPEC 9):
    ``GH_TOKEN``, ``GITHUB_TOKEN``; for a GitHub Enterprise Server (any API URL but the
    public one and a GitHub Enterprise Cloud tenant's ``https://api.TENANT.ghe.com``, which
    ``gh`` reads like github.com) ``GH_ENTERPRISE_TOKEN`` and ``GITHUB_ENTERPRISE_TOKEN``
    first."""
    if is_public_api(api_url) or github_host(api_url).endswith(TENANT_SUFFIX):
        return PUBLIC_TOKEN_VARIABLES
    return ENTERPRISE_TOKEN_VARIABLES + PUBLIC_TOKEN_VARIABLES


def token_from_environment(environ: Mapping[str, str], api_url: str) -> tuple[str, str] | None:
    """The first token variable of :func:`token_variables` that holds more than whitespace."""
    for name in token_variables(api_url):
        if (value := environ.get(name, "")).strip():
            return name, value
    return None


def clean_token(raw: str | None) -> str | TokenProblem | None:
    """Clean a token as read from an input or the environment (SPEC 6 "The wire, exactly"):
    ``None`` when blank, a :class:`TokenProblem` naming the first character an HTTP header
    cannot carry."""
    token = (raw or "").strip()
    for char in token:
        if char in "\r\n":
            return TokenProblem("the token contains a line break")
        if ord(char) < 0x20 or ord(char) == 0x7F:
            return TokenProblem("the token contains a control character")
        if ord(char) > 0xFF:
            return TokenProblem("the token contains a character outside Latin-1")
    return token or None


def redacted_forms(secret: str) -> set[str]:
    """The texts :class:`Redactor` replaces for one secret value (SPEC 6): the value as is,
    trimmed, JSON-escaped, escaped for a workflow command, as a Python literal, and (for a
    multi-line value) each line of it; only forms of :data:`MIN_REDACTED_LENGTH` characters
    or more, and none at all when the trimmed value is shorter than that (not a token)."""
    if len(secret.strip()) < MIN_REDACTED_LENGTH:
        return set()
    forms = {secret, secret.strip(), json.dumps(secret)[1:-1], repr(secret)[1:-1]}
    forms.add(json.dumps(secret, ensure_ascii=False)[1:-1])
    forms.add(secret.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    forms.update(piece.strip() for piece in secret.replace("\r", "\n").split("\n"))
    return {form for form in forms if len(form) >= MIN_REDACTED_LENGTH}


class Redactor:
    """Replaces every occurrence of the given secrets (and their escaped forms,
    :func:`redacted_forms`) by ``***``: the one redaction rule of every emitted text.

    Args:
        secrets: the raw secret values (e.g. the token input and ``GITHUB_TOKEN`` as given);
            ``None``, blank values and values shorter than :data:`MIN_REDACTED_LENGTH`
            characters once trimmed are ignored.

    Calling it on a text returns the text with each secret form replaced, longest first.
    Never raises; with no secrets it returns the text unchanged.
    """

    __slots__ = ("_forms",)

    def __init__(self, *secrets: str | None) -> None:
        forms = set().union(*(redacted_forms(secret) for secret in secrets if secret))
        self._forms = sorted(forms, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __call__(self, text: str) -> str:
        for form in self._forms:
            text = text.replace(form, REDACTED)
        return text
