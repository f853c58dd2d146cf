"""The dispatch matrix of validate (SPEC 14): walk order and waves (diamonds, chains,
independent steps, steps named only in port tokens), ``ready`` with ``completed-steps``,
nothing dispatched for an invalid plan, the ids every entry carries (local bodies and fetched
comments), the keys being the lookup action's inputs, and ``validate --format json``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from frame_spine.core.plan import scan_bodies
from frame_spine.core.status import Failure
from frame_spine.inputs import ApiTarget, parse_inputs
from frame_spine.modes.lookup.models import LookupRequest, OnlineTarget
from frame_spine.validation.dispatch import (
    Dispatch,
    DispatchIds,
    DispatchRequest,
    MatrixEntry,
    as_outputs,
)
from frame_spine.validation.models import with_dispatch
from frame_spine.validation.rules import validate_scanned
from tests.builders import TS, entry, slice_block
from tests.conftest import clean_env, run_cli
from tests.fake_github import REPO, TOKEN, FakeGitHub
from tests.modes.validate.test_rules import ISSUE, POINTER, plan, sibling, spine
from tests.runner_env import action_metadata

LOOKUP_INPUTS = (
    "step-id",
    "issue-number",
    "plan-comment-id",
    "slices-comment-id",
    "generated-at",
    "spine-digest",
)
ID_KEYS = ("issue-number", "plan-comment-id", "slices-comment-id", "generated-at")

# --- building plans --------------------------------------------------------------------------


def dag_lines(steps: list[tuple[str, str]], ports: list[tuple[str, str]], *head: str) -> list[str]:
    """A spine with ``head`` lines (e.g. ``slice_comment_id``), ``ports`` (name, tokens) and
    ``steps`` (step, depends_on) under ``slices:``."""
    return spine(
        *head,
        "ports:",
        *(f"  {name}: [{tokens}]" for name, tokens in ports),
        "slices:",
        *(line for step, depends in steps for line in entry(step, depends_on=f"[{depends}]")),
    )


def blocks(ports: list[tuple[str, str]], steps: list[str]) -> list[str]:
    """One slice block per step, providing exactly the ports whose tokens route to it."""
    lines: list[str] = []
    for step in steps:
        provided = [
            name
            for name, tokens in ports
            if step in [token.split("#")[0].strip() for token in tokens.split(",")]
        ]
        lines += slice_block(step, f"provides: [{', '.join(provided)}]")
    return lines


def dispatched(
    steps: list[tuple[str, str]],
    ports: list[tuple[str, str]],
    *,
    only_in_ports: tuple[str, ...] = (),
    completed: str = "",
) -> Dispatch:
    """Validate a plan built from ``steps`` and ``ports`` (every step with its slice block),
    and return its dispatch matrix with ``completed`` as the ``completed-steps`` input."""
    named = [step for step, _depends in steps] + list(only_in_ports)
    body = plan(*dag_lines(steps, ports), *blocks(ports, named))
    comments = scan_bodies(body, None)
    result = validate_scanned(comments, issue_number=ISSUE)
    assert (result.status, result.errors) == ("valid", 0), result.findings
    request = parse_inputs(DispatchRequest, {"completed-steps": completed})
    assert not isinstance(request, Failure)
    dispatch = with_dispatch(result, comments, DispatchIds(ISSUE), request.completed_steps)
    assert dispatch.dispatch is not None
    return dispatch.dispatch


def walk_of(dispatch: Dispatch) -> list[tuple[str, int]]:
    return [(entry.step_id, entry.wave) for entry in dispatch.steps]


def ready_of(dispatch: Dispatch) -> list[str]:
    return [entry.step_id for entry in dispatch.ready]


DIAMOND = [("s1", ""), ("s2", "s1"), ("s3", "s1"), ("s4", "s2, s3")]
DIAMOND_PORTS = [("implement-code", "s1, s3"), ("implement-docs", "s2"), ("review", "s4")]

# --- walk order and waves --------------------------------------------------------------------


def test_diamond_walks_in_slices_order_with_three_waves() -> None:
    dispatch = dispatched(DIAMOND, DIAMOND_PORTS)
    assert walk_of(dispatch) == [("s1", 1), ("s2", 2), ("s3", 2), ("s4", 3)]
    assert dispatch.waves == (("s1",), ("s2", "s3"), ("s4",))
    assert ready_of(dispatch) == ["s1"]
    assert [entry.depends_on for entry in dispatch.steps] == [(), ("s1",), ("s1",), ("s2", "s3")]
    assert [entry.ports for entry in dispatch.steps] == [
        ("implement-code",),
        ("implement-docs",),
        ("implement-code",),
        ("review",),
    ]


def test_walk_takes_the_earliest_step_in_slices_order_whose_dependencies_are_taken() -> None:
    # s3 comes first in slices: but waits for s1; once s1 is taken it outranks s2.
    steps = [("s3", "s1"), ("s1", ""), ("s2", "")]
    dispatch = dispatched(steps, [("implement-code", "s1, s3"), ("implement-docs", "s2")])
    assert walk_of(dispatch) == [("s1", 1), ("s3", 2), ("s2", 1)]
    # Each wave's ids in walk order, not in slices: order.
    assert dispatch.waves == (("s1", "s2"), ("s3",))
    assert ready_of(dispatch) == ["s1", "s2"]


def test_chain_written_backwards_walks_forwards_one_wave_per_step() -> None:
    steps = [("s3", "s2"), ("s2", "s1"), ("s1", "")]
    dispatch = dispatched(steps, [("implement-code", "s1, s2, s3")])
    assert walk_of(dispatch) == [("s1", 1), ("s2", 2), ("s3", 3)]
    assert dispatch.waves == (("s1",), ("s2",), ("s3",))
    assert ready_of(dispatch) == ["s1"]


def test_independent_steps_keep_slices_order_in_one_wave() -> None:
    # slices: order, not numeric or lexical order of the ids (one port each: no lane).
    steps = [("s10", ""), ("s2", ""), ("s1", "")]
    ports = [("implement-code", "s1"), ("implement-docs", "s2"), ("review", "s10")]
    dispatch = dispatched(steps, ports)
    assert walk_of(dispatch) == [("s10", 1), ("s2", 1), ("s1", 1)]
    assert dispatch.waves == (("s10", "s2", "s1"),)
    assert ready_of(dispatch) == ["s10", "s2", "s1"]


def test_steps_named_only_in_port_tokens_rank_after_every_mapped_step() -> None:
    # s5 and s4 are only in port tokens (s5's first token comes first); s2 waits for s1 and
    # still outranks them once s1 is taken. One port per lane-free position: no lane orders.
    ports = [("implement-code", "s1, s2"), ("implement-docs", "s5"), ("review", "s4#terminal")]
    dispatch = dispatched([("s1", ""), ("s2", "s1")], ports, only_in_ports=("s5", "s4"))
    assert walk_of(dispatch) == [("s1", 1), ("s2", 2), ("s5", 1), ("s4", 1)]
    assert dispatch.waves == (("s1", "s5", "s4"), ("s2",))
    assert [(entry.step_id, entry.ports, entry.depends_on) for entry in dispatch.steps] == [
        ("s1", ("implement-code",), ()),
        ("s2", ("implement-code",), ("s1",)),
        ("s5", ("implement-docs",), ()),
        ("s4", ("review",), ()),
    ]


def test_mapped_step_may_wait_for_a_step_named_only_in_port_tokens() -> None:
    ports = [("implement-code", "s1"), ("implement-docs", "s9"), ("review", "s2")]
    dispatch = dispatched([("s2", "s9"), ("s1", "")], ports, only_in_ports=("s9",))
    assert walk_of(dispatch) == [("s1", 1), ("s9", 1), ("s2", 2)]
    assert dispatch.waves == (("s1", "s9"), ("s2",))


def test_repeated_dependency_counts_once() -> None:
    dispatch = dispatched([("s1", ""), ("s2", "s1, s1")], [("implement-code", "s1, s2")])
    assert walk_of(dispatch) == [("s1", 1), ("s2", 2)]
    assert dispatch.steps[1].depends_on == ("s1",)
    assert ready_of(
        dispatched([("s1", ""), ("s2", "s1, s1")], [("implement-code", "s1, s2")], completed="s1")
    ) == ["s2"]


# --- ready and completed-steps ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("completed", "ready"),
    [
        ("", ["s1"]),
        ("s1", ["s2", "s3"]),
        ("s1,s2", ["s3"]),
        ("  s1 ,\n\ts3  ", ["s2"]),
        ("S1, S2", ["s3"]),
        ("s1 s2 s3", ["s4"]),
        ("s3,s2", ["s1", "s4"]),
        ("s1, s99, s100", ["s2", "s3"]),
        (",, s1 ,,", ["s2", "s3"]),
        ("s1, s2, s3, s4", []),
        ("s4 s3 s2 s1 s4", []),
    ],
)
def test_ready_holds_the_steps_not_done_whose_dependencies_are_done(
    completed: str, ready: list[str]
) -> None:
    dispatch = dispatched(DIAMOND, DIAMOND_PORTS, completed=completed)
    assert ready_of(dispatch) == ready
    # completed-steps narrows ready only: steps and waves stay whole.
    assert walk_of(dispatch) == [("s1", 1), ("s2", 2), ("s3", 2), ("s4", 3)]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            "s1; s2",
            "--completed-steps: 's1;' is not a step id (expected s<digits> separated by commas "
            "or whitespace, e.g. s1, s2)",
        ),
        (
            "1, 2",
            "--completed-steps: '1' is not a step id (expected s<digits> separated by commas or "
            "whitespace, e.g. s1, s2)",
        ),
        (
            "s1,s2#terminal",
            "--completed-steps: 's2#terminal' is not a step id (expected s<digits> separated by "
            "commas or whitespace, e.g. s1, s2)",
        ),
    ],
)
def test_bad_completed_steps_is_an_error_naming_the_input(raw: str, message: str) -> None:
    completed = run_cli(
        ["validate", "--plan-body", "-", "--completed-steps", raw, "--format", "json"],
        stdin=plan(*dag_lines(DIAMOND, DIAMOND_PORTS), *blocks(DIAMOND_PORTS, ["s1"])).encode(),
    )
    assert (completed.returncode, completed.stderr) == (1, b"")
    assert json.loads(completed.stdout) == {
        "status": "error",
        "errors": 0,
        "warnings": 0,
        "findings": [],
        "message": message,
    }


# --- an invalid plan dispatches nothing ------------------------------------------------------


def test_invalid_plan_dispatches_nothing_even_with_completed_steps() -> None:
    # s4's slice block is missing (unresolved-step): one error, no matrix.
    body = plan(*dag_lines(DIAMOND, DIAMOND_PORTS), *blocks(DIAMOND_PORTS, ["s1", "s2", "s3"]))
    comments = scan_bodies(body, None)
    result = validate_scanned(comments, issue_number=ISSUE)
    assert (result.status, result.errors) == ("invalid", 1)
    for completed in (None, ("s1",)):
        dispatch = with_dispatch(result, comments, DispatchIds(ISSUE), completed).dispatch
        assert dispatch == Dispatch()
        assert as_outputs(dispatch) == {"steps": [], "waves": [], "ready": []}


def test_spineless_plan_by_design_dispatches_nothing() -> None:
    comments = scan_bodies(plan("---", "plan-variant: brief", "---", "", "# Brief"), None)
    result = validate_scanned(comments, issue_number=ISSUE)
    assert (result.status, result.errors) == ("valid", 0)
    assert with_dispatch(result, comments, DispatchIds(ISSUE)).dispatch == Dispatch()


# --- the keys are the lookup action's inputs -------------------------------------------------


def test_matrix_keys_are_the_lookup_inputs_of_action_yml() -> None:
    entry_keys = set(
        MatrixEntry.model_fields[name].alias or name for name in MatrixEntry.model_fields
    )
    lookup_fields = (set(LookupRequest.model_fields) | set(OnlineTarget.model_fields)) - set(
        ApiTarget.model_fields
    )
    lookup_inputs = {name.replace("_", "-") for name in lookup_fields}
    assert lookup_inputs <= set(action_metadata()["inputs"])
    assert entry_keys - {"ports", "depends-on", "wave"} == lookup_inputs
    assert lookup_inputs == set(LOOKUP_INPUTS)
    shown = as_outputs(dispatched(DIAMOND, DIAMOND_PORTS))
    # The lookup inputs in the order of SPEC 14, then the three of the matrix alone.
    assert list(shown["steps"][0]) == [*LOOKUP_INPUTS, "ports", "depends-on", "wave"]


# --- ids: local bodies -----------------------------------------------------------------------

SPLIT = dag_lines(DIAMOND, DIAMOND_PORTS, f"slice_comment_id: {POINTER}")
SPLIT_SIBLING = sibling(*blocks(DIAMOND_PORTS, ["s1", "s2", "s3", "s4"]))


def cli_json(*args: str, stdin: bytes | None = None, **env: str) -> tuple[dict[str, Any], int]:
    completed = run_cli(["validate", *args, "--format", "json"], stdin=stdin, env=clean_env(**env))
    assert completed.stderr == b""
    return json.loads(completed.stdout), completed.returncode


def ids_of(result: dict[str, Any]) -> set[tuple[str, ...]]:
    return {tuple(step[key] for key in ID_KEYS) for step in result["dispatch"]["steps"]}


def test_local_bodies_take_the_marker_issue_the_spine_pointer_and_no_plan_id(
    tmp_path: Any,
) -> None:
    plan_file, sibling_file = tmp_path / "plan.md", tmp_path / "sibling.md"
    plan_file.write_text(plan(*SPLIT))
    sibling_file.write_text(SPLIT_SIBLING)
    result, code = cli_json("--plan-body", str(plan_file), "--slices-body", str(sibling_file))
    assert (code, result["status"]) == (0, "valid")
    assert ids_of(result) == {("7", "", str(POINTER), TS)}
    given, code = cli_json(
        "--plan-body", str(plan_file), "--slices-body", str(sibling_file), "--issue-number", "7"
    )
    assert (code, ids_of(given)) == (0, {("7", "", str(POINTER), TS)})


def test_local_plan_without_marker_or_sibling_leaves_those_ids_empty() -> None:
    body = "\n".join(
        [*dag_lines(DIAMOND, DIAMOND_PORTS), *blocks(DIAMOND_PORTS, ["s1", "s2", "s3", "s4"])]
    )
    result, code = cli_json("--plan-body", "-", stdin=body.encode())
    assert (code, result["status"]) == (0, "valid")
    assert ids_of(result) == {("", "", "", TS)}
    # An issue number given for a plan without its marker: plan-identity-mismatch, no matrix.
    given, code = cli_json("--plan-body", "-", "--issue-number", "12", stdin=body.encode())
    assert (code, given["status"], given["errors"]) == (1, "invalid", 1)
    assert given["findings"][0]["code"] == "plan-identity-mismatch"
    assert given["dispatch"] == {"steps": [], "waves": [], "ready": []}


def test_validate_json_gives_the_whole_dispatch() -> None:
    body = plan(
        *dag_lines(DIAMOND, DIAMOND_PORTS), *blocks(DIAMOND_PORTS, ["s1", "s2", "s3", "s4"])
    )
    result, code = cli_json("--plan-body", "-", "--completed-steps", "s1 s2", stdin=body.encode())
    assert code == 0
    digest = result["dispatch"]["steps"][0]["spine-digest"]
    assert digest.startswith("sha256:") and len(digest) == 71

    def shown(step: str, ports: list[str], depends: list[str], wave: int) -> dict[str, Any]:
        return {
            "step-id": step,
            "issue-number": "7",
            "plan-comment-id": "",
            "slices-comment-id": "",
            "generated-at": TS,
            "spine-digest": digest,
            "ports": ports,
            "depends-on": depends,
            "wave": wave,
        }

    s3 = shown("s3", ["implement-code"], ["s1"], 2)
    assert result["dispatch"] == {
        "steps": [
            shown("s1", ["implement-code"], [], 1),
            shown("s2", ["implement-docs"], ["s1"], 2),
            s3,
            shown("s4", ["review"], ["s2", "s3"], 3),
        ],
        "waves": [["s1"], ["s2", "s3"], ["s4"]],
        "ready": [s3],
    }


# --- ids: fetched comments -------------------------------------------------------------------

PLAN_ID = 4100


def serve_split(fake_github: FakeGitHub) -> None:
    fake_github.add_comment(PLAN_ID, plan(*SPLIT), ISSUE)
    fake_github.add_comment(POINTER, SPLIT_SIBLING, ISSUE)


@pytest.mark.parametrize(
    "args",
    [
        ("--plan-comment-id", str(PLAN_ID)),
        ("--plan-comment-id", str(PLAN_ID), "--issue-number", "7"),
        ("--plan-comment-id", str(PLAN_ID), "--slices-comment-id", str(POINTER)),
        ("--issue-number", "7"),
    ],
    ids=["plan-id", "plan-id-and-issue", "plan-and-sibling-ids", "discovery"],
)
def test_fetched_comments_give_their_ids(fake_github: FakeGitHub, args: tuple[str, ...]) -> None:
    serve_split(fake_github)
    result, code = cli_json("--repo", REPO, "--api-url", fake_github.url, *args, GITHUB_TOKEN=TOKEN)
    assert (code, result["status"]) == (0, "valid")
    assert ids_of(result) == {("7", str(PLAN_ID), str(POINTER), TS)}
    assert result["dispatch"]["waves"] == [["s1"], ["s2", "s3"], ["s4"]]


def test_fetch_failure_dispatches_nothing(fake_github: FakeGitHub) -> None:
    result, code = cli_json(
        "--repo",
        REPO,
        "--api-url",
        fake_github.url,
        "--plan-comment-id",
        "99",
        GITHUB_TOKEN=TOKEN,
    )
    assert (code, result["status"]) == (1, "comment-not-found")
    assert result.get("dispatch", {"steps": []})["steps"] == []


def test_action_yml_descriptions_hold_no_expression() -> None:
    # nektos/act evaluates ${{ }} in an action's metadata, descriptions too: one in the steps
    # output's description failed every `uses: ./` step of e2e/workflows/act.yml.
    metadata = action_metadata()
    described = [
        (kind, name)
        for kind in ("inputs", "outputs")
        for name, spec in metadata[kind].items()
        if "${{" in str(spec.get("description", ""))
    ]
    assert described == []
    assert "${{" not in str(metadata.get("description", ""))
