"""The spine line grammar (SPEC 3): exact parsed objects and exact problem lists."""

from __future__ import annotations

from datetime import datetime

import pytest

from frame_spine.core.spine import parse_inline_list, parse_spine
from frame_spine.core.spine_model import (
    PortRoute,
    PortToken,
    Spine,
    SpineParse,
    SpineProblem,
    SpineSlice,
)

TS = "2026-05-04T14:30:00Z"

UNKNOWN_LINE = "unknown or malformed top-level line"
PORT_LINE = "a ports: line must be two spaces, name: [tokens]"
SLICE_ENTRY = "a slices: entry must be two spaces, sN:"
PROPERTY_LINE = "a slice property must be four spaces, key: value, under an sN: entry"
OUTSIDE = "indented line outside ports:/slices:"
BAD_TIMESTAMP = "generated_at is not a YYYY-MM-DDTHH:MM:SS[.f]Z instant"
BAD_VERSION = "spine_schema_version must be 1 or 2"
BAD_POINTER = "slice_comment_id is not a positive integer"

# The smallest valid spine, one line per list item (line numbers are index + 1).
HEAD = ["spine_schema_version: 2", f"generated_at: {TS}"]
PORTS = ["ports:", "  implement-code: [s1]"]
SLICE_S1 = ["  s1:", "    ac_refs: [AC1]", "    depends_on: []", "    cycle: 1"]
SLICES = ["slices:", *SLICE_S1]
MINIMAL = [*HEAD, *PORTS, *SLICES]


def instant(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0, ns: int = 0
) -> tuple[int, int]:
    """An instant as (whole seconds since 0001-01-01T00:00:00Z, nanoseconds)."""
    delta = datetime(year, month, day, hour, minute, second) - datetime(1, 1, 1)
    return (delta.days * 86400 + delta.seconds, ns)


TS_INSTANT = instant(2026, 5, 4, 14, 30)


def text(lines: list[str]) -> str:
    return "\n".join(lines)


def problems(lines: list[str], first_line: int = 1) -> list[tuple[int | None, str]]:
    """Parse and return the problems as (line, message) pairs; the spine must be absent."""
    parsed = parse_spine(text(lines), first_line)
    assert parsed.spine is None
    return [(problem.line, problem.message) for problem in parsed.problems]


def parsed_spine(lines: list[str], first_line: int = 1) -> Spine:
    parsed = parse_spine(text(lines), first_line)
    assert parsed.problems == ()
    assert parsed.spine is not None
    return parsed.spine


def slice_entry(
    step: str = "s1",
    line: int = 6,
    ac_refs: tuple[str, ...] = ("AC1",),
    depends_on: tuple[str, ...] = (),
    cycle: int = 1,
    terminal: bool | None = None,
    properties: dict[str, str] | None = None,
) -> SpineSlice:
    if properties is None:
        properties = {"ac_refs": "[AC1]", "depends_on": "[]", "cycle": "1"}
    return SpineSlice(step, line, ac_refs, depends_on, cycle, terminal, properties)


def minimal_spine(**changes: object) -> Spine:
    fields: dict[str, object] = {
        "schema_version": 2,
        "generated_at": TS,
        "instant": TS_INSTANT,
        "coverage": None,
        "coverage_line": None,
        "slice_comment_id": None,
        "ports": (PortRoute("implement-code", (PortToken("s1", None, False),), 4),),
        "slices": (slice_entry(),),
    }
    fields.update(changes)
    return Spine(**fields)  # type: ignore[arg-type]


def assert_same_slices(actual: Spine, expected: Spine) -> None:
    """SpineSlice.properties does not take part in ==: compare it explicitly."""
    assert actual == expected
    assert [list(s.properties.items()) for s in actual.slices] == [
        list(s.properties.items()) for s in expected.slices
    ]


# --- whole spines -------------------------------------------------------------------------


def test_minimal_spine_parses_to_the_exact_object() -> None:
    parsed = parse_spine(text(MINIMAL))
    assert parsed == SpineParse(minimal_spine(), ())
    assert parsed.spine is not None
    assert_same_slices(parsed.spine, minimal_spine())


