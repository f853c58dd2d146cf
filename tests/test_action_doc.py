"""docs/action.md's tables of inputs and outputs list exactly what action.yml declares, one row
each, in action.yml's order of modes aside: the same names, each once, and each input's
documented default is action.yml's where action.yml gives one."""

from __future__ import annotations

import re

from tests.conftest import REPO
from tests.runner_env import action_metadata
from tests.test_vocabulary import table_after

DOC = (REPO / "docs" / "action.md").read_text("utf-8")
ACTION = action_metadata()
_TICKED = re.compile(r"`([^`]+)`")


def names(header: str) -> list[str]:
    return [_TICKED.fullmatch(row[0]).group(1) for row in table_after(DOC, header)]  # type: ignore[union-attr]


def test_the_inputs_table_lists_every_input_once() -> None:
    listed = names("| input | modes | default | meaning |")
    assert sorted(listed) == sorted(ACTION["inputs"])
    assert len(listed) == len(set(listed)) == 21


def test_the_outputs_table_lists_every_output_once() -> None:
    listed = names("| output | modes | value |")
    assert sorted(listed) == sorted(ACTION["outputs"])
    assert len(listed) == len(set(listed)) == 27


def test_documented_defaults_are_action_ymls() -> None:
    rows = {row[0].strip("`"): row[2] for row in table_after(DOC, "| input | modes | default |")}
    for name, spec in ACTION["inputs"].items():
        default = str(spec.get("default", ""))
        if default and not default.startswith("${{"):
            assert rows[name] == f"`{default}`", name
