"""Every complete workflow shown to users (README.md, docs/action.md, docs/dispatching.md) is a
valid GitHub Actions workflow, safe to copy, and run by ``make e2e``:

- it passes ``check-jsonschema --builtin-schema vendor.github-workflows`` and ``actionlint``
  with the pinned shellcheck, exactly as ``make lint`` checks the repository's own workflows,
  both as shown and as e2e/doc_workflows.py rewrites it for act (then actionlint also checks
  every ``uses: ./`` step's inputs against action.yml);
- it carries an ``<!-- e2e: NAME.yml -->`` marker, so ``make e2e`` runs it: the extraction
  finds exactly the marked blocks it expects, and its rewrites apply (a document change that
  breaks the extraction fails here, not only in ``make e2e``);
- it is the safe form: no step pastes ``${{ }}`` into ``run:`` (outputs go through ``env:``),
  a lookup passes the dispatched ``generated-at`` (never ``current``), a step that uses a
  slice branches on ``status`` first, and ``trusted-authors`` only ever names accounts on top
  of the default.

The wave-by-wave dispatcher's split script and the ready batch's script run here too, with
``jq``, on the bundled complete plan (six waves) and on a plan of eleven waves (refused,
naming the batch workflow). A fragment (a job or a few steps) is not a workflow; a block of a
document that starts with ``name:`` and has an ``on:`` key is one.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DOCUMENTS = (ROOT / "README.md", ROOT / "docs" / "action.md", ROOT / "docs" / "dispatching.md")
_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)
PUBLISHED = "OWNER/frame-spine-lookup@v1"
DEFAULT_POLICY = "OWNER,MEMBER,COLLABORATOR,write"


def extraction() -> ModuleType:
    """e2e/doc_workflows.py, the extraction make e2e runs, as a module."""
    spec = importlib.util.spec_from_file_location(
        "doc_workflows", ROOT / "e2e" / "doc_workflows.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["doc_workflows"] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def workflows(document: Path) -> list[str]:
    """The ```yaml blocks of ``document`` that are whole workflows (``name:`` first, an
    ``on:`` key at column 0), in document order."""
    blocks = _YAML_BLOCK.findall(document.read_text("utf-8"))
    return [b for b in blocks if b.startswith("name:") and re.search(r"^on:", b, re.M)]


def load(text: str) -> Any:
    return YAML(typ="safe").load(StringIO(text))


def lint(files: list[Path], cwd: Path) -> None:
    """check-jsonschema and actionlint, as make lint runs them."""
    schema = subprocess.run(
        [BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr
    actionlint = subprocess.run(
        [BIN / "actionlint", "-shellcheck", BIN / "shellcheck", *files],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
    assert actionlint.returncode == 0, actionlint.stdout + actionlint.stderr


try:
    MARKED = extraction().marked()
    PROBLEM = ""
except Exception as problem:  # the extraction's own error: reported by the first test below
    MARKED, PROBLEM = [], str(problem)
BY_NAME = {workflow.name: workflow for workflow in MARKED}
NAMES = list(extraction().EXPECTED)


def test_the_extraction_finds_every_marked_block() -> None:
    assert PROBLEM == ""
    assert [workflow.name for workflow in MARKED] == NAMES


def test_the_documents_show_the_workflows_we_expect() -> None:
    # README: specialist; docs/action.md: validate plan, dispatch plan, audit plans;
    # docs/dispatching.md: run steps, the wave-by-wave dispatcher, the ready batches.
    names = [[w.splitlines()[0] for w in workflows(document)] for document in DOCUMENTS]
    assert names == [
        ["name: specialist"],
        ["name: validate plan", "name: dispatch plan", "name: audit plans"],
        ["name: run steps", "name: dispatch plan wave by wave", "name: dispatch ready steps"],
    ]


def test_every_workflow_shown_is_marked_for_make_e2e() -> None:
    """Each whole workflow of the documents is a marked block, so make e2e runs it."""
    shown = sorted(w for document in DOCUMENTS for w in workflows(document))
    assert sorted(workflow.shown for workflow in MARKED) == shown


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_shown_workflows_pass_the_workflow_linters(document: Path, tmp_path: Path) -> None:
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    files = []
    for workflow in MARKED:
        path = folder / workflow.name  # reusable workflows are called by these names
        path.write_text(workflow.shown, "utf-8")
        if workflow.document == document.relative_to(ROOT).as_posix():
            files.append(path)
    lint(files, tmp_path)


def test_the_rewritten_workflows_pass_the_linters_against_action_yml(tmp_path: Path) -> None:
    """What act runs: ``uses: ./`` steps' inputs are checked against this action.yml."""
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "action.yml", tmp_path / "action.yml")
    for workflow in MARKED:
        (folder / workflow.name).write_text(workflow.rewritten, "utf-8")
    lint(sorted(folder.iterdir()), tmp_path)


def jobs(text: str) -> dict[str, dict[str, Any]]:
    return dict(load(text)["jobs"])


@pytest.mark.parametrize("name", NAMES)
def test_the_rewrites_apply(name: str) -> None:
    """(1) the published action becomes ./, (2) every job that uses it checks the tree out
    first, (3) no artifact step is left; nothing else changes."""
    workflow = BY_NAME[name]
    assert PUBLISHED in workflow.shown
    assert PUBLISHED not in workflow.rewritten
    for job_id, job in jobs(workflow.rewritten).items():
        uses = [step.get("uses") for step in job.get("steps", [])]
        if "./" in uses:
            assert "actions/checkout@v4" in uses[: uses.index("./")], job_id
        assert not any(str(ref).startswith("actions/upload-artifact") for ref in uses)
    shown, rewritten = load(workflow.shown), load(workflow.rewritten)
    for job_id, job in shown["jobs"].items():
        kept = [
            {**s, "uses": "./"} if s.get("uses") == PUBLISHED else s
            for s in job.get("steps", [])
            if not str(s.get("uses", "")).startswith("actions/upload-artifact")
        ]
        steps = rewritten["jobs"][job_id].get("steps", [])
        if len(steps) == len(kept) + 1:  # the added checkout
            assert steps[0] == {"uses": "actions/checkout@v4"}
            steps = steps[1:]
        assert steps == kept, job_id
        assert {k: v for k, v in rewritten["jobs"][job_id].items() if k != "steps"} == {
            k: v for k, v in job.items() if k != "steps"
        }
    assert {k: v for k, v in rewritten.items() if k != "jobs"} == {
        k: v for k, v in shown.items() if k != "jobs"
    }


def test_the_audit_loses_only_its_artifact_step_and_gains_a_checkout() -> None:
    shown, rewritten = BY_NAME["audit-plans.yml"].shown, BY_NAME["audit-plans.yml"].rewritten
    assert "actions/upload-artifact@v4" in shown
    steps = jobs(rewritten)["audit"]["steps"]
    assert [step.get("uses") for step in steps] == ["actions/checkout@v4", "./", None]


def test_the_extraction_refuses_what_act_cannot_run(tmp_path: Path) -> None:
    module = extraction()
    doc = tmp_path / "doc.md"

    def extract(text: str) -> list[Any]:
        doc.write_text(text, "utf-8")
        return list(module.marked((doc,), {"w.yml": "doc.md"}, tmp_path))

    workflow = (
        "name: w\non: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - uses: {PUBLISHED}\n"
    )
    [found] = extract(f"<!-- e2e: w.yml -->\n```yaml\n{workflow}```\n")
    assert found.rewritten == workflow.replace(
        f"      - uses: {PUBLISHED}\n", "      - uses: actions/checkout@v4\n      - uses: ./\n"
    )
    with pytest.raises(module.ExtractionError, match="not on the line right before"):
        extract(f"<!-- e2e: w.yml -->\n\n```yaml\n{workflow}```\n")
    with pytest.raises(module.ExtractionError, match="the marked workflows are"):
        extract(f"```yaml\n{workflow}```\n")
    with pytest.raises(module.ExtractionError, match="uses: actions/setup-python@v5 cannot run"):
        extract(
            f"<!-- e2e: w.yml -->\n```yaml\n{workflow}      - uses: actions/setup-python@v5\n```\n"
        )
    with pytest.raises(module.ExtractionError, match=r"uses: OWNER/frame-spine-lookup@v2"):
        extract(f"<!-- e2e: w.yml -->\n```yaml\n{workflow.replace('@v1', '@v2')}```\n")


def test_make_e2e_writes_what_the_extraction_found(tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, ROOT / "e2e" / "doc_workflows.py", tmp_path],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("rewrites: (1) uses: OWNER/frame-spine-lookup@v1 -> uses: ./")
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(BY_NAME)
    for workflow in MARKED:
        assert (tmp_path / workflow.name).read_text("utf-8") == workflow.rewritten


# --- the safe form ----------------------------------------------------------------------


def steps_of(text: str) -> list[dict[str, Any]]:
    return [step for job in jobs(text).values() for step in job.get("steps", [])]


@pytest.mark.parametrize("name", NAMES)
def test_no_run_script_pastes_an_expression(name: str) -> None:
    """Outputs and inputs reach scripts through env:, never as ${{ }} inside run:."""
    for step in steps_of(BY_NAME[name].shown):
        assert "${{" not in step.get("run", ""), step


@pytest.mark.parametrize("name", NAMES)
def test_lookups_pass_the_dispatched_generated_at_and_branch_on_status(name: str) -> None:
    """Every lookup takes generated-at from the dispatch (never current), sets fail-on:
    never, and the steps after it that use its slice run only on status ok, while a step on
    any other status fails the job."""
    for job_id, job in jobs(BY_NAME[name].shown).items():
        steps = job.get("steps", [])
        for index, step in enumerate(steps):
            inputs = step.get("with") or {}
            if step.get("uses") != PUBLISHED or inputs.get("mode", "lookup") != "lookup":
                continue
            assert re.fullmatch(
                r"\$\{\{ (inputs|matrix)\.generated[-_]at \}\}", inputs["generated-at"]
            )
            assert inputs.get("fail-on") == "never", job_id
            ref = f"steps.{step['id']}.outputs"
            after = steps[index + 1 :]
            assert after, job_id
            for later in after:
                text = json.dumps(later)
                uses_slice = f"{ref}.slice" in text
                if uses_slice:
                    assert later.get("if") == f"{ref}.status == 'ok'", (job_id, later)
            refusals = [s for s in after if s.get("if") == f"{ref}.status != 'ok'"]
            assert len(refusals) == 1 and refusals[0]["run"].rstrip().endswith("exit 1")


def trusted_authors_values() -> list[str]:
    """Every trusted-authors value the documents' YAML blocks show, commented out or not."""
    values = []
    for document in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        for block in _YAML_BLOCK.findall(document.read_text("utf-8")):
            values += re.findall(r"^\s*#?\s*trusted-authors: *(.+?)\s*$", block, re.M)
    return values


def test_no_example_relaxes_trusted_authors() -> None:
    """The default terms, plus accounts named with @login; quoted, as YAML needs for @."""
    values = trusted_authors_values()
    assert len(values) >= 4
    for value in values:
        assert value.startswith('"') and value.endswith('"'), value
        terms = value.strip('"').split(",")
        assert terms[:4] == DEFAULT_POLICY.split(","), value
        assert all(term.startswith("@") for term in terms[4:]) and terms[4:], value


# --- the dispatchers' scripts, run with jq ----------------------------------------------


def run_step_script(workflow: str, job: str, step_id: str, env: dict[str, str], tmp: Path) -> Any:
    """Run one ``run:`` step of a workflow as the runner does (bash -e), with ``env`` and a
    GITHUB_OUTPUT file; returns (exit code, stdout, the outputs written)."""
    [step] = [s for s in jobs(BY_NAME[workflow].shown)[job]["steps"] if s.get("id") == step_id]
    output = tmp / "output"
    output.write_text("")
    ran = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        env={"PATH": os.environ["PATH"], "GITHUB_OUTPUT": str(output), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    return ran.returncode, ran.stdout, outputs


def dispatch_of(*bodies: str, completed: str = "") -> dict[str, Any]:
    argv = [BIN / "frame-spine", "validate", "--plan-body", ROOT / bodies[0]]
    if len(bodies) > 1:
        argv += ["--slices-body", ROOT / bodies[1]]
    if completed:
        argv += ["--completed-steps", completed]
    ran = subprocess.run([*argv, "--format", "json"], capture_output=True, check=True)
    return dict(json.loads(ran.stdout)["dispatch"])


needs_jq = pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed")


@needs_jq
def test_the_wave_split_runs_the_six_waves_of_the_complete_plan(tmp_path: Path) -> None:
    dispatch = dispatch_of("examples/plan-valid.md", "examples/sibling-valid.md")
    env = {"STEPS": json.dumps(dispatch["steps"]), "WAVES": json.dumps(dispatch["waves"])}
    code, _stdout, outputs = run_step_script("dispatch-waves.yml", "plan", "split", env, tmp_path)
    assert code == 0
    assert list(outputs) == [f"wave-{n}" for n in range(1, 11)]
    waves = [[entry["step-id"] for entry in json.loads(outputs[f"wave-{n}"])] for n in range(1, 11)]
    assert waves == dispatch["waves"] + [[]] * 4
    # The wave jobs: wave-k needs wave-(k-1) and runs on its part of the split.
    shown = jobs(BY_NAME["dispatch-waves.yml"].shown)
    for n in range(1, 11):
        job = shown[f"wave-{n}"]
        assert job["needs"] == ("plan" if n == 1 else ["plan", f"wave-{n - 1}"])
        assert job["if"] == f"needs.plan.outputs.wave-{n} != '[]'"
        assert job["with"] == {"matrix": f"${{{{ needs.plan.outputs.wave-{n} }}}}"}
    assert set(load(BY_NAME["dispatch-waves.yml"].shown)["jobs"]["plan"]["outputs"]) == set(outputs)


@needs_jq
def test_the_wave_split_refuses_eleven_waves_naming_the_batch_workflow(tmp_path: Path) -> None:
    dispatch = dispatch_of("e2e/plans/plan-906.md")
    assert len(dispatch["waves"]) == 11
    env = {"STEPS": json.dumps(dispatch["steps"]), "WAVES": json.dumps(dispatch["waves"])}
    code, stdout, outputs = run_step_script("dispatch-waves.yml", "plan", "split", env, tmp_path)
    assert (code, outputs) == (1, {})
    assert stdout == (
        "::error::the plan has 11 waves; this workflow runs at most 10: dispatch it in ready "
        "batches with dispatch-ready.yml\n"
    )
    # A wave wider than one matrix, or a steps output left empty (over its size limit).
    wide = [[f"s{n}" for n in range(1, 258)]]
    for steps, waves in (("[]", json.dumps(wide)), ("", json.dumps(dispatch["waves"][:3]))):
        code, stdout, _ = run_step_script(
            "dispatch-waves.yml", "plan", "split", {"STEPS": steps, "WAVES": waves}, tmp_path
        )
        assert code == 1 and "dispatch it in ready batches with dispatch-ready.yml" in stdout


@needs_jq
def test_the_ready_batch_adds_its_steps_to_completed(tmp_path: Path) -> None:
    dispatch = dispatch_of("examples/plan-valid.md", "examples/sibling-valid.md", completed="s1 s2")
    env = {"READY": json.dumps(dispatch["ready"]), "COMPLETED": "s1 s2"}
    code, _stdout, outputs = run_step_script("dispatch-ready.yml", "plan", "batch", env, tmp_path)
    assert code == 0
    assert json.loads(outputs["ready"]) == dispatch["ready"]
    assert outputs["completed"].split() == ["s1", "s2", "s3", "s4"]