def test_real_plan_spine_parses_to_the_exact_object() -> None:
    lines = [
        "spine_schema_version: 2",
        "generated_at: 2026-07-18T22:20:00Z",
        "coverage: complete",
        "slice_comment_id: 5013460780",
        "ports:",
        "  implement-docs: [s1, s3#cycle:2, s7#cycle:3#terminal]",
        "  review: [s8#terminal]",
        "slices:",
        "  s1:",
        "    execution_mode: serial",
        "    rc: exhaustive marker-reader inventory",
        "    ac_refs: [AC4]",
        "    depends_on: []",
        "    cycle: 1",
        "  s3:",
        "    adapter: docs",
        "    executor: writer",
        "    ac_refs: [AC1, AC2]",
        "    depends_on: [s1]",
        "    cycle: 2",
        "    terminal: false",
        "  s8:",
        "    ac_refs: []",
        "    depends_on: [s1, s3]",
        "    cycle: 0",
        "    terminal: true",
    ]
    expected = Spine(
        schema_version=2,
        generated_at="2026-07-18T22:20:00Z",
        instant=instant(2026, 7, 18, 22, 20),
        coverage="complete",
        coverage_line=3,
        slice_comment_id="5013460780",
        ports=(
            PortRoute(
                "implement-docs",
                (
                    PortToken("s1", None, False),
                    PortToken("s3", 2, False),
                    PortToken("s7", 3, True),
                ),
                6,
            ),
            PortRoute("review", (PortToken("s8", None, True),), 7),
        ),
        slices=(
            slice_entry(
                "s1",
                9,
                ("AC4",),
                (),
                1,
                None,
                {
                    "execution_mode": "serial",
                    "rc": "exhaustive marker-reader inventory",
                    "ac_refs": "[AC4]",
                    "depends_on": "[]",
                    "cycle": "1",
                },
            ),
            slice_entry(
                "s3",
                15,
                ("AC1", "AC2"),
                ("s1",),
                2,
                False,
                {
                    "adapter": "docs",
                    "executor": "writer",
                    "ac_refs": "[AC1, AC2]",
                    "depends_on": "[s1]",
                    "cycle": "2",
                    "terminal": "false",
                },
            ),
            slice_entry(
                "s8",
                22,
                (),
                ("s1", "s3"),
                0,
                True,
                {
                    "ac_refs": "[]",
                    "depends_on": "[s1, s3]",
                    "cycle": "0",
                    "terminal": "true",
                },
            ),
        ),
    )
    spine = parsed_spine(lines)
    assert_same_slices(spine, expected)
    assert spine.steps == frozenset({"s1", "s3", "s7", "s8"})


def test_blank_and_whitespace_only_lines_are_skipped_but_counted() -> None:
    lines = [
        "",
        *HEAD,
        "   ",
        "\t",
        "ports:",
        "",
        "  implement-code: [s1]",
        "slices:",
        "  s1:",
        " \t ",
        "    ac_refs: [AC1]",
        "    depends_on: []",
        "",
        "    cycle: 1",
        "",
    ]
    spine = parsed_spine(lines)
    expected = minimal_spine(
        ports=(PortRoute("implement-code", (PortToken("s1", None, False),), 8),),
        slices=(slice_entry(line=10),),
    )
    assert_same_slices(spine, expected)


def test_trailing_whitespace_is_tolerated_on_every_line() -> None:
    lines = [line + " \t " for line in MINIMAL]
    spine = parsed_spine(lines)
    assert_same_slices(spine, minimal_spine())


def test_section_order_is_free() -> None:
    lines = [
        "slices:",
        *SLICE_S1,
        "ports:",
        "  implement-code: [s1]",
        "coverage: complete",
        f"generated_at: {TS}",
        "spine_schema_version: 1",
    ]
    expected = minimal_spine(
        schema_version=1,
        coverage="complete",
        coverage_line=8,
        ports=(PortRoute("implement-code", (PortToken("s1", None, False),), 7),),
        slices=(slice_entry(line=2),),
    )
    assert_same_slices(parsed_spine(lines), expected)


def test_first_line_offsets_every_line_of_a_valid_spine() -> None:
    lines = [*HEAD, "coverage: complete", *PORTS, *SLICES]
    expected = minimal_spine(
        coverage="complete",
        coverage_line=42,
        ports=(PortRoute("implement-code", (PortToken("s1", None, False),), 44),),
        slices=(slice_entry(line=46),),
    )
    assert_same_slices(parsed_spine(lines, first_line=40), expected)


def test_first_line_offsets_every_problem_line() -> None:
    lines = [*HEAD, "owner: me", *PORTS, *SLICES, "    cycle: 2"]
    assert problems(lines, first_line=10) == [(12, UNKNOWN_LINE), (20, "repeated cycle in s1")]
    assert problems(lines) == [(3, UNKNOWN_LINE), (11, "repeated cycle in s1")]


