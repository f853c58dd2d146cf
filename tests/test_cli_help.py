"""Help that teaches (issue 22): examples closing every help, ``help [COMMAND]``, every default
shown, no section numbers of the specification, and a mistyped flag answered with its
command's usage and the flag it is close to. In process (``frame_spine.cli.main``)."""

from __future__ import annotations

import argparse
import re
import shlex
from typing import Any

import pytest

from frame_spine import cli as cli_module
from frame_spine import help_text

COMMANDS = ["lookup", "digest", "validate", "render", "audit", "help"]


def help_of(cli: Any, command: str | None) -> str:
    ran = cli([command, "--help"] if command else ["--help"])
    assert (ran.code, ran.stderr) == (0, b"")
    text: str = ran.stdout.decode()
    return text


def usage_of(cli: Any, command: str) -> str:
    """The usage block that opens ``command``'s help (what a usage error repeats)."""
    return help_of(cli, command).split("\n\n", 1)[0] + "\n"


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_help_ends_with_its_examples(cli: Any, command: str | None) -> None:
    text = help_of(cli, command)
    examples = help_text.TOP_EPILOG if command is None else help_text.EXAMPLES[command]
    assert text.endswith("\n\n" + examples + "\n")
    assert examples.startswith("examples:\n  ")
    # two or three examples (help has two one-liners)
    assert examples.count("\n  $ ") in ((2,) if command == "help" else (2, 3))
    assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_no_help_names_a_section_of_the_specification(cli: Any, command: str | None) -> None:
    assert "SPEC" not in help_of(cli, command)


def test_no_text_the_command_line_prints_names_the_specification() -> None:
    texts = [help_text.TOP_EPILOG, help_text.FORMAT_TEXT_JSON, help_text.FORMAT_MARKDOWN_JSON]
    texts += help_text.EXAMPLES.values()
    parser, parsers = cli_module.build()
    for own in [parser, *parsers.values()]:
        texts += [own.description or "", own.format_help()]
    assert [text for text in texts if "SPEC" in text] == []


@pytest.mark.parametrize("command", COMMANDS)
def test_help_command_is_the_command_help(cli: Any, command: str) -> None:
    assert cli(["help", command]).stdout == help_of(cli, command).encode()
    assert cli(["help", command]).code == 0


def test_help_alone_is_the_top_level_help(cli: Any) -> None:
    ran = cli(["help"])
    assert (ran.code, ran.stderr, ran.stdout) == (0, b"", help_of(cli, None).encode())
    assert "    help      show the help of frame-spine or of one command\n" in ran.stdout.decode()


def test_every_default_is_shown() -> None:
    _parser, parsers = cli_module.build()
    formatter = cli_module._HelpFormatter("frame-spine")
    missing = []
    for name, own in parsers.items():
        for action in own._actions:
            if action.option_strings and action.default not in (None, False, argparse.SUPPRESS):
                shown = formatter._get_help_string(action) % {"default": action.default}
                if f"default: {action.default}" not in shown:
                    missing.append((name, action.option_strings[0]))
    assert missing == []


def test_the_defaults_read_as_written(cli: Any) -> None:
    audit = help_of(cli, "audit")
    assert "  --timeout SECONDS     seconds per request, 1 to 600 (default: 10)\n" in audit
    assert "  --max-wait SECONDS    seconds of rate-limit waiting in all, 0 to 3600\n" in audit
    assert "   (then no issue is listed; default: open)\n" in audit
    lookup = help_of(cli, "lookup")
    assert "  --timeout SECONDS     seconds per request, 1 to 600 (online; default: 10)\n" in lookup
    assert "which branch on its status field (default: text) " in " ".join(lookup.split())
    assert "object on one line (default: markdown)\n" in help_of(cli, "render")


def test_format_is_described(cli: Any) -> None:
    text = " ".join(help_of(cli, "validate").split())
    assert (
        "--format {text,json} text: readable lines for a person; json: one JSON object on one "
        "line, for scripts and agents, which branch on its status field (default: text)"
    ) in text


# --- the examples are real -------------------------------------------------------------------


def example_commands(text: str) -> list[list[str]]:
    """Each ``$ ...`` example, its continuation lines joined, as its words (a pipe's last part:
    what frame-spine receives)."""
    joined = re.sub(r"\\\n\s*|\|\n\s*", lambda m: "| " if m.group(0)[0] == "|" else "", text)
    found = []
    for line in joined.splitlines():
        if line.startswith("  $ "):
            words = shlex.split(line[4:].split("|")[-1].split(">")[0])
            assert words[0] == "frame-spine", line
            found.append(words[1:])
    return found


