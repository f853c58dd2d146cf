"""The workflows the documents show, extracted to run under nektos/act (``make e2e``).

usage: doc_workflows.py OUT_DIR

A workflow to run is a ```` ```yaml ```` block right after a line ``<!-- e2e: NAME.yml -->`` in
README.md or docs/*.md (an HTML comment: GitHub shows nothing of it). ``NAME.yml`` is the file
name the document tells users to save it under (a reusable workflow is called by that name).
Each is written to ``OUT_DIR/NAME.yml`` after these rewrites (:data:`REWRITES`), and no
other change:

1. ``uses: OWNER/frame-spine-lookup@v1``, the published action, becomes ``uses: ./``, this
   checkout: act builds the Dockerfile as GitHub builds it for ``@main``.
2. A job that uses the action without checking anything out gets ``- uses:
   actions/checkout@v4`` as its first step: ``./`` is the checked-out tree (act copies the
   local one).
3. ``actions/upload-artifact`` steps are dropped: act runs no artifact server here.

Any other ``uses:`` than ``./``, ``actions/checkout@v4`` and a reusable workflow of the same
set is refused (act would fetch it from GitHub), and so is a set that lacks a marked block of
:data:`EXPECTED` or holds one more: a document that loses its marker fails ``make test``
(tests/test_doc_workflows.py), not only ``make e2e``.

What act gets besides the files (e2e/run.sh), none of it a change to a workflow: the event
payloads (``workflow_dispatch`` inputs, ``workflow_call`` inputs, an ``issue_comment``),
``GITHUB_API_URL`` (act's ``github.api_url``, the action's default ``api-url``: the loopback
fake), the fake's token as the ``GITHUB_TOKEN`` secret, an ``origin`` remote naming
octo-org/plans (``github.repository``), host networking (act's default) so the action's
container reaches the loopback fake, a runner image with ``jq`` and a stand-in for ``gh``,
and a stand-in ``./specialist`` at the root of the checkout (e2e/stand-ins/).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The documents searched for marked workflows.
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
#: Every marked workflow, by file name, and the document that shows it.
EXPECTED = {
    "specialist.yml": "README.md",
    "validate-plan.yml": "docs/action.md",
    "dispatch-plan.yml": "docs/action.md",
    "audit-plans.yml": "docs/action.md",
    "run-step.yml": "docs/dispatching.md",
    "dispatch-waves.yml": "docs/dispatching.md",
    "dispatch-ready.yml": "docs/dispatching.md",
}
#: The rewrites, as make e2e states them (run.sh prints them).
REWRITES = (
    "uses: OWNER/frame-spine-lookup@v1 -> uses: ./ (this checkout, built by act)",
    "a job that uses the action with no actions/checkout step gets one first",
    "actions/upload-artifact steps dropped (no artifact server)",
)
PUBLISHED = "OWNER/frame-spine-lookup@v1"
CHECKOUT = "actions/checkout@v4"
_MARKED = re.compile(
    r"^<!-- e2e: (?P<name>[a-z0-9-]+\.yml) -->\n```yaml\n(?P<body>.*?)^```[ \t]*$", re.M | re.S
)
_ANY_MARKER = re.compile(r"^<!-- e2e:.*-->[ \t]*$", re.M)
_USES = re.compile(r"^\s*(?:- )?uses: *(?P<ref>\S+)", re.M)
_JOB = re.compile(r"^  (?P<job>[A-Za-z0-9_-]+):[ \t]*$")
_ITEM = re.compile(r"^(?P<indent>\s*)- ")


@dataclass(frozen=True)
class DocWorkflow:
    """A marked block: its file name, the document and line of its fence, its text as shown,
    and its text after the rewrites."""

    name: str
    document: str
    line: int
    shown: str
    rewritten: str


class ExtractionError(Exception):
    """The documents' marked blocks are not the expected set, or a rewrite cannot make one
    runnable under act."""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blocks(lines: list[str], start: int, indent: int) -> int:
    """The index after the block that starts at ``lines[start]``: the lines that follow it
    indented deeper than ``indent`` (blank lines included)."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    return end