def test_every_problem_is_collected_in_line_order_whole_spine_problems_last() -> None:
    lines = [
        "spine_schema_version: 3",
        "generated_at: 2026-02-30T00:00:00Z",
        "slice_comment_id: 0",
        "owner: me",
        "ports:",
        "  a: [s1#terminal#cycle:1]",
        "  b: s1",
        "   c: [s1]",
        "slices:",
        "  S2:",
        "  s1:",
        "    ac_refs: AC1",
        "    cycle: x",
        "    terminal: yes",
        "     rc: five spaces",
        "\tcoverage: tab",
        "# a comment",
    ]
    assert problems(lines) == [
        (1, BAD_VERSION),
        (2, BAD_TIMESTAMP),
        (3, BAD_POINTER),
        (4, UNKNOWN_LINE),
        (
            6,
            "port a has a malformed port token 's1#terminal#cycle:1' "
            "(expected sN[#cycle:K][#terminal])",
        ),
        (7, "port b is not an inline list"),
        (8, PORT_LINE),
        (10, SLICE_ENTRY),
        (11, "slice s1 has no depends_on"),
        (12, "ac_refs of s1 is not an inline list"),
        (13, "cycle of s1 is not a non-negative integer"),
        (14, "terminal of s1 is not true/false"),
        (15, PROPERTY_LINE),
        (16, "tab in indentation"),
        (17, UNKNOWN_LINE),
        (None, "no port under ports:"),
    ]


def test_problems_are_returned_as_spine_problem_objects() -> None:
    parsed = parse_spine(text([*HEAD, "owner: me", *PORTS, *SLICES]))
    assert parsed == SpineParse(None, (SpineProblem(3, UNKNOWN_LINE),))


def test_empty_payload_reports_every_missing_part() -> None:
    assert problems([""]) == [
        (None, "no spine_schema_version"),
        (None, "no generated_at"),
        (None, "no ports: section"),
        (None, "no slices: section"),
    ]


# --- top-level scalar keys ----------------------------------------------------------------


def test_scalar_keys_and_section_headers_compare_case_insensitively() -> None:
    lines = [
        "SPINE_SCHEMA_VERSION: 1",
        f"Generated_At: {TS}",
        "COVERAGE: complete",
        "Slice_Comment_ID: 77",
        "PORTS:",
        "  implement-code: [s1]",
        "Slices:",
        *SLICE_S1,
    ]
    expected = minimal_spine(
        schema_version=1,
        coverage="complete",
        coverage_line=3,
        slice_comment_id="77",
        ports=(PortRoute("implement-code", (PortToken("s1", None, False),), 6),),
        slices=(slice_entry(line=8),),
    )
    assert_same_slices(parsed_spine(lines), expected)


def test_no_space_is_needed_after_the_colon() -> None:
    lines = [
        "spine_schema_version:2",
        f"generated_at:{TS}",
        "ports:",
        "  implement-code:[s1]",
        "slices:",
        "  s1:",
        "    ac_refs:[AC1]",
        "    depends_on:[]",
        "    cycle:1",
    ]
    assert_same_slices(parsed_spine(lines), minimal_spine())


@pytest.mark.parametrize(
    ("index", "line", "expected"),
    [
        (0, "spine_schema_version : 2", [(1, UNKNOWN_LINE), (None, "no spine_schema_version")]),
        (0, "spine_schema_version\t: 2", [(1, UNKNOWN_LINE), (None, "no spine_schema_version")]),
        (1, f"generated_at : {TS}", [(2, UNKNOWN_LINE), (None, "no generated_at")]),
        (1, f"generated_at\t:{TS}", [(2, UNKNOWN_LINE), (None, "no generated_at")]),
        (2, "ports :", [(3, UNKNOWN_LINE), (4, OUTSIDE), (None, "no ports: section")]),
        (
            4,
            "slices :",
            [
                (5, UNKNOWN_LINE),
                (6, OUTSIDE),
                (7, OUTSIDE),
                (8, OUTSIDE),
                (9, OUTSIDE),
                (None, "no slices: section"),
            ],
        ),
    ],
)
def test_a_key_must_be_immediately_followed_by_its_colon(
    index: int, line: str, expected: list[tuple[int | None, str]]
) -> None:
    lines = list(MINIMAL)
    lines[index] = line
    assert problems(lines) == expected


def test_coverage_key_must_be_immediately_followed_by_its_colon() -> None:
    assert problems([*MINIMAL, "coverage : complete"]) == [(10, UNKNOWN_LINE)]