ALL_EXAMPLES = [
    words
    for text in [help_text.TOP_EPILOG, *help_text.EXAMPLES.values()]
    for words in example_commands(text)
]
#: What the examples on the bundled files answer (run from the repository's folder).
OFFLINE = {
    "lookup": (0, b"status: ok\nstep_id: s1\nslice: |\n"),
    "validate": (1, b""),
    "render": (0, b"### "),
    "digest": (0, b"sha256:0808af7262f19e81d3be92c674f68bb36ac77aabbff8fc3adb8a3d403fbd1a8a\n"),
    "help": (0, b"usage: frame-spine"),
}


def test_there_are_examples_of_every_command() -> None:
    assert sorted({words[0] for words in ALL_EXAMPLES}) == sorted(COMMANDS)
    assert len(ALL_EXAMPLES) == 19


@pytest.mark.parametrize("words", ALL_EXAMPLES, ids=[" ".join(w)[:60] for w in ALL_EXAMPLES])
def test_every_example_parses(words: list[str]) -> None:
    parser, parsers = cli_module.build()
    cli_module._check_flags(parser, parsers, words)
    args = parser.parse_args(words)
    assert args.subparser is parsers[words[0]]


@pytest.mark.parametrize(
    "words",
    [w for w in ALL_EXAMPLES if any(word.startswith("examples/") for word in w)],
    ids=lambda w: " ".join(w)[:60],
)
def test_the_examples_on_the_bundled_files_run(cli: Any, words: list[str]) -> None:
    ran = cli(words)
    code, start = OFFLINE[words[0]]
    assert (ran.code, ran.stderr) == (code, b"")
    if "--format" in words:
        assert ran.stdout.startswith(b'{"status":"ok"')
    else:
        assert ran.stdout.startswith(start)
    if words[0] == "validate":
        assert ran.stdout.endswith(b"\ninvalid: 8 errors, 1 warning, 0 notices\n")


# --- a mistyped flag: the command's usage, the flag, what it is close to ---------------------


@pytest.mark.parametrize(
    ("args", "command", "complaint"),
    [
        (
            ["lookup", "--plan-bdy", "x"],
            "lookup",
            "unknown flag --plan-bdy (did you mean --plan-body?)",
        ),
        (
            ["lookup", "--plan-bdy=x"],
            "lookup",
            "unknown flag --plan-bdy (did you mean --plan-body?)",
        ),
        (
            ["lookup", "--plan", "x"],
            "lookup",
            "unknown flag --plan (did you mean one of --plan-body, --plan-comment-id?)",
        ),
        (
            ["validate", "--slice-body", "x"],
            "validate",
            "unknown flag --slice-body (did you mean --slices-body?)",
        ),
        (["audit", "--timout", "5"], "audit", "unknown flag --timout (did you mean --timeout?)"),
        (
            ["render", "--port-dir", "d"],
            "render",
            "unknown flag --port-dir (did you mean --ports-dir?)",
        ),
        (["digest", "--bogus"], "digest", "unknown flag --bogus"),
        (["audit", "-x"], "audit", "unknown flag -x"),
        (
            ["lookup", "--step-id", "s1", "--generated-at", "current", "extra"],
            "lookup",
            "unrecognized arguments: extra",
        ),
        (["help", "lokup"], "help", "unknown command 'lokup' (did you mean lookup?)"),
    ],
)
def test_a_mistyped_flag_shows_its_command_usage(
    cli: Any, args: list[str], command: str, complaint: str
) -> None:
    ran = cli(args)
    assert (ran.code, ran.stdout) == (2, b"")
    expected = usage_of(cli, command) + f"frame-spine {command}: error: {complaint}\n"
    assert ran.stderr.decode() == expected


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["lokup"], "unknown command 'lokup' (did you mean lookup?)"),
        (["--verison"], "unknown flag --verison (did you mean --version?)"),
    ],
)
def test_a_mistyped_command_shows_the_top_usage(cli: Any, args: list[str], complaint: str) -> None:
    ran = cli(args)
    assert (ran.code, ran.stdout) == (2, b"")
    assert ran.stderr.decode() == (
        f"usage: frame-spine [-h] [--version] COMMAND ...\nframe-spine: error: {complaint}\n"
    )


def test_values_that_look_like_flags_are_values(cli: Any) -> None:
    # A negative number is a value (a status, not a usage error); so is "-" (stdin).
    ran = cli(["audit", "--repo", "o/r", "--max-wait", "-5", "--format", "json"])
    assert ran.code == 1
    assert b"max-wait '-5' is not a whole number of seconds in 0..3600" in ran.stdout
