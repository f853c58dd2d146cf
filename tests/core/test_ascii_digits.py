"""Digits are ASCII digits, everywhere a number is read from untrusted text (issue 21).

Python's ``\\d`` (without ``re.ASCII``) matches every Unicode decimal digit (U+FF18, U+0668),
and ``str.isdigit`` matches those and more (U+00B2). Every marker, id and number pattern here
must accept ``0``-``9`` only: each test pairs the ASCII form (accepted, exact value) with the
same text with one digit swapped for a fullwidth, Arabic-Indic, extended Arabic-Indic,
Devanagari or superscript digit (refused, exact result). A pattern changed to ``\\d`` or to
``isdigit`` fails here.
"""

from __future__ import annotations

import pytest

from frame_spine.core.blocks import MarkerLine, scan_comment
from frame_spine.core.spine import parse_spine
from frame_spine.core.spine_model import PortToken, SpineProblem
from frame_spine.core.status import Failure, Status
from frame_spine.core.timestamps import parse_instant
from frame_spine.github.payloads import FetchedComment, issue_url_problem, read_comment
from frame_spine.github.retry import retry_after_instant
from frame_spine.inputs import ApiTarget, parse_inputs
from frame_spine.modes.lookup.models import LookupRequest, parse_request
from frame_spine.validation.dispatch import DispatchRequest
from frame_spine.values import parse_positive_id

#: Stand-ins for ``8``: fullwidth, Arabic-Indic, extended Arabic-Indic, Devanagari (all
#: ``\\d`` without ``re.ASCII``, and ``isdigit``), superscript two (``isdigit`` only).
EIGHTS = {
    "fullwidth": "\uff18",
    "arabic-indic": "\u0668",
    "extended-arabic-indic": "\u06f8",
    "devanagari": "\u096e",
    "superscript": "\u00b2",
}
DIGITS = pytest.mark.parametrize("eight", list(EIGHTS.values()), ids=list(EIGHTS))


def test_the_stand_ins_are_what_the_mutations_would_accept() -> None:
    import re

    for name, char in EIGHTS.items():
        assert char.isdigit(), name
        assert bool(re.fullmatch(r"\d", char)) is (name != "superscript"), name
        assert re.fullmatch(r"\d", char, re.ASCII) is None


# --- marker lines (SPEC 0, 2.4) -----------------------------------------------------------


@pytest.mark.parametrize("kind", ["plan-issue", "frame-slices"])
def test_a_marker_number_is_ascii_digits(kind: str) -> None:
    assert scan_comment(f"<!-- {kind}-878 -->\n").markers == (MarkerLine(kind, "878", 1),)  # type: ignore[arg-type]


@DIGITS
@pytest.mark.parametrize("kind", ["plan-issue", "frame-slices"])
def test_a_marker_with_another_digit_is_no_marker(kind: str, eight: str) -> None:
    assert scan_comment(f"<!-- {kind}-87{eight} -->\n").markers == ()
    assert scan_comment(f"<!-- {kind}-{eight} -->\n").markers == ()


# --- timestamps: generated_at, the stamp line, generated-at (SPEC 3, 4, 5) ----------------


def test_a_timestamp_is_ascii_digits() -> None:
    assert parse_instant("2026-07-18T22:20:08Z") == (63920010008, 0)
    assert parse_instant("2026-07-18T22:20:00.8Z") == (63920010000, 800000000)


@DIGITS
@pytest.mark.parametrize(
    "text",
    [
        "2026-07-18T22:20:0{8}Z",
        "{8}026-07-18T22:20:00Z",
        "2026-0{8}-18T22:20:00Z",
        "2026-07-1{8}T22:20:00Z",
        "2026-07-18T1{8}:20:00Z",
        "2026-07-18T22:2{8}:00Z",
        "2026-07-18T22:20:00.{8}Z",
    ],
)
def test_a_timestamp_with_another_digit_is_none(text: str, eight: str) -> None:
    assert parse_instant(text.replace("{8}", eight)) is None


