"""The lookup decision procedure (SPEC 5, SPEC 6 steps 3-4) and its rendering.

Statuses and fields come from SPEC.md; message texts are the code's own (pinned).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from frame_spine.core.status import Status
from frame_spine.modes.lookup.models import LookupRequest, LookupResult
from frame_spine.modes.lookup.render import result_dict, result_json, result_text
from frame_spine.modes.lookup.rules import lookup
from frame_spine.workflow_commands import json_line
from tests import builders
from tests.builders import TS, checked_request

LATER = "2026-05-05T09:00:00Z"
ISSUE = 863
POINTER = "5013460780"

# --- building plans -----------------------------------------------------------------------


def spine_payload(
    generated_at: str = TS,
    *,
    pointer: str | None = None,
    ports: tuple[str, ...] = ("implement-code: [s1, s2]",),
    slices: tuple[str, ...] = ("s1", "s2"),
    extra: tuple[str, ...] = (),
) -> str:
    pointed = [] if pointer is None else [f"slice_comment_id: {pointer}"]
    routes = [f"  {port}" for port in ports]
    entries = [line for step in slices for line in builders.entry(step)]
    block = builders.spine_block(
        "coverage: complete",
        *pointed,
        "ports:",
        *routes,
        "slices:",
        *entries,
        *extra,
        generated_at=generated_at,
    )
    return "\n".join(block[1:-1])


SPLIT = spine_payload(pointer=POINTER)
SINGLE = spine_payload()


def spine_block(payload: str = SINGLE) -> str:
    return f"<!-- frame-spine\n{payload}\n-->"


def slice_payload(step: str) -> str:
    return "\n".join(
        builders.slice_block(step, "provides: [implement-code]", f"rc: do {step}")[1:-1]
    )


def slice_block(step: str, payload: str | None = None) -> str:
    return f"<!-- frame-slice\n{payload if payload is not None else slice_payload(step)}\n-->"


def plan(*parts: str, issue: int | None = ISSUE) -> str:
    """Marker (line 1), blank, heading (line 3), blank; the first part starts on line 5."""
    marker = [] if issue is None else [builders.plan_marker(issue)]
    return "\n\n".join([*marker, "# Implementation Plan", *parts]) + "\n"


def sibling(*parts: str, issue: int | None = ISSUE, stamp: str | None = TS) -> str:
    head = builders.sibling_head(issue, stamp)
    return "\n".join(head) + "\n\n" + "\n\n".join(parts) + "\n"


def frontmatter_plan(*lines: str) -> str:
    return "\n".join([f"<!-- plan-issue-{ISSUE} -->", "", "---", *lines, "---", "", "# Brief", ""])


def digest_of(payload: str) -> str:
    """SPEC 7, written out independently of the code under test."""
    text = payload.replace("\r\n", "\n").replace("\r", "\n")
    kept = [
        line.rstrip(" \t")
        for line in text.split("\n")
        if not re.match(r"generated_at\s*:", line, re.IGNORECASE)
    ]
    while kept and not kept[-1]:
        kept.pop()
    return "sha256:" + hashlib.sha256(("\n".join(kept) + "\n").encode("utf-8")).hexdigest()


def request(
    step: str = "s1",
    generated_at: str = TS,
    *,
    digest: str | None = None,
    issue: int | str | None = ISSUE,
    has_sibling: bool = False,
) -> LookupRequest:
    checked = checked_request(
        step_id=step,
        generated_at=generated_at,
        spine_digest=digest,
        issue_number=issue,
        has_sibling=has_sibling,
    )
    assert isinstance(checked, LookupRequest)
    return checked


def run(
    plan_body: str,
    sibling_body: str | None = None,
    *,
    step: str = "s1",
    generated_at: str = TS,
    digest: str | None = None,
    issue: int | None = ISSUE,
    single_body: bool = False,
) -> LookupResult:
    checked = request(
        step, generated_at, digest=digest, issue=issue, has_sibling=sibling_body is not None
    )
    return lookup(checked, plan_body, sibling_body, single_body=single_body)


def assert_result(result: LookupResult, expected: dict[str, Any], exit_code: int) -> None:
    """Exact keys, values and key order, and the exit code."""
    assert list(result_dict(result).items()) == list(expected.items())
    assert result.exit_code == exit_code


def ok(
    step: str = "s1",
    *,
    payload: str = SINGLE,
    generated_at: str = TS,
    elided: bool = False,
    current: str = TS,
    stamp: str | None = None,
    slice_text: str | None = None,
) -> dict[str, Any]:
    expected: dict[str, Any] = {
        "status": "ok",
        "step_id": step,
        "generated_at": generated_at,
        "slice": slice_text if slice_text is not None else slice_payload(step),
        "spine_digest": digest_of(payload),
    }
    if elided:
        expected["generated_at_elided"] = True
    expected["current_generated_at"] = current
    if stamp is not None:
        expected["sibling_generated_at"] = stamp
    return expected


def stale_dispatch(dispatched: str, *, payload: str = SINGLE, current: str = TS) -> dict[str, Any]:
    return {
        "status": "stale-spine",
        "dispatched_generated_at": dispatched,
        "current_generated_at": current,
        "spine_digest": digest_of(payload),
        "message": (
            f"the spine's generated_at is {current}, not the dispatched {dispatched}: the plan "
            "changed after this step was dispatched; re-dispatch it from the current spine"
        ),
    }


def stale_sibling(stamp: str, *, payload: str = SPLIT, current: str = TS) -> dict[str, Any]:
    return {
        "status": "stale-spine",
        "current_generated_at": current,
        "sibling_generated_at": stamp,
        "spine_digest": digest_of(payload),
        "message": (
            f"the sibling is stamped {stamp}, but the spine's generated_at is {current}: its "
            "slices were written for another spine; re-run the planner's persist step so plan "
            "and sibling match"
        ),
    }


def unstamped(message: str, *, payload: str = SPLIT) -> dict[str, Any]:
    return {
        "status": "sibling-unstamped",
        "slice_comment_id": POINTER,
        "current_generated_at": TS,
        "message": message,
        "spine_digest": digest_of(payload),
    }


def _stamped(result: dict[str, Any], payload: str) -> dict[str, Any]:
    """A split plan's stamp passed checks 5-6, so its value is known and reported too."""
    if payload == SPLIT:
        result["sibling_generated_at"] = TS
    return result


