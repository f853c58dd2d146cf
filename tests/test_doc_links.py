"""Every relative link and image of README.md, docs/*.md and examples/README.md resolves as on
GitHub: the file or folder exists in the checkout, and a ``#anchor`` names a heading of the
target document by GitHub's slug (lower case, punctuation dropped, spaces to hyphens, ``-1``,
``-2`` ... for repeated headings). Links in code (fenced blocks, inline code) are not links."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

DOCUMENTS = sorted(
    [REPO / "README.md", REPO / "examples" / "README.md", *(REPO / "docs").glob("*.md")]
)
_FENCED = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[(?:[^\]\n]|\][^(])*\]\((?P<target>[^()\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(?P<text>.+?)[ \t]*#*[ \t]*$", re.M)
_EXTERNAL = ("http://", "https://", "mailto:")


def prose(text: str) -> str:
    """``text`` without its fenced code blocks and inline code spans."""
    return _INLINE_CODE.sub("", _FENCED.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text (inline code keeps its text, marks dropped)."""
    text = heading.replace("`", "").lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(document: Path) -> set[str]:
    """Every heading anchor of ``document``, repeated headings numbered as GitHub does."""
    seen: dict[str, int] = {}
    found = set()
    for match in _HEADING.finditer(_FENCED.sub("", document.read_text("utf-8"))):
        base = slug(match.group("text"))
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def links(document: Path) -> list[str]:
    return [m.group("target") for m in _LINK.finditer(prose(document.read_text("utf-8")))]


def broken(document: Path, root: Path = REPO) -> list[str]:
    """The relative links of ``document`` that do not resolve inside ``root``, as written."""
    bad = []
    for target in links(document):
        if target.startswith(_EXTERNAL):
            continue
        path, _, anchor = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        missing = not resolved.exists() or root not in (resolved, *resolved.parents)
        if missing or (anchor and (resolved.suffix != ".md" or anchor not in anchors(resolved))):
            bad.append(target)
    return bad


def test_the_slug_is_githubs() -> None:
    assert slug("Who may write plans") == "who-may-write-plans"
    assert slug("Seeing a plan (`mode: render`)") == "seeing-a-plan-mode-render"
    assert slug("Try it first: a fresh clone, no GitHub account") == (
        "try-it-first-a-fresh-clone-no-github-account"
    )
    assert slug("`--repo` from the checkout") == "--repo-from-the-checkout"
    assert slug("One run, every step") == "one-run-every-step"


def test_a_missing_file_and_a_missing_anchor_are_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## Two words\n\n## Two words\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md#two-words) [ok](other.md#two-words-1) [ok](#page)\n"
        "![pic](missing.png) [gone](other.md#three-words) [up](../../outside.md)\n"
        "[self](#nowhere) `[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n"
    )
    assert broken(page, tmp_path) == [
        "missing.png",
        "other.md#three-words",
        "../../outside.md",
        "#nowhere",
    ]


def test_the_documents_are_the_ones_we_link() -> None:
    names = [str(path.relative_to(REPO)) for path in DOCUMENTS]
    assert names == [
        "README.md",
        "docs/SPEC.md",
        "docs/action.md",
        "docs/agents.md",
        "docs/architecture.md",
        "docs/cli.md",
        "docs/differences.md",
        "docs/dispatching.md",
        "examples/README.md",
    ]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(document: Path) -> None:
    assert broken(document) == []


def test_the_readme_links_every_document() -> None:
    targets = {target.partition("#")[0] for target in links(REPO / "README.md")}
    for document in DOCUMENTS[1:]:
        name = str(document.relative_to(REPO))
        assert name in targets or name == "examples/README.md", name
