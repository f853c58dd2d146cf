"""Render mode's vocabulary (SPEC 13): the rows of the ports table, the steps of the graph,
the result, and the mode's own input.

Pure. The online inputs are validate's (:class:`~...validation.models.ValidateTarget`: a plan
comment id, or an issue whose newest plan comment is rendered); render adds ``ports-dir``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.status import Failure, Status
from ...inputs import Inputs, WorkspacePath
from ...validation.models import ValidationResult

#: The statuses of a rendering that exit 0 (SPEC 13: a plan without a spine is a normal
#: thing to look at).
EXIT_ZERO = (Status.OK, Status.MISSING_SPINE)
#: The ``warning`` of a port that is not in the canonical set.
UNKNOWN_PORT = "unknown-port"


class PortRow(BaseModel):
    """One row of the ports table: one port token, in spine order (SPEC 13).

    Attributes:
        port: the port's name. step: the token's step id.
        cycle: ``K`` of ``#cycle:K``, else the spine slice's ``cycle:``, else ``None``.
        terminal: the token's ``#terminal`` or the spine slice's ``terminal: true``.
        warning: ``"unknown-port"`` when a canonical port set is known and the port is not
            in it, else ``None``.
    """

    model_config = ConfigDict(frozen=True)

    port: str
    step: str
    cycle: int | None
    terminal: bool
    warning: str | None = None


class StepNode(BaseModel):
    """One spine step, a node of the step graph (SPEC 13).

    Attributes:
        step: the step id. ports: the ports routing to it, in spine order, each once.
        depends_on: its ``depends_on`` items as written (``[]`` for a step named only in port
            tokens). has_slice: whether a slice block carries it (in the plan or sibling).
        lanes: its lane predecessors (SPEC 14: the steps its ports list before it), drawn as
            dotted edges where no ``depends_on`` edge is drawn (not in the JSON).
        terminal: whether a token marks it ``#terminal`` or its spine entry says
            ``terminal: true`` (drawn in the graph; not in the JSON).
    """

    model_config = ConfigDict(frozen=True)

    step: str
    ports: tuple[str, ...]
    depends_on: tuple[str, ...]
    has_slice: bool
    terminal: bool = Field(default=False, exclude=True)
    lanes: tuple[str, ...] = Field(default=(), exclude=True)


class RenderResult(BaseModel):
    """The result of render mode (SPEC 13).

    Attributes:
        status: ``ok``, ``missing-spine``, ``invalid-spine``, or a SPEC 6 status (a refused
            input, a failed fetch; ``comment-not-found`` also for an issue without a plan
            comment).
        issue: the plan's issue number, when known. plan_comment_id: the plan comment's id as
            a string, when known (``None`` for local bodies).
        generated_at, spine_digest: the valid spine's, else ``None``.
        ports: the ports table's rows (for ``invalid-spine``, the port lines that parsed).
        steps: the spine's steps in rank order (the ``slices:`` map, then the steps named
            only in port tokens).
        message: why, for every status but ``ok``.
        findings: validate's result on the same comments, when it ran (the summary's
            findings; not in the JSON).
        ports_checked: whether a canonical port set was known (not in the JSON).
        sibling_generated_at: the sibling's first stamp as written, when one was read (the
            ``sibling-generated-at`` output, SPEC 8; not in the JSON of SPEC 13).
        untrusted_plan_comments: how many plan-like comments discovery passed over because
            their authors are not trusted (SPEC 6.1); ``None`` (and not in the JSON) when the
            plan was not discovered. hidden_plan_comments: likewise, the hidden ones.
        author, author_association: the login and ``author_association`` of a plan comment
            whose author is not trusted (``plan-identity-mismatch``, SPEC 6.1); ``None`` (and
            not in the JSON) otherwise.
    """

    model_config = ConfigDict(frozen=True)

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

    @property
    def exit_code(self) -> int:
        """0 for ``ok`` and ``missing-spine``, else 1 (SPEC 13)."""
        return 0 if self.status in EXIT_ZERO else 1

    @classmethod
    def of_failure(
        cls, failure: Failure, *, issue: int | None = None, plan_comment_id: int | None = None
    ) -> RenderResult:
        """A rendering that could not run (a refused input, a failed fetch)."""
        return cls(
            status=failure.status,
            issue=issue,
            plan_comment_id=None if plan_comment_id is None else str(plan_comment_id),
            message=failure.message,
        )


class RenderSettings(Inputs):
    """Render mode's own action input (SPEC 13): ``ports-dir``, a workspace-relative
    directory, or ``None`` (then ``frame/ports`` when it exists)."""

    ports_dir: WorkspacePath = None