def missing_slice(step: str, message: str, *, payload: str = SINGLE) -> dict[str, Any]:
    return _stamped(
        {
            "status": "missing-slice",
            "step_id": step,
            "message": message,
            "spine_digest": digest_of(payload),
            "current_generated_at": TS,
        },
        payload,
    )


def duplicate(step: str, count: int, *, payload: str = SINGLE) -> dict[str, Any]:
    return _stamped(
        {
            "status": "duplicate-slice-id",
            "step_id": step,
            "count": count,
            "message": f"{count} frame-slice blocks carry step {step}; exactly one is allowed",
            "spine_digest": digest_of(payload),
            "current_generated_at": TS,
        },
        payload,
    )


def status_message(status: str, message: str) -> dict[str, Any]:
    return {"status": status, "message": message}


NO_STAMP = "the sibling comment carries no <!-- frame-slices-generated-at: ... --> stamp line"
#: As the library (and the action) names the settings; the command line names its flags.
NO_SIBLING = (
    f"no sibling comment was supplied, but the spine's slices live in sibling comment {POINTER}: "
    f"set slices-comment-id: {POINTER} (or auto) and issue-number"
)
NOT_IN_SPINE = "step {step} is not in the spine (its steps: {steps})"
NO_BLOCK = "step {step} is in the spine but no frame-slice block for it is in {where}"
NO_SIBLING_ISSUE = (
    "a sibling comment was supplied without an issue number: "
    "issue-number is required to check the sibling's identity"
)
TWO_SPINES = "2 frame-spine blocks ({where}); exactly one is allowed"

# --- input checks -------------------------------------------------------------------------


def test_valid_inputs_become_a_request() -> None:
    checked = checked_request(
        step_id="S4",
        generated_at=TS,
        spine_digest="AB" * 32,
        issue_number="863",
        has_sibling=True,
    )
    assert checked == LookupRequest(
        step_id="s4", generated_at=TS, spine_digest="sha256:" + "ab" * 32, issue_number=863
    )


def test_optional_inputs_may_be_empty() -> None:
    checked = checked_request(
        step_id="s12", generated_at="current", spine_digest="", issue_number=""
    )
    assert checked == LookupRequest(
        step_id="s12", generated_at="current", spine_digest=None, issue_number=None
    )


def test_step_id_surrounding_whitespace_is_ignored() -> None:
    # Pinned: SPEC 5 does not mention whitespace; the code trims it.
    checked = checked_request(step_id=" S7 ", generated_at=f" {TS} ", issue_number=" 9 ")
    assert checked == LookupRequest(step_id="s7", generated_at=TS, issue_number=9)


@pytest.mark.parametrize("step", ["4", "x4", "s", "s4a", "", "s-1", "step4", "s 4", "ss4", "#s4"])
def test_a_malformed_step_id_is_an_error(step: str) -> None:
    result = checked_request(step_id=step, generated_at=TS, issue_number=ISSUE)
    assert isinstance(result, LookupResult)
    assert_result(
        result,
        status_message("error", f"step-id {step!r} is not a step id (expected s<digits>, e.g. s4)"),
        1,
    )


@pytest.mark.parametrize(
    "value",
    [
        "2026-05-04",
        "2026-02-30T00:00:00Z",
        "2026-05-04t14:30:00Z",
        "2026-05-04T14:30:00.1234567890Z",
        "2026-05-04T14:30:00+00:00",
        "now",
        "CURRENT",  # pinned: only the literal lower-case keyword is accepted
        "",
    ],
)
def test_a_malformed_generated_at_is_an_error(value: str) -> None:
    result = checked_request(step_id="s1", generated_at=value, issue_number=ISSUE)
    assert isinstance(result, LookupResult)
    assert_result(
        result,
        status_message(
            "error",
            f"generated-at {value!r} is not a timestamp "
            "(expected YYYY-MM-DDTHH:MM:SS[.fraction]Z, or 'current')",
        ),
        1,
    )


@pytest.mark.parametrize(
    "digest",
    [
        "sha256:abc",
        "md5:" + "a" * 64,
        "sha256:" + "a" * 63,
        "a" * 65,
        "sha256:" + "g" * 64,
        "sha256 " + "a" * 64,
    ],
)
def test_a_malformed_digest_is_an_error(digest: str) -> None:
    result = checked_request(step_id="s1", generated_at=TS, spine_digest=digest, issue_number=ISSUE)
    assert isinstance(result, LookupResult)
    assert_result(
        result,
        status_message(
            "error",
            f"spine-digest {digest!r} is not a digest (expected sha256:<64 hex digits>)",
        ),
        1,
    )


@pytest.mark.parametrize(
    ("issue", "shown"),
    [("0", "'0'"), ("-3", "'-3'"), ("abc", "'abc'"), ("1.5", "'1.5'"), (0, "0"), (-3, "-3")],
)
def test_a_malformed_issue_number_is_an_error(issue: int | str, shown: str) -> None:
    result = checked_request(step_id="s1", generated_at=TS, issue_number=issue)
    assert isinstance(result, LookupResult)
    assert_result(
        result, status_message("error", f"issue-number {shown} is not a positive integer"), 1
    )


@pytest.mark.parametrize("issue", [None, ""])
def test_a_sibling_without_an_issue_number_is_an_error(issue: str | None) -> None:
    result = checked_request(step_id="s1", generated_at=TS, issue_number=issue, has_sibling=True)
    assert isinstance(result, LookupResult)
    assert_result(
        result,
        status_message(
            "error",
            NO_SIBLING_ISSUE,
        ),
        1,
    )


def test_the_first_malformed_input_is_named() -> None:
    result = checked_request(step_id="x", generated_at="bad", issue_number="0")
    assert isinstance(result, LookupResult)
    assert result_dict(result) == status_message(
        "error", "step-id 'x' is not a step id (expected s<digits>, e.g. s4)"
    )


def test_lookup_itself_refuses_a_sibling_without_an_issue_number() -> None:
    checked = request(issue=None)
    result = lookup(checked, plan(spine_block(SPLIT)), sibling(slice_block("s1")))
    assert_result(result, status_message("error", NO_SIBLING_ISSUE), 1)


# --- ok -----------------------------------------------------------------------------------


