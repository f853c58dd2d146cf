"""Validate's rules on the one parsed spine (SPEC 10, 14), listed in :data:`SPINE_RULES`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from ..core.identity import pointer_problem
from ..core.lanes import spine_lanes
from ..core.slices import exploratory_reason, slice_exploratory
from ..core.spine_model import Spine
from ..core.stamps import StampKind, read_stamp, verdict_message
from .dispatch import routing_ports
from .facts import PlanFacts
from .models import Code, Finding, at_block, finding


def stamp_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """With a sibling the spine points at: ``sibling-identity-mismatch`` for another id given,
    then ``sibling-unstamped`` or ``stale-sibling``."""
    pointer = spine.slice_comment_id
    sibling = facts.comments.sibling
    if pointer is None or sibling is None:
        return []
    found = []
    mismatch = pointer_problem(facts.sibling_id, pointer)
    if mismatch is not None:
        line = spine.key_lines.get("slice_comment_id")
        found.append(finding(Code.SIBLING_IDENTITY_MISMATCH, mismatch, comment="plan", line=line))
    verdict = read_stamp(spine, sibling)
    if verdict.kind is StampKind.FRESH:
        return found
    code = Code.STALE_SIBLING if verdict.kind is StampKind.STALE else Code.SIBLING_UNSTAMPED
    message = verdict_message(verdict, sibling, "the sibling comment", spine)
    line = verdict.stamp.line if verdict.stamp is not None else None
    found.append(finding(code, message, comment="sibling", line=line))
    return found


def port_order_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``non-canonical-order`` once, at the first port out of order."""
    for previous, route in pairwise(spine.ports):
        if route.name < previous.name:
            expected = ", ".join(sorted(port.name for port in spine.ports))
            message = (
                f"ports are not in canonical (sorted) order: {route.name} comes after "
                f"{previous.name} (expected: {expected})"
            )
            return [facts.at_spine(Code.NON_CANONICAL_ORDER, message, route.line, port=route.name)]
    return []


def coverage_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``invalid-coverage``."""
    coverage = spine.coverage
    if coverage is None or coverage == "complete" or exploratory_reason(coverage) is not None:
        return []
    message = f"spine coverage {coverage!r} is neither 'complete' nor 'exploratory - <reason>'"
    return [facts.at_spine(Code.INVALID_COVERAGE, message, spine.coverage_line)]


def _step_lines(spine: Spine) -> dict[str, int]:
    """Each step's line: its ``sN:`` entry, else the first port line naming it."""
    lines: dict[str, int] = {}
    for route in spine.ports:
        for token in route.tokens:
            lines.setdefault(token.step, route.line)
    for entry in spine.slices:
        lines[entry.step] = entry.line
    return lines


def unresolved_step_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``unresolved-step``, naming the ports that route to the step."""
    step_lines = _step_lines(spine)
    routing = routing_ports(spine.ports)
    found = []
    for step in sorted(spine.steps, key=lambda s: (step_lines[s], len(s), s)):
        if step in facts.by_step:
            continue
        ports = routing.get(step)
        routed = f"ports routing to it: {', '.join(ports)}" if ports else "no port routes to it"
        message = f"step {step} is in the spine but no frame-slice block carries it ({routed})"
        found.append(facts.at_spine(Code.UNRESOLVED_STEP, message, step_lines[step], step=step))
    return found


def slice_block_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``duplicate-slice-id`` and ``orphan-slice``."""
    steps = spine.steps
    found = []
    for step, blocks in facts.by_step.items():
        if len(blocks) > 1:
            message = f"{len(blocks)} frame-slice blocks carry step {step}"
            found.append(at_block(Code.DUPLICATE_SLICE_ID, message, *blocks[1], step=step))
        if step not in steps:
            message = f"the frame-slice block for {step} is for a step that is not in the spine"
            found.append(at_block(Code.ORPHAN_SLICE, message, *blocks[0], step=step))
    return found


def routing_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``unrouted-step`` and ``terminal-mismatch``."""
    routed = {token.step for route in spine.ports for token in route.tokens}
    terminal = {token.step for route in spine.ports for token in route.tokens if token.terminal}
    found = []
    for entry in spine.slices:
        step = entry.step
        if step not in routed:
            message = f"no port routes to step {step}"
            found.append(facts.at_spine(Code.UNROUTED_STEP, message, entry.line, step=step))
        if entry.terminal is False and step in terminal:
            message = f"a port token marks {step} #terminal, but the spine says terminal: false"
        elif entry.terminal is True and step not in terminal:
            message = (
                f"the spine says terminal: true for {step}, but no port token marks it #terminal"
            )
        else:
            continue
        line = entry.property_lines.get("terminal", entry.line)
        found.append(facts.at_spine(Code.TERMINAL_MISMATCH, message, line, step=step))
    return found


def lane_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``lane-order-conflict`` at the port's line, for the step it lists second."""
    return [
        facts.at_spine(
            Code.LANE_ORDER_CONFLICT,
            f"port {conflict.port} lists {conflict.earlier} before {conflict.later}, but "
            f"{conflict.later} already comes before {conflict.earlier} (by depends_on, or by "
            f"the lane of a port sorted before {conflict.port}): this lane order is dropped",
            conflict.line,
            step=conflict.later,
            port=conflict.port,
        )
        for conflict in spine_lanes(spine.ports, spine.slices).conflicts
    ]


