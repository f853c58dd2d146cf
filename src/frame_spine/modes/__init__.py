"""The modes, one folder each (``lookup``, ``validate``, ``audit``, ``render``), with the same
files: ``models`` (inputs and result), ``rules`` (the pure decision), ``online`` (fetch, then
decide), ``render`` (JSON, text, summary), ``report`` (the action's step) and ``command``
(argparse only at load time).

This module is where the command line and the action load a mode, lazily: a lookup never
imports validate, audit or render. A new mode is a folder with those files and an entry in
:data:`frame_spine.inputs.MODES` (and its inputs and outputs in ``action.yml``).
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
        """Run the mode for the action and decide what the step writes."""
        ...


class CommandModule(Protocol):
    """A mode's ``command`` module: its ``frame-spine`` commands."""

    COMMANDS: tuple[Command, ...]


def report_module(mode: str) -> ReportModule:
    """Load ``frame_spine.modes.<mode>.report`` (``mode`` is one of :data:`MODES`)."""
    return cast(ReportModule, importlib.import_module(f"{__name__}.{mode}.report"))


def commands() -> list[Command]:
    """Every ``frame-spine`` command of every mode, in :data:`MODES` order."""
    found: list[Command] = []
    for mode in MODES:
        module = cast(CommandModule, importlib.import_module(f"{__name__}.{mode}.command"))
        found.extend(module.COMMANDS)
    return found