def test_ok_single_comment() -> None:
    result = run(plan(spine_block(), slice_block("s1"), slice_block("s2")))
    assert_result(result, ok("s1"), 0)
    assert list(result_dict(result)) == [
        "status",
        "step_id",
        "generated_at",
        "slice",
        "spine_digest",
        "current_generated_at",
    ]


def test_ok_with_a_sibling() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), slice_block("s2")), step="s2")
    assert_result(result, ok("s2", payload=SPLIT, stamp=TS), 0)


def test_ok_upper_case_step_input_is_normalised() -> None:
    result = run(plan(spine_block(), slice_block("s1")), step="S1")
    assert_result(result, ok("s1"), 0)


def test_ok_without_an_issue_number_skips_plan_identity() -> None:
    result = run(plan(spine_block(), slice_block("s1"), issue=None), issue=None)
    assert_result(result, ok("s1"), 0)


def test_ok_for_a_step_named_only_by_a_port_token() -> None:
    payload = spine_payload(ports=("implement-code: [s1]", "review: [s9#terminal]"))
    result = run(plan(spine_block(payload), slice_block("s1"), slice_block("s9")), step="s9")
    assert_result(result, ok("s9", payload=payload), 0)


def test_ok_spine_without_pointer_reads_slices_from_a_sibling() -> None:
    result = run(plan(spine_block()), sibling(slice_block("s1"), stamp=None))
    assert_result(result, ok("s1"), 0)


def test_a_spine_found_in_the_sibling_still_counts() -> None:
    result = run(plan("Prose only."), sibling(spine_block(), slice_block("s1"), stamp=None))
    assert_result(result, ok("s1"), 0)


def test_an_unterminated_head_in_the_plan_does_not_leak_into_the_sibling() -> None:
    result = run(
        plan(spine_block(SPLIT), "<!-- frame-slice\nstep_id: s1\n"), sibling(slice_block("s1"))
    )
    assert_result(result, ok("s1", payload=SPLIT, stamp=TS), 0)


def test_ok_crlf_and_bom_bodies() -> None:
    body = "\ufeff" + plan(spine_block(), slice_block("s1")).replace("\n", "\r\n")
    assert_result(run(body), ok("s1"), 0)


def test_ok_ignores_fenced_examples() -> None:
    example = "```markdown\n" + spine_block(spine_payload(LATER)) + "\n" + slice_block("s1")
    body = plan(example + "\n```", spine_block(), slice_block("s1"))
    assert_result(run(body), ok("s1"), 0)


def test_ok_a_trailing_unterminated_spine_head_does_not_hide_the_complete_spine() -> None:
    # SPEC 2.7: invalid-spine only "when no complete spine exists".
    body = plan(spine_block(), slice_block("s1"), "<!-- frame-spine -->\nleftover: text")
    assert_result(run(body), ok("s1"), 0)


# --- instants and `current` ---------------------------------------------------------------


@pytest.mark.parametrize(
    "dispatched",
    ["2026-05-04T14:30:00.000Z", "2026-05-04T14:30:00.0Z", "2026-05-04T14:30:00.000000000Z"],
)
def test_instants_compare_as_instants(dispatched: str) -> None:
    result = run(plan(spine_block(), slice_block("s1")), generated_at=dispatched)
    assert_result(result, ok("s1", generated_at=dispatched), 0)


def test_spine_written_with_a_fraction_equals_a_dispatch_without() -> None:
    payload = spine_payload("2026-05-04T14:30:00.000Z")
    result = run(plan(spine_block(payload), slice_block("s1")))
    assert_result(
        result, ok("s1", payload=payload, generated_at=TS, current="2026-05-04T14:30:00.000Z"), 0
    )


@pytest.mark.parametrize(
    "dispatched", [LATER, "2026-05-04T14:30:00.000000001Z", "2026-05-04T14:29:59Z"]
)
def test_a_different_instant_is_stale_check_4(dispatched: str) -> None:
    result = run(plan(spine_block(), slice_block("s1")), generated_at=dispatched)
    assert_result(result, stale_dispatch(dispatched), 0)
    assert list(result_dict(result)) == [
        "status",
        "dispatched_generated_at",
        "current_generated_at",
        "spine_digest",
        "message",
    ]


def test_current_skips_check_4_and_reports_the_spines_generated_at() -> None:
    payload = spine_payload(LATER)
    result = run(plan(spine_block(payload), slice_block("s1")), generated_at="current")
    assert_result(result, ok("s1", payload=payload, generated_at=LATER, current=LATER), 0)


def test_current_does_not_skip_the_sibling_stamp_check() -> None:
    result = run(
        plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=LATER), generated_at="current"
    )
    assert_result(result, stale_sibling(LATER), 0)


def test_current_does_not_skip_later_checks() -> None:
    result = run(plan(spine_block(), slice_block("s1")), step="s2", generated_at="current")
    assert_result(
        result,
        missing_slice("s2", NO_BLOCK.format(step="s2", where="the plan comment"), payload=SINGLE),
        1,
    )


# --- digest elision (SPEC 7) --------------------------------------------------------------


def test_a_matching_digest_elides_a_differing_generated_at() -> None:
    # The spine was regenerated at LATER with the same content; the dispatch carried TS.
    regenerated = spine_payload(LATER)
    result = run(
        plan(spine_block(regenerated), slice_block("s1")),
        digest=digest_of(SINGLE),
    )
    assert_result(
        result, ok("s1", payload=regenerated, generated_at=TS, elided=True, current=LATER), 0
    )
    assert list(result_dict(result)) == [
        "status",
        "step_id",
        "generated_at",
        "slice",
        "spine_digest",
        "generated_at_elided",
        "current_generated_at",
    ]
    assert result_dict(result)["generated_at_elided"] is True


@pytest.mark.parametrize(
    "form", ["prefixed", "bare", "upper"], ids=["with-prefix", "without-prefix", "upper-case-hex"]
)
def test_the_digest_is_accepted_with_or_without_prefix(form: str) -> None:
    digest = digest_of(SINGLE)
    given = {"prefixed": digest, "bare": digest[7:], "upper": digest[7:].upper()}[form]
    result = run(plan(spine_block(), slice_block("s1")), generated_at=LATER, digest=given)
    assert_result(result, ok("s1", generated_at=LATER, elided=True), 0)


