"""docs/differences.md's table of deliberate differences from the reference implementation is
SPEC 12's, row for row (the same topics, in the same order), and every row is pinned by tests
that exist: :data:`PINS` names them, by file and function."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIFFERENCES = ROOT / "docs" / "differences.md"
SPEC = ROOT / "docs" / "SPEC.md"
_CELL_SPLIT = re.compile(r"(?<!\\)\|")

LOOKUP = "tests/modes/lookup/test_rules.py"
RENDER_COMMAND = "tests/modes/render/test_command.py"

#: Each row's topic -> the tests that pin it (``path::function``).
PINS: dict[str, tuple[str, ...]] = {
    "hash-elision filter": (f"{LOOKUP}::test_a_matching_digest_elides_a_differing_generated_at",),
    "`error` status": (f"{LOOKUP}::test_a_malformed_step_id_is_an_error",),
    "timestamp compare": (f"{LOOKUP}::test_instants_compare_as_instants",),
    "fenced examples": (f"{LOOKUP}::test_ok_ignores_fenced_examples",),
    "several spines": (f"{LOOKUP}::test_invalid_spine_two_spines",),
    "blank `slice_comment_id:`": (
        "tests/core/test_spine.py::test_blank_slice_comment_id_does_not_swallow_the_next_line",
    ),
    "sibling stamp": (f"{LOOKUP}::test_unstamped_stamp_quoted_mid_line_in_plan_prose",),
    "identity check": (
        f"{LOOKUP}::test_sibling_identity_marker_only_in_prose",
        f"{LOOKUP}::test_sibling_identity_other_issue",
    ),
    "plan identity": (f"{LOOKUP}::test_plan_identity_other_issue",),
    "`missing-slice`": (f"{LOOKUP}::test_missing_slice_not_in_spine",),
    "unterminated block": (
        f"{LOOKUP}::test_an_unterminated_head_in_the_plan_does_not_leak_into_the_sibling",
    ),
    "statuses' `message`": (
        "tests/test_cli.py::test_text_of_a_non_ok_status_has_fixed_keys_then_message",
    ),
    "freshness opt-out": (
        f"{LOOKUP}::test_current_skips_check_4_and_reports_the_spines_generated_at",
    ),
    "following the spine's sibling pointer": (
        "tests/github/test_client.py::test_auto_follows_the_spine_pointer_with_a_second_get",
    ),
    "`issue_url` and pointer cross-checks": (
        "tests/github/test_client.py::test_sibling_from_another_issue_by_issue_url",
        "tests/github/test_client.py::test_a_sibling_that_is_not_the_spine_pointer",
    ),
    "malformed or conflicting stamps": (
        f"{LOOKUP}::test_unstamped_malformed_stamp",
        f"{LOOKUP}::test_unstamped_stamps_disagreeing",
    ),
    "code examples": (
        "tests/core/test_code_regions.py::test_indented_code_block_head_is_an_example",
        "tests/core/test_code_regions.py::test_fence_in_a_nested_list_is_code",
        "tests/core/test_code_regions.py::test_fence_in_a_block_quote_is_code",
    ),
    "renderer (section 13)": (
        f"{RENDER_COMMAND}::test_by_issue_renders_the_newest_plan",
        "tests/modes/render/test_render.py::test_the_twelve_step_plan_draws_every_step_with_its_slice",
    ),
    "canonical port files (13)": (
        f"{RENDER_COMMAND}::test_port_files_yaml_yml_and_md_name_the_canonical_ports",
        f"{RENDER_COMMAND}::test_without_a_ports_dir_no_port_is_checked",
    ),
    "cycle 0 (13): `#cycle:0`, or a slice's `cycle: 0` under a token without one": (
        f"{RENDER_COMMAND}::test_cycle_0_is_shown_as_0_in_the_table_and_the_json",
    ),
    "render of a plan with a spine and `spine-omitted: plan-too-small`": (
        f"{RENDER_COMMAND}::test_a_spine_beside_plan_too_small_is_rendered",
    ),
    "walk order (14)": (
        "tests/modes/validate/test_lanes.py::test_the_878_spine_made_valid_runs_each_ports_cycles_in_order",
        "tests/modes/validate/test_dispatch.py::test_diamond_walks_in_slices_order_with_three_waves",
    ),
    "who wrote it (6.1)": (
        "tests/modes/test_trust.py::test_lookup_of_a_drive_by_plan_says_why_and_shows_no_slice_text",
        "tests/modes/test_trust.py::test_validate_by_discovery_passes_a_drive_by_plan_over",
    ),
    "who touched it (6.1, revision 4)": (
        "tests/modes/test_edits.py::test_an_untrusted_bot_editing_a_trusted_plan_is_refused",
        "tests/modes/test_edits.py::test_discovery_stops_at_a_plan_with_an_untrusted_edit",
    ),
    "hidden comments (6.1, revision 4)": (
        "tests/modes/test_drive_by.py::test_a_hidden_plan_or_sibling_is_refused_in_lookup_without_a_request",
        "tests/modes/test_drive_by.py::test_a_hidden_newest_trusted_plan_is_never_replaced_by_an_older_one",
    ),
}


def table_rows(text: str, heading: str) -> list[list[str]]:
    """The cells of the first table after ``heading``, header and delimiter rows left out."""
    lines = text[text.index(heading) :].split("\n")
    start = next(n for n, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in _CELL_SPLIT.split(line)[1:-1]])
    return rows


def spec_topics() -> list[str]:
    rows = table_rows(SPEC.read_text("utf-8"), "## 12. Deliberate differences")
    return [row[0] for row in rows]


def documented_topics() -> list[str]:
    heading = "## Where lookup and its checks differ"
    return [row[0] for row in table_rows(DIFFERENCES.read_text("utf-8"), heading)]


@cache
def functions(path: str) -> frozenset[str]:
    """The module-level function names of a test file."""
    tree = ast.parse((ROOT / path).read_text("utf-8"))
    return frozenset(node.name for node in tree.body if isinstance(node, ast.FunctionDef))


def test_the_documented_table_is_spec_12_row_for_row() -> None:
    assert len(spec_topics()) == 25
    assert documented_topics() == spec_topics()


def test_every_row_is_pinned() -> None:
    assert set(PINS) == set(spec_topics())


def test_every_pin_names_a_test_that_exists() -> None:
    missing = [
        pin
        for pins in PINS.values()
        for pin in pins
        if pin.split("::")[1] not in functions(pin.split("::")[0])
        or not pin.split("::")[1].startswith("test_")
    ]
    assert missing == []
