"""The defaults every entry point uses when a setting is left out (SPEC 6, 8): action.yml
says them, the action's empty inputs, the command line's left-out flags and the session's
settings take them. Each test reads what a consumer actually uses, so changing a default in
one place alone fails here (tools/mutation_check.py mutates each once)."""

from __future__ import annotations

import argparse

from ruamel.yaml import YAML

from frame_spine.declared import INPUTS
from frame_spine.github.auth import Redactor
from frame_spine.github.session import ApiSettings
from frame_spine.inputs import ApiTarget, StepSettings, parse_inputs
from frame_spine.modes import commands
from frame_spine.step.context import StepContext
from frame_spine.step.emitted import EmittedText
from tests.conftest import REPO

ACTION_YML = REPO / "action.yml"


def test_action_yml_says_each_declared_default() -> None:
    inputs = YAML(typ="safe").load(ACTION_YML.read_text(encoding="utf-8"))["inputs"]
    assert {name: str(spec.get("default", "")) for name, spec in inputs.items()} == {
        declared.name: declared.default for declared in INPUTS
    }


def test_the_action_s_empty_timeout_and_max_wait_are_ten_and_sixty_seconds() -> None:
    raw = {declared.name: "" for declared in INPUTS}
    settings = parse_inputs(StepSettings, {**raw, "mode": "lookup"})
    assert isinstance(settings, StepSettings)
    step = StepContext(raw, {"GITHUB_REPOSITORY": "o/r"}, settings, EmittedText(Redactor()))
    target = parse_inputs(ApiTarget, step.resolved_inputs())
    assert isinstance(target, ApiTarget)
    assert (target.timeout, target.max_wait) == (10, 60)


def test_the_command_line_s_left_out_flags_are_ten_and_sixty_seconds() -> None:
    for command in commands():
        if command.name not in ("lookup", "validate", "render", "audit"):
            continue
        parser = argparse.ArgumentParser()
        command.add_arguments(parser)
        defaults = {action.dest: action.default for action in parser._actions}
        assert (defaults["timeout"], defaults["max_wait"]) == ("10", "60"), command.name


def test_the_session_settings_default_to_ten_and_sixty_seconds() -> None:
    settings = ApiSettings("o/r", "https://api.github.com")
    assert (settings.timeout, settings.max_wait) == (10, 60)
    target = ApiTarget(repository="o/r", api_url="https://api.github.com")
    assert (target.timeout, target.max_wait) == (10, 60)
