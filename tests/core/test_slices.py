"""SPEC 4: the step id a ``frame-slice`` block is addressed by."""

from __future__ import annotations

import pytest

from frame_spine.core.blocks import scan_comment
from frame_spine.core.slices import slice_exploratory, slice_ports, slice_step_id


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("step_id: s1", "s1"),
        ("step_id: s1\nprovides: [x]", "s1"),
        ("provides: [x]\nstep_id: s12\nrc: y", "s12"),
        ("id: s2", "s2"),
        ("rc: y\nid: s3\n", "s3"),
        ("step_id:s7", "s7"),
        ("step_id:   s8  \t", "s8"),
        ("id:\ts9", "s9"),
    ],
)
def test_column_zero_keys(payload: str, expected: str) -> None:
    assert slice_step_id(payload) == expected


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("step_id: s1\nid: s2", "s1"),
        ("id: s2\nstep_id: s1", "s1"),
        ("id: s2\nrc: x\nstep_id: s5\nid: s6", "s5"),
    ],
)
def test_step_id_wins_over_id(payload: str, expected: str) -> None:
    assert slice_step_id(payload) == expected


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("  step_id: s1", None),
        ("\tstep_id: s1", None),
        (" id: s1", None),
        ("\tid: s1", None),
        ("  step_id: s1\nid: s2", "s2"),
        ("meta:\n  step_id: s1\n  id: s2", None),
        ("requirement-contract: |\n  step_id: s1\nid: s4", "s4"),
    ],
)
def test_indented_keys_do_not_count(payload: str, expected: str | None) -> None:
    assert slice_step_id(payload) == expected


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("step_id: S4", "s4"),
        ("id: S10", "s10"),
        ("step_id: Foo-Bar", "foo-bar"),
        ("step_id: s1\nid: S2", "s1"),
    ],
)
def test_values_are_lower_cased(payload: str, expected: str) -> None:
    assert slice_step_id(payload) == expected


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "provides: [x]",
        "step_id:",
        "step_id:   \t",
        "id:",
        "id:  ",
    ],
)
def test_blank_or_missing_id_is_none(payload: str) -> None:
    assert slice_step_id(payload) is None


def test_blank_step_id_line_does_not_fall_back_to_id() -> None:
    # "only when there is no step_id: line": a blank step_id: line still exists.
    assert slice_step_id("step_id:\nid: s2") is None
    assert slice_step_id("id: s2\nstep_id:  ") is None


@pytest.mark.parametrize(
    "payload",
    [
        "step_idx: s1",
        "my_step_id: s1",
        "grid: s1",
        "ids: s1",
        "step-id: s1",
        "- step_id: s1",
        "# id: s1",
    ],
)
def test_other_keys_are_not_ids(payload: str) -> None:
    assert slice_step_id(payload) is None


def test_first_step_id_line_wins() -> None:
    # SPEC 4 names "its column-0 step_id: line"; with several the code takes the first.
    assert slice_step_id("step_id: s1\nstep_id: s2") == "s1"
    assert slice_step_id("id: s3\nid: s4") == "s3"


def test_key_case_is_ignored() -> None:
    # SPEC 4 is silent on key case; the code matches keys case-insensitively (as SPEC 3 does).
    assert slice_step_id("STEP_ID: S1") == "s1"
    assert slice_step_id("Id: s2") == "s2"
    assert slice_step_id("Step_Id: s3\nid: s4") == "s3"


def test_space_before_colon_is_not_a_key_line() -> None:
    # SPEC 4 speaks of a `step_id:` line; "step_id : s1" is not one in the code.
    assert slice_step_id("step_id : s1") is None


def test_addressing_a_scanned_slice_block() -> None:
    body = (
        "<!-- frame-slice\r\n"
        "provides: [implement-docs]\r\n"
        "id: s9\r\n"
        "step_id: S3\r\n"
        "-->\r\n"
        "<!-- frame-slice id: S4 -->\r\n"
    )
    blocks = scan_comment(body).blocks
    assert [slice_step_id(block.payload) for block in blocks] == ["s3", "s4"]


# --- where the reference validator is accidental, ours is kept (README, validate) ------------


def test_step_id_wins_over_an_earlier_id_line() -> None:
    # The reference reads id: first; the documented key is step_id:.
    assert slice_step_id("id: s9\nstep_id: s1") == "s1"


def test_an_indented_provides_inside_a_block_scalar_is_prose() -> None:
    payload = "step_id: s1\nnotes: |\n  provides: [implement-code]\n"
    assert slice_ports(payload) is None
    assert slice_ports("step_id: s1\nprovides: [implement-code]\n") == ("implement-code",)


@pytest.mark.parametrize("dash", ["-", "\u2013", "\u2014"])
def test_exploratory_takes_any_dash(dash: str) -> None:
    assert slice_exploratory(f"step_id: s1\ncoverage: exploratory {dash} spike") == "spike"
