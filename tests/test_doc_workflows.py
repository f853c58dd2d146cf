"""Every complete workflow shown to users (README.md, docs/action.md, docs/dispatching.md) is a valid GitHub Actions
workflow: it passes ``check-jsonschema --builtin-schema vendor.github-workflows`` and
``actionlint`` with the pinned shellcheck, exactly as ``make lint`` checks the repository's
own workflows. A fragment (a job or a few steps) is not a workflow and is skipped; a block
of a document that starts with ``name:`` and has an ``on:`` key is one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DOCUMENTS = (ROOT / "README.md", ROOT / "docs" / "action.md", ROOT / "docs" / "dispatching.md")
_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)


def workflows(document: Path) -> list[str]:
    """The ```yaml blocks of ``document`` that are whole workflows (``name:`` first, an
    ``on:`` key at column 0), in document order."""
    blocks = _YAML_BLOCK.findall(document.read_text("utf-8"))
    return [b for b in blocks if b.startswith("name:") and re.search(r"^on:", b, re.M)]


def file_name(workflow: str, index: int) -> str:
    """The reusable workflow of docs/dispatching.md is called as ``run-step.yml``; the others
    are named by their position."""
    return "run-step.yml" if "workflow_call:" in workflow else f"shown-{index}.yml"


def test_the_documents_show_the_workflows_we_expect() -> None:
    # README: specialist; docs/action.md: validate plan, dispatch plan, audit plans;
    # docs/dispatching.md: run steps, the wave-by-wave dispatcher, the ready batches.
    names = [[w.splitlines()[0] for w in workflows(document)] for document in DOCUMENTS]
    assert names == [
        ["name: specialist"],
        ["name: validate plan", "name: dispatch plan", "name: audit plans"],
        ["name: run steps", "name: dispatch plan", "name: dispatch ready steps"],
    ]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_shown_workflows_pass_the_workflow_linters(document: Path, tmp_path: Path) -> None:
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    files = []
    for index, workflow in enumerate(workflows(document)):
        path = folder / file_name(workflow, index)
        path.write_text(workflow, "utf-8")
        files.append(path)
    schema = subprocess.run(
        [BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr
    lint = subprocess.run(
        [BIN / "actionlint", "-shellcheck", BIN / "shellcheck", *files],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
