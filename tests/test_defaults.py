"""The timeout and max-wait defaults have one home, frame_spine.github.defaults (issue 19 part
4), which frame_spine.inputs re-exports: action.yml's input defaults and the GitHub session's
settings say the same numbers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ruamel.yaml import YAML

from frame_spine.github.session import ApiSettings
from frame_spine.inputs import DEFAULT_MAX_WAIT, DEFAULT_TIMEOUT

ACTION_YML = Path(__file__).resolve().parent.parent / "action.yml"


def test_the_defaults_are_ten_and_sixty_seconds() -> None:
    assert (DEFAULT_TIMEOUT, DEFAULT_MAX_WAIT) == (10, 60)


def test_action_yml_defaults_equal_the_python_constants() -> None:
    inputs = YAML(typ="safe").load(ACTION_YML.read_text(encoding="utf-8"))["inputs"]
    assert inputs["timeout"]["default"] == str(DEFAULT_TIMEOUT)
    assert inputs["max-wait"]["default"] == str(DEFAULT_MAX_WAIT)


def test_the_session_settings_default_to_the_python_constants() -> None:
    defaults = {field.name: field.default for field in dataclasses.fields(ApiSettings)}
    assert defaults["timeout"] == DEFAULT_TIMEOUT
    assert defaults["max_wait"] == DEFAULT_MAX_WAIT


def test_input_parsing_re_exports_the_wire_s_defaults() -> None:
    from frame_spine import inputs
    from frame_spine.github import defaults

    assert (inputs.DEFAULT_TIMEOUT, inputs.DEFAULT_MAX_WAIT) == (
        defaults.DEFAULT_TIMEOUT,
        defaults.DEFAULT_MAX_WAIT,
    )