def test_the_digest_ignores_the_case_of_the_generated_at_key() -> None:
    regenerated = spine_payload(LATER).replace("generated_at:", "GENERATED_AT:")
    result = run(plan(spine_block(regenerated), slice_block("s1")), digest=digest_of(SINGLE))
    assert_result(
        result, ok("s1", payload=regenerated, generated_at=TS, elided=True, current=LATER), 0
    )


def test_the_digest_ignores_trailing_whitespace_churn() -> None:
    regenerated = spine_payload(LATER).replace("coverage: complete", "coverage: complete \t")
    result = run(plan(spine_block(regenerated), slice_block("s1")), digest=digest_of(SINGLE))
    assert_result(
        result, ok("s1", payload=regenerated, generated_at=TS, elided=True, current=LATER), 0
    )
    assert result_dict(result)["spine_digest"] == digest_of(SINGLE)


def test_a_different_digest_is_stale() -> None:
    result = run(
        plan(spine_block(), slice_block("s1")),
        generated_at=LATER,
        digest=digest_of(spine_payload(extra=("  s3:",))),
    )
    assert_result(result, stale_dispatch(LATER), 0)


def test_the_digest_is_consulted_only_when_instants_differ() -> None:
    result = run(plan(spine_block(), slice_block("s1")), digest="sha256:" + "0" * 64)
    assert_result(result, ok("s1"), 0)


def test_elided_spine_still_compares_the_stamp_with_its_own_generated_at() -> None:
    result = run(
        plan(spine_block(SPLIT)),
        sibling(slice_block("s1"), stamp=TS),
        generated_at=LATER,
        digest=digest_of(SPLIT),
    )
    assert_result(result, ok("s1", payload=SPLIT, generated_at=LATER, elided=True, stamp=TS), 0)


def test_elided_spine_with_a_stamp_matching_only_the_dispatch_is_stale_check_6() -> None:
    result = run(
        plan(spine_block(SPLIT)),
        sibling(slice_block("s1"), stamp=LATER),
        generated_at=LATER,
        digest=digest_of(SPLIT),
    )
    assert_result(result, stale_sibling(LATER), 0)


# --- missing-spine ------------------------------------------------------------------------


@pytest.mark.parametrize("body", ["", "   \n\n\t\n", "\ufeff"])
def test_missing_spine_empty_body(body: str) -> None:
    result = run(body, issue=None)
    assert_result(
        result,
        status_message("missing-spine", "no frame-spine block: the comment body is empty"),
        1,
    )


def test_missing_spine_prose() -> None:
    body = plan("Some prose that mentions `<!-- frame-spine ... -->` mid-line.")
    assert_result(
        run(body),
        status_message("missing-spine", "no frame-spine block in the plan comment"),
        1,
    )


def test_missing_spine_prose_with_a_sibling() -> None:
    result = run(plan("Prose."), sibling("More prose."))
    assert_result(
        result,
        status_message("missing-spine", "no frame-spine block in the plan comment or its sibling"),
        1,
    )


def test_missing_spine_fenced_examples_only() -> None:
    body = plan("```markdown\n" + spine_block() + "\n" + slice_block("s1") + "\n```")
    assert_result(
        run(body),
        status_message(
            "missing-spine",
            "no frame-spine block outside code: the frame-spine heads found are code examples "
            "(in fenced or indented code blocks), not blocks",
        ),
        1,
    )


@pytest.mark.parametrize(
    ("line", "variant"),
    [
        ("plan-variant: brief", "brief"),
        ("plan-variant: goal-contract", "goal-contract"),
        ('plan-variant: "brief"', "brief"),
        ("plan-variant: 'goal-contract'", "goal-contract"),
    ],
)
def test_missing_spine_variant(line: str, variant: str) -> None:
    result = run(frontmatter_plan("status: pending", line))
    assert_result(
        result,
        status_message(
            "missing-spine",
            f"no frame-spine block: the plan is a {variant} variant "
            f"(plan-variant: {variant}), which carries no spine by design",
        ),
        1,
    )


def test_variant_frontmatter_after_a_multi_line_html_comment() -> None:
    body = (
        f"<!-- plan-issue-{ISSUE} -->\n\n<!-- phase-containment-ledger-ref:\n  5013464861\n-->\n"
        "\n---\nplan-variant: brief\n---\n\n# Brief\n"
    )
    result = run(body)
    variant = "brief"
    assert_result(
        result,
        status_message(
            "missing-spine",
            f"no frame-spine block: the plan is a {variant} variant "
            f"(plan-variant: {variant}), which carries no spine by design",
        ),
        1,
    )


@pytest.mark.parametrize(
    "line", ["spine-omitted: plan-too-small", 'spine-omitted: "plan-too-small"']
)
def test_missing_spine_plan_too_small(line: str) -> None:
    result = run(frontmatter_plan("status: pending", line))
    assert_result(
        result,
        status_message(
            "missing-spine", "no frame-spine block: the plan says spine-omitted: plan-too-small"
        ),
        1,
    )


def test_a_variant_line_outside_the_frontmatter_is_prose() -> None:
    body = plan("plan-variant: brief", "spine-omitted: plan-too-small")
    assert_result(
        run(body),
        status_message("missing-spine", "no frame-spine block in the plan comment"),
        1,
    )


def test_missing_spine_in_single_body_mode() -> None:
    result = run("Prose only.\n", issue=None, single_body=True)
    assert_result(result, status_message("missing-spine", "no frame-spine block in the body"), 1)


# --- invalid-spine ------------------------------------------------------------------------


def test_invalid_spine_two_spines() -> None:
    body = plan(spine_block(), spine_block(), slice_block("s1"))
    assert_result(
        run(body),
        status_message(
            "invalid-spine",
            TWO_SPINES.format(where="line 5 of the plan comment, line 22 of the plan comment"),
        ),
        1,
    )


def test_invalid_spine_one_in_the_plan_one_in_the_sibling() -> None:
    result = run(plan(spine_block()), sibling(spine_block(), slice_block("s1"), stamp=None))
    assert_result(
        result,
        status_message(
            "invalid-spine",
            TWO_SPINES.format(where="line 5 of the plan comment, line 3 of the sibling comment"),
        ),
        1,
    )


def test_two_spines_is_reported_before_grammar() -> None:
    bad = spine_block(SINGLE + "\nowner: me")
    body = plan(bad, bad, slice_block("s1"))
    assert_result(
        run(body),
        status_message(
            "invalid-spine",
            TWO_SPINES.format(where="line 5 of the plan comment, line 23 of the plan comment"),
        ),
        1,
    )


