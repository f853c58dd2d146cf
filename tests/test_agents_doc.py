"""docs/agents.md, run: every shell snippet that calls ``frame-spine`` runs against the loopback
fake of the GitHub API and must print exactly the output block shown after it; every command
template in the agents' instruction blocks (CLAUDE.md, the slash command, Copilot's
instructions, the VS Code task) runs with the doc's example values and must answer ``ok``; the
Copilot setup steps pass the workflow linters.

The doc's conventions (stated on the page): a ```` ```sh ```` block calling ``frame-spine`` is
followed by its exact stdout (```` ```json ````: compared key by key and in order, a string shown
ending in ``...`` is a prefix; ```` ```text ````: byte for byte) or, after the marker
``<!-- agents-doc-test: stderr -->``, its exact stderr (request times aside). The marker
``<!-- agents-doc-test: no-token -->`` before a snippet runs it with no token and no ``gh``.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from frame_spine import __version__
from tests.conftest import CLI, REPO, clean_env, run_cli
from tests.fake_github import TOKEN, FakeGitHub
from tests.stand_ins import git_checkout

DOC = REPO / "docs" / "agents.md"
EXAMPLES = REPO / "examples"
BIN = CLI.parent
#: The doc's example dispatch: repository, comment ids, issue, step, generated_at.
DOC_REPO = "octo-org/plans"
PLAN_ID = 5013464861
SIBLING_ID = 5013460780  # the spine's slice_comment_id (examples/plan-878.md)
EXAMPLE_VALUES = {
    "--repo": DOC_REPO,
    "--plan-comment-id": str(PLAN_ID),
    "--issue-number": "878",
    "--step-id": "s1",
    "--generated-at": "2026-07-18T22:20:00Z",
}
#: The placeholders the instruction blocks may use for each flag's value.
PLACEHOLDERS = {
    "--repo": {"OWNER/NAME", "$1", "${input:repo}"},
    "--plan-comment-id": {"PLAN_ID", "$2", "${input:planCommentId}"},
    "--issue-number": {"N", "$3", "${input:issueNumber}"},
    "--step-id": {"sN", "$4", "${input:stepId}"},
    "--generated-at": {"GENERATED_AT", "$5", "${input:generatedAt}"},
}
#: Flags of the ``gh`` program the doc names (``gh api --jq``, ``gh auth token --hostname``,
#: ``gh release download --pattern``).
GH_FLAGS = {"--jq", "--hostname", "--pattern"}
#: The version ``frame-spine --version`` shows in the doc (the installed one is compared).
DOC_VERSION = "0.1.0"
ENTERPRISE_URL = "https://ghe.example.com/api/v3"
#: The API URL ``make fake-api`` prints by default (the doc's first online steps export it).
FAKE_API_URL = "http://127.0.0.1:8878"
FAKE_API = REPO / "e2e" / "fake_api.py"
_FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
_MARKER = re.compile(r"<!-- agents-doc-test: (?P<mark>[a-z-]+) -->\s*$")
_MILLISECONDS = re.compile(r" in [0-9]+ ms ")


@dataclass(frozen=True)
class Block:
    """One fenced block of the doc: its language, text, the marker just before it, and
    whether only blank lines (or a marker) separate it from the block before."""

    info: str
    body: str
    marker: str | None
    follows_directly: bool
    line: int


def doc_blocks() -> list[Block]:
    text = DOC.read_text("utf-8")
    blocks: list[Block] = []
    end = 0
    for match in _FENCE.finditer(text):
        between = text[end : match.start()]
        marker = _MARKER.search(between)
        bare = _MARKER.sub("", between).strip() == ""
        blocks.append(
            Block(
                match.group("info").strip(),
                match.group("body"),
                marker.group("mark") if marker else None,
                bare and bool(blocks),
                text.count("\n", 0, match.start()) + 1,
            )
        )
        end = match.end()
    return blocks


@dataclass(frozen=True)
class Snippet:
    """A ```sh block calling frame-spine, and the block showing what it prints."""

    block: Block
    expected: Block

    @property
    def id(self) -> str:
        return f"line-{self.block.line}"


def snippets() -> list[Snippet]:
    blocks = doc_blocks()
    found = []
    for index, block in enumerate(blocks):
        if block.info == "sh" and "frame-spine" in block.body:
            after = blocks[index + 1] if index + 1 < len(blocks) else None
            assert after is not None and after.follows_directly, (
                f"the snippet at line {block.line} has no output block right after it"
            )
            found.append(Snippet(block, after))
    return found


SNIPPETS = snippets()


#: The doc's comment by someone the repository does not trust (SPEC 6.1): plan-like, with a
#: slice of its own.
DRIVE_BY_ID = 5013469999


def fake_api_module() -> Any:
    """e2e/fake_api.py, the program ``make fake-api`` runs, as a module."""
    spec = importlib.util.spec_from_file_location("fake_api", FAKE_API)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fake_api"] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def serve_example_plan(fake: FakeGitHub) -> None:
    """What ``make fake-api`` serves (e2e/fake_api.py): the example plan and sibling (by the
    repository's owner), a drive-by's copy of the plan (the fake answers ``read`` for that
    account's permission, as GitHub does on a public repository), and the other bundled
    plans."""
    module = fake_api_module()
    assert (module.PLAN_ID, module.SIBLING_ID, module.DRIVE_BY_878_ID) == (
        PLAN_ID,
        SIBLING_ID,
        DRIVE_BY_ID,
    )
    module.serve(fake)
    assert fake.url.startswith("http://127.0.0.1:")


def snippet_env(fake: FakeGitHub, *, token: bool) -> dict[str, str]:
    """The shell of an agent: the installed command first on PATH, no ``gh``; with ``token``,
    GH_TOKEN set and the API URL pointed at the fake (as GITHUB_API_URL)."""
    env = clean_env(PATH=f"{BIN}:/usr/bin:/bin")
    assert shutil.which("gh", path=env["PATH"]) is None
    if token:
        env.update(GH_TOKEN=TOKEN, GITHUB_API_URL=fake.url)
    return env


def matches(shown: Any, actual: Any) -> bool:
    """A value as the doc shows it vs as printed: objects key by key and in order; a string
    shown ending in ``...`` is a prefix of the printed one."""
    if isinstance(shown, dict):
        return (
            isinstance(actual, dict)
            and list(shown) == list(actual)
            and all(matches(shown[key], actual[key]) for key in shown)
        )
    if isinstance(shown, str) and shown.endswith("...") and isinstance(actual, str):
        return actual.startswith(shown[:-3]) and len(actual) > len(shown) - 3
    return type(shown) is type(actual) and shown == actual


def test_the_doc_runs_every_kind_of_snippet() -> None:
    """The doc keeps its snippets (a doc whose snippets vanished would pass every check)."""
    kinds = [(snippet.block.marker, snippet.expected.info) for snippet in SNIPPETS]
    assert len(SNIPPETS) == 15
    assert kinds.count(("no-token", "json")) == 1
    assert sum(1 for _, info in kinds if info == "json") == 7
    assert sum(1 for s in SNIPPETS if s.expected.marker == "stderr") == 1


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[snippet.id for snippet in SNIPPETS])
def test_doc_snippet_prints_what_the_doc_shows(
    snippet: Snippet, fake_github: FakeGitHub, tmp_path: Path
) -> None:
    serve_example_plan(fake_github)
    checkout = git_checkout(tmp_path / "checkout", f"git@127.0.0.1:{DOC_REPO}.git")
    shutil.copytree(EXAMPLES, checkout / "examples")  # the doc's first steps: in a checkout
    script = snippet.block.body.replace(ENTERPRISE_URL, fake_github.url)
    script = script.replace(FAKE_API_URL, fake_github.url)
    env = snippet_env(fake_github, token=snippet.block.marker != "no-token")
    ran = subprocess.run(
        ["sh", "-c", script], env=env, cwd=checkout, capture_output=True, timeout=60, check=False
    )
    stdout, stderr = ran.stdout.decode("utf-8"), ran.stderr.decode("utf-8")
    expected = snippet.expected
    if expected.marker == "stderr":
        assert _MILLISECONDS.sub(" in N ms ", stderr) == _MILLISECONDS.sub(
            " in N ms ", expected.body
        )
        assert json.loads((checkout / "result.json").read_text("utf-8"))["status"] == "ok"
        assert ran.returncode == 0
    elif expected.info == "json":
        shown, printed = json.loads(expected.body), json.loads(stdout)
        assert matches(shown, printed), f"printed {stdout!r}"
        assert stdout.count("\n") == 1 and stdout.endswith("\n")
        assert ran.returncode == (0 if shown["status"] in ("ok", "stale-spine") else 1), stderr
    else:
        assert expected.info == "text"
        shown = expected.body.replace(DOC_VERSION, __version__)  # the doc's version: an example
        assert (stdout, ran.returncode) == (shown, 0), stderr
    if snippet.block.marker == "no-token":
        assert fake_github.requests == []


def test_doc_json_output_is_one_line_per_example() -> None:
    """The JSON shown after snippets is one line, as printed (a pretty-printed example would
    teach agents to expect several lines)."""
    for snippet in SNIPPETS:
        if snippet.expected.info == "json":
            assert snippet.expected.body.count("\n") == 1, snippet.id


def lookup_flags() -> set[str]:
    """Every flag ``frame-spine lookup -h`` and ``frame-spine -h`` list."""
    helps = run_cli(["lookup", "-h"]).stdout + run_cli(["-h"]).stdout
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", helps.decode("utf-8")))


def test_every_flag_the_doc_names_exists() -> None:
    """Every ``--flag`` in a block that mentions frame-spine, and in the doc's prose, is one the
    command has."""
    flags = lookup_flags()
    assert {"--slices-comment-id", "--verbose", "--api-url", "--version"} <= flags
    text = DOC.read_text("utf-8")
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))
    assert named - flags == GH_FLAGS


def instruction_commands() -> list[tuple[int, list[str]]]:
    """The lookup command lines of the instruction blocks (markdown: an indented command, with
    ``\\`` continuations; JSON: a VS Code task's ``command`` and ``args``), as argv."""
    commands = []
    for block in doc_blocks():
        if block.info == "markdown" and "frame-spine lookup" in block.body:
            joined = block.body.replace("\\\n", " ")
            lines = [line.strip() for line in joined.splitlines()]
            commands += [
                (block.line, shlex.split(line))
                for line in lines
                if line.startswith("frame-spine lookup ")
            ]
        elif block.info == "json" and '"tasks"' in block.body:
            for task in json.loads(block.body)["tasks"]:
                commands.append((block.line, [task["command"], *task["args"]]))
    return commands


def test_the_doc_has_four_instruction_templates() -> None:
    assert [len(argv) > 2 for _, argv in instruction_commands()] == [True] * 4


@pytest.mark.parametrize("line,argv", instruction_commands())
def test_instruction_template_looks_up_the_step(
    line: int, argv: list[str], fake_github: FakeGitHub
) -> None:
    """Each agent instruction's command, with the doc's example values for its placeholders,
    fetches the step: ``ok`` as one JSON line, exit 0."""
    serve_example_plan(fake_github)
    assert argv[:2] == ["frame-spine", "lookup"]
    filled = list(argv[2:])
    for index, token in enumerate(filled[:-1]):
        if token in PLACEHOLDERS:
            assert filled[index + 1] in PLACEHOLDERS[token], f"line {line}: {filled[index + 1]}"
            filled[index + 1] = EXAMPLE_VALUES[token]
    assert {"--slices-comment-id", "--format"} <= set(filled)
    ran = run_cli(["lookup", *filled], env=snippet_env(fake_github, token=True))
    result = json.loads(ran.stdout)
    assert (result["status"], result["step_id"], ran.returncode) == ("ok", "s1", 0)


def test_settings_json_allows_the_lookup() -> None:
    """The Claude Code permission rule is valid JSON and names the command's prefix."""
    settings = [
        json.loads(block.body)
        for block in doc_blocks()
        if block.info == "json" and '"permissions"' in block.body
    ]
    assert settings == [{"permissions": {"allow": ["Bash(frame-spine lookup:*)"]}}]


def test_copilot_setup_steps_pass_the_workflow_linters(tmp_path: Path) -> None:
    """The setup steps file is a workflow: it passes check-jsonschema and actionlint as the
    repository's own workflows do (make lint), with the job name Copilot requires."""
    yaml_blocks = [block.body for block in doc_blocks() if block.info == "yaml"]
    assert len(yaml_blocks) == 1 and "  copilot-setup-steps:\n" in yaml_blocks[0]
    workflow = tmp_path / ".github" / "workflows" / "copilot-setup-steps.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(yaml_blocks[0], "utf-8")
    schema = subprocess.run(
        [BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", workflow],
        capture_output=True,
        check=False,
    )
    assert schema.returncode == 0, schema.stdout
    lint = subprocess.run(
        [BIN / "actionlint", "-shellcheck", BIN / "shellcheck", workflow],
        capture_output=True,
        cwd=tmp_path,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout


def first_section() -> list[Block]:
    """The blocks of the doc's first section ("Try it first")."""
    text = DOC.read_text("utf-8")
    start = text.index("\n## Try it first")
    end = text.index("\n## ", start + 1)
    first, last = text.count("\n", 0, start) + 1, text.count("\n", 0, end) + 1
    return [block for block in doc_blocks() if first <= block.line <= last]


def test_the_first_section_is_offline_then_make_fake_api_then_online() -> None:
    blocks = first_section()
    assert [block.info for block in blocks] == ["text", "sh", "json", "text", "text", "sh", "text"]
    assert blocks[0].body == 'make demo\nexport PATH="$PWD/.venv/bin:$PATH"\n'
    assert "--plan-body examples/plan-valid.md" in blocks[1].body
    assert blocks[3].body == "make fake-api\n"
    table, exports = blocks[4].body.split("\n\n")  # what it serves, then the lines to paste
    assert table + "\n" == fake_api_module().table()
    assert exports == f"export GITHUB_API_URL={FAKE_API_URL}\nexport GH_TOKEN={TOKEN}\n"
    assert blocks[5].body.startswith(exports)  # the online step pastes exactly those lines
    assert [s.block.line for s in SNIPPETS[:2]] == [blocks[1].line, blocks[5].line]


def test_make_fake_api_runs_the_fake_that_prints_what_the_doc_shows() -> None:
    """``make fake-api`` runs e2e/fake_api.py with FAKE_API_PORT (default 8878); that program,
    started with port 0, prints the doc's table of what it serves and two export lines (its
    own port in the URL), and then answers the doc's first online lookup."""
    makefile = (REPO / "Makefile").read_text("utf-8")
    assert "FAKE_API_PORT ?= 8878\n" in makefile
    assert "\t@$(BIN)/python e2e/fake_api.py --port $(FAKE_API_PORT)\n" in makefile
    process = subprocess.Popen(
        [sys.executable, str(FAKE_API), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env(),
    )
    try:
        assert process.stdout is not None
        printed = []
        while not printed or printed[-1].startswith(("repository ", "octo-org/")):
            printed.append(process.stdout.readline().decode("utf-8"))
        url_line = process.stdout.readline().decode("utf-8")
        token_line = process.stdout.readline().decode("utf-8")
        port = re.fullmatch(r"export GITHUB_API_URL=http://127\.0\.0\.1:([0-9]+)\n", url_line)
        assert port is not None, url_line
        url = f"http://127.0.0.1:{port.group(1)}"
        shown = first_section()[4].body.replace(FAKE_API_URL, url)
        assert "".join(printed) + url_line + token_line == shown
        assert len(printed) == 14  # the heading, 12 comments, a blank line
        online = first_section()[5].body.replace(FAKE_API_URL, url)
        ran = subprocess.run(
            ["sh", "-c", online],
            env=clean_env(PATH=f"{BIN}:/usr/bin:/bin"),
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert (ran.stdout, ran.returncode) == (first_section()[6].body.encode(), 0), ran.stderr
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0


def agent_blocks() -> list[str]:
    """The instruction blocks users paste into CLAUDE.md and copilot-instructions.md."""
    return [
        block.body
        for block in doc_blocks()
        if block.info == "markdown" and block.body.startswith("## Plan steps (frame-spine)")
    ]


@pytest.mark.parametrize("index", [0, 1], ids=["claude-code", "copilot"])
def test_each_agent_block_decides_every_outcome_in_at_most_30_lines(index: int) -> None:
    from frame_spine.core.status import Status

    block = agent_blocks()[index]
    assert len(agent_blocks()) == 2
    assert len(block.splitlines()) <= 30
    named = set(re.findall(r"`([a-z-]+)`", block))
    assert {status.value for status in Status} - named == set()
    for words in (
        "exit 2",
        "exit 127",
        "frame-spine-result: <the JSON line>",
        "frame-spine-result: none (exit N: <last stderr",
        "Never pass `--generated-at current` or `--trusted-authors`",
        "never retry with other flags",
        "make no changes",
        "if a person is in this session",
    ):
        assert words in " ".join(block.split()), words
