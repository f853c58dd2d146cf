"""Port lanes (SPEC 14): which lane edges are kept and which are dropped.

Without recursion: the strongly connected components of ``depends_on`` (Kosaraju) are the
nodes of a DAG whose topological order :class:`_Order` keeps as lane edges are added. An edge
that agrees with the order costs nothing; one that does not searches from both ends at once,
among the nodes placed between them, until either side runs out: that side alone moves past
the other end (float positions, renumbered when a gap wears out). An edge costs about the
smaller side, so a lane against the starting order (two opposite chains) stays linear.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import inf

from .spine_model import PortRoute, SpineSlice


@dataclass(frozen=True, slots=True)
class LaneConflict:
    """A lane edge dropped because it would close a cycle (``lane-order-conflict``): the port
    lists ``earlier`` then ``later``, which already comes before it."""

    port: str
    earlier: str
    later: str
    line: int


@dataclass(frozen=True, slots=True)
class Lanes:
    """The port lanes of a spine: each step's kept lane predecessors (in the order added;
    a step without any is absent) and the dropped edges, in the order met."""

    before: Mapping[str, tuple[str, ...]]
    conflicts: tuple[LaneConflict, ...]


def port_lanes(depends_on: Mapping[str, Sequence[str]], ports: Sequence[PortRoute]) -> Lanes:
    """The port lanes (SPEC 14) of every step in the spine -> its ``depends_on`` (items not
    among the keys are ignored) and of the port lines, in any order."""
    index = {step: number for number, step in enumerate(depends_on)}
    out: list[list[int]] = [[] for _ in index]
    for step, items in enumerate(depends_on.values()):
        for item in dict.fromkeys(items):
            if item in index:
                out[index[item]].append(step)
    group = _components(out)
    order = _Order(max(group, default=-1) + 1)
    for step, targets in enumerate(out):
        for target in targets:
            if group[step] != group[target]:
                order.add(group[step], group[target])  # agrees with the order: kept
    before: dict[str, dict[str, None]] = {}
    conflicts = []
    for route in sorted(ports, key=lambda route: route.name):
        lane = dict.fromkeys(token.step for token in route.tokens if token.step in index)
        for earlier, later in pairwise(lane):
            if order.add(group[index[earlier]], group[index[later]]):
                before.setdefault(later, {})[earlier] = None
            else:
                conflicts.append(LaneConflict(route.name, earlier, later, route.line))
    return Lanes({step: tuple(items) for step, items in before.items()}, tuple(conflicts))


def _components(out: Sequence[Sequence[int]]) -> list[int]:
    """Each node's strongly connected component, numbered in a topological order."""
    count = len(out)
    into: list[list[int]] = [[] for _ in out]
    for node, targets in enumerate(out):
        for target in targets:
            into[target].append(node)
    finished: list[int] = []
    seen = [False] * count
    for root in reversed(range(count)):
        if seen[root]:
            continue
        seen[root] = True
        path = [(root, iter(out[root]))]
        while path:
            node, children = path[-1]
            for child in children:
                if not seen[child]:
                    seen[child] = True
                    path.append((child, iter(out[child])))
                    break
            else:
                path.pop()
                finished.append(node)
    component = [-1] * count
    number = 0
    for root in reversed(finished):
        if component[root] < 0:
            component[root] = number
            pending = [root]
            while pending:
                for node in into[pending.pop()]:
                    if component[node] < 0:
                        component[node] = number
                        pending.append(node)
            number += 1
    return component


class _Order:
    """A DAG on ``0 .. count-1`` and a topological order of it, ``position``, kept as edges
    are added."""

    def __init__(self, count: int) -> None:
        self.position: list[float] = [float(node) for node in range(count)]
        self.out: list[list[int]] = [[] for _ in range(count)]
        self.into: list[list[int]] = [[] for _ in range(count)]

    def add(self, source: int, target: int) -> bool:
        """Add ``source -> target``, or return ``False`` when it would close a cycle."""
        if source == target:
            return False
        if self.position[source] >= self.position[target]:
            move = self._search(source, target)
            if move is None:
                return False
            self._place(*move)
        self.out[source].append(target)
        self.into[target].append(source)
        return True

    def _search(self, source: int, target: int) -> tuple[set[int], float, float] | None:
        """``None`` when ``target`` reaches ``source``; else the nodes of the side that ran out
        and the open interval of positions they may move to."""
        position, out, into = self.position, self.out, self.into
        low, high = position[target], position[source]
        ahead, behind = {target}, {source}
        forward, backward = [target], [source]
        above, below = inf, -inf  # the nearest positions outside the window met so far
        while True:
            if not forward:
                return ahead, high, above
            for node in out[forward.pop()]:
                if node in behind:
                    return None
                if position[node] > high:
                    above = min(above, position[node])
                elif node not in ahead:
                    ahead.add(node)
                    forward.append(node)
            if not backward:
                return behind, below, low
            for node in into[backward.pop()]:
                if node in ahead:
                    return None
                if position[node] < low:
                    below = max(below, position[node])
                elif node not in behind:
                    behind.add(node)
                    backward.append(node)

    def _place(self, nodes: set[int], low: float, high: float) -> None:
        """Move ``nodes``, in order, strictly between ``low`` and ``high``, renumbering every
        position first when floats cannot tell the new ones apart."""
        count = len(nodes)
        while True:
            top = high if high < inf else low + count + 1
            bottom = low if low > -inf else top - count - 1
            step = (top - bottom) / (count + 1)
            places = [bottom + step * number for number in range(1, count + 1)]
            if all(a < b for a, b in pairwise([bottom, *places, top])):
                break
            ranks = {value: float(rank) for rank, value in enumerate(sorted(set(self.position)))}
            self.position = [ranks[value] for value in self.position]
            low, high = ranks.get(low, low), ranks.get(high, high)
        for node, place in zip(sorted(nodes, key=self.position.__getitem__), places, strict=True):
            self.position[node] = place


#: The last :func:`spine_lanes` answer, by the identity of its arguments.
_last: list[tuple[Sequence[PortRoute], Sequence[SpineSlice], Lanes]] = []


def spine_lanes(ports: Sequence[PortRoute], slices: Sequence[SpineSlice]) -> Lanes:
    """:func:`port_lanes` of a spine's ports and slices; asked twice in a row about the same
    sequences (validate's rules, its matrix, render), it answers from memory."""
    if _last and _last[0][0] is ports and _last[0][1] is slices:
        return _last[0][2]
    depends_on: dict[str, Sequence[str]] = {entry.step: entry.depends_on for entry in slices}
    for route in ports:
        for token in route.tokens:
            depends_on.setdefault(token.step, ())
    lanes = port_lanes(depends_on, ports)
    _last[:] = [(ports, slices, lanes)]
    return lanes
