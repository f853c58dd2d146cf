"""Every input of the action, declared once (SPEC 8, 9): its name, its default in action.yml,
the command line's flag for it and the commands that take that flag.

The action reads the inputs named here (``INPUT_*``); the command line hands a mode the same
inputs from its flags (:func:`raw_inputs`), and names them in messages by flag
(:func:`cli_names`); tests hold action.yml, docs/action.md and each command's parser to this
table. Adding an input: its row here, its field in the mode's model (:mod:`frame_spine.inputs`
types), the code that uses it; then action.yml and docs/action.md.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from .github.defaults import DEFAULT_MAX_WAIT, DEFAULT_TIMEOUT

#: The command line's commands that read GitHub.
ONLINE = ("lookup", "validate", "render", "audit")
#: ... and that take the plan's comments by id.
BY_ID = ("lookup", "validate", "render")


@dataclass(frozen=True, slots=True)
class Declared:
    """One input: ``name`` (kebab case, as ``INPUT_<NAME>``), its ``default`` in action.yml,
    the command line's ``flag`` (``None``: the action's alone) and the ``commands`` taking it."""

    name: str
    default: str = ""
    flag: str | None = None
    commands: tuple[str, ...] = ()

    @property
    def dest(self) -> str:
        """The flag's attribute on argparse's namespace."""
        return (self.flag or "").removeprefix("--").replace("-", "_")


INPUTS = (
    Declared("mode", "lookup"),
    Declared("token", "${{ github.token }}"),
    Declared("repository", "${{ github.repository }}", "--repo", ONLINE),
    Declared("api-url", "${{ github.api_url }}", "--api-url", ONLINE),
    Declared("issue-number", "", "--issue-number", BY_ID),
    Declared("plan-comment-id", "", "--plan-comment-id", BY_ID),
    Declared("slices-comment-id", "", "--slices-comment-id", BY_ID),
    Declared("step-id", "", "--step-id", ("lookup",)),
    Declared("generated-at", "", "--generated-at", ("lookup",)),
    Declared("spine-digest", "", "--spine-digest", ("lookup",)),
    Declared("slice-file"),
    Declared("fail-on", "error"),
    Declared("job-summary", "true"),
    Declared("timeout", str(DEFAULT_TIMEOUT), "--timeout", ONLINE),
    Declared("max-wait", str(DEFAULT_MAX_WAIT), "--max-wait", ONLINE),
    Declared("trusted-authors", "OWNER,MEMBER,COLLABORATOR,write", "--trusted-authors", ONLINE),
    Declared("issue-state", "open", "--state", ("audit",)),
    Declared("since", "", "--since", ("audit",)),
    Declared("report-file"),
    Declared("ports-dir", "", "--ports-dir", ("render",)),
    Declared("completed-steps", "", "--completed-steps", ("validate",)),
)
#: Every input of action.yml, in its order.
INPUT_NAMES = tuple(declared.name for declared in INPUTS)


def cli_names() -> dict[str, str]:
    """How the command line's messages name each input: its flag."""
    return {declared.name: declared.flag for declared in INPUTS if declared.flag is not None}


#: Each input's default, as action.yml says it.
DEFAULTS = {declared.name: declared.default for declared in INPUTS}


def raw_inputs(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """The inputs ``command`` takes, by input name, as its flags gave them (``None`` when a
    flag was left out)."""
    return {d.name: getattr(args, d.dest, None) for d in INPUTS if command in d.commands}
