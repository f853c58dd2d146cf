"""Render mode's Markdown and JSON (SPEC 13): the ports table, the Mermaid step graph (its
escaping and its limits), the findings, and the JSON's keys and value types."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from frame_spine.core.status import Status
from frame_spine.markdown import CommentLink, mermaid_text
from frame_spine.modes.render.models import PortRow, RenderResult, StepNode
from frame_spine.modes.render.render import (
    MAX_GRAPH_CHARACTERS,
    MAX_GRAPH_STEPS,
    graph_section,
    mermaid_graph,
    render_dict,
    render_json,
    render_markdown,
)
from tests.modes.render.test_rules import PLAN_TEXT, SIBLING_TEXT, render

#: A node line as render mode writes it: an id, then a quoted label in a box or a stadium.
NODE_LINE = re.compile(r'  (s[0-9]+|n[0-9]+)(\["[^"\n`\[\]]*"\]|\(\["[^"\n`\[\]]*"\]\))')
ENTITY = re.compile(r"#([0-9]+);")


def example() -> RenderResult:
    return render(PLAN_TEXT, SIBLING_TEXT, issue=878)


def test_the_878_summary_heading_facts_and_ports_table() -> None:
    text = render_markdown(example())
    head, rest = text.split("#### Ports", 1)
    assert head == (
        "### ✅ frame-spine render: `ok` (exit code 0): issue #878, spine generated_at "
        "2026-07-18T22:20:00Z\n\n"
        "| Spine digest | "
        "`sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a` |\n"
        "|:--|:--|\n"
        "| Spine | 9 steps (8 without a slice block), 5 ports, 9 port tokens |\n\n"
    )
    table = rest.split("\n\n", 2)[1]
    assert table.splitlines() == [
        "| Port | Step | Cycle | Terminal | Warning |",
        "|:--|:--|--:|:--|:--|",
        "| implement-docs | s1 | 1 | no |  |",
        "| implement-docs | s3 | 2 | no |  |",
        "| implement-docs | s7 | 3 | yes |  |",
        "| implement-test | s2 | 1 | no |  |",
        "| implement-test | s4 | 2 | yes |  |",
        "| implement-code | s5 | 1 | no |  |",
        "| implement-code | s6 | 2 | yes |  |",
        "| review | s8 | 1 | yes |  |",
        "| ce-gate-cli | s9 | 1 | yes |  |",
    ]


def test_the_878_graph_draws_dependencies_terminals_and_dashes_s2_to_s9() -> None:
    graph = mermaid_graph(example().steps)
    lines = graph.splitlines()
    assert lines[0] == "flowchart TD"
    assert lines[1] == '  s1["<b>s1</b><br>implement-docs"]'
    assert lines[9] == '  s9(["<b>s9</b><br>ce-gate-cli<br>⏹ terminal"])'
    assert [line for line in lines if "-->" in line] == [
        "  s2 --> s3",
        "  s4 --> s5",
        "  s1 --> s6",
        "  s5 --> s7",
        "  s7 --> s8",
        "  s8 --> s9",
    ]
    # The lanes (SPEC 14), dotted: docs s1, s3, s7; test s2, s4; code s5, s6 (no depends_on
    # edge draws any of them).
    assert [line for line in lines if "-.->" in line] == [
        "  s1 -.-> s3",
        "  s2 -.-> s4",
        "  s5 -.-> s6",
        "  s3 -.-> s7",
    ]
    assert lines[-1] == "  class s2,s3,s4,s5,s6,s7,s8,s9 noslice"
    assert lines[-2] == "  classDef noslice stroke-dasharray: 6 4,stroke:#888,fill:#fafafa"


def test_the_878_summary_fences_the_graph_and_lists_the_findings() -> None:
    text = render_markdown(example())
    assert "\n#### Step graph\n\n```mermaid\nflowchart TD\n" in text
    assert "  class s2,s3,s4,s5,s6,s7,s8,s9 noslice\n```\n\n" in text
    assert (
        "noslice\n```\n\n"
        "- solid arrow: from a step to the steps that depend on it (`depends_on`: the context "
        "a step needs)\n"
        "- dotted arrow: from a step to the next step its port lists (the port's lane: the "
        "later step is dispatched after it)\n"
        "- dashed grey outline: no frame-slice block carries the step\n"
        "- ⏹ terminal (rounded): the step that produces its port's terminal credit (a "
        "`#terminal` token or `terminal: true`); steps may still come after it\n"
        "\n#### Findings (validate)"
    ) in text
    assert "\n#### Findings (validate): 8 errors, 1 warning\n" in text
    assert text.count("| ❌ | **unresolved-step**") == 8
    assert text.count("| ⚠️ | **non-canonical-order**") == 1


def test_a_graph_where_every_step_has_a_slice_has_no_dashes() -> None:
    steps = [StepNode(step="s1", ports=("code",), depends_on=(), has_slice=True)]
    assert mermaid_graph(steps) == 'flowchart TD\n  s1["<b>s1</b><br>code"]\n'
    # Nothing to explain: no legend.
    assert graph_section(steps).endswith('s1["<b>s1</b><br>code"]\n```\n')
    two = [*steps, StepNode(step="s2", ports=("code",), depends_on=("s1",), has_slice=True)]
    assert graph_section(two).endswith(
        "```\n\n- solid arrow: from a step to the steps that depend on it (`depends_on`: the "
        "context a step needs)\n"
    )


def test_a_lane_edge_that_depends_on_already_draws_is_not_drawn_twice() -> None:
    steps = [
        StepNode(step="s1", ports=("code",), depends_on=(), has_slice=True),
        StepNode(step="s2", ports=("code",), depends_on=("s1",), has_slice=True, lanes=("s1",)),
        StepNode(step="s3", ports=("code",), depends_on=(), has_slice=True, lanes=("s2", "s9")),
    ]
    assert mermaid_graph(steps).splitlines()[4:] == ["  s1 --> s2", "  s2 -.-> s3"]
    assert "- dotted arrow:" in graph_section(steps)
    assert "- dotted arrow:" not in graph_section(steps[:2])


def test_dependencies_outside_the_spine_and_repeats_draw_no_edge() -> None:
    steps = [
        StepNode(step="s1", ports=(), depends_on=(), has_slice=True),
        StepNode(step="s2", ports=(), depends_on=("s1", "s1", "s9"), has_slice=True),
    ]
    assert [line for line in mermaid_graph(steps).splitlines() if "-->" in line] == ["  s1 --> s2"]


def test_step_ids_outside_the_grammar_get_index_node_ids() -> None:
    steps = [
        StepNode(step="end", ports=(), depends_on=(), has_slice=True),
        StepNode(step='s1"]; click', ports=(), depends_on=("end",), has_slice=True),
    ]
    lines = mermaid_graph(steps).splitlines()
    assert lines[1] == '  n0["<b>end</b>"]'
    assert lines[2] == '  n1["<b>s1#34;#93;#59; click</b>"]'
    assert lines[3] == "  n0 --> n1"


def _escaped_label_round_trips(text: str) -> None:
    escaped = mermaid_text(text)
    for dangerous in ('"', "\n", "\r", "`", "~", "[", "]", "(", ")", ";", "#", "<", ">", "&"):
        assert dangerous not in ENTITY.sub("", escaped)
    assert "-->" not in escaped
    assert ENTITY.sub(lambda match: chr(int(match.group(1))), escaped) == text


@given(st.text())
def test_mermaid_labels_never_carry_markup_and_show_the_original_text(text: str) -> None:
    _escaped_label_round_trips(text)


def test_mermaid_labels_of_the_dangerous_kinds() -> None:
    for text in ('a "quoted" port', "[x]", "(y)", "#1; z", "a --> b", "```", "a;b", "<b>x</b>"):
        _escaped_label_round_trips(text)
    assert mermaid_text('say "hi" --> [s1]; #x `') == (
        "say #34;hi#34; --#62; #91;s1#93;#59; #35;x #96;"
    )


#: Labels built from the pieces that could end a quoted node, an edge or the fence.
PIECES = [*"ab \"'[](){}#;&<>`~|-\n\r\\é", "-->", "```", "%%", "end"]
LABEL = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


@given(st.lists(st.tuples(LABEL, st.lists(LABEL, max_size=3), st.booleans()), max_size=6))
def test_no_label_closes_its_node_or_the_fence(raw: list[tuple[str, list[str], bool]]) -> None:
    steps = [
        StepNode(step=step, ports=tuple(ports), depends_on=(), has_slice=False, terminal=terminal)
        for step, ports, terminal in dict((step, (step, p, t)) for step, p, t in raw).values()
    ]
    graph = mermaid_graph(steps)
    lines = graph.splitlines()
    assert lines[0] == "flowchart TD"
    for line in lines[1 : 1 + len(steps)]:
        assert NODE_LINE.fullmatch(line), line
    assert "```" not in graph
    section = graph_section(steps)
    if steps:
        assert section.count("```") == 2


def _steps(count: int, port: str = "code") -> list[StepNode]:
    return [
        StepNode(
            step=f"s{n}", ports=(port,), depends_on=(f"s{n - 1}",) if n > 1 else (), has_slice=True
        )
        for n in range(1, count + 1)
    ]


def test_a_graph_of_100_steps_is_drawn() -> None:
    section = graph_section(_steps(MAX_GRAPH_STEPS))
    assert "```mermaid\n" in section
    assert section.count("-->") == MAX_GRAPH_STEPS - 1


def test_a_graph_above_100_steps_is_left_out_with_one_line() -> None:
    assert graph_section(_steps(MAX_GRAPH_STEPS + 1)) == (
        "\n#### Step graph\n\nThe graph is left out: 101 steps, more than the 100 it draws; "
        "the table above lists every port.\n"
    )


def test_a_graph_over_mermaids_text_limit_is_left_out_with_one_line() -> None:
    steps = _steps(40, port="p" * 1300)
    size = len(mermaid_graph(steps))
    assert size > MAX_GRAPH_CHARACTERS
    assert graph_section(steps) == (
        f"\n#### Step graph\n\nThe graph is left out: its {size:,} characters are over "
        "Mermaid's 50,000-character limit; the table above lists every port.\n"
    )


def test_a_graph_just_under_the_text_limit_is_drawn() -> None:
    steps = _steps(40, port="p" * 1200)
    assert len(mermaid_graph(steps)) <= MAX_GRAPH_CHARACTERS
    assert "```mermaid\n" in graph_section(steps)


def test_a_large_plan_keeps_its_table_when_the_graph_is_left_out() -> None:
    steps = _steps(150)
    ports = tuple(
        PortRow(port="code", step=node.step, cycle=None, terminal=False) for node in steps
    )
    text = render_markdown(
        RenderResult(status=Status.OK, issue=5, generated_at="t", ports=ports, steps=tuple(steps))
    )
    assert text.count("| code | s") == 150
    assert "The graph is left out: 150 steps" in text
    assert "```mermaid" not in text


def test_a_port_table_too_big_for_the_summary_is_cut_with_a_note() -> None:
    ports = tuple(
        PortRow(port=f"port-{n}", step=f"s{n}", cycle=None, terminal=False) for n in range(500)
    )
    text = render_markdown(RenderResult(status=Status.OK, ports=ports), limit=12_000)
    shown = text.count("| port-")
    assert 0 < shown < 500
    assert len(text.encode("utf-8")) <= 12_000
    assert f"> [!WARNING]\n> {500 - shown} more port rows not shown here; the `result` " in text


def test_table_cells_and_the_message_are_escaped() -> None:
    result = RenderResult(
        status=Status.INVALID_SPINE,
        ports=(PortRow(port="a|b<i>`", step="s1", cycle=None, terminal=False),),
        message="bad line '<script>x</script> | @team https://evil.example'",
    )
    text = render_markdown(result)
    assert "| a&#124;b&lt;i&gt;&#96; | s1 |  | no |  |" in text
    assert (
        "> bad line '&lt;script&gt;x&lt;/script&gt; &#124; @<!-- -->team https<!-- -->://evil.example'"
        in (text)
    )


def test_a_missing_spine_says_why_in_one_line_without_tables() -> None:
    result = RenderResult(
        status=Status.MISSING_SPINE,
        issue=7,
        message="no spine: a brief plan (plan-variant: brief) has none by design",
    )
    assert render_markdown(result) == (
        "### \u2139\ufe0f frame-spine render: `missing-spine` (exit code 0): issue #7\n\n"
        "> no spine: a brief plan \\(plan-variant: brief\\) has none by design\n\n"
    )


def test_an_online_rendering_links_its_comments() -> None:
    result = RenderResult(status=Status.OK, issue=878, plan_comment_id="5013464861")
    text = render_markdown(
        result,
        repository="octo/plans",
        plan=CommentLink(
            5013464861, "https://github.com/octo/plans/issues/878#issuecomment-5013464861"
        ),
        sibling=None,
    )
    assert text.splitlines()[2:6] == [
        "| Repository | octo/plans |",
        "|:--|:--|",
        "| Plan comment | [5013464861](https://github.com/octo/plans/issues/878"
        "#issuecomment-5013464861) |",
        "| Sibling comment | — |",
    ]


def test_json_has_the_keys_and_value_types_of_spec_13() -> None:
    data = json.loads(render_json(example()))
    assert list(data) == [
        "status",
        "issue",
        "plan_comment_id",
        "generated_at",
        "spine_digest",
        "ports",
        "steps",
        "message",
    ]
    assert (type(data["issue"]), data["plan_comment_id"], data["message"]) == (int, None, None)
    assert data["ports"][1] == {
        "port": "implement-docs",
        "step": "s3",
        "cycle": 2,
        "terminal": False,
        "warning": None,
    }
    # The token s9#terminal has no #cycle:K: the cycle is its spine slice's (SPEC 13).
    assert data["ports"][-1] == {
        "port": "ce-gate-cli",
        "step": "s9",
        "cycle": 1,
        "terminal": True,
        "warning": None,
    }
    assert data["steps"][2] == {
        "step": "s3",
        "ports": ["implement-docs"],
        "depends_on": ["s2"],
        "has_slice": False,
    }
    assert type(data["steps"][0]["has_slice"]) is bool


def test_json_of_a_fetched_plan_has_a_string_comment_id_and_warnings() -> None:
    result = RenderResult(
        status=Status.OK,
        issue=878,
        plan_comment_id="5013464861",
        ports=(PortRow(port="x", step="s1", cycle=3, terminal=True, warning="unknown-port"),),
    )
    data = render_dict(result)
    assert data["plan_comment_id"] == "5013464861"
    assert data["ports"] == [
        {"port": "x", "step": "s1", "cycle": 3, "terminal": True, "warning": "unknown-port"}
    ]
    assert "findings" not in data
    assert "ports_checked" not in data


PLANS = Path(__file__).resolve().parent / "plans"


@pytest.mark.parametrize(
    ("sibling", "counts"),
    [
        (SIBLING_TEXT, "9 steps (8 without a slice block), 5 ports, 9 port tokens"),
        (None, "9 steps (none with a slice block), 5 ports, 9 port tokens"),
    ],
)
def test_the_spine_row_counts_steps_slices_ports_and_tokens(
    sibling: str | None, counts: str
) -> None:
    assert f"| Spine | {counts} |\n" in render_markdown(render(PLAN_TEXT, sibling, issue=878))


def test_the_twelve_step_plan_draws_every_step_with_its_slice() -> None:
    plan = (PLANS / "plan-912.md").read_text("utf-8")
    sibling = (PLANS / "sibling-912.md").read_text("utf-8")
    result = render(plan, sibling, issue=912)
    assert result.findings is not None
    assert (result.status, result.findings.errors, result.findings.warnings) == (Status.OK, 0, 0)
    text = render_markdown(result)
    assert "| Spine | 12 steps (each with a slice block), 5 ports, 12 port tokens |\n" in text
    graph = mermaid_graph(result.steps)
    assert [line for line in graph.splitlines() if "-->" in line] == [
        "  s1 --> s2",
        "  s1 --> s3",
        "  s2 --> s5",
        "  s3 --> s5",
        "  s5 --> s6",
        "  s4 --> s7",
        "  s6 --> s7",
        "  s6 --> s8",
        "  s8 --> s9",
        "  s7 --> s10",
        "  s9 --> s11",
        "  s10 --> s11",
        "  s11 --> s12",
    ]
    assert [line for line in graph.splitlines() if "-.->" in line] == [
        "  s2 -.-> s3",
        "  s1 -.-> s5",
        "  s3 -.-> s6",
        "  s5 -.-> s8",
        "  s6 -.-> s9",
    ]
    assert "noslice" not in graph
    assert "#### Findings" not in text
