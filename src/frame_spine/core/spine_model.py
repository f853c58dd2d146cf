"""The shape of a parsed spine (SPEC 3), as :func:`~frame_spine.core.spine.parse_spine` gives it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .timestamps import Instant


@dataclass(frozen=True, slots=True)
class PortToken:
    """A port token ``sN[#cycle:K][#terminal]`` (SPEC 3)."""

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
    """One entry of the ``slices:`` section: ``line`` is that of ``  sN:``; ``terminal`` is
    ``None`` without the key; ``properties`` holds every property as written."""

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
    """A valid spine (SPEC 3); ``key_lines``: the comment line of each top-level key."""

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
        routed = (token.step for route in self.ports for token in route.tokens)
        return frozenset(entry.step for entry in self.slices).union(routed)


@dataclass(frozen=True, slots=True)
class SpineProblem:
    """A violation of SPEC 3, at its comment line (``None``: the whole spine's)."""

    line: int | None
    message: str


@dataclass(frozen=True, slots=True)
class SpineParse:
    """A spine, or every problem in line order; ``ports`` and ``slices`` are what parsed,
    also of an invalid spine (render draws what it can, SPEC 13)."""

    spine: Spine | None
    problems: tuple[SpineProblem, ...]
    ports: tuple[PortRoute, ...] = field(default=(), compare=False)
    slices: tuple[SpineSlice, ...] = field(default=(), compare=False)