@pytest.mark.parametrize(
    ("first", "repeat", "key"),
    [
        ("spine_schema_version: 2", "spine_schema_version: 2", "spine_schema_version"),
        ("spine_schema_version: 2", "Spine_Schema_Version: 1", "spine_schema_version"),
        (f"generated_at: {TS}", f"GENERATED_AT: {TS}", "generated_at"),
        ("coverage: complete", "coverage: complete", "coverage"),
        ("coverage: complete", "Coverage: other", "coverage"),
        ("slice_comment_id: 5", "slice_comment_id: 5", "slice_comment_id"),
        ("slice_comment_id:", "slice_comment_id: 5", "slice_comment_id"),
    ],
)
def test_a_repeated_scalar_key_is_invalid(first: str, repeat: str, key: str) -> None:
    lines = [f"generated_at: {TS}", "spine_schema_version: 2"]
    if not first.lower().startswith(("generated_at", "spine_schema_version")):
        lines.append(first)
    lines += [*PORTS, *SLICES, repeat]
    repeat_line = len(lines)
    assert problems(lines) == [(repeat_line, f"repeated {key}")]


@pytest.mark.parametrize("value", ["1", "2"])
def test_schema_version_1_and_2_are_valid(value: str) -> None:
    lines = list(MINIMAL)
    lines[0] = f"spine_schema_version: {value}"
    assert parsed_spine(lines).schema_version == int(value)


@pytest.mark.parametrize("value", ["0", "3", "02", "2.0", "v2", "two", "1 2", "-1", ""])
def test_other_schema_versions_are_invalid(value: str) -> None:
    lines = list(MINIMAL)
    lines[0] = f"spine_schema_version: {value}"
    assert problems(lines) == [(1, BAD_VERSION)]


def test_schema_version_is_required() -> None:
    assert problems(MINIMAL[1:]) == [(None, "no spine_schema_version")]


@pytest.mark.parametrize(
    ("value", "expected_instant"),
    [
        ("2026-05-04T14:30:00Z", instant(2026, 5, 4, 14, 30)),
        ("2026-05-04T14:30:00.5Z", instant(2026, 5, 4, 14, 30, 0, 500_000_000)),
        ("2026-05-04T14:30:00.000Z", instant(2026, 5, 4, 14, 30)),
        ("2026-05-04T14:30:00.123456789Z", instant(2026, 5, 4, 14, 30, 0, 123_456_789)),
        ("2024-02-29T23:59:59Z", instant(2024, 2, 29, 23, 59, 59)),
        ("2000-12-31T00:00:00.000000001Z", instant(2000, 12, 31, 0, 0, 0, 1)),
    ],
)
def test_valid_generated_at_values(value: str, expected_instant: tuple[int, int]) -> None:
    lines = list(MINIMAL)
    lines[1] = f"generated_at: {value}"
    assert_same_slices(
        parsed_spine(lines), minimal_spine(generated_at=value, instant=expected_instant)
    )


@pytest.mark.parametrize(
    "value",
    [
        "2026-05-04T14:30:00.1234567890Z",  # 10 fraction digits
        "2026-05-04T14:30:00.Z",  # empty fraction
        "2026-05-04t14:30:00Z",  # lower-case t
        "2026-05-04T14:30:00z",  # lower-case z
        "2026-05-04T14:30:00",  # no Z
        "2026-05-04T14:30:00+00:00",
        "2026-05-04 14:30:00Z",
        "2026-05-04T14:30Z",  # no seconds
        "2026-5-4T14:30:00Z",
        "2026-02-30T00:00:00Z",  # no such day
        "2025-02-29T00:00:00Z",  # not a leap year
        "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z",
        "2026-05-04T24:00:00Z",
        "2026-05-04T14:60:00Z",
        "2026-05-04T23:59:60Z",  # leap second
        "\u0662\u0660\u0662\u0666-05-04T14:30:00Z",  # non-ASCII digits
        "now",
        "",
    ],
)
def test_invalid_generated_at_values(value: str) -> None:
    lines = list(MINIMAL)
    lines[1] = f"generated_at: {value}"
    assert problems(lines) == [(2, BAD_TIMESTAMP)]


def test_generated_at_is_required() -> None:
    assert problems([MINIMAL[0], *MINIMAL[2:]]) == [(None, "no generated_at")]


@pytest.mark.parametrize(
    "value",
    ["complete", "exploratory - spike first", "anything: with a colon [and, a, list]", "ünïcode"],
)
def test_coverage_is_free_text(value: str) -> None:
    spine = parsed_spine([*HEAD, f"coverage: {value}", *PORTS, *SLICES])
    expected = minimal_spine(
        coverage=value,
        coverage_line=3,
        ports=(PortRoute("implement-code", (PortToken("s1", None, False),), 5),),
        slices=(slice_entry(line=7),),
    )
    assert_same_slices(spine, expected)