def test_invalid_spine_grammar_names_the_first_offending_line() -> None:
    payload = SINGLE.replace("coverage: complete", "owner: me") + "\n    terminal: maybe"
    body = plan(spine_block(payload), slice_block("s1"))
    assert_result(
        run(body),
        status_message(
            "invalid-spine",
            "invalid frame-spine: line 8 of the plan comment: unknown or malformed top-level "
            "line: 'owner: me'",
        ),
        1,
    )


def test_invalid_spine_grammar_in_the_sibling() -> None:
    payload = SINGLE.replace("cycle: 1", "cycle: x", 1)
    result = run(plan("Prose."), sibling(spine_block(payload), slice_block("s1"), stamp=None))
    assert_result(
        result,
        status_message(
            "invalid-spine",
            "invalid frame-spine: line 13 of the sibling comment: cycle of s1 is not a "
            "non-negative integer: 'cycle: x'",
        ),
        1,
    )


def test_invalid_spine_whole_spine_problem() -> None:
    body = plan(spine_block(spine_payload(ports=())), slice_block("s1"))
    assert_result(
        run(body),
        status_message(
            "invalid-spine", "invalid frame-spine in the plan comment: no port under ports:"
        ),
        1,
    )


def test_invalid_spine_unterminated_head() -> None:
    body = plan("Prose.", "<!-- frame-spine\nspine_schema_version: 2\n")
    assert_result(
        run(body),
        status_message(
            "invalid-spine",
            "unterminated frame-spine block: the head at line 7 of the plan comment has no "
            "closing -->",
        ),
        1,
    )


def test_invalid_spine_is_reported_before_staleness() -> None:
    body = plan(spine_block(SINGLE + "\nowner: me"), slice_block("s1"))
    assert_result(
        run(body, generated_at=LATER),
        status_message(
            "invalid-spine",
            "invalid frame-spine: line 20 of the plan comment: unknown or malformed top-level "
            "line: 'owner: me'",
        ),
        1,
    )


# --- missing-slice and duplicate-slice-id -------------------------------------------------


def test_missing_slice_not_in_spine() -> None:
    payload = spine_payload(slices=("s1", "s2", "s10"))
    body = plan(spine_block(payload), slice_block("s1"), slice_block("s3"))
    assert_result(
        run(body, step="s3"),
        missing_slice("s3", NOT_IN_SPINE.format(step="s3", steps="s1, s2, s10"), payload=payload),
        1,
    )


def test_missing_slice_no_block() -> None:
    body = plan(spine_block(), slice_block("s1"))
    assert_result(
        run(body, step="s2"),
        missing_slice("s2", NO_BLOCK.format(step="s2", where="the plan comment")),
        1,
    )


def test_missing_slice_no_block_in_plan_or_sibling() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1")), step="s2")
    assert_result(
        result,
        missing_slice(
            "s2",
            NO_BLOCK.format(step="s2", where="the plan comment or its sibling"),
            payload=SPLIT,
        ),
        1,
    )


def test_missing_slice_block_only_in_a_fence() -> None:
    body = plan(spine_block(), slice_block("s1"), "~~~\n" + slice_block("s2") + "\n~~~")
    assert_result(
        run(body, step="s2"),
        missing_slice("s2", NO_BLOCK.format(step="s2", where="the plan comment")),
        1,
    )


def test_missing_slice_indented_step_id_does_not_address() -> None:
    body = plan(spine_block(), slice_block("s2", "provides: [x]\n  step_id: s2"))
    assert_result(
        run(body, step="s2"),
        missing_slice("s2", NO_BLOCK.format(step="s2", where="the plan comment")),
        1,
    )


def test_duplicate_slice_in_one_comment() -> None:
    body = plan(spine_block(), slice_block("s1"), slice_block("s1", "step_id: S1\nrc: again"))
    result = run(body)
    assert_result(result, duplicate("s1", 2), 1)
    assert type(result_dict(result)["count"]) is int


def test_duplicate_slice_across_comments() -> None:
    result = run(
        plan(spine_block(SPLIT), slice_block("s1")),
        sibling(slice_block("s1"), slice_block("s1")),
    )
    assert_result(result, duplicate("s1", 3, payload=SPLIT), 1)


def test_a_fenced_slice_is_no_duplicate() -> None:
    body = plan(spine_block(), slice_block("s1"), "```\n" + slice_block("s1") + "\n```")
    assert_result(run(body), ok("s1"), 0)


# --- sibling-unstamped --------------------------------------------------------------------


def test_unstamped_no_sibling_supplied() -> None:
    result = run(plan(spine_block(SPLIT), slice_block("s1")))
    assert_result(result, unstamped(NO_SIBLING), 1)


def test_unstamped_sibling_without_stamp() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=None))
    assert_result(result, unstamped(NO_STAMP), 1)


@pytest.mark.parametrize("stamp", ["yesterday", "2026-05-04", "2026-05-04t14:30:00z", ""])
def test_unstamped_malformed_stamp(stamp: str) -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=stamp))
    assert_result(
        result, unstamped(f"the stamp of the sibling comment is not a timestamp: {stamp!r}"), 1
    )


def test_unstamped_stamps_disagreeing() -> None:
    extra = f"<!-- frame-slices-generated-at: {LATER} -->"
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), extra))
    assert_result(
        result, unstamped("the sibling comment carries 2 stamps that name different instants"), 1
    )


def test_several_stamps_naming_the_same_instant_pass() -> None:
    extra = "<!-- frame-slices-generated-at: 2026-05-04T14:30:00.000Z -->"
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), extra))
    assert_result(result, ok("s1", payload=SPLIT, stamp=TS), 0)


def test_unstamped_stamp_quoted_mid_line_in_plan_prose() -> None:
    prose = f"The writer adds `<!-- frame-slices-generated-at: {TS} -->` to the sibling."
    result = run(plan(prose, spine_block(SPLIT)), sibling(slice_block("s1"), stamp=None))
    assert_result(result, unstamped(NO_STAMP), 1)


def test_unstamped_stamp_line_in_the_plan_does_not_count_for_the_sibling() -> None:
    stamp_line = f"<!-- frame-slices-generated-at: {TS} -->"
    result = run(plan(stamp_line, spine_block(SPLIT)), sibling(slice_block("s1"), stamp=None))
    assert_result(result, unstamped(NO_STAMP), 1)