@DIGITS
def test_a_stamp_with_another_digit_is_read_as_written_and_is_no_instant(eight: str) -> None:
    value = f"2026-07-18T22:20:0{eight}Z"
    scan = scan_comment(f"<!-- frame-slices-generated-at: {value} -->\n")
    assert scan.markers == (MarkerLine("stamp", value, 1),)
    assert parse_instant(value) is None


# --- the spine: slice_comment_id, step ids, #cycle:N, cycle: (SPEC 3) ----------------------

SPINE = (
    "spine_schema_version: {version}\n"
    "generated_at: 2026-07-18T22:20:00Z\n"
    "coverage: complete\n"
    "slice_comment_id: {pointer}\n"
    "ports:\n"
    "  implement-code: [{token}]\n"
    "slices:\n"
    "  {step}:\n"
    "    ac_refs: [AC1]\n"
    "    depends_on: []\n"
    "    cycle: {cycle}\n"
)
VALID = {"version": "2", "pointer": "7000000918", "token": "s8#cycle:8", "step": "s8", "cycle": "8"}


def spine(**changed: str) -> str:
    return SPINE.format(**{**VALID, **changed})


def test_the_spine_reads_ascii_digits() -> None:
    parsed = parse_spine(spine())
    assert parsed.problems == ()
    assert parsed.spine is not None
    assert parsed.spine.slice_comment_id == "7000000918"
    assert parsed.spine.ports[0].tokens == (PortToken("s8", 8, False),)
    assert [(entry.step, entry.cycle) for entry in parsed.spine.slices] == [("s8", 8)]


@DIGITS
def test_a_slice_comment_id_with_another_digit_is_refused(eight: str) -> None:
    assert parse_spine(spine(pointer=f"700000091{eight}")).problems == (
        SpineProblem(4, "slice_comment_id is not a positive integer"),
    )


@DIGITS
def test_a_schema_version_with_another_digit_is_refused(eight: str) -> None:
    assert parse_spine(spine(version=eight)).problems == (
        SpineProblem(1, "spine_schema_version must be 1 or 2"),
    )


@DIGITS
@pytest.mark.parametrize("token", ["s{8}", "s8#cycle:{8}", "s{8}#terminal"])
def test_a_port_token_with_another_digit_is_malformed(token: str, eight: str) -> None:
    written = token.replace("{8}", eight)
    assert parse_spine(spine(token=written)).problems == (
        SpineProblem(
            6,
            f"port implement-code has a malformed port token {written!r} "
            "(expected sN[#cycle:K][#terminal])",
        ),
        SpineProblem(None, "no port under ports:"),
    )


@DIGITS
def test_a_slice_entry_with_another_digit_is_no_entry(eight: str) -> None:
    property_problem = "a slice property must be four spaces, key: value, under an sN: entry"
    assert parse_spine(spine(step=f"s{eight}")).problems == (
        SpineProblem(8, "a slices: entry must be two spaces, sN:"),
        SpineProblem(9, property_problem),
        SpineProblem(10, property_problem),
        SpineProblem(11, property_problem),
        SpineProblem(None, "no slice under slices:"),
    )


@DIGITS
def test_a_cycle_with_another_digit_is_refused(eight: str) -> None:
    assert parse_spine(spine(cycle=eight)).problems == (
        SpineProblem(11, "cycle of s8 is not a non-negative integer"),
    )


# --- inputs: step ids, issue numbers, comment ids, seconds (SPEC 5, 8, 9, 14) ---------------


def test_inputs_read_ascii_digits() -> None:
    assert parse_positive_id("878", "issue-number") == 878
    request = parse_request({"step-id": "S8", "generated-at": "current", "issue-number": "878"})
    assert request == LookupRequest(step_id="s8", generated_at="current", issue_number=878)
    steps = parse_inputs(DispatchRequest, {"completed-steps": "s1, s8"})
    assert isinstance(steps, DispatchRequest)
    assert steps.completed_steps == ("s1", "s8")