def test_blank_coverage_is_kept_as_an_empty_string() -> None:
    # Pinned: SPEC 3 calls coverage free text; the code keeps an empty value as "".
    spine = parsed_spine([*HEAD, "coverage:", *PORTS, *SLICES])
    assert (spine.coverage, spine.coverage_line) == ("", 3)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("5013460780", "5013460780"),
        ("1", "1"),
        ("007", "7"),  # pinned: leading zeros dropped, reported as a decimal string
        ("", None),
        ("   ", None),
        ("\t", None),
    ],
)
def test_slice_comment_id_values(value: str, expected: str | None) -> None:
    spine = parsed_spine([*HEAD, f"slice_comment_id: {value}", *PORTS, *SLICES])
    assert spine.slice_comment_id == expected


def test_blank_slice_comment_id_does_not_swallow_the_next_line() -> None:
    lines = [*HEAD, "slice_comment_id:", *PORTS, *SLICES]
    expected = minimal_spine(
        ports=(PortRoute("implement-code", (PortToken("s1", None, False),), 5),),
        slices=(slice_entry(line=7),),
    )
    assert_same_slices(parsed_spine(lines), expected)


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "+5", "1 2", "0x10", "00"])
def test_invalid_slice_comment_ids(value: str) -> None:
    lines = [*HEAD, f"slice_comment_id: {value}", *PORTS, *SLICES]
    assert problems(lines) == [(3, BAD_POINTER)]


# --- ports: -------------------------------------------------------------------------------


def test_port_names_and_tokens() -> None:
    lines = [
        *HEAD,
        "ports:",
        "  a: [s1]",
        "  A-b_9: [s1#cycle:0, s2#terminal, s3#cycle:12#terminal, s40#cycle:02]",
        "  empty: []",
        *SLICES,
    ]
    spine = parsed_spine(lines)
    assert spine.ports == (
        PortRoute("a", (PortToken("s1", None, False),), 4),
        PortRoute(
            "A-b_9",
            (
                PortToken("s1", 0, False),
                PortToken("s2", None, True),
                PortToken("s3", 12, True),
                PortToken("s40", 2, False),
            ),
            5,
        ),
        PortRoute("empty", (), 6),
    )
    assert spine.steps == frozenset({"s1", "s2", "s3", "s40"})


@pytest.mark.parametrize(
    "line",
    [
        "   implement-code: [s1]",  # 3 spaces
        " implement-code: [s1]",  # 1 space
        "    implement-code: [s1]",  # 4 spaces
        "  implement code: [s1]",
        "  implement.code: [s1]",
        "  n\u00e4me: [s1]",
        "  implement-code : [s1]",
        "  implement-code [s1]",
        "  : [s1]",
        "  - s1",
    ],
)
def test_malformed_port_lines(line: str) -> None:
    lines = [*HEAD, "ports:", line, "  review: [s1]", *SLICES]
    assert problems(lines) == [(4, PORT_LINE)]


@pytest.mark.parametrize("value", ["s1", "", "[s1", "s1]", "[s1,,s2]", "[s1,]", "[[s1]]", "(s1)"])
def test_port_value_must_be_an_inline_list(value: str) -> None:
    lines = [*HEAD, "ports:", f"  implement-code: {value}", "  review: [s1]", *SLICES]
    assert problems(lines) == [(4, "port implement-code is not an inline list")]


@pytest.mark.parametrize(
    "token",
    [
        "s1#terminal#cycle:2",
        "s1#cycle",
        "s1#cycle:",
        "s1#cycle:x",
        "s1#cycle:-1",
        "s1#cycle:1#cycle:2",
        "s1#terminal#terminal",
        "s1#Terminal",
        "s1#CYCLE:2",
        "s1#",
        "s1 #terminal",
        "s1:cycle:2",
        "#terminal",
        "S1",
        "s",
        "1",
        "step1",
        "sx",
    ],
)
def test_malformed_port_tokens(token: str) -> None:
    lines = [*HEAD, "ports:", f"  implement-code: [s1, {token}]", "  review: [s1]", *SLICES]
    assert problems(lines) == [
        (
            4,
            f"port implement-code has a malformed port token {token!r} "
            "(expected sN[#cycle:K][#terminal])",
        )
    ]


@pytest.mark.parametrize("repeat", ["implement-code", "Implement-Code", "IMPLEMENT-CODE"])
def test_a_repeated_port_name_is_invalid_case_insensitively(repeat: str) -> None:
    lines = [*HEAD, *PORTS, f"  {repeat}: [s2]", *SLICES]
    assert problems(lines) == [(5, f"repeated port {repeat}")]