def drop_artifact_steps(text: str) -> str:
    """Rewrite 3: every step (a ``- `` item) that uses ``actions/upload-artifact``, gone."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    index = 0
    while index < len(lines):
        item = _ITEM.match(lines[index])
        if item is not None:
            end = _blocks(lines, index, len(item.group("indent")))
            step = "".join(lines[index:end])
            if re.search(r"\buses: *actions/upload-artifact@", step):
                while end > index + 1 and not lines[end - 1].strip():
                    end -= 1  # keep the blank line after it
                index = end
                continue
        out.append(lines[index])
        index += 1
    return "".join(out)


def add_checkouts(text: str) -> str:
    """Rewrite 2: a job whose steps use ``./`` and none ``actions/checkout`` gets the
    checkout as its first step, indented as its steps are."""
    lines = text.splitlines(keepends=True)
    try:
        jobs = next(i for i, line in enumerate(lines) if line.rstrip() == "jobs:")
    except StopIteration:
        return text
    out = lines[: jobs + 1]
    index = jobs + 1
    while index < len(lines):
        if _JOB.match(lines[index]) is None:
            out.append(lines[index])
            index += 1
            continue
        end = _blocks(lines, index, 2)
        job = lines[index:end]
        body = "".join(job)
        uses = [match.group("ref") for match in _USES.finditer(body)]
        if "./" in uses and not any(ref.startswith("actions/checkout@") for ref in uses):
            steps = next(i for i, line in enumerate(job) if line.strip() == "steps:")
            first = next(i for i in range(steps + 1, len(job)) if _ITEM.match(job[i]))
            indent = _ITEM.match(job[first]).group("indent")  # type: ignore[union-attr]
            job.insert(first, f"{indent}- uses: {CHECKOUT}\n")
        out.extend(job)
        index = end
    return "".join(out)


def rewrite(text: str) -> str:
    """The three rewrites of :data:`REWRITES`, in order."""
    text = re.sub(rf"^(\s*(?:- )?uses: *){re.escape(PUBLISHED)}[ \t]*$", r"\1./", text, flags=re.M)
    return drop_artifact_steps(add_checkouts(text))


def marked(
    documents: tuple[Path, ...] = DOCUMENTS,
    expected: dict[str, str] = EXPECTED,
    root: Path = ROOT,
) -> list[DocWorkflow]:
    """Every marked block of ``documents``, in order, rewritten; :class:`ExtractionError`
    unless they are exactly ``expected`` (file name: document, relative to ``root``), each
    marker is right before its block, and every ``uses:`` left is one act can run here."""
    found: list[DocWorkflow] = []
    for document in documents:
        text = document.read_text("utf-8")
        where = document.relative_to(root).as_posix()
        blocks = list(_MARKED.finditer(text))
        if len(blocks) != len(_ANY_MARKER.findall(text)):
            raise ExtractionError(
                f"{where}: an <!-- e2e: NAME.yml --> marker that is not on the line right "
                "before a ```yaml block"
            )
        for block in blocks:
            line = text.count("\n", 0, block.start()) + 2
            shown = block.group("body")
            found.append(DocWorkflow(block.group("name"), where, line, shown, rewrite(shown)))
    names = {workflow.name: workflow.document for workflow in found}
    if len(names) != len(found) or names != expected:
        shown = sorted((w.name, w.document) for w in found)
        raise ExtractionError(f"the marked workflows are {shown}, not {sorted(expected.items())}")
    for workflow in found:
        for match in _USES.finditer(workflow.rewritten):
            ref = match.group("ref")
            called = ref.removeprefix("./.github/workflows/")
            if ref in ("./", CHECKOUT) or (ref != called and called in names):
                continue
            raise ExtractionError(
                f"{workflow.document} line {workflow.line} ({workflow.name}): uses: {ref} "
                "cannot run under act here (no rewrite makes it local)"
            )
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    try:
        workflows = marked()
    except ExtractionError as problem:
        print(f"doc_workflows.py: {problem}", file=sys.stderr)
        return 1
    print("rewrites: " + "; ".join(f"({n}) {r}" for n, r in enumerate(REWRITES, 1)))
    for workflow in workflows:
        (out / workflow.name).write_text(workflow.rewritten, "utf-8")
        print(f"{workflow.name:<20} from {workflow.document}, the block at line {workflow.line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
