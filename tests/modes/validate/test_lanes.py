"""Port lanes (SPEC 14, revision 3): a port's token list is its execution order. Exact
``steps``, ``waves`` and ``ready`` for the bundled 878 spine made valid, the twelve-step plan,
inserted (non-monotonic) steps, a step in two ports, opposite orders in two ports, a lane
against ``depends_on``, a step listed twice in one port and steps named only in tokens; the
``lane-order-conflict`` warning; and the lanes equal to SPEC 14's definition, computed the
slow way, on generated spines (hypothesis, derandomized), on seeded larger ones and on each
shape of revision 4's benchmark. ``depends_on`` cycles are among them: validate reports them
as errors but still runs the lane rule on such a plan."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frame_spine.core.lanes import LaneConflict, port_lanes
from frame_spine.core.plan import scan_bodies
from frame_spine.core.spine_model import PortRoute, PortToken
from frame_spine.core.status import Failure
from frame_spine.inputs import parse_inputs
from frame_spine.validation.dispatch import (
    Dispatch,
    DispatchIds,
    DispatchRequest,
)
from frame_spine.validation.models import ValidationResult, with_dispatch
from frame_spine.validation.rules import validate_scanned
from tests.builders import slice_block
from tests.conftest import REPO
from tests.modes.validate.test_dispatch import blocks, dag_lines, ready_of, walk_of
from tests.modes.validate.test_rules import ISSUE, W, plan, rows

EXAMPLES = REPO / "examples"
PLANS_912 = REPO / "tests" / "modes" / "render" / "plans"


def validated(
    plan_body: str,
    sibling_body: str | None = None,
    *,
    issue: int = ISSUE,
    completed: str = "",
) -> tuple[ValidationResult, Dispatch]:
    """Validate the bodies and return the result and its dispatch matrix, with ``completed``
    as the ``completed-steps`` input."""
    comments = scan_bodies(plan_body, sibling_body)
    result = validate_scanned(comments, issue_number=issue)
    request = parse_inputs(DispatchRequest, {"completed-steps": completed})
    assert not isinstance(request, Failure)
    dispatched = with_dispatch(result, comments, DispatchIds(issue), request.completed_steps)
    assert dispatched.dispatch is not None
    return result, dispatched.dispatch


def built(
    steps: list[tuple[str, str]],
    ports: list[tuple[str, str]],
    *,
    only_in_ports: tuple[str, ...] = (),
    completed: str = "",
) -> tuple[ValidationResult, Dispatch]:
    """:func:`validated` of a plan built from ``steps`` (step, depends_on) and ``ports``
    (name, tokens), every step with its slice block."""
    named = [step for step, _depends in steps] + list(only_in_ports)
    body = plan(*dag_lines(steps, ports), *blocks(ports, named))
    return validated(body, completed=completed)


def waves_of(dispatch: Dispatch) -> list[list[str]]:
    return [list(wave) for wave in dispatch.waves]


# --- the bundled 878 spine, every step given a slice block ----------------------------------

#: The ports of examples/plan-878.md's spine, by step.
PORTS_878 = {
    "s1": "implement-docs",
    "s2": "implement-test",
    "s3": "implement-docs",
    "s4": "implement-test",
    "s5": "implement-code",
    "s6": "implement-code",
    "s7": "implement-docs",
    "s8": "review",
    "s9": "ce-gate-cli",
}


def plan_878_made_valid(*, completed: str = "") -> tuple[ValidationResult, Dispatch]:
    """examples/plan-878.md and its sibling with a slice block for s2 ... s9 added."""
    sibling = (EXAMPLES / "sibling-878.md").read_text("utf-8")
    for step, port in list(PORTS_878.items())[1:]:
        sibling += "\n" + "\n".join(slice_block(step, f"provides: [{port}]")) + "\n"
    plan_body = (EXAMPLES / "plan-878.md").read_text("utf-8")
    return validated(plan_body, sibling, issue=878, completed=completed)


def test_the_878_spine_made_valid_runs_each_ports_cycles_in_order() -> None:
    result, dispatch = plan_878_made_valid()
    # Valid; its one warning is the port order (implement-code after implement-test).
    assert [(row[0], row[1]) for row in rows(result)] == [(W, "non-canonical-order")]
    assert walk_of(dispatch) == [
        ("s1", 1),
        ("s2", 1),
        ("s3", 2),
        ("s4", 2),
        ("s5", 3),
        ("s6", 4),
        ("s7", 4),
        ("s8", 5),
        ("s9", 6),
    ]
    # By depends_on alone (before lanes) the waves were
    # [[s1, s2, s4], [s3, s5, s6], [s7], [s8], [s9]]: s6 (code, cycle 2) beside s5 (cycle 1),
    # s4 (test, cycle 2) beside s2 (cycle 1).
    assert waves_of(dispatch) == [["s1", "s2"], ["s3", "s4"], ["s5"], ["s6", "s7"], ["s8"], ["s9"]]
    assert ready_of(dispatch) == ["s1", "s2"]
    # Lanes only order: the entries' depends-on stays the spine's depends_on.
    assert [(entry.step_id, entry.depends_on) for entry in dispatch.steps] == [
        ("s1", ()),
        ("s2", ()),
        ("s3", ("s2",)),
        ("s4", ()),
        ("s5", ("s4",)),
        ("s6", ("s1",)),
        ("s7", ("s5",)),
        ("s8", ("s7",)),
        ("s9", ("s8",)),
    ]


def test_the_878_spine_ready_waits_for_each_ports_previous_cycle() -> None:
    cases = {
        "s1": ["s2"],
        "s2": ["s1", "s4"],
        "s1 s2": ["s3", "s4"],
        "s1 s2 s4": ["s3", "s5"],
        "s1 s2 s3 s4 s5": ["s6", "s7"],
        "s1 s2 s3 s4 s5 s7": ["s6", "s8"],
    }
    for completed, ready in cases.items():
        assert ready_of(plan_878_made_valid(completed=completed)[1]) == ready, completed


# --- the twelve-step plan of the tests ------------------------------------------------------


def test_the_twelve_step_plan_runs_its_parser_half_before_its_writer_half() -> None:
    result, dispatch = validated(
        (PLANS_912 / "plan-912.md").read_text("utf-8"),
        (PLANS_912 / "sibling-912.md").read_text("utf-8"),
        issue=912,
    )
    assert (result.status, result.errors, result.warnings) == ("valid", 0, 0)
    # implement-code lists s2, s3, s6, s9: s3 now waits for s2 (before lanes both were in
    # wave 2: [[s1, s4], [s2, s3], [s5], [s6], [s7, s8], [s9, s10], [s11], [s12]]); every other
    # lane agrees with depends_on.
    assert walk_of(dispatch) == [
        ("s1", 1),
        ("s2", 2),
        ("s3", 3),
        ("s4", 1),
        ("s5", 4),
        ("s6", 5),
        ("s7", 6),
        ("s8", 6),
        ("s9", 7),
        ("s10", 7),
        ("s11", 8),
        ("s12", 9),
    ]
    assert waves_of(dispatch) == [
        ["s1", "s4"],
        ["s2"],
        ["s3"],
        ["s5"],
        ["s6"],
        ["s7", "s8"],
        ["s9", "s10"],
        ["s11"],
        ["s12"],
    ]
    assert ready_of(dispatch) == ["s1", "s4"]


# --- the kinds of lanes ---------------------------------------------------------------------


def test_inserted_steps_run_in_the_ports_order_not_in_step_order() -> None:
    # The reference's rule: "preserve list order as the execution order even when step
    # numbers are not monotonic". slices: reads s2, s3, s5; the port runs s2, s5, s3.
    steps = [("s2", ""), ("s3", ""), ("s5", "")]
    result, dispatch = built(steps, [("implement-code", "s2, s5, s3#cycle:2#terminal")])
    assert rows(result) == []
    assert walk_of(dispatch) == [("s2", 1), ("s5", 2), ("s3", 3)]
    assert waves_of(dispatch) == [["s2"], ["s5"], ["s3"]]
    assert ready_of(dispatch) == ["s2"]
    assert ready_of(built(steps, [("implement-code", "s2, s5, s3")], completed="s2")[1]) == ["s5"]


def test_a_step_in_two_ports_waits_for_the_step_before_it_in_each() -> None:
    steps = [("s1", ""), ("s2", ""), ("s3", ""), ("s4", "")]
    ports = [("implement-code", "s1, s3"), ("implement-docs", "s2, s3, s4")]
    result, dispatch = built(steps, ports)
    assert rows(result) == []
    assert walk_of(dispatch) == [("s1", 1), ("s2", 1), ("s3", 2), ("s4", 3)]
    assert waves_of(dispatch) == [["s1", "s2"], ["s3"], ["s4"]]
    assert ready_of(dispatch) == ["s1", "s2"]
    assert [entry.ports for entry in dispatch.steps][2] == ("implement-code", "implement-docs")
    assert ready_of(built(steps, ports, completed="s1")[1]) == ["s2"]
    assert ready_of(built(steps, ports, completed="s2")[1]) == ["s1"]


def test_opposite_orders_in_two_ports_the_port_sorted_first_wins() -> None:
    # review lists s2 before s1; implement-code, sorted before it, lists s1 before s2. The
    # spine writes review first: sorting the ports (which validate asks for) changes nothing.
    steps = [("s1", ""), ("s2", "")]
    for ports in (
        [("review", "s2, s1"), ("implement-code", "s1, s2")],
        [("implement-code", "s1, s2"), ("review", "s2, s1")],
    ):
        result, dispatch = built(steps, ports)
        conflict = (W, "lane-order-conflict", "plan", 7 + [p for p, _ in ports].index("review"))
        assert [row[:4] for row in rows(result) if row[1] == "lane-order-conflict"] == [conflict]
        assert [row[4:] for row in rows(result) if row[1] == "lane-order-conflict"] == [
            ("s1", "review")
        ]
        assert walk_of(dispatch) == [("s1", 1), ("s2", 2)]
        assert waves_of(dispatch) == [["s1"], ["s2"]]
        assert ready_of(dispatch) == ["s1"]
    assert [finding.message for finding in result.findings] == [
        "port review lists s2 before s1, but s1 already comes before s2 (by depends_on, or by "
        "the lane of a port sorted before review): this lane order is dropped"
    ]


def test_a_lane_against_depends_on_is_dropped_and_depends_on_wins() -> None:
    # The port lists s5 before s4 while s5 depends on s4: s4 runs first, s3 after s5.
    steps = [("s3", ""), ("s4", ""), ("s5", "s4")]
    result, dispatch = built(steps, [("implement-code", "s5, s4, s3")])
    assert rows(result) == [(W, "lane-order-conflict", "plan", 7, "s4", "implement-code")]
    assert [finding.message for finding in result.findings] == [
        "port implement-code lists s5 before s4, but s4 already comes before s5 (by "
        "depends_on, or by the lane of a port sorted before implement-code): this lane order "
        "is dropped"
    ]
    # The next lane edge, s4 -> s3, is kept: s3 waits for s4, beside s5.
    assert walk_of(dispatch) == [("s4", 1), ("s3", 2), ("s5", 2)]
    assert waves_of(dispatch) == [["s4"], ["s3", "s5"]]
    assert ready_of(dispatch) == ["s4"]
    assert [entry.depends_on for entry in dispatch.steps] == [(), (), ("s4",)]


def test_a_step_listed_twice_in_one_port_keeps_its_first_place() -> None:
    # [s1, s2, s1, s3] is the lane s1, s2, s3: the repeat is removed first, so no edge
    # s2 -> s1 conflicts with s1 -> s2.
    steps = [("s1", ""), ("s2", ""), ("s3", "")]
    result, dispatch = built(steps, [("implement-code", "s1, s2, s1#cycle:3, s3#terminal")])
    assert rows(result) == []
    assert walk_of(dispatch) == [("s1", 1), ("s2", 2), ("s3", 3)]
    assert waves_of(dispatch) == [["s1"], ["s2"], ["s3"]]
    assert ready_of(dispatch) == ["s1"]


def test_steps_named_only_in_tokens_are_in_their_ports_lanes() -> None:
    # s5 and s4 have no slices: entry. implement-code runs s5 then s1; review runs s4 then
    # s5: so s4, s5, s1, then s2 (which depends on s1).
    ports = [("implement-code", "s5, s1"), ("implement-docs", "s2"), ("review", "s4#terminal, s5")]
    result, dispatch = built([("s1", ""), ("s2", "s1")], ports, only_in_ports=("s5", "s4"))
    assert rows(result) == []
    assert walk_of(dispatch) == [("s4", 1), ("s5", 2), ("s1", 3), ("s2", 4)]
    assert waves_of(dispatch) == [["s4"], ["s5"], ["s1"], ["s2"]]
    assert ready_of(dispatch) == ["s4"]
    assert [(entry.step_id, entry.depends_on) for entry in dispatch.steps] == [
        ("s4", ()),
        ("s5", ()),
        ("s1", ()),
        ("s2", ("s1",)),
    ]


def test_a_conflict_is_reported_once_per_dropped_edge_and_the_plan_stays_valid() -> None:
    # Three ports order s1 and s2: a and b (sorted first) say s1, s2; c says s2, s1; d says
    # s2, s1 too. One warning each for c and d; none for b (its edge is a repeat, kept).
    steps = [("s1", ""), ("s2", "")]
    ports = [("a", "s1, s2"), ("b", "s1, s2"), ("c", "s2, s1"), ("d", "s2, s1")]
    result, dispatch = built(steps, ports)
    assert rows(result) == [
        (W, "lane-order-conflict", "plan", 9, "s1", "c"),
        (W, "lane-order-conflict", "plan", 10, "s1", "d"),
    ]
    assert (result.status, result.errors) == ("valid", 0)
    assert waves_of(dispatch) == [["s1"], ["s2"]]


# --- the definition, computed the slow way --------------------------------------------------

Spine = tuple[dict[str, list[str]], list[PortRoute]]


def slow_lanes(
    depends_on: dict[str, list[str]], ports: list[PortRoute]
) -> tuple[dict[str, tuple[str, ...]], list[LaneConflict]]:
    """SPEC 14's definition, literally: keep every depends_on edge; then, ports in sorted
    name order, token by token (repeats removed), keep an edge unless its later step already
    reaches its earlier one (a full search per edge)."""
    out: dict[str, list[str]] = {step: [] for step in depends_on}
    for step, items in depends_on.items():
        for item in items:
            if item in out:
                out[item].append(step)

    def reaches(start: str, goal: str) -> bool:
        seen, pending = {start}, [start]
        while pending:
            node = pending.pop()
            if node == goal:
                return True
            for child in out[node]:
                if child not in seen:
                    seen.add(child)
                    pending.append(child)
        return False

    before: dict[str, dict[str, None]] = {}
    conflicts = []
    for route in sorted(ports, key=lambda route: route.name):
        lane = list(dict.fromkeys(token.step for token in route.tokens))
        for earlier, later in pairwise(lane):
            if reaches(later, earlier):
                conflicts.append(LaneConflict(route.name, earlier, later, route.line))
            else:
                out[earlier].append(later)
                before.setdefault(later, {})[earlier] = None
    return {step: tuple(items) for step, items in before.items()}, conflicts


def assert_lanes_equal_the_definition(spine: Spine) -> None:
    """:func:`port_lanes` keeps exactly the lane edges of :func:`slow_lanes` (each step's lane
    predecessors, in the order they were kept) and drops exactly its conflicts, in order."""
    depends_on, ports = spine
    lanes = port_lanes(depends_on, ports)
    before, conflicts = slow_lanes(depends_on, ports)
    assert dict(lanes.before) == before
    assert list(lanes.conflicts) == conflicts


def route(name: str, steps: list[str], line: int) -> PortRoute:
    return PortRoute(name, tuple(PortToken(step, None, False) for step in steps), line)


@st.composite
def spines(draw: st.DrawFn) -> Spine:
    """Up to 20 steps with random depends_on (acyclic or not, with unknown steps) and up to 8
    ports listing random steps in random orders, with repeats."""
    steps = draw(st.lists(st.integers(1, 40), min_size=1, max_size=20, unique=True))
    names = [f"s{n}" for n in steps]
    acyclic = draw(st.booleans())
    depends_on = {}
    for index, step in enumerate(names):
        pool = names if not acyclic else names[:index]
        known = draw(st.lists(st.sampled_from(pool), max_size=3)) if pool else []
        depends_on[step] = known + draw(st.lists(st.just("s99"), max_size=1))
    ports = [
        route(name, draw(st.lists(st.sampled_from(names), min_size=1, max_size=12)), line)
        for line, name in enumerate(
            draw(st.lists(st.sampled_from("abcdefghij"), min_size=1, max_size=8, unique=True)), 1
        )
    ]
    return depends_on, ports


@settings(derandomize=True, max_examples=200, deadline=None)
@given(spines())
def test_lanes_equal_the_definition(spine: Spine) -> None:
    assert_lanes_equal_the_definition(spine)


def random_spine(seed: int) -> Spine:
    """A seeded spine of 20 to 200 steps: depends_on on steps near before it or anywhere (a
    cycle now and then), ports of two to five tokens from near each other or anywhere, some
    with repeats, a few long ones."""
    rng = random.Random(seed)
    count = rng.randint(20, 200)
    near, cyclic = rng.random() < 0.5, rng.random() < 0.2
    depends_on: dict[str, list[str]] = {}
    for number in range(count):
        pool = range(max(0, number - 10), number) if near else range(number)
        items = [rng.choice(pool) for _ in range(rng.randint(0, 2)) if pool]
        if cyclic and rng.random() < 0.02:
            items.append(rng.randrange(count))
        depends_on[f"s{number}"] = [f"s{item}" for item in items]
    ports = []
    for line in range(1, rng.randint(count // 4, count) + 1):
        size = rng.randint(2, 5) if rng.random() < 0.95 else rng.randint(6, 40)
        start = rng.randrange(count)
        pool = range(max(0, start - 15), min(count, start + 15)) if near else range(count)
        tokens = [f"s{rng.choice(pool)}" for _ in range(size)]
        ports.append(route(f"p{rng.randrange(10 * count)}-{line}", tokens, line))
    return depends_on, ports


def test_lanes_equal_the_definition_on_larger_random_spines() -> None:
    for seed in range(60):
        assert_lanes_equal_the_definition(random_spine(seed))


def shape(kind: str, count: int) -> Spine:
    """SPEC 14's shapes at ``count`` steps (benchmarks/bench_dispatch.py times them): a chain,
    reversed lanes, two opposite chains (each hand-off listed by two ports of two tokens, in
    opposite orders, backward or forward sorted first); and steps after a chain of 50, each
    port putting one more of them before the one the port sorted before it put first (the
    kept order's positions squeezed into one gap, again and again)."""
    steps = [f"s{number}" for number in range(count)]
    chain = {step: steps[number - 1 : number] for number, step in enumerate(steps)}
    if kind == "chain":
        return chain, [route("code", steps, 1)]
    if kind == "reversed lanes":
        return chain, [route("code", steps[::-1], 1)]
    pairs = list(pairwise(steps))
    if kind == "squeezed":
        depends_on = {
            step: chain[step] if number < 50 else ["s49"] for number, step in enumerate(steps)
        }
        return depends_on, [
            route(f"p{n:05}", [b, a], n) for n, (a, b) in enumerate(pairs) if n >= 50
        ]
    ports = []
    for number, (a, b) in enumerate(pairs):
        first, second = ([b, a], [a, b]) if kind.endswith("backward first") else ([a, b], [b, a])
        ports += [route(f"h{number:05}a", first, 2 * number + 1)]
        ports += [route(f"h{number:05}b", second, 2 * number + 2)]
    return {step: [] for step in steps}, ports


@pytest.mark.parametrize(
    "kind",
    [
        "chain",
        "reversed lanes",
        "opposite chains, backward first",
        "opposite chains, forward first",
        "squeezed",
    ],
)
def test_lanes_equal_the_definition_on_each_shape(kind: str) -> None:
    assert_lanes_equal_the_definition(shape(kind, 400))
