"""The dispatch matrix (SPEC 14): one entry per spine step, in walk order, with its wave. The
walk is Kahn's algorithm with a heap of ranks: O((steps + edges) log steps), iterative."""

from __future__ import annotations

import heapq
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from ..core.lanes import spine_lanes
from ..core.plan import CurrentSpine, ScannedComments, current_spine
from ..core.spine_model import PortRoute, Spine, SpineSlice
from ..inputs import Inputs, StepIds


@dataclass(frozen=True, slots=True)
class RankedStep:
    """A spine step as ranked for the walk: its ports, ``depends_on`` and kept lane
    predecessors, each once."""

    step: str
    ports: tuple[str, ...]
    depends_on: tuple[str, ...]
    lanes: tuple[str, ...] = ()

    @property
    def predecessors(self) -> tuple[str, ...]:
        """Its ``depends_on`` steps, then its lane predecessors not among them."""
        return tuple(dict.fromkeys(self.depends_on + self.lanes))


def routing_ports(ports: Sequence[PortRoute]) -> dict[str, list[str]]:
    """The ports whose tokens name each step, each once, in ``ports:`` order."""
    routed: dict[str, dict[str, None]] = {}
    for route in ports:
        for token in route.tokens:
            routed.setdefault(token.step, {})[route.name] = None
    return {step: list(names) for step, names in routed.items()}


def ranked_steps(ports: Sequence[PortRoute], slices: Sequence[SpineSlice]) -> list[RankedStep]:
    """Every step in the spine, in rank order (SPEC 14)."""
    routed = routing_ports(ports)
    lanes = spine_lanes(ports, slices).before
    ranked = [
        RankedStep(
            entry.step,
            tuple(routed.get(entry.step, ())),
            tuple(dict.fromkeys(entry.depends_on)),
            lanes.get(entry.step, ()),
        )
        for entry in slices
    ]
    mapped = {entry.step for entry in slices}
    ranked.extend(
        RankedStep(step, tuple(names), (), lanes.get(step, ()))
        for step, names in routed.items()
        if step not in mapped
    )
    return ranked


def walk(steps: Sequence[RankedStep]) -> list[tuple[RankedStep, int]]:
    """The walk of SPEC 14 over steps in rank order, each with its wave."""
    rank = {ranked.step: index for index, ranked in enumerate(steps)}
    dependents: list[list[int]] = [[] for _ in steps]
    predecessors = [ranked.predecessors for ranked in steps]
    waiting = [len(before) for before in predecessors]
    for index, before in enumerate(predecessors):
        for dependency in before:
            if dependency in rank:
                dependents[rank[dependency]].append(index)
    ready = [index for index, count in enumerate(waiting) if count == 0]
    heapq.heapify(ready)
    waves: dict[str, int] = {}
    order: list[tuple[RankedStep, int]] = []
    while ready:
        index = heapq.heappop(ready)
        ranked = steps[index]
        wave = 1 + max((waves[dependency] for dependency in predecessors[index]), default=0)
        waves[ranked.step] = wave
        order.append((ranked, wave))
        for child in dependents[index]:
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, child)
    return order


class MatrixEntry(BaseModel):
    """One step of the dispatch matrix (SPEC 14), keyed by the lookup action's input names."""

    model_config = ConfigDict(
        frozen=True,
        alias_generator=lambda name: name.replace("_", "-"),
        serialize_by_alias=True,
        validate_by_name=True,
    )

    step_id: str
    issue_number: str
    plan_comment_id: str
    slices_comment_id: str
    generated_at: str
    spine_digest: str
    ports: tuple[str, ...]
    depends_on: tuple[str, ...]
    wave: int


class Dispatch(BaseModel):
    """The dispatch matrix of a valid plan (SPEC 14); every list empty for an invalid one."""

    model_config = ConfigDict(frozen=True)

    steps: tuple[MatrixEntry, ...] = ()
    waves: tuple[tuple[str, ...], ...] = ()
    ready: tuple[MatrixEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class DispatchIds:
    """The dispatch inputs every entry shares, as known to validate (``None``: unknown)."""

    issue_number: int | None = None
    plan_comment_id: int | None = None
    sibling_id: int | None = None


def _text(value: int | str | None) -> str:
    return "" if value is None else str(value)


def matrix(
    found: CurrentSpine, ids: DispatchIds, completed: Collection[str] | None = None
) -> Dispatch:
    """The dispatch matrix of one valid spine (SPEC 14); ``completed``: lower-case step ids."""
    spine: Spine = found.spine
    sibling = ids.sibling_id if ids.sibling_id is not None else spine.slice_comment_id
    shared = {
        "issue_number": _text(ids.issue_number),
        "plan_comment_id": _text(ids.plan_comment_id),
        "slices_comment_id": _text(sibling),
        "generated_at": spine.generated_at,
        "spine_digest": found.digest,
    }
    walked = walk(ranked_steps(spine.ports, spine.slices))
    steps = tuple(
        MatrixEntry(
            step_id=ranked.step,
            ports=ranked.ports,
            depends_on=ranked.depends_on,
            wave=wave,
            **shared,
        )
        for ranked, wave in walked
    )
    waves: dict[int, list[str]] = {}
    for entry in steps:
        waves.setdefault(entry.wave, []).append(entry.step_id)
    done = frozenset(completed or ())
    ready = tuple(
        entry
        for entry, (ranked, _wave) in zip(steps, walked, strict=True)
        if entry.step_id not in done and all(step in done for step in ranked.predecessors)
    )
    return Dispatch(
        steps=steps, waves=tuple(tuple(waves[wave]) for wave in sorted(waves)), ready=ready
    )


def plan_dispatch(
    comments: ScannedComments,
    *,
    valid: bool,
    ids: DispatchIds,
    completed: Collection[str] | None = None,
) -> Dispatch:
    """The dispatch matrix of a validated plan: empty unless ``valid`` with a spine."""
    found = current_spine(comments) if valid else None
    return matrix(found, ids, completed) if isinstance(found, CurrentSpine) else Dispatch()


def as_outputs(dispatch: Dispatch) -> dict[str, object]:
    """The JSON values of the action's ``steps``, ``waves`` and ``ready`` outputs."""
    return dispatch.model_dump(mode="json")


class DispatchRequest(Inputs):
    """The dispatch input of validate mode (SPEC 14)."""

    completed_steps: StepIds = None
