"""The modes, one folder each (``lookup``, ``validate``, ``audit``, ``render``), with the same
files: ``models`` (inputs and result), ``rules`` (the pure decision), ``online`` (fetch, then
decide), ``render`` (JSON, text, summary), ``report`` (the action's step) and ``command``
(argparse only at load time).

This module is where the command line and the action load a mode, lazily: a lookup never
imports validate, audit or render; and what the modes share: an online outcome, the ``result``
output (a result's exit code and failure: :mod:`frame_spine.result`). A new mode is a folder
with those files and an entry in :data:`frame_spine.inputs.MODES` (and its inputs and outputs in
``action.yml``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from ..core.utf8 import utf8_size
from ..inputs import MODES as MODES
from ..workflow_commands import json_line

if TYPE_CHECKING:
    from ..console import Command
    from ..github.payloads import FetchedComment
    from ..step.context import StepContext
    from ..step.report import StepReport

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Online(Generic[R]):
    """A mode's online outcome: its result and the comments it read (for the summary's links)."""

    result: R
    plan: FetchedComment | None = None
    sibling: FetchedComment | None = None


def result_output(shown: dict[str, Any], *bulky: str) -> str:
    """``shown`` as the ``result`` output (SPEC 8): while over the output limit, the next of the
    ``bulky`` keys leaves ``shown`` for a ``<key>_omitted`` key (its item count, or ``true``)."""
    from ..step.report import OUTPUT_LIMIT

    text = json_line(shown)
    for key in bulky:
        if key in shown and utf8_size(text) > OUTPUT_LIMIT:
            value = shown.pop(key)
            shown[f"{key}_omitted"] = len(value) if isinstance(value, list) else True
            text = json_line(shown)
    return text


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
    modules = [importlib.import_module(f"{__name__}.{mode}.command") for mode in MODES]
    return [command for module in modules for command in cast(CommandModule, module).COMMANDS]