def test_unstamped_stamp_mid_line_in_the_sibling() -> None:
    prose = f"stamped <!-- frame-slices-generated-at: {TS} -->"
    result = run(plan(spine_block(SPLIT)), sibling(prose, slice_block("s1"), stamp=None))
    assert_result(result, unstamped(NO_STAMP), 1)


def test_unstamped_stamp_only_inside_a_fence() -> None:
    fenced = f"```\n<!-- frame-slices-generated-at: {TS} -->\n```"
    result = run(plan(spine_block(SPLIT)), sibling(fenced, slice_block("s1"), stamp=None))
    assert_result(result, unstamped(NO_STAMP), 1)


def test_unstamped_key_order() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=None))
    keys = list(result_dict(result))
    # SPEC 5: the fixed keys, "then message"; the additive spine_digest comes last.
    assert keys == ["status", "slice_comment_id", "current_generated_at", "message", "spine_digest"]
    assert type(result_dict(result)["slice_comment_id"]) is str


# --- stale-spine via check 6 --------------------------------------------------------------


def test_stale_sibling_stamp_check_6() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=LATER))
    assert_result(result, stale_sibling(LATER), 0)
    assert list(result_dict(result)) == [
        "status",
        "current_generated_at",
        "sibling_generated_at",
        "spine_digest",
        "message",
    ]


def test_a_stamp_with_a_fraction_naming_the_same_instant_is_fresh() -> None:
    stamp = "2026-05-04T14:30:00.000Z"
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=stamp))
    assert_result(result, ok("s1", payload=SPLIT, stamp=stamp), 0)


# --- identity (SPEC 6 steps 3-4) ----------------------------------------------------------


def test_sibling_identity_no_marker() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), issue=None))
    assert_result(
        result,
        status_message(
            "sibling-identity-mismatch",
            f"the sibling comment carries no <!-- frame-slices-{ISSUE} --> line",
        ),
        1,
    )


def test_sibling_identity_other_issue() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), issue=864))
    assert_result(
        result,
        status_message(
            "sibling-identity-mismatch",
            "the sibling comment is for issue #864 (a frame-slices marker line), not #863",
        ),
        1,
    )


def test_sibling_identity_two_markers() -> None:
    result = run(plan(spine_block(SPLIT)), sibling("<!-- frame-slices-864 -->", slice_block("s1")))
    assert_result(
        result,
        status_message(
            "sibling-identity-mismatch",
            "the sibling comment also carries a frame-slices marker line for issue #864",
        ),
        1,
    )


def test_sibling_identity_marker_only_in_prose() -> None:
    prose = f"This is `<!-- frame-slices-{ISSUE} -->` quoted."
    result = run(plan(spine_block(SPLIT)), sibling(prose, slice_block("s1"), issue=None))
    assert_result(
        result,
        status_message(
            "sibling-identity-mismatch",
            f"the sibling comment carries no <!-- frame-slices-{ISSUE} --> line",
        ),
        1,
    )


def test_sibling_identity_marker_only_in_a_fence() -> None:
    fenced = f"```\n<!-- frame-slices-{ISSUE} -->\n```"
    result = run(plan(spine_block(SPLIT)), sibling(fenced, slice_block("s1"), issue=None))
    assert_result(
        result,
        status_message(
            "sibling-identity-mismatch",
            f"the sibling comment carries no <!-- frame-slices-{ISSUE} --> line",
        ),
        1,
    )


def test_plan_identity_marker_only_in_a_fence() -> None:
    fenced = f"~~~~\n<!-- plan-issue-{ISSUE} -->\n~~~~"
    body = plan(fenced, spine_block(), slice_block("s1"), issue=None)
    assert_result(
        run(body),
        status_message(
            "plan-identity-mismatch",
            f"the plan comment carries no <!-- plan-issue-{ISSUE} --> line",
        ),
        1,
    )


def test_plan_identity_other_issue() -> None:
    body = plan(spine_block(), slice_block("s1"), issue=864)
    assert_result(
        run(body),
        status_message(
            "plan-identity-mismatch",
            "the plan comment is for issue #864 (a plan-issue marker line), not #863",
        ),
        1,
    )


def test_plan_identity_no_marker() -> None:
    body = plan(f"See `<!-- plan-issue-{ISSUE} -->`.", spine_block(), slice_block("s1"), issue=None)
    assert_result(
        run(body),
        status_message(
            "plan-identity-mismatch",
            f"the plan comment carries no <!-- plan-issue-{ISSUE} --> line",
        ),
        1,
    )


def test_plan_identity_two_markers() -> None:
    body = plan("<!-- plan-issue-864 -->", spine_block(), slice_block("s1"))
    assert_result(
        run(body),
        status_message(
            "plan-identity-mismatch",
            "the plan comment also carries a plan-issue marker line for issue #864",
        ),
        1,
    )


def test_single_body_foreign_sibling_marker() -> None:
    # Pinned: in single-body mode only a frame-slices marker for another issue is a mismatch.
    body = plan(spine_block(), slice_block("s1"), "<!-- frame-slices-864 -->")
    assert_result(
        run(body, single_body=True),
        status_message(
            "sibling-identity-mismatch",
            "the body also carries a frame-slices marker line for issue #864",
        ),
        1,
    )


def test_single_body_plan_identity() -> None:
    body = plan(spine_block(), slice_block("s1"), issue=864)
    assert_result(
        run(body, single_body=True),
        status_message(
            "plan-identity-mismatch",
            "the body is for issue #864 (a plan-issue marker line), not #863",
        ),
        1,
    )


# --- order of checks ----------------------------------------------------------------------


def test_sibling_identity_is_checked_before_plan_identity() -> None:
    result = run(plan(spine_block(SPLIT), issue=864), sibling(slice_block("s1"), issue=865))
    assert_result(
        result,
        status_message(
            "sibling-identity-mismatch",
            "the sibling comment is for issue #865 (a frame-slices marker line), not #863; the "
            "plan comment does not belong to issue #863 either: check the issue number",
        ),
        1,
    )


def test_identity_is_checked_before_the_spine() -> None:
    body = plan(spine_block(), spine_block(), issue=864)
    assert_result(
        run(body, generated_at=LATER),
        status_message(
            "plan-identity-mismatch",
            "the plan comment is for issue #864 (a plan-issue marker line), not #863",
        ),
        1,
    )
    assert run(plan("Prose.", issue=864)).status is Status.PLAN_IDENTITY_MISMATCH