def test_a_token_may_name_a_step_without_a_slices_entry() -> None:
    lines = [*HEAD, "ports:", "  implement-code: [s1, s9#terminal]", *SLICES]
    spine = parsed_spine(lines)
    assert spine.ports == (
        PortRoute("implement-code", (PortToken("s1", None, False), PortToken("s9", None, True)), 4),
    )
    assert spine.steps == frozenset({"s1", "s9"})


def test_steps_is_the_union_of_slices_keys_and_token_steps() -> None:
    lines = [
        *HEAD,
        "ports:",
        "  implement: [s2, s3#terminal]",
        "  review: [s10#cycle:2]",
        "slices:",
        *SLICE_S1,
        "  s2:",
        "    ac_refs: []",
        "    depends_on: [s1]",
        "    cycle: 1",
    ]
    assert parsed_spine(lines).steps == frozenset({"s1", "s2", "s3", "s10"})


def test_at_least_one_port_is_required() -> None:
    assert problems([*HEAD, *SLICES]) == [(None, "no ports: section")]
    assert problems([*HEAD, "ports:", *SLICES]) == [(None, "no port under ports:")]


def test_a_ports_section_holding_only_bad_lines_has_no_port() -> None:
    lines = [*HEAD, "ports:", "  implement-code: s1", *SLICES]
    assert problems(lines) == [
        (4, "port implement-code is not an inline list"),
        (None, "no port under ports:"),
    ]


def test_block_style_port_list_is_invalid() -> None:
    lines = [*HEAD, "ports:", "  implement-code:", "    - s1", *SLICES]
    assert problems(lines) == [
        (4, "port implement-code is not an inline list"),
        (5, PORT_LINE),
        (None, "no port under ports:"),
    ]


# --- slices: ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry",
    [
        "  S1:",
        "  s1: x",
        "  s1: []",
        "  s1 :",
        "  step1:",
        "  s:",
        "  sx:",
        "  s1",
        "  1:",
        "  s1::",
    ],
)
def test_malformed_slice_entries(entry: str) -> None:
    lines = [*HEAD, *PORTS, "slices:", entry, *SLICE_S1]
    assert problems(lines) == [(6, SLICE_ENTRY)]


def test_properties_after_a_rejected_entry_are_reported() -> None:
    lines = [*HEAD, *PORTS, "slices:", "  S2:", "    cycle: 1", *SLICE_S1]
    assert problems(lines) == [(6, SLICE_ENTRY), (7, PROPERTY_LINE)]


@pytest.mark.parametrize("spaces", [1, 3])
def test_slice_entry_with_wrong_indentation(spaces: int) -> None:
    lines = [*HEAD, *PORTS, "slices:", *SLICE_S1, " " * spaces + "s2:"]
    assert problems(lines) == [(10, PROPERTY_LINE)]


def test_leading_zero_step_is_kept_as_written() -> None:
    # Pinned: `  s01:` matches "s, digits"; the step is "s01", not "s1".
    lines = [*HEAD, "ports:", "  implement-code: [s01]", "slices:", "  s01:", *SLICE_S1[1:]]
    spine = parsed_spine(lines)
    assert [entry.step for entry in spine.slices] == ["s01"]
    assert spine.steps == frozenset({"s01"})


def test_a_repeated_step_is_invalid() -> None:
    lines = [*HEAD, *PORTS, *SLICES, *SLICE_S1]
    assert problems(lines) == [(10, "repeated step s1")]


def test_a_repeated_step_with_different_properties_is_invalid() -> None:
    lines = [*HEAD, *PORTS, *SLICES, "  s1:", "    cycle: 2"]
    assert problems(lines) == [(10, "repeated step s1")]


@pytest.mark.parametrize(
    "line",
    [
        "   cycle: 1",  # 3 spaces
        "     cycle: 1",  # 5 spaces
        "    ac-refs: [AC1]",  # hyphen in the key
        "    cycle : 1",
        "    cycle 1",
        "    - AC1",
        "    k\u00e9y: v",
    ],
)
def test_malformed_property_lines(line: str) -> None:
    lines = [*HEAD, *PORTS, *SLICES, line]
    assert problems(lines) == [(10, PROPERTY_LINE)]


def test_property_line_outside_any_entry_is_invalid() -> None:
    lines = [*HEAD, *PORTS, "slices:", "    cycle: 1", *SLICE_S1]
    assert problems(lines) == [(6, PROPERTY_LINE)]


