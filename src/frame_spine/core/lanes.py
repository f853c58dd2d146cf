"""Port lanes (SPEC 14, revision 3): a port's token list is its execution order.

Pure: the spine's steps with their ``depends_on`` and its port lines in, the lane edges kept
and the ones dropped out (:func:`port_lanes`). The definition: every ``depends_on`` edge is
kept; then, port by port in sorted port-name order and token by token (later repeats of a
step removed first), the edge from a token's step to the next token's step is added, unless
it would close a cycle with the edges kept so far: then it is dropped
(:class:`LaneConflict`, validate's ``lane-order-conflict`` warning).

How, near-linearly and without recursion (any algorithm with the definition's result would
do; this one never searches where no cycle can be):

0. When ``depends_on`` plus every lane edge has no cycle (Kahn's algorithm), every edge is
   kept: the common case, linear (a chain whose lanes agree with its ``depends_on``).
1. Otherwise, the strongly connected components of the ``depends_on`` graph (iterative
   Tarjan; skipped when it has no cycle, as in every valid plan). A lane edge inside one
   closes a cycle at once (its later step already leads back to its earlier one).
2. The components of ``depends_on`` plus every remaining lane edge, over the first ones. A
   lane edge between two of these always stays (every cycle of the kept edges lies inside
   one).
3. Inside a component of step 2 the edges are tested in order with Pearce-Kelly's dynamic
   topological order: an edge that agrees with the current order costs nothing; one that
   does not searches only the steps placed between its two ends. The starting order puts the
   components in topological order and, inside each, the steps in an order of
   ``depends_on`` that follows a depth-first walk of all the edges (started from the steps in
   lane order), so that most lane edges agree with it from the start. Its worst case (lanes
   in random orders against a dense ``depends_on``) is quadratic; plans as authors write
   them stay near the linear case.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from .spine_model import PortRoute, SpineSlice


@dataclass(frozen=True, slots=True)
class LaneConflict:
    """A lane edge dropped because it would close a cycle (SPEC 14: ``lane-order-conflict``).

    Attributes:
        port: the port whose token list orders the two steps.
        earlier: the step the port lists first. later: the step it lists next (repeats
            removed), which already comes before ``earlier`` (by ``depends_on``, or by the
            lane of a port sorted before ``port``).
        line: the 1-based comment line of the port.
    """

    port: str
    earlier: str
    later: str
    line: int


@dataclass(frozen=True, slots=True)
class Lanes:
    """The port lanes of a spine (SPEC 14).

    Attributes:
        before: each step's lane predecessors that were kept (step id -> step ids, each
            once, in the order their edges were added); a step without any is absent.
        conflicts: the lane edges dropped, in the order they were met.
    """

    before: Mapping[str, tuple[str, ...]]
    conflicts: tuple[LaneConflict, ...]


@dataclass(frozen=True, slots=True)
class _LaneEdge:
    port: PortRoute
    earlier: int
    later: int


def _lane_edges(ports: Sequence[PortRoute], index: Mapping[str, int]) -> list[_LaneEdge]:
    """Every candidate lane edge, in the order SPEC 14 adds them: ports sorted by name (code
    point), then token by token, each port's later repeats of a step removed first. Steps
    not in ``index`` are skipped."""
    edges: list[_LaneEdge] = []
    for route in sorted(ports, key=lambda route: route.name):
        named = dict.fromkeys(token.step for token in route.tokens if token.step in index)
        edges.extend(_LaneEdge(route, index[a], index[b]) for a, b in pairwise(named))
    return edges


def _components(
    count: int, successors: Callable[[int], Sequence[int]], roots: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Strongly connected components of a graph on ``0 .. count-1`` (Tarjan, iterative).

    Returns:
        ``(component, finish)``: each node's component number, numbered in the order Tarjan
        completes them (a component only reaches components with smaller numbers, so the
        highest number comes first in topological order); and each node's depth-first finish
        position (a later finish comes earlier in a topological order). Linear, no recursion.
    """
    unvisited = -1
    number = [unvisited] * count
    low = [0] * count
    component = [unvisited] * count
    finish = [0] * count
    on_stack = [False] * count
    stack: list[int] = []
    counter = finished = components = 0
    for root in roots:
        if number[root] != unvisited:
            continue
        number[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        path = [(root, iter(successors(root)))]
        while path:
            node, children = path[-1]
            child = next(children, None)
            if child is not None:
                if number[child] == unvisited:
                    number[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack[child] = True
                    path.append((child, iter(successors(child))))
                elif on_stack[child]:
                    low[node] = min(low[node], number[child])
                continue
            path.pop()
            finish[node] = finished
            finished += 1
            if path:
                parent = path[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == number[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = components
                    if member == node:
                        break
                components += 1
    return component, finish


class _DynamicOrder:
    """Pearce-Kelly's dynamic topological order of a DAG on ``0 .. count-1``.

    ``position`` is a topological order of the edges added so far; :meth:`add` adds an edge
    unless it would close a cycle, moving only the nodes between its two ends.
    """

    def __init__(self, position: list[int], edges: Sequence[tuple[int, int]]) -> None:
        self.position = position
        self.out: list[list[int]] = [[] for _ in position]
        self.into: list[list[int]] = [[] for _ in position]
        self.seen = [0] * len(position)  # the mark of the last search that met each node
        self.mark = 0
        for source, target in edges:
            self.out[source].append(target)
            self.into[target].append(source)

    def add(self, source: int, target: int) -> bool:
        """Add ``source -> target`` and return ``True``, or return ``False`` (nothing added)
        when ``target`` already reaches ``source``."""
        position = self.position
        upper, lower = position[source], position[target]
        if lower < upper:
            forward = self._forward(target, source, upper)
            if forward is None:
                return False
            backward = self._backward(source, lower)
            moved = sorted(backward, key=position.__getitem__)
            moved += sorted(forward, key=position.__getitem__)
            for node, place in zip(moved, sorted(position[node] for node in moved), strict=True):
                position[node] = place
        self.out[source].append(target)
        self.into[target].append(source)
        return True

    def _forward(self, start: int, stop: int, upper: int) -> list[int] | None:
        """The nodes ``start`` reaches through nodes placed before ``upper`` (``start``
        first), or ``None`` when it reaches ``stop`` (placed at ``upper``)."""
        position, out, mark = self.position, self.out, self._next_mark()
        seen = self.seen
        seen[start] = mark
        reached = [start]
        pending = [start]
        while pending:
            for node in out[pending.pop()]:
                if node == stop:
                    return None
                if seen[node] != mark and position[node] < upper:
                    seen[node] = mark
                    reached.append(node)
                    pending.append(node)
        return reached

    def _backward(self, start: int, lower: int) -> list[int]:
        """The nodes that reach ``start`` through nodes placed after ``lower`` (``start``
        first)."""
        position, into, mark = self.position, self.into, self._next_mark()
        seen = self.seen
        seen[start] = mark
        reached = [start]
        pending = [start]
        while pending:
            for node in into[pending.pop()]:
                if seen[node] != mark and position[node] > lower:
                    seen[node] = mark
                    reached.append(node)
                    pending.append(node)
        return reached

    def _next_mark(self) -> int:
        self.mark += 1
        return self.mark


def port_lanes(depends_on: Mapping[str, Sequence[str]], ports: Sequence[PortRoute]) -> Lanes:
    """The port lanes of a spine (SPEC 14): the lane edges kept and the ones dropped.

    Args:
        depends_on: every step in the spine (a key under ``slices:`` or the step of a port
            token) -> its ``depends_on`` items (``()`` for a step named only in tokens);
            items that are not keys are ignored (validate reports them).
        ports: the spine's port lines, in any order (they are taken in sorted name order).

    Returns:
        :class:`Lanes`. Linear in steps plus edges when no lane edge can close a cycle (the
        common case); otherwise Pearce-Kelly inside the regions where one can (the module's
        notes: quadratic at worst). Never recursive; never raises.
    """
    steps = list(depends_on)
    count = len(steps)
    index = {step: number for number, step in enumerate(steps)}
    dependents: list[list[int]] = [[] for _ in steps]
    for step, items in enumerate(depends_on.values()):
        for item in dict.fromkeys(items):
            if item in index:
                dependents[index[item]].append(step)
    candidates = _lane_edges(ports, index)
    every = [list(targets) for targets in dependents]
    for edge in candidates:
        every[edge.earlier].append(edge.later)
    if _acyclic(every):  # the common case: no lane edge can close a cycle
        dropped: set[int] = set()
    else:
        dropped = _dropped(count, dependents, candidates)
    before: dict[str, dict[str, None]] = {}
    conflicts = []
    for n, edge in enumerate(candidates):
        earlier, later = steps[edge.earlier], steps[edge.later]
        if n in dropped:
            conflicts.append(LaneConflict(edge.port.name, earlier, later, edge.port.line))
        else:
            before.setdefault(later, {})[earlier] = None
    return Lanes({step: tuple(items) for step, items in before.items()}, tuple(conflicts))


def _acyclic(out: Sequence[Sequence[int]]) -> bool:
    """Whether the graph (node -> its successors) has no cycle (Kahn's algorithm)."""
    waiting = [0] * len(out)
    for targets in out:
        for target in targets:
            waiting[target] += 1
    pending = [node for node, count in enumerate(waiting) if not count]
    taken = 0
    while pending:
        taken += 1
        for target in out[pending.pop()]:
            waiting[target] -= 1
            if not waiting[target]:
                pending.append(target)
    return taken == len(out)


def _dropped(count: int, dependents: list[list[int]], candidates: list[_LaneEdge]) -> set[int]:
    """The numbers of the ``candidates`` that close a cycle (steps 1-3 of the module's
    notes); ``dependents``: the ``depends_on`` edges, step -> the steps that depend on it."""
    # 1. depends_on cycles: a lane edge inside one is dropped at once.
    if _acyclic(dependents):
        group, groups = list(range(count)), count
    else:
        group = _components(count, dependents.__getitem__, range(count))[0]
        groups = max(group) + 1
    dropped = {n for n, edge in enumerate(candidates) if group[edge.earlier] == group[edge.later]}
    # 2. Components of depends_on plus the remaining lane edges, over those groups.
    out: list[list[int]] = [[] for _ in range(groups)]
    for step, targets in enumerate(dependents):
        for target in targets:
            if group[target] != group[step]:
                out[group[step]].append(group[target])
    for n, edge in enumerate(candidates):
        if n not in dropped:
            out[group[edge.earlier]].append(group[edge.later])
    firsts = dict.fromkeys(
        group[node] for edge in candidates for node in (edge.earlier, edge.later)
    )
    region, finish = _components(groups, out.__getitem__, [*firsts, *range(groups)])
    contested = [
        n
        for n, edge in enumerate(candidates)
        if n not in dropped and region[group[edge.earlier]] == region[group[edge.later]]
    ]
    # 3. Inside a region the edges are tested in order against a dynamic topological order
    # (of the regions that hold such an edge only; the others are never searched).
    hot = {region[group[candidates[n].earlier]] for n in contested}
    dependency_edges = [
        (group[step], group[target])
        for step, targets in enumerate(dependents)
        for target in targets
        if group[target] != group[step]
        and region[group[step]] == region[group[target]]
        and region[group[step]] in hot
    ]
    nodes = [node for node in range(groups) if region[node] in hot]
    order = _dynamic_order(groups, nodes, region, finish, dependency_edges)
    for n in contested:
        edge = candidates[n]
        if not order.add(group[edge.earlier], group[edge.later]):
            dropped.add(n)
    return dropped


def _dynamic_order(
    count: int,
    nodes: list[int],
    region: list[int],
    finish: list[int],
    edges: list[tuple[int, int]],
) -> _DynamicOrder:
    """A :class:`_DynamicOrder` on ``0 .. count-1`` of ``edges`` (the ``depends_on`` edges
    inside the regions of ``nodes``) whose starting order puts the regions in topological
    order and, inside each, follows the depth-first finish order of all the edges wherever
    ``depends_on`` allows (Kahn's algorithm with that order as the tie-break). Only
    ``nodes`` are placed: no search ever leaves their regions."""
    waiting = [0] * count
    out: list[list[int]] = [[] for _ in range(count)]
    for source, target in edges:
        out[source].append(target)
        waiting[target] += 1
    ready = [(-region[node], -finish[node], node) for node in nodes if not waiting[node]]
    heapq.heapify(ready)
    position = [0] * count
    placed = 0
    while ready:
        node = heapq.heappop(ready)[2]
        position[node] = placed
        placed += 1
        for target in out[node]:
            waiting[target] -= 1
            if not waiting[target]:
                heapq.heappush(ready, (-region[target], -finish[target], target))
    return _DynamicOrder(position, edges)


#: The last :func:`spine_lanes` answer, by the identity of its arguments: validate's rules and
#: its matrix (render's graph, too) ask about the same parsed spine.
_last: list[tuple[Sequence[PortRoute], Sequence[SpineSlice], Lanes]] = []


def spine_lanes(ports: Sequence[PortRoute], slices: Sequence[SpineSlice]) -> Lanes:
    """:func:`port_lanes` of a spine's port lines and ``slices:`` entries (SPEC 14): every
    step in the spine, its ``depends_on`` from its entry (``()`` for a step named only in
    port tokens). Asked twice in a row about the same (identical) sequences, it answers from
    memory."""
    if _last and _last[0][0] is ports and _last[0][1] is slices:
        return _last[0][2]
    depends_on: dict[str, Sequence[str]] = {entry.step: entry.depends_on for entry in slices}
    for route in ports:
        for token in route.tokens:
            depends_on.setdefault(token.step, ())
    lanes = port_lanes(depends_on, ports)
    _last[:] = [(ports, slices, lanes)]
    return lanes
