"""What the modes' results share (SPEC 5, 10, 11, 13): a status first, an exit code, the result
of a failure. A module of its own so that loading the commands (``--help``) builds no model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from .core.status import Failure


class ModeResult(BaseModel):
    """A mode's result: its status first; exit code 0 only for the statuses in ``EXIT_ZERO``."""

    model_config = ConfigDict(frozen=True)
    EXIT_ZERO: ClassVar[tuple[str, ...]]

    status: Any

    @property
    def exit_code(self) -> int:
        """The process exit code (SPEC 5, 10, 11, 13)."""
        return 0 if self.status in self.EXIT_ZERO else 1

    @classmethod
    def of_failure(cls, failure: Failure, **known: Any) -> Self:
        """The result of a run that stopped at ``failure`` (``known``: other fields)."""
        return cls(status=failure.status, message=failure.message, **known)

    def shown(self, *when_set: str) -> dict[str, Any]:
        """The result as a JSON object, the keys ``when_set`` only when not ``None``."""
        dumped = self.model_dump(mode="json")
        return {
            key: value for key, value in dumped.items() if value is not None or key not in when_set
        }