@pytest.mark.parametrize(
    ("missing", "messages"),
    [
        ("ac_refs", ["slice s1 has no ac_refs"]),
        ("depends_on", ["slice s1 has no depends_on"]),
        ("cycle", ["slice s1 has no cycle"]),
    ],
)
def test_required_slice_properties(missing: str, messages: list[str]) -> None:
    entry = [line for line in SLICE_S1 if not line.strip().startswith(missing)]
    lines = [*HEAD, *PORTS, "slices:", *entry]
    assert problems(lines) == [(6, message) for message in messages]


def test_an_entry_without_properties_misses_all_three() -> None:
    lines = [*HEAD, *PORTS, "slices:", "  s1:"]
    assert problems(lines) == [
        (6, "slice s1 has no ac_refs"),
        (6, "slice s1 has no depends_on"),
        (6, "slice s1 has no cycle"),
    ]


def test_property_keys_are_case_sensitive() -> None:
    # Pinned: SPEC 3 makes only the four scalar keys and the two headers case-insensitive.
    lines = [*HEAD, *PORTS, "slices:", "  s1:", "    AC_REFS: [AC1]", *SLICE_S1[2:]]
    assert problems(lines) == [(6, "slice s1 has no ac_refs")]


@pytest.mark.parametrize("key", ["ac_refs", "depends_on"])
@pytest.mark.parametrize("value", ["AC1", "", "[AC1", "AC1]", "[a,,b]", "[a,]", "[,a]", "[[a]]"])
def test_ac_refs_and_depends_on_must_be_inline_lists(key: str, value: str) -> None:
    entry = [f"    {key}: {value}" if line.strip().startswith(key) else line for line in SLICE_S1]
    lines = [*HEAD, *PORTS, "slices:", *entry]
    index = next(i for i, line in enumerate(lines) if line.strip().startswith(key))
    assert problems(lines) == [(index + 1, f"{key} of s1 is not an inline list")]


def test_block_style_ac_refs_is_invalid() -> None:
    lines = [*HEAD, *PORTS, "slices:", "  s1:", "    ac_refs:", "      - AC1", *SLICE_S1[2:]]
    assert problems(lines) == [
        (7, "ac_refs of s1 is not an inline list"),
        (8, PROPERTY_LINE),
    ]


@pytest.mark.parametrize(("value", "expected"), [("0", 0), ("1", 1), ("12", 12), ("007", 7)])
def test_cycle_is_a_non_negative_integer(value: str, expected: int) -> None:
    lines = [*HEAD, *PORTS, *SLICES[:-1], f"    cycle: {value}"]
    assert parsed_spine(lines).slices[0].cycle == expected


@pytest.mark.parametrize("value", ["-1", "1.5", "one", "", "+1", "1 2", "\u0663"])
def test_invalid_cycles(value: str) -> None:
    lines = [*HEAD, *PORTS, *SLICES[:-1], f"    cycle: {value}"]
    assert problems(lines) == [(9, "cycle of s1 is not a non-negative integer")]


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("false", False)])
def test_terminal_true_or_false(value: str, expected: bool) -> None:
    lines = [*HEAD, *PORTS, *SLICES, f"    terminal: {value}"]
    spine = parsed_spine(lines)
    assert spine.slices[0].terminal is expected
    assert spine.slices[0].properties["terminal"] == value


def test_terminal_absent_is_none() -> None:
    assert parsed_spine(MINIMAL).slices[0].terminal is None


@pytest.mark.parametrize("value", ["True", "FALSE", "yes", "1", "", "true false"])
def test_invalid_terminal_values(value: str) -> None:
    lines = [*HEAD, *PORTS, *SLICES, f"    terminal: {value}"]
    assert problems(lines) == [(10, "terminal of s1 is not true/false")]


def test_other_property_keys_are_kept_verbatim_in_order() -> None:
    lines = [
        *HEAD,
        *PORTS,
        "slices:",
        "  s1:",
        "    adapter: code",
        "    executor: Sonnet_4",
        "    execution_mode: serial",
        "    rc: GREEN: code action, with [brackets]",
        "    ac_refs: [AC1]",
        "    depends_on: []",
        "    cycle: 1",
        "    note_2:",
    ]
    entry = parsed_spine(lines).slices[0]
    assert list(entry.properties.items()) == [
        ("adapter", "code"),
        ("executor", "Sonnet_4"),
        ("execution_mode", "serial"),
        ("rc", "GREEN: code action, with [brackets]"),
        ("ac_refs", "[AC1]"),
        ("depends_on", "[]"),
        ("cycle", "1"),
        ("note_2", ""),
    ]


def test_a_repeated_property_key_is_invalid() -> None:
    # Pinned: SPEC 3 does not mention repeated property keys; the code rejects them.
    lines = [*HEAD, *PORTS, *SLICES, "    ac_refs: [AC2]"]
    assert problems(lines) == [(10, "repeated ac_refs in s1")]