#: Dependency cycles listed one by one; one more finding counts the rest (linear work).
MAX_LISTED_CYCLES = 20


def _cycles(spine: Spine) -> tuple[list[list[str]], int, str | None]:
    """The dependency cycles among the slices: an iterative depth-first walk in ``slices:``
    order, where each edge to a step on the path closes one. Returns the first
    :data:`MAX_LISTED_CYCLES`, each from its earliest step, and how many more, with the step
    that closes the first of them."""
    graph = {entry.step: entry.depends_on for entry in spine.slices}
    order = {entry.step: index for index, entry in enumerate(spine.slices)}
    listed: list[list[str]] = []
    closed: set[tuple[str, str]] = set()
    unlisted = 0
    first_unlisted: str | None = None
    done: set[str] = set()
    position: dict[str, int] = {}  # step -> its index in ``path`` while on it
    path: list[str] = []
    for root in graph:
        if root in done:
            continue
        path.append(root)
        position[root] = 0
        pending = [iter(graph[root])]
        while pending:
            step = path[-1]
            dependency = next(pending[-1], None)
            if dependency is None:
                pending.pop()
                path.pop()
                del position[step]
                done.add(step)
                continue
            if dependency not in graph or dependency in done:
                continue
            if dependency in position:
                if (step, dependency) in closed:
                    continue
                closed.add((step, dependency))
                if len(listed) == MAX_LISTED_CYCLES:
                    unlisted += 1
                    first_unlisted = first_unlisted or dependency
                    continue
                cycle = path[position[dependency] :]
                start = min(range(len(cycle)), key=lambda i: order[cycle[i]])
                listed.append(cycle[start:] + cycle[:start])
                continue
            position[dependency] = len(path)
            path.append(dependency)
            pending.append(iter(graph[dependency]))
    return listed, unlisted, first_unlisted


def dependency_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``unknown-dependency`` and ``dependency-cycle``."""
    steps = spine.steps
    lines = {
        entry.step: entry.property_lines.get("depends_on", entry.line) for entry in spine.slices
    }
    found = []

    def add(code: Code, step: str, message: str) -> None:
        found.append(facts.at_spine(code, message, lines[step], step=step))

    for entry in spine.slices:
        for dependency in entry.depends_on:
            if dependency not in steps:
                message = f"{entry.step} depends on {dependency}, which is not in the spine"
                add(Code.UNKNOWN_DEPENDENCY, entry.step, message)
    listed, unlisted, first_unlisted = _cycles(spine)
    for cycle in listed:
        add(Code.DEPENDENCY_CYCLE, cycle[0], "dependency cycle: " + " -> ".join([*cycle, cycle[0]]))
    if first_unlisted is not None:
        message = (
            f"{unlisted} more dependency cycles (only the first {MAX_LISTED_CYCLES} are listed)"
        )
        add(Code.DEPENDENCY_CYCLE, first_unlisted, message)
    return found


def _not_provided_message(
    port: str, step: str, payload: str, provided: tuple[str, ...] | None
) -> str | None:
    """Why the slice of ``step`` (its ``provides:`` list, ``provided``) does not provide
    ``port``, or ``None``."""
    if provided is None:
        message = f"port {port} routes to {step}, but its slice has no provides:/ports: list"
    elif port.lower() in {name.lower() for name in provided}:
        return None
    else:
        message = (
            f"port {port} routes to {step}, but its slice's provides: [{', '.join(provided)}] "
            "omits it"
        )
    if slice_exploratory(payload) is not None:
        message += " (coverage: exploratory excuses only a slice that no port routes to)"
    return message


def provided_port_rule(facts: PlanFacts, spine: Spine) -> list[Finding]:
    """``port-not-provided``, once per port and step."""
    reported: set[tuple[str, str]] = set()
    found = []
    for route in spine.ports:
        port = route.name
        for step in (token.step for token in route.tokens):
            carriers = facts.by_step.get(step)
            if (port, step) in reported or not carriers:
                continue  # without a carrier: unresolved-step
            reported.add((port, step))
            carrier = carriers[0]
            payload = carrier[1].payload
            message = _not_provided_message(port, step, payload, facts.slice_ports(payload))
            if message is not None:
                found.append(
                    at_block(Code.PORT_NOT_PROVIDED, message, *carrier, step=step, port=port)
                )
    return found


SpineRule = Callable[[PlanFacts, Spine], Sequence[Finding]]

#: The rules on the parsed spine, in the order their findings are listed (before sorting).
SPINE_RULES: tuple[SpineRule, ...] = (
    stamp_rule,
    port_order_rule,
    coverage_rule,
    unresolved_step_rule,
    slice_block_rule,
    routing_rule,
    dependency_rule,
    lane_rule,
    provided_port_rule,
)