def test_stale_dispatch_wins_over_a_missing_slice() -> None:
    result = run(plan(spine_block(), slice_block("s1")), step="s7", generated_at=LATER)
    assert_result(result, stale_dispatch(LATER), 0)


def test_stale_dispatch_wins_over_an_unstamped_sibling() -> None:
    result = run(
        plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=None), generated_at=LATER
    )
    assert_result(result, stale_dispatch(LATER, payload=SPLIT), 0)


def test_unstamped_wins_over_a_missing_slice() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(stamp=None), step="s2")
    assert_result(result, unstamped(NO_STAMP), 1)


def test_stale_sibling_wins_over_a_missing_slice() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(stamp=LATER), step="s7")
    assert_result(result, stale_sibling(LATER), 0)


def test_missing_slice_wins_over_duplicates_of_a_step_not_in_the_spine() -> None:
    body = plan(spine_block(), slice_block("s5"), slice_block("s5"))
    assert_result(
        run(body, step="s5"),
        missing_slice("s5", NOT_IN_SPINE.format(step="s5", steps="s1, s2")),
        1,
    )


# --- single-body mode ---------------------------------------------------------------------


def test_single_body_stamp_anywhere() -> None:
    stamp_line = f"<!-- frame-slices-generated-at: {TS} -->"
    body = plan(stamp_line, spine_block(SPLIT), f"<!-- frame-slices-{ISSUE} -->", slice_block("s1"))
    assert_result(run(body, single_body=True), ok("s1", payload=SPLIT, stamp=TS), 0)


def test_single_body_stamp_after_the_slices() -> None:
    body = plan(
        spine_block(SPLIT), slice_block("s1"), f"<!-- frame-slices-generated-at: {LATER} -->"
    )
    assert_result(run(body, single_body=True), stale_sibling(LATER), 0)


def test_single_body_without_a_stamp() -> None:
    body = plan(spine_block(SPLIT), slice_block("s1"))
    assert_result(
        run(body, single_body=True),
        unstamped("the body carries no <!-- frame-slices-generated-at: ... --> stamp line"),
        1,
    )


def test_single_body_stamp_quoted_mid_line_does_not_count() -> None:
    prose = f"Add `<!-- frame-slices-generated-at: {TS} -->` to the sibling."
    body = plan(prose, spine_block(SPLIT), slice_block("s1"))
    assert_result(
        run(body, single_body=True),
        unstamped("the body carries no <!-- frame-slices-generated-at: ... --> stamp line"),
        1,
    )


def test_single_body_missing_slice_names_the_body() -> None:
    body = plan(spine_block(), slice_block("s1"))
    assert_result(
        run(body, step="s2", single_body=True),
        missing_slice("s2", NO_BLOCK.format(step="s2", where="the body")),
        1,
    )


# --- exit codes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (Status.OK, 0),
        (Status.STALE_SPINE, 0),
        (Status.MISSING_SPINE, 1),
        (Status.INVALID_SPINE, 1),
        (Status.MISSING_SLICE, 1),
        (Status.DUPLICATE_SLICE_ID, 1),
        (Status.SIBLING_UNSTAMPED, 1),
        (Status.SIBLING_IDENTITY_MISMATCH, 1),
        (Status.PLAN_IDENTITY_MISMATCH, 1),
        (Status.COMMENT_ID_MISSING, 1),
        (Status.COMMENT_NOT_FOUND, 1),
        (Status.GH_AUTH_EXPIRED, 1),
        (Status.GH_RATE_LIMITED, 1),
        (Status.ERROR, 1),
    ],
)
def test_exit_codes(status: Status, code: int) -> None:
    assert status.exit_code == code
    assert LookupResult(status=status).exit_code == code


def test_status_wire_spellings() -> None:
    assert [status.value for status in Status] == [
        "ok",
        "stale-spine",
        "missing-spine",
        "invalid-spine",
        "missing-slice",
        "duplicate-slice-id",
        "sibling-unstamped",
        "sibling-identity-mismatch",
        "plan-identity-mismatch",
        "comment-id-missing",
        "comment-not-found",
        "gh-auth-expired",
        "gh-rate-limited",
        "error",
    ]


# --- key order per status -----------------------------------------------------------------


def input_error() -> LookupResult:
    result = checked_request(step_id="x", generated_at=TS)
    assert isinstance(result, LookupResult)
    return result


def key_order_cases() -> list[tuple[str, LookupResult, list[str]]]:
    single = plan(spine_block(), slice_block("s1"))
    return [
        (
            "ok",
            run(single),
            ["status", "step_id", "generated_at", "slice", "spine_digest", "current_generated_at"],
        ),
        (
            "ok-split",
            run(plan(spine_block(SPLIT)), sibling(slice_block("s1"))),
            [
                "status",
                "step_id",
                "generated_at",
                "slice",
                "spine_digest",
                "current_generated_at",
                "sibling_generated_at",
            ],
        ),
        (
            "stale-check-4",
            run(single, generated_at=LATER),
            [
                "status",
                "dispatched_generated_at",
                "current_generated_at",
                "spine_digest",
                "message",
            ],
        ),
        (
            "stale-check-6",
            run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=LATER)),
            ["status", "current_generated_at", "sibling_generated_at", "spine_digest", "message"],
        ),
        (
            "missing-slice",
            run(single, step="s2"),
            ["status", "step_id", "message", "spine_digest", "current_generated_at"],
        ),
        (
            "duplicate-slice-id",
            run(plan(spine_block(), slice_block("s1"), slice_block("s1"))),
            ["status", "step_id", "count", "message", "spine_digest", "current_generated_at"],
        ),
        ("missing-spine", run(plan("Prose.")), ["status", "message"]),
        (
            "error",
            input_error(),
            ["status", "message"],
        ),
        ("invalid-spine", run(plan(spine_block(), spine_block())), ["status", "message"]),
        ("plan-identity-mismatch", run(single, issue=864), ["status", "message"]),
        (
            "sibling-identity-mismatch",
            run(plan(spine_block(SPLIT)), sibling(issue=864)),
            ["status", "message"],
        ),
    ]


