"""Render mode's vocabulary (SPEC 13): the ports table's rows, the graph's steps, the result
and ``ports-dir`` (the online inputs are validate's)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.status import Status
from ...inputs import Inputs, WorkspacePath
from ...result import ModeResult
from ...validation.models import ValidationResult

#: The ``warning`` of a port that is not in the canonical set.
UNKNOWN_PORT = "unknown-port"


class PortRow(BaseModel):
    """One row of the ports table: one port token, in spine order (SPEC 13)."""

    model_config = ConfigDict(frozen=True)

    port: str
    step: str
    cycle: int | None
    terminal: bool
    warning: str | None = None


class StepNode(BaseModel):
    """One spine step, a node of the step graph (SPEC 13); ``terminal`` and ``lanes`` are
    drawn, not in the JSON."""

    model_config = ConfigDict(frozen=True)

    step: str
    ports: tuple[str, ...]
    depends_on: tuple[str, ...]
    has_slice: bool
    terminal: bool = Field(default=False, exclude=True)
    lanes: tuple[str, ...] = Field(default=(), exclude=True)


class RenderResult(ModeResult):
    """The result of render mode (SPEC 13); ``findings`` (validate's result), ``ports_checked``
    and ``sibling_generated_at`` are not in the JSON, nor the SPEC 6.1 keys when unset."""

    model_config = ConfigDict(frozen=True, coerce_numbers_to_str=True)
    EXIT_ZERO = (Status.OK, Status.MISSING_SPINE)  # a plan without a spine is normal to look at

    status: Status
    issue: int | None = None
    plan_comment_id: str | None = None
    generated_at: str | None = None
    spine_digest: str | None = None
    ports: tuple[PortRow, ...] = ()
    steps: tuple[StepNode, ...] = ()
    message: str | None = None
    findings: ValidationResult | None = Field(default=None, exclude=True)
    ports_checked: bool = Field(default=False, exclude=True)
    sibling_generated_at: str | None = Field(default=None, exclude=True)
    untrusted_plan_comments: int | None = None
    hidden_plan_comments: int | None = None
    author: str | None = None
    author_association: str | None = None
    editor: str | None = None


class RenderSettings(Inputs):
    """Render mode's own action input (SPEC 13)."""

    ports_dir: WorkspacePath = None
