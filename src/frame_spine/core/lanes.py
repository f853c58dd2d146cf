"""Port lanes (SPEC 14): which lane edges are kept and which are dropped.

Pure: the spine's steps with their ``depends_on`` and its port lines in, :class:`Lanes` out
(:func:`port_lanes`). How, without recursion: the strongly connected components of
``depends_on`` (Kosaraju) are the nodes of a DAG whose topological order :class:`_Order` keeps
as lane edges are added. An edge that agrees with the order costs nothing; one that does not
searches from both ends at once, only among the nodes placed between them, and stops when
either side runs out: then that side alone moves past the other end (positions are floats,
renumbered when a gap wears out). The cost of an edge is about the smaller side, so a lane
that runs against the starting order (two opposite chains) stays linear.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import inf

from .spine_model import PortRoute, SpineSlice


@dataclass(frozen=True, slots=True)
class LaneConflict:
    """A lane edge dropped because it would close a cycle (SPEC 14: ``lane-order-conflict``).

    Attributes:
        port: the port whose token list orders the two steps.
        earlier: the step the port lists first. later: the step it lists next (repeats
            removed), which already comes before ``earlier``.
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


def port_lanes(depends_on: Mapping[str, Sequence[str]], ports: Sequence[PortRoute]) -> Lanes:
    """The port lanes of a spine (SPEC 14): the lane edges kept and the ones dropped.

    Args:
        depends_on: every step in the spine (a key under ``slices:`` or the step of a port
            token) -> its ``depends_on`` items (``()`` for a step named only in tokens);
            items that are not keys are ignored (validate reports them).
        ports: the spine's port lines, in any order.
    """
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
    """Each node's strongly connected component (Kosaraju, iterative), numbered in a
    topological order of the components (nodes without edges in their own order)."""
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
    """A DAG on ``0 .. count-1`` (numbered in a topological order) and a topological order of
    it, ``position``, kept as edges are added (the module's notes)."""

    def __init__(self, count: int) -> None:
        self.position: list[float] = [float(node) for node in range(count)]
        self.out: list[list[int]] = [[] for _ in range(count)]
        self.into: list[list[int]] = [[] for _ in range(count)]

    def add(self, source: int, target: int) -> bool:
        """Add ``source -> target`` and return ``True``, or return ``False`` (nothing added)
        when it would close a cycle."""
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
        (what ``target`` reaches, or what reaches ``source``, among the nodes placed between
        them) and the open interval of positions they may move to."""
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
        """Move ``nodes``, in their present order, to positions strictly between ``low`` and
        ``high`` (an infinite end: as near the other as they fit). When floats cannot tell
        the new positions apart, every position is first renumbered (order kept)."""
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
