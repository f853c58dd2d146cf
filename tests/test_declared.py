"""One declaration per input (issue 31): the table of frame_spine.declared is what the action
reads, what the command line hands a mode and how its messages name a setting; action.yml,
docs/action.md and each command's parser are held to it. A new input touches the table, the
mode's model and the code that uses it (plus action.yml and the docs): the recipe of
docs/architecture.md, walked here with a dummy input."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from frame_spine import action, declared
from frame_spine.core.shown import naming
from frame_spine.core.status import Failure
from frame_spine.declared import INPUTS, Declared, cli_names, raw_inputs
from frame_spine.inputs import Since, parse_inputs
from frame_spine.modes import commands
from frame_spine.modes.audit.models import AuditTarget


@pytest.mark.parametrize("command", ["lookup", "validate", "render", "audit"])
def test_each_command_takes_the_flags_the_table_gives_it(command: str) -> None:
    (found,) = [c for c in commands() if c.name == command]
    parser = argparse.ArgumentParser()
    found.add_arguments(parser)
    flags = {flag for action_ in parser._actions for flag in action_.option_strings}
    wanted = {d.flag for d in INPUTS if command in d.commands and d.flag is not None}
    assert wanted - flags == set()


def test_a_new_input_goes_through_the_recipe(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1. The declaration.
    dummy = Declared("dummy-since", "", "--dummy-since", ("audit",))
    monkeypatch.setattr(declared, "INPUTS", (*INPUTS, dummy))

    # 2. The mode's model.
    class DummyTarget(AuditTarget):
        dummy_since: Since = None

    # 3. The code that uses it: the action reads it, the command line's flag hands it over.
    monkeypatch.setenv("INPUT_DUMMY-SINCE", "7d")
    from_action: dict[str, Any] = action.read_inputs()
    assert from_action["dummy-since"] == "7d"
    args = argparse.Namespace(dummy_since="24h", timeout="10", max_wait="60", command="audit")
    from_cli = raw_inputs(args, "audit")
    assert from_cli["dummy-since"] == "24h"
    base = {"repository": "o/r", "api-url": "https://api.github.com"}
    parsed = parse_inputs(DummyTarget, {**from_cli, **base})
    assert isinstance(parsed, DummyTarget) and parsed.dummy_since == "24h"

    # Messages name it as each caller set it.
    bad = {**base, "dummy-since": "soon"}
    with naming(cli_names()):
        on_the_command_line = parse_inputs(DummyTarget, bad)
    in_the_action = parse_inputs(DummyTarget, bad)
    assert isinstance(on_the_command_line, Failure) and isinstance(in_the_action, Failure)
    assert on_the_command_line.message.startswith("--dummy-since 'soon' is neither")
    assert in_the_action.message.startswith("dummy-since 'soon' is neither")
