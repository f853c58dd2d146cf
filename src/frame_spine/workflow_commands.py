"""Keeping untrusted text from being read as GitHub Actions workflow commands (SPEC 8).

Text output is wrapped (:func:`wrap_untrusted`) when a line could be read as a command; JSON
output never holds ``::`` or ``##[`` literally (:func:`json_line`).

The runner reads ``::command::`` at the start of any stdout line (after leading whitespace)
and the legacy ``##[command]`` form. Text quoted from comments is wrapped in
``::stop-commands::<token>`` ... ``::<token>::`` with a fresh random token, which the comment
cannot guess.
"""

from __future__ import annotations

import json
import secrets
from typing import Any


def could_be_command(text: str) -> bool:
    """Whether the runner could read some line of ``text`` as a workflow command: a line that
    starts with ``::`` after leading whitespace, or any ``##[``."""
    if "##[" in text:
        return True
    return any(line.lstrip().startswith("::") for line in text.splitlines())


def wrap_untrusted(text: str, token: str | None = None) -> str:
    """Wrap ``text`` so the runner processes no workflow command inside it."""
    while token is None or token in text:
        token = secrets.token_hex(16)  # a fresh random token, 128 bits
    body = text if text.endswith("\n") else text + "\n"
    return f"::stop-commands::{token}\n{body}::{token}::\n"


def json_line(value: Any) -> str:
    """Serialise ``value`` as one compact JSON line (UTF-8 text, non-ASCII not escaped).

    ``::`` and ``##[`` inside strings are written with a ``\\u`` escape, so the line can never
    be read as a GitHub Actions workflow command (SPEC 8 security); every JSON parser reads
    back exactly the same values. Other characters are written as they are (SPEC 5:
    non-ASCII is not escaped).
    """
    return protected_json_line(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def protected_json_line(text: str) -> str:
    """Escape ``::`` and ``##[`` in the compact JSON ``text`` as :func:`json_line` does
    (``:\\u003a``, ``#\\u0023[``): for JSON already serialised elsewhere (pydantic's
    ``model_dump_json``), so it can never be read as a workflow command (SPEC 8 security)."""
    if "::" in text:
        text = text.replace("::", ":\\u003a")
    if "##[" in text:
        text = text.replace("##[", "#\\u0023[")
    return text
