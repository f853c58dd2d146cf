"""The modes, one folder each: ``lookup``, ``validate``, ``audit``, ``render``.

Every mode has the same files:

- ``models``: its inputs (pydantic, from :mod:`frame_spine.inputs` types) and its result;
- ``rules``: the pure decision (scanned comments in, the result out);
- ``online``: fetch from GitHub, then decide;
- ``render``: the result as JSON, text and job-summary Markdown;
- ``report``: the action's step (:class:`~frame_spine.step.report.StepReport`);
- ``command``: the ``frame-spine`` command (argparse only at load time).

This module is the one boundary where the command line and the action load a mode, lazily:
a lookup never imports validate, audit or render. A new mode is a new folder with those files and
one entry in :data:`frame_spine.inputs.MODES` (and its inputs and outputs in ``action.yml``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol, cast

from ..inputs import MODES as MODES

if TYPE_CHECKING:
    from ..console import Command
    from ..step.context import StepContext
    from ..step.report import StepReport


class ReportModule(Protocol):
    """A mode's ``report`` module: the action's step of that mode."""

    def report(self, step: StepContext) -> StepReport:
        """Run the mode for the action and decide what the step writes. Never raises."""
        ...


class CommandModule(Protocol):
    """A mode's ``command`` module: its ``frame-spine`` commands."""

    COMMANDS: tuple[Command, ...]


def report_module(mode: str) -> ReportModule:
    """Load ``frame_spine.modes.<mode>.report`` (``mode`` is one of :data:`MODES`)."""
    return cast(ReportModule, importlib.import_module(f"{__name__}.{mode}.report"))


def commands() -> list[Command]:
    """Every ``frame-spine`` command of every mode, in :data:`MODES` order (loading the
    light ``command`` modules only)."""
    found: list[Command] = []
    for mode in MODES:
        module = cast(CommandModule, importlib.import_module(f"{__name__}.{mode}.command"))
        found.extend(module.COMMANDS)
    return found
