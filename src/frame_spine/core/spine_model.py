"""The shape of a parsed spine (SPEC 3): the :class:`Spine`, its port lines and slice entries,
and the outcome of :func:`~frame_spine.core.spine.parse_spine` (:class:`SpineParse`, with
every :class:`SpineProblem`).

Pure data: frozen dataclasses, no parsing (the grammar is :mod:`frame_spine.core.spine`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .timestamps import Instant


@dataclass(frozen=True, slots=True)
class PortToken:
    """A port token ``sN[#cycle:K][#terminal]`` (SPEC 3).

    Attributes:
        step: the step id (``"s8"``).
        cycle: ``K`` of ``#cycle:K``, or ``None``.
        terminal: whether ``#terminal`` is present.
    """

    step: str
    cycle: int | None
    terminal: bool


@dataclass(frozen=True, slots=True)
class PortRoute:
    """One line of the ``ports:`` section: a port name routed to step tokens, and its line."""

    name: str
    tokens: tuple[PortToken, ...]
    line: int


@dataclass(frozen=True, slots=True)
class SpineSlice:
    """One entry of the ``slices:`` section.

    Attributes:
        step: the step id (``"s4"``).
        line: 1-based comment line of ``  sN:``.
        ac_refs, depends_on: the inline lists' items.
        cycle: a non-negative integer.
        terminal: ``True``/``False`` when a ``terminal:`` key is present, else ``None``.
        properties: every property as written (``key -> raw value``), in order.
        property_lines: the 1-based comment line of each property.
    """

    step: str
    line: int
    ac_refs: tuple[str, ...]
    depends_on: tuple[str, ...]
    cycle: int
    terminal: bool | None
    properties: dict[str, str] = field(hash=False, compare=False)
    property_lines: dict[str, int] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True, slots=True)
class Spine:
    """A valid spine (SPEC 3).

    Attributes:
        schema_version: 1 or 2.
        generated_at: the timestamp as written; ``instant`` is its parsed value.
        coverage: the free-text ``coverage`` value, or ``None`` when absent.
        slice_comment_id: the sibling's comment id as decimal digits, or ``None``.
        ports: the port lines in order; slices: the slice entries in order.
        key_lines: the 1-based comment line of each top-level key and section header
            (``"generated_at"``, ``"slice_comment_id"``, ``"ports"``, ...).
    """

    schema_version: int
    generated_at: str
    instant: Instant
    coverage: str | None
    coverage_line: int | None
    slice_comment_id: str | None
    ports: tuple[PortRoute, ...]
    slices: tuple[SpineSlice, ...]
    key_lines: dict[str, int] = field(default_factory=dict, hash=False, compare=False)

    @property
    def steps(self) -> frozenset[str]:
        """The steps "in the spine": keys under ``slices:`` and steps of any port token."""
        named = {entry.step for entry in self.slices}
        named.update(token.step for route in self.ports for token in route.tokens)
        return frozenset(named)


@dataclass(frozen=True, slots=True)
class SpineProblem:
    """A violation of SPEC 3.

    Attributes:
        line: 1-based comment line of the offending spine line, or ``None`` for a problem of
            the whole spine (a missing required key or section).
        message: what is wrong, e.g. ``"unknown key 'owner'"``.
    """

    line: int | None
    message: str


@dataclass(frozen=True, slots=True)
class SpineParse:
    """The outcome of :func:`~frame_spine.core.spine.parse_spine`: a spine, or every problem
    found (never both).

    Attributes:
        spine: the valid spine, or ``None``.
        problems: every problem, in line order (empty when ``spine`` is set).
        ports, slices: the port lines and complete slice entries that parsed, in order, also
            when the spine as a whole is invalid (render mode draws what it can, SPEC 13).
    """

    spine: Spine | None
    problems: tuple[SpineProblem, ...]
    ports: tuple[PortRoute, ...] = field(default=(), compare=False)
    slices: tuple[SpineSlice, ...] = field(default=(), compare=False)
