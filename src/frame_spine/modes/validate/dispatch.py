"""The dispatch matrix (SPEC 14): one entry per spine step, in walk order, with its wave.

Pure: a spine in, the matrix out. A step's *predecessors* are its ``depends_on`` steps and
its lane predecessors (:mod:`.lanes`: the step before it in each port's token list, unless
that would close a cycle). :func:`walk` is the order of SPEC 14 — repeatedly take, among the
steps not yet taken whose predecessors are all taken, the one that ranks first
(:func:`ranked_steps`: the spine's ``slices:`` map, then the steps named only in port tokens,
in the order of their first token). It is Kahn's algorithm with a heap of ranks:
O((steps + edges) log steps), iterative (a 5,000-step chain is fine). A step in a cycle, or
one that depends on a step that is not in the spine, is never taken (validate reports both as
errors, and an invalid plan is never dispatched: :func:`plan_dispatch` gives ``[]`` then).
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from ...core.lanes import spine_lanes
from ...core.plan import CurrentSpine, ScannedComments, current_spine
from ...core.spine_model import PortRoute, Spine, SpineSlice
from ...inputs import Inputs, StepIds

if TYPE_CHECKING:
    from .models import ValidationResult


@dataclass(frozen=True, slots=True)
class RankedStep:
    """A spine step, as ranked for the walk.

    Attributes:
        step: the step id (``"s4"``).
        ports: the names of the ports whose tokens route to it, in spine order, each once.
        depends_on: its ``depends_on`` items as written, each once (``()`` for a step named
            only in port tokens).
        lanes: its lane predecessors that were kept (SPEC 14), each once, in the order their
            lane edges were added (``()``: none).
    """

    step: str
    ports: tuple[str, ...]
    depends_on: tuple[str, ...]
    lanes: tuple[str, ...] = ()

    @property
    def predecessors(self) -> tuple[str, ...]:
        """Its ``depends_on`` steps, then its lane predecessors not among them (SPEC 14)."""
        return tuple(dict.fromkeys(self.depends_on + self.lanes))


def ranked_steps(ports: Sequence[PortRoute], slices: Sequence[SpineSlice]) -> list[RankedStep]:
    """Every step in the spine (SPEC 3: a key under ``slices:`` or the step of a port token),
    in rank order: the ``slices:`` map first, then the steps named only in port tokens, in
    the order of their first token (SPEC 14); each with its lane predecessors
    (:func:`~.lanes.spine_lanes`)."""
    routed: dict[str, list[str]] = {}
    for route in ports:
        for token in route.tokens:
            names = routed.setdefault(token.step, [])
            if route.name not in names:
                names.append(route.name)
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
    """The walk order of SPEC 14, with each step's wave.

    Args:
        steps: the steps in rank order (:func:`ranked_steps`), each step id once.

    Returns:
        ``[(step, wave), ...]`` in walk order; ``wave`` is 1 for a step without predecessors,
        else 1 + the largest wave among them. Steps in a dependency cycle, or depending on a
        step not in ``steps``, are left out. Linearithmic, never recursive.
    """
    rank = {ranked.step: index for index, ranked in enumerate(steps)}
    waiting = [0] * len(steps)
    dependents: list[list[int]] = [[] for _ in steps]
    predecessors = [ranked.predecessors for ranked in steps]
    for index, before in enumerate(predecessors):
        for dependency in before:
            waiting[index] += 1
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


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class MatrixEntry(BaseModel):
    """One step of the dispatch matrix (SPEC 14): the lookup action's inputs for it, as
    strings (its JSON keys are those input names: ``step-id``, ``issue-number``, ...), plus
    ``ports`` and ``depends-on`` (arrays of strings) and ``wave`` (an integer)."""

    model_config = ConfigDict(
        frozen=True, alias_generator=_kebab, serialize_by_alias=True, validate_by_name=True
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
    """The dispatch matrix of a valid plan (SPEC 14); every list empty for an invalid one.

    Attributes:
        steps: one :class:`MatrixEntry` per spine step, in walk order.
        waves: the step ids of each wave, wave 1 first, each in walk order.
        ready: the ``steps`` entries not completed whose predecessors (``depends_on`` and
            lanes) are all completed (without completed steps: wave 1), in walk order.
    """

    model_config = ConfigDict(frozen=True)

    steps: tuple[MatrixEntry, ...] = ()
    waves: tuple[tuple[str, ...], ...] = ()
    ready: tuple[MatrixEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class DispatchIds:
    """The dispatch inputs every entry shares (SPEC 14), as known to validate.

    Attributes:
        issue_number: the given issue number, else the plan's own marker (``None``: unknown).
        plan_comment_id: the plan comment's id (``None`` for local bodies).
        sibling_id: the sibling's id when one was read (``None``: the spine's pointer, if any).
    """

    issue_number: int | None = None
    plan_comment_id: int | None = None
    sibling_id: int | None = None


def _text(value: int | str | None) -> str:
    return "" if value is None else str(value)


def _first_wave(steps: Sequence[MatrixEntry]) -> list[MatrixEntry]:
    """The entries of wave 1 (a walked step without predecessors), in walk order."""
    return [entry for entry in steps if entry.wave == 1]


def matrix(
    found: CurrentSpine, ids: DispatchIds, completed: Collection[str] | None = None
) -> Dispatch:
    """The dispatch matrix of one valid spine (SPEC 14).

    Args:
        found: the plan's one valid spine (with its digest).
        ids: the ids every entry carries.
        completed: step ids already done (lower case), or ``None`` when not given: ``ready``
            is then wave 1.
    """
    spine: Spine = found.spine
    shared = {
        "issue_number": _text(ids.issue_number),
        "plan_comment_id": _text(ids.plan_comment_id),
        "slices_comment_id": _text(
            ids.sibling_id if ids.sibling_id is not None else spine.slice_comment_id
        ),
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
    if done:
        ready = tuple(
            entry
            for entry, (ranked, _wave) in zip(steps, walked, strict=True)
            if entry.step_id not in done and all(step in done for step in ranked.predecessors)
        )
    else:  # nothing completed: the steps without predecessors, which are wave 1 exactly
        ready = tuple(_first_wave(steps))
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
    """The dispatch matrix of a validated plan (SPEC 14): :func:`matrix` of its one spine
    when ``valid`` (no error finding) and it has one; otherwise every list empty (an invalid
    plan, or a plan without a spine by design, dispatches nothing)."""
    if not valid:
        return Dispatch()
    found = current_spine(comments)
    if not isinstance(found, CurrentSpine):
        return Dispatch()
    return matrix(found, ids, completed)


def as_outputs(dispatch: Dispatch) -> Mapping[str, object]:
    """The JSON values of the action's ``steps``, ``waves`` and ``ready`` outputs."""
    shown = dispatch.model_dump(mode="json")
    return {"steps": shown["steps"], "waves": shown["waves"], "ready": shown["ready"]}


class DispatchRequest(Inputs):
    """The dispatch input of validate mode (SPEC 14): ``completed-steps`` (``None`` when
    empty; lower-cased step ids, each once)."""

    completed_steps: StepIds = None


def with_dispatch(
    result: ValidationResult,
    comments: ScannedComments,
    ids: DispatchIds,
    completed: Collection[str] | None = None,
) -> ValidationResult:
    """``result`` with its dispatch matrix (SPEC 14): :func:`plan_dispatch` of the validated
    comments, empty lists unless ``result`` is ``valid``."""
    valid = result.errors == 0 and result.status == "valid"
    dispatch = plan_dispatch(comments, valid=valid, ids=ids, completed=completed)
    return result.model_copy(update={"dispatch": dispatch})