def test_at_least_one_slice_is_required() -> None:
    assert problems([*HEAD, *PORTS]) == [(None, "no slices: section")]
    assert problems([*HEAD, *PORTS, "slices:"]) == [(None, "no slice under slices:")]


def test_a_slices_section_holding_only_bad_entries_has_no_slice() -> None:
    assert problems([*HEAD, *PORTS, "slices:", "  S1:"]) == [
        (6, SLICE_ENTRY),
        (None, "no slice under slices:"),
    ]


# --- any other line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "owner: me",
        "# a comment",
        "<!-- comment -->",
        "- s1",
        "spine_schema_version",
        "ports_extra:",
        "schema1: 2",
        "generated-at: 2026-05-04T14:30:00Z",
        "s1:",
    ],
)
def test_unknown_top_level_lines_are_invalid(line: str) -> None:
    assert problems([*MINIMAL, line]) == [(10, UNKNOWN_LINE)]


TAB = "tab in indentation"


@pytest.mark.parametrize(
    ("index", "line", "expected"),
    [
        (2, "\tports:", [(3, TAB), (4, OUTSIDE), (None, "no ports: section")]),
        (3, "\timplement-code: [s1]", [(4, TAB), (None, "no port under ports:")]),
        (3, "  \timplement-code: [s1]", [(4, TAB), (None, "no port under ports:")]),
        (
            5,
            "\t  s1:",
            [
                (6, TAB),
                (7, PROPERTY_LINE),
                (8, PROPERTY_LINE),
                (9, PROPERTY_LINE),
                (None, "no slice under slices:"),
            ],
        ),
        (8, "    \tcycle: 1", [(6, "slice s1 has no cycle"), (9, TAB)]),
        (8, " \tcycle: 1", [(6, "slice s1 has no cycle"), (9, TAB)]),
        (8, "\t    cycle: 1", [(6, "slice s1 has no cycle"), (9, TAB)]),
    ],
)
def test_tab_indentation_is_invalid(
    index: int, line: str, expected: list[tuple[int | None, str]]
) -> None:
    lines = list(MINIMAL)
    lines[index] = line
    assert problems(lines) == expected


def test_indented_line_before_any_section_is_invalid() -> None:
    assert problems(["  coverage: x", *MINIMAL]) == [(1, OUTSIDE)]


def test_a_scalar_line_ends_the_current_section() -> None:
    # Pinned: a column-0 scalar closes the section; a later indented line is under none.
    lines = [*HEAD, *PORTS, "coverage: complete", "  review: [s1]", *SLICES]
    assert problems(lines) == [(6, OUTSIDE)]
    lines = [*HEAD, *PORTS, *SLICES, "coverage: complete", "    terminal: true"]
    assert problems(lines) == [(11, OUTSIDE)]


def test_a_section_header_takes_no_value() -> None:
    assert problems([*HEAD, "ports: [s1]", "  a: [s1]", *SLICES]) == [
        (3, "ports: takes no value on its line")
    ]
    assert problems([*HEAD, *PORTS, "slices: x", *SLICE_S1]) == [
        (5, "slices: takes no value on its line")
    ]


def test_a_repeated_section_header_is_invalid() -> None:
    # Pinned: SPEC 3 says nothing explicit about a second `ports:`; the code rejects it.
    lines = [*HEAD, *PORTS, *SLICES, "Ports:", "  review: [s1]"]
    assert problems(lines) == [(10, "repeated ports: section")]
    lines = [*HEAD, *PORTS, *SLICES, "slices:", "  s2:", *SLICE_S1[1:]]
    assert problems(lines) == [(10, "repeated slices: section")]


# --- inline lists -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("[]", ()),
        ("[ ]", ()),
        ("[\t]", ()),
        ("[a]", ("a",)),
        ("[a, b]", ("a", "b")),
        ("[ a ,b ,  c ]", ("a", "b", "c")),
        ("[a b, c]", ("a b", "c")),
        ("[AC1,AC2]", ("AC1", "AC2")),
        ("[s1#cycle:2, s3#terminal]", ("s1#cycle:2", "s3#terminal")),
    ],
)
def test_inline_lists(value: str, expected: tuple[str, ...]) -> None:
    assert parse_inline_list(value) == expected


@pytest.mark.parametrize(
    "value",
    ["[a,,b]", "[a,]", "[,a]", "[,]", "[ , ]", "a, b", "[a", "a]", "", "[", "[[a]]", "[a]b", "a"],
)
def test_invalid_inline_lists(value: str) -> None:
    assert parse_inline_list(value) is None
