"""Every conformance case passes through the library API and through the CLI's ``main`` in
this process (the same argv, stdout and stderr bytes and exit code); one case per kind of
process result (exit code, output format, one body or two) through the installed command."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from frame_spine.modes.lookup.models import LookupResult
from frame_spine.modes.lookup.render import result_json, result_text
from frame_spine.modes.lookup.rules import lookup
from tests.builders import checked_request
from tests.conftest import CASES, CASES_DIR, REPO, Case, expectation_failures, run_cli
from tests.in_process import run_cli_in_process


def library_lookup(case: Case) -> LookupResult:
    spec = case.spec
    single = case.body("body")
    sibling = case.body("sibling")
    request = checked_request(
        step_id=spec["step_id"],
        generated_at=spec["generated_at"],
        spine_digest=spec.get("spine_digest"),
        issue_number=spec.get("issue_number"),
        has_sibling=sibling is not None,
    )
    if isinstance(request, LookupResult):
        return request
    if single is not None:
        return lookup(request, single, single_body=True)
    plan = case.body("plan")
    assert plan is not None
    return lookup(request, plan, sibling)


def test_corpus_has_every_case() -> None:
    assert len(CASES) == 62


def test_case_through_library(case: Case) -> None:
    result = library_lookup(case)
    rendered = result_json(result) if case.format == "json" else result_text(result)
    assert expectation_failures(case, rendered, result.exit_code) == []


def test_case_through_cli(case: Case) -> None:
    completed = run_cli_in_process(case.cli_args())
    stdout = completed.stdout.decode("utf-8")
    assert completed.stderr == b""
    assert expectation_failures(case, stdout, completed.returncode) == []


def process_kind(case: Case) -> tuple[int, str, bool]:
    """What a process run of the case shows beyond ``main``: its exit code, its output
    format and whether it reads one body or two."""
    return case.expect["exit_code"], case.format, bool(case.spec.get("body"))


#: One case per kind of process result, run by the installed command.
ONE_PER_KIND = list({process_kind(case): case for case in CASES}.values())


def test_one_per_kind_covers_both_exit_codes_formats_and_body_kinds() -> None:
    assert sorted(process_kind(case) for case in ONE_PER_KIND) == [
        (0, "json", False),
        (0, "json", True),
        (0, "text", False),
        (1, "json", False),
    ]


@pytest.mark.parametrize("case", ONE_PER_KIND, ids=[case.name for case in ONE_PER_KIND])
def test_case_through_installed_cli(case: Case) -> None:
    completed = run_cli(case.cli_args())
    stdout = completed.stdout.decode("utf-8")
    assert completed.stderr == b""
    assert expectation_failures(case, stdout, completed.returncode) == []


def test_corpus_matches_shared_copy() -> None:
    shared = REPO.parent / "shared" / "conformance" / "cases"
    if not shared.is_dir():
        pytest.skip("../shared/conformance is not beside this checkout")
    ours = sorted(p.relative_to(CASES_DIR) for p in CASES_DIR.rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(shared) for p in shared.rglob("*") if p.is_file())
    assert ours == theirs
    mismatched = [str(p) for p in ours if not filecmp.cmp(CASES_DIR / p, shared / p, shallow=False)]
    assert mismatched == []


def test_shared_runner_rules_hold_for_this_corpus(tmp_path: Path) -> None:
    """The expectation checker itself fails on a wrong status (it can fail)."""
    case = next(c for c in CASES if c.name == "ok-single-comment")
    assert expectation_failures(case, '{"status":"missing-spine"}', 1) == [
        "exit code 1, expected 0",
        "status 'missing-spine', expected 'ok'",
        "step_id = None, expected 's2'",
        "generated_at = None, expected '2026-05-04T14:30:00Z'",
        "slice differs: None",
    ]


def test_spec_copy_matches_shared_contract() -> None:
    shared = REPO.parent / "shared" / "SPEC.md"
    if not shared.is_file():
        pytest.skip("../shared/SPEC.md is not beside this checkout")
    assert (REPO / "docs" / "SPEC.md").read_bytes() == shared.read_bytes()
