"""The ``frame-spine`` command line (SPEC 9): argparse and a table of commands.

An edge, glue only. Each mode's ``command`` module (listed by
:func:`frame_spine.modes.commands`) adds its flags and runs; this module builds the parser,
maps usage errors to exit code 2, and turns any defect into an ``error`` status instead of a
traceback. Exit codes: 0 for ``ok``/``stale-spine`` (and ``valid``, ``clean``), 1 for every
other status, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from . import __version__, console, help_text, interrupts
from .core.shown import naming, quoted, redacting
from .declared import cli_names
from .github.urls import without_credentials
from .modes import commands

EXIT_USAGE = 2
#: A token argparse reads as a value, not as a flag (a negative number).
_NEGATIVE_NUMBER = re.compile(r"-[0-9]+|-[0-9]*\.[0-9]+")


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Examples as written (a text with line breaks is kept as is; one without is wrapped);
    every flag's default shown, as ``(default: X)``, unless its help already says it."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return super()._fill_text(text, width, indent)
        return argparse.HelpFormatter._fill_text(self, text, width, indent)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        shown = action.default not in (None, False, argparse.SUPPRESS)
        if action.option_strings and shown and "default" not in text:
            if text.endswith(")"):
                return text[:-1] + "; default: %(default)s)"
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors on exit code 2 (as argparse), no abbreviations and the
    help of :class:`_HelpFormatter`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(formatter_class=_HelpFormatter, allow_abbrev=False, **kwargs)

    def error(self, message: str) -> NoReturn:
        # The message may quote arguments: keep it on one line and free of "##[", so the
        # runner cannot read it as a workflow command; and never the token, nor the user
        # name and password of a URL (a mistyped --api-url flag is quoted with its value).
        message = message.replace("\r", "\\r").replace("\n", "\\n").replace("##[", "#\\#[")
        message = console.redactor()(without_credentials(message))
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _named_command(argv: Sequence[str] | None) -> str | None:
    """The command whose flags ``argv`` needs: its first word that is not a flag, or the
    topic of ``help TOPIC``; ``None`` (every command's flags) for ``help`` alone or none."""
    words = [word for word in argv or () if not word.startswith("-")]
    if words[:1] == ["help"]:
        return words[1] if len(words) > 1 else None
    return words[0] if words else None


def build(
    argv: Sequence[str] | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser of SPEC 9 and each command's own parser, by command name: given ``argv``
    naming a command, only that command's flags are added (every command is listed)."""
    named = _named_command(argv)
    parser = _Parser(
        prog="frame-spine",
        description="Look up one slice of a frame-spine plan kept in GitHub issue comments.",
        epilog=help_text.TOP_EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    found: dict[str, argparse.ArgumentParser] = {}
    listed = commands()
    every = named not in {command.name for command in listed}
    for command in listed:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            epilog=help_text.EXAMPLES.get(command.name),
        )
        if every or command.name == named:
            command.add_arguments(sub)
        sub.set_defaults(run=command.run, subparser=sub)
        found[command.name] = sub
    helper = subparsers.add_parser(
        "help",
        help="show the help of frame-spine or of one command",
        description="Show the help of frame-spine, or of COMMAND (as 'frame-spine COMMAND "
        "--help').",
        epilog=help_text.EXAMPLES["help"],
    )
    helper.add_argument("topic", metavar="COMMAND", nargs="?", help="a command, e.g. lookup")
    found["help"] = helper

    def show_help(args: argparse.Namespace, own: argparse.ArgumentParser) -> int:
        if args.topic is None:
            parser.print_help()
        elif args.topic in found:
            found[args.topic].print_help()
        else:
            own.error(f"unknown command {quoted(args.topic)}{_did_you_mean(args.topic, found)}")
        return 0

    helper.set_defaults(run=show_help, subparser=helper)
    return parser, found


def _option_actions(parser: argparse.ArgumentParser) -> Mapping[str, argparse.Action]:
    """Every flag ``parser`` knows (``--plan-body``, ``-h``) and its action. argparse has no
    public list of them: this reads its ``_option_string_actions`` mapping, here only;
    without it (a changed argparse) no flag is known, and argparse alone reports flags."""
    known = getattr(parser, "_option_string_actions", None)
    return known if isinstance(known, Mapping) else {}


def _did_you_mean(word: str, choices: Sequence[str] | Mapping[str, object]) -> str:
    """``" (did you mean X?)"`` for the choice ``word`` is a prefix of (each of them when
    several), else the closest choice a few edits away (difflib); ``""`` when none is close."""
    names = list(choices)
    close = [name for name in names if name.startswith(word)]
    if len(close) > 1:
        return f" (did you mean one of {', '.join(close)}?)"
    if not close:
        import difflib  # only for a mistyped word: a command that runs never loads it

        close = difflib.get_close_matches(word, names, 1, 0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def _check_flags(
    parser: argparse.ArgumentParser,
    parsers: Mapping[str, argparse.ArgumentParser],
    argv: Sequence[str],
) -> None:
    """Before argparse parses: a flag no parser knows is a usage error of the parser it was
    given to (the command's, so its usage is shown, not the top level's), naming the flag
    and the flag it is one edit from; likewise a mistyped command close to a real one."""
    current = parser
    for index, token in enumerate(argv):
        if token == "--":
            return
        if current is parser and not token.startswith("-"):
            if token in parsers:
                current = parsers[token]
                continue
            suggestion = _did_you_mean(token, parsers)
            if suggestion:
                parser.error(f"unknown command {quoted(token)}{suggestion}")
            return
        if not token.startswith("-") or token == "-" or _NEGATIVE_NUMBER.fullmatch(token):
            continue
        flag = token.split("=", 1)[0] if token.startswith("--") else token
        known = _option_actions(current)
        if known and flag not in known and not _is_value(known, argv, index):
            current.error(f"unknown flag {flag}{_did_you_mean(flag, sorted(known))}")


def _is_value(actions: Mapping[str, argparse.Action], argv: Sequence[str], index: int) -> bool:
    """Whether ``argv[index]`` is the value of the flag before it (one that takes a value)."""
    action = actions.get(argv[index - 1]) if index > 0 else None
    return action is not None and action.nargs is None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    redaction = redacting(lambda text: console.redactor()(text))
    with interrupts.handled(), naming(cli_names()), redaction:
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    parser, parsers = build(given)
    _check_flags(parser, parsers, given)
    args, extras = parser.parse_known_args(given)
    if extras:  # the command's usage, not the top level's
        own: argparse.ArgumentParser = getattr(args, "subparser", parser)
        own.error(f"unrecognized arguments: {' '.join(extras)}")
    try:
        code: int = args.run(args, args.subparser)
        return code
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback (SPEC 9): report an error status
        return _internal_error(args, exc)


def _internal_error(args: argparse.Namespace, exc: Exception) -> int:
    """A defect as an ``error`` status (exit 1): only the exception's class is named (its
    text could quote anything: a token, a body); ``--verbose`` adds the traceback on stderr,
    redacted."""
    from .core.status import error

    if getattr(args, "verbose", False):
        import traceback

        console.stderr("".join(traceback.format_exception(exc)))
    failure = error(f"internal error ({exc.__class__.__name__}): please report it")
    console.print_failure(getattr(args, "format", "text"), failure)
    return 1


if __name__ == "__main__":
    sys.exit(main())
