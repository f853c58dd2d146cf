"""Markdown for job summaries (SPEC 8): escaping, fences, links, tables within a size limit.

Pure. Comment-derived text outside a code fence is escaped (:func:`escape_cell`: HTML special
characters, ``|``, backticks, newlines, Markdown punctuation); code sits inside a fence longer
than any backtick run in it (:func:`code_fence`); a summary stays under :data:`SUMMARY_LIMIT`
bytes, with a visible note when something is left out (:func:`table_within`,
:func:`clip_utf8`). Each mode's ``render`` module builds its summary from these.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .core.utf8 import utf8_size

#: GitHub refuses step summaries over 1 MiB; stay well below it.
SUMMARY_LIMIT = 1_000_000


_BACKTICK_RUN = re.compile(r"`+")


_SAFE_URL = re.compile(r"https?://[^\s<>()\[\]\"'`|]+", re.ASCII)


_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "|": "&#124;", "`": "&#96;"}
    | dict.fromkeys("\r\n", " ")
    # Markdown punctuation: no links, images, emphasis or strikethrough from comments.
    | {char: "\\" + char for char in "\\[]()!*_~"}
)


#: What GitHub would turn into a link or a mention: ``@`` (mentions, e-mail addresses), the
#: ``:`` of ``scheme://`` and the ``.`` of ``www.`` (bare URLs).
_LINK_MAKERS = re.compile(r"@|:(?=//)|(?<![0-9A-Za-z])(?i:www)\.", re.ASCII)
#: An empty HTML comment: it renders as nothing, but splits the text around it, so neither
#: GitHub's mention filter nor the autolink extension sees a whole ``@name`` or URL.
_SPLIT = "<!-- -->"


def _split_link_maker(match: re.Match[str]) -> str:
    """``@`` -> ``@<!-- -->``; ``:`` -> ``<!-- -->:``; ``www.`` -> ``www<!-- -->.``."""
    found = match.group()
    return found + _SPLIT if found == "@" else found[:-1] + _SPLIT + found[-1]


def escape_cell(text: str) -> str:
    """Escape untrusted text for a Markdown table cell or inline HTML (SPEC 8).

    HTML special characters become entities, ``|`` and backticks become numeric entities,
    line breaks become spaces, and Markdown's link, image and emphasis punctuation is
    backslash-escaped, so the text can neither break the table nor inject HTML, links,
    images or code spans. Bare URLs and ``@mentions`` render inert: an empty HTML comment
    after each ``@`` and before the ``:`` of ``scheme://`` and the ``.`` of ``www.`` splits
    them, so GitHub links nothing and notifies nobody. It renders as the original text.
    """
    return _LINK_MAKERS.sub(_split_link_maker, text.translate(_ESCAPES))


def code_fence(text: str) -> str:
    """Return a backtick fence longer than any backtick run in ``text`` (at least 3)."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    return "`" * max(3, longest + 1)


@dataclass(frozen=True, slots=True)
class CommentLink:
    """A comment shown in the summary: its id and web URL (linked only if it is a plain URL)."""

    id: int
    html_url: str | None


def link(comment: CommentLink | None) -> str:
    """The comment as a Markdown link (its id, linked when its URL is a plain ``http(s)`` URL),
    or an em dash when there is none."""
    if comment is None:
        return "—"
    if comment.html_url and _SAFE_URL.fullmatch(comment.html_url):
        return f"[{comment.id}]({comment.html_url})"
    return str(comment.id)


def clip_utf8(text: str, limit: int) -> str:
    """The longest prefix of ``text`` within ``limit`` UTF-8 bytes, cut at a character
    boundary (a lone surrogate, which the write turns into U+FFFD, counts as 3 bytes)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    cut = max(0, limit)
    while cut > 0 and data[cut] & 0xC0 == 0x80:  # a continuation byte: back to a boundary
        cut -= 1
    return data[:cut].decode("utf-8", "surrogatepass")


def table_within(
    head: str, rows: Iterable[str], total: int, note: str, limit: int, *, noun: str
) -> str:
    """``head`` and as many ``rows`` as fit in ``limit`` UTF-8 bytes; when some do not fit,
    a visible warning (``note``) says how many are left out: its ``{left}`` becomes the count
    and ``noun`` through :func:`plural` (``"1 more finding"``, ``"12 more findings"``)."""
    warning = "\n> [!WARNING]\n> " + note + "\n"
    room = limit - utf8_size(head) - utf8_size(warning) - 20
    kept: list[str] = []
    for row in rows:
        size = utf8_size(row)
        if size > room:
            left = plural(total - len(kept), noun)
            return head + "".join(kept) + warning.replace("{left}", left)
        room -= size
        kept.append(row)
    return head + "".join(kept)


def plural(number: int, noun: str, many: str | None = None) -> str:
    """``number`` and ``noun``, the noun in the plural unless ``number`` is 1: ``"1 warning"``,
    ``"0 warnings"``, ``"1,234 errors"`` (``many``: an irregular plural). The one helper for
    every count in summaries, log lines and annotations."""
    return f"{number:,} {noun if number == 1 else (many or noun + 's')}"


def key_value_table(rows: Sequence[tuple[str, str]]) -> str:
    """A two-column table of ``(label, value)`` rows (values already escaped), the first row
    as its (left-aligned) header: GFM needs a header row, and an empty one draws an empty
    strip. Ends with a newline; empty for no rows."""
    lines = [f"| {label} | {value} |\n" for label, value in rows]
    return "".join([*lines[:1], "|:--|:--|\n", *lines[1:]]) if rows else ""


_MERMAID_PLAIN = frozenset(string.ascii_letters + string.digits + " _.,:/+=-")


def mermaid_text(text: str) -> str:
    """Escape ``text`` for a quoted Mermaid node label (SPEC 13).

    Every character but ASCII letters, digits, space and ``_.,:/+=-`` becomes a Mermaid
    entity code ``#<decimal>;`` (Mermaid shows ``#34;`` as ``"``), line breaks included. So
    the label can never hold a ``"`` (which would close the node), a line break (the line), a
    backtick or tilde (the Markdown fence), ``-->`` (an edge), ``<``/``>`` (which Mermaid's
    sanitizer would drop as markup), ``[``/``]``, ``#``, ``;`` or ``&``: it shows as the
    original text, never as markup.
    """
    return "".join(char if char in _MERMAID_PLAIN else f"#{ord(char)};" for char in text)


def summary_head(
    mode: str,
    status: str,
    exit_code: int,
    icon: str,
    *,
    detail: str = "",
    message: str | None = None,
    facts: Sequence[tuple[str, str]] = (),
) -> str:
    """The top of every mode's job summary (SPEC 8): a heading with the status once, its icon
    and exit code, e.g. ``### ❌ frame-spine validate: `invalid` (exit code 1): 8 errors, 1
    warning`` (``detail`` is already escaped; ``mode`` empty: a run that stopped before any mode
    ran, ``frame-spine: ...``); the message (what happened, escaped) quoted right under it when
    there is one; then the :func:`key_value_table` of ``facts`` (values already escaped). Ends
    with a newline."""
    tail = f": {detail}" if detail else ""
    name = f"frame-spine {mode}" if mode else "frame-spine"
    head = f"### {icon} {name}: `{escape_cell(status)}` (exit code {exit_code}){tail}\n\n"
    if message:
        head += f"> {escape_cell(message)}\n\n"
    return head + key_value_table(facts)


def comment_rows(
    repository: str | None, plan: CommentLink | None, sibling: CommentLink | None
) -> list[tuple[str, str]]:
    """The :func:`key_value_table` rows naming where a plan was read (SPEC 8, 10):
    ``Repository`` (escaped; an em dash when unknown), ``Plan comment`` and ``Sibling
    comment`` (:func:`link`)."""
    return [
        ("Repository", escape_cell(repository) if repository else "—"),
        ("Plan comment", link(plan)),
        ("Sibling comment", link(sibling)),
    ]