@DIGITS
@pytest.mark.parametrize("name", ["issue-number", "plan-comment-id"])
def test_an_id_with_another_digit_is_refused(name: str, eight: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_positive_id(f"87{eight}", name)
    assert str(raised.value) == f"{name} {'87' + eight!r} is not a positive integer"


@DIGITS
def test_an_issue_number_input_with_another_digit_is_an_error(eight: str) -> None:
    raw = {"step-id": "s1", "generated-at": "current", "issue-number": f"87{eight}"}
    assert parse_request(raw) == Failure(
        Status.ERROR, f"issue-number {'87' + eight!r} is not a positive integer"
    )


@DIGITS
def test_a_step_id_input_with_another_digit_is_an_error(eight: str) -> None:
    assert parse_request({"step-id": f"s{eight}", "generated-at": "current"}) == Failure(
        Status.ERROR,
        f"step-id {'s' + eight!r} is not a step id (expected s<digits>, e.g. s4)",
    )


@DIGITS
def test_a_completed_step_with_another_digit_is_an_error(eight: str) -> None:
    assert parse_inputs(DispatchRequest, {"completed-steps": f"s1, s{eight}"}) == Failure(
        Status.ERROR,
        f"completed-steps: {'s' + eight!r} is not a step id (expected s<digits> separated by "
        "commas or whitespace, e.g. s1, s2)",
    )


@DIGITS
@pytest.mark.parametrize("name", ["timeout", "max-wait"])
def test_seconds_with_another_digit_are_an_error(name: str, eight: str) -> None:
    raw = {"repository": "o/r", "api-url": "https://api.github.com", name: f"1{eight}"}
    accepted = parse_inputs(ApiTarget, {**raw, name: "18"})
    assert isinstance(accepted, ApiTarget)
    assert getattr(accepted, name.replace("-", "_")) == 18
    refused = parse_inputs(ApiTarget, raw)
    assert isinstance(refused, Failure)
    assert refused.status is Status.ERROR
    assert refused.message.startswith(f"{name} {'1' + eight!r} ")


# --- what GitHub answers: issue URLs, retry-after (SPEC 6) -----------------------------------


def comment_json(issue_url: str) -> bytes:
    return (
        '{"id": 5, "body": "x", "issue_url": "' + issue_url + '", "user": {"login": "a"}}'
    ).encode()


def test_an_issue_url_is_read_with_ascii_digits() -> None:
    url = "https://api.github.com/repos/o/r/issues/878"
    assert issue_url_problem(url, "o/r", redirected=False) is None
    comment = read_comment(
        comment_json(url), "application/json", comment_id=5, repository="o/r", redirected=False
    )
    assert isinstance(comment, FetchedComment)
    assert comment.issue_number == 878
    assert retry_after_instant("18", 1000.0) == 1018.0


@DIGITS
@pytest.mark.parametrize("redirected", [False, True])
def test_an_issue_url_with_another_digit_is_not_an_issue(eight: str, redirected: bool) -> None:
    url = f"https://api.github.com/repos/o/r/issues/87{eight}"
    expected = (
        f"its issue_url {url!r} is not the URL of an issue"
        if redirected
        else f"its issue_url {url!r} is not an issue of o/r"
    )
    assert issue_url_problem(url, "o/r", redirected=redirected) == expected


@DIGITS
def test_a_retry_after_with_another_digit_is_no_delay(eight: str) -> None:
    assert retry_after_instant(f"1{eight}", 1000.0) is None


@DIGITS
def test_a_comment_whose_issue_url_ends_in_another_digit_has_no_issue_number(eight: str) -> None:
    url = f"https://api.github.com/repos/o/r/issues/87{eight}"
    assert FetchedComment(5, "x", url, None).issue_number is None