@pytest.mark.parametrize(
    ("result", "keys"),
    [(result, keys) for _name, result, keys in key_order_cases()],
    ids=[name for name, _result, _keys in key_order_cases()],
)
def test_key_order_per_status(result: LookupResult, keys: list[str]) -> None:
    assert list(result_dict(result)) == keys
    assert list(json.loads(result_json(result))) == keys


# --- rendering ----------------------------------------------------------------------------


def test_result_json_is_one_compact_line_with_non_ascii_unescaped() -> None:
    text = "step_id: s1\nrc: café — naïve ✓ 日本"
    result = run(plan(spine_block(), slice_block("s1", text)))
    rendered = result_json(result)
    assert rendered == (
        '{"status":"ok","step_id":"s1","generated_at":"2026-05-04T14:30:00Z",'
        '"slice":"step_id: s1\\nrc: café — naïve ✓ 日本",'
        f'"spine_digest":"{digest_of(SINGLE)}",'
        '"current_generated_at":"2026-05-04T14:30:00Z"}'
    )
    assert "\n" not in rendered
    assert json.loads(rendered) == result_dict(result)


def test_result_json_of_an_error() -> None:
    result = checked_request(step_id="x", generated_at=TS)
    assert isinstance(result, LookupResult)
    assert result_json(result) == (
        '{"status":"error","message":'
        "\"step-id 'x' is not a step id (expected s<digits>, e.g. s4)\"}"
    )


def test_result_json_with_elision_keeps_a_json_true() -> None:
    result = run(
        plan(spine_block(), slice_block("s1")), generated_at=LATER, digest=digest_of(SINGLE)
    )
    assert ',"generated_at_elided":true,' in result_json(result)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"m": "::error::x"}, '{"m":":\\u003aerror:\\u003ax"}'),
        ({"m": "##[group]x"}, '{"m":"#\\u0023[group]x"}'),
        ({"m": "a:::b"}, '{"m":"a:\\u003a:b"}'),
        ({"m": "###[x"}, '{"m":"##\\u0023[x"}'),
        (["::", "##["], '[":\\u003a","#\\u0023["]'),
        ({"::k": 1}, '{":\\u003ak":1}'),
        ({"m": "é:ok # [x]"}, '{"m":"é:ok # [x]"}'),
    ],
)
def test_json_line_escapes_workflow_commands(value: Any, expected: str) -> None:
    line = json_line(value)
    assert line == expected
    assert "::" not in line
    assert "##[" not in line
    assert json.loads(line) == value


def test_result_json_of_a_slice_carrying_workflow_commands() -> None:
    text = "step_id: s1\n::set-output name=x::y\n##[error]boom\n::::"
    result = run(plan(spine_block(), slice_block("s1", text)))
    rendered = result_json(result)
    assert "::" not in rendered
    assert "##[" not in rendered
    assert json.loads(rendered)["slice"] == text


def test_result_text_ok() -> None:
    result = run(
        plan(spine_block(), slice_block("s1")), generated_at=LATER, digest=digest_of(SINGLE)
    )
    assert result_text(result) == (
        "status: ok\n"
        "step_id: s1\n"
        "slice: |\n"
        "  step_id: s1\n"
        "  provides: [implement-code]\n"
        "  rc: do s1\n"
    )


def test_result_text_ok_keeps_indentation_and_blank_lines() -> None:
    text = "step_id: s1\nrequirement-contract: |\n  Indented text.\n\n  More."
    result = run(plan(spine_block(), slice_block("s1", text)))
    # SPEC 5: each slice line is indented by two spaces, empty ones too.
    assert result_text(result) == (
        "status: ok\n"
        "step_id: s1\n"
        "slice: |\n"
        "  step_id: s1\n"
        "  requirement-contract: |\n"
        "    Indented text.\n"
        "  \n"
        "    More.\n"
    )


def test_result_text_stale_check_4() -> None:
    result = run(plan(spine_block(), slice_block("s1")), generated_at=LATER)
    assert result_text(result) == (
        "status: stale-spine\n"
        f"dispatched_generated_at: {LATER}\n"
        f"current_generated_at: {TS}\n"
        f"message: the spine's generated_at is {TS}, not the dispatched {LATER}: the plan "
        "changed after this step was dispatched; re-dispatch it from the current spine\n"
    )


def test_result_text_stale_check_6() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=LATER))
    assert result_text(result) == (
        "status: stale-spine\n"
        f"current_generated_at: {TS}\n"
        f"sibling_generated_at: {LATER}\n"
        f"message: the sibling is stamped {LATER}, but the spine's generated_at is {TS}: its "
        "slices were written for another spine; re-run the planner's persist step so plan and "
        "sibling match\n"
    )


def test_result_text_sibling_unstamped() -> None:
    result = run(plan(spine_block(SPLIT)), sibling(slice_block("s1"), stamp=None))
    assert result_text(result) == (
        "status: sibling-unstamped\n"
        f"slice_comment_id: {POINTER}\n"
        f"current_generated_at: {TS}\n"
        f"message: {NO_STAMP}\n"
    )


def test_result_text_missing_slice() -> None:
    result = run(plan(spine_block(), slice_block("s1")), step="s9")
    assert result_text(result) == (
        "status: missing-slice\nstep_id: s9\nmessage: step s9 is not in the spine (its steps: "
        "s1, s2)\n"
    )


def test_result_text_duplicate() -> None:
    result = run(plan(spine_block(), slice_block("s1"), slice_block("s1")))
    assert result_text(result) == (
        "status: duplicate-slice-id\n"
        "step_id: s1\n"
        "count: 2\n"
        "message: 2 frame-slice blocks carry step s1; exactly one is allowed\n"
    )


def test_result_text_missing_spine() -> None:
    result = run(plan("Prose."))
    assert result_text(result) == (
        "status: missing-spine\nmessage: no frame-spine block in the plan comment\n"
    )


def test_the_empty_sibling_is_named_as_the_command_line_calls_it() -> None:
    from frame_spine.core.shown import naming
    from frame_spine.declared import cli_names

    with naming(cli_names()):
        result = run(plan(spine_block(SPLIT), slice_block("s1")))
    assert result.message == (
        f"no sibling comment was supplied, but the spine's slices live in sibling comment "
        f"{POINTER}: set --slices-comment-id {POINTER} (or auto) and --issue-number (local "
        "bodies: --slices-body)"
    )
