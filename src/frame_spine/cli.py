"""The ``frame-spine`` command line (SPEC 9): argparse and a table of commands.

An edge, glue only. Each mode's ``command`` module (listed by
:func:`frame_spine.modes.commands`) adds its flags and runs; this module builds the parser,
maps usage errors to exit code 2, and turns any defect into an ``error`` status instead of a
traceback. Exit codes: 0 for ``ok``/``stale-spine`` (and ``valid``, ``clean``), 1 for every
other status, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__, console, interrupts
from .github.urls import without_credentials
from .modes import commands

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors on exit code 2 (as argparse) and no abbreviations."""

    def error(self, message: str) -> NoReturn:
        # The message may quote arguments: keep it on one line and free of "##[", so the
        # runner cannot read it as a workflow command; and never the token, nor the user
        # name and password of a URL (a mistyped --api-url flag is quoted with its value).
        message = message.replace("\r", "\\r").replace("\n", "\\n").replace("##[", "#\\#[")
        message = console.redactor()(without_credentials(message))
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Build the argument parser of SPEC 9: one sub-command per :class:`~.console.Command`
    of every mode, each remembering its runner and its own parser. Given the arguments
    ``argv`` that name a command (its first word not a flag), only that command's flags are
    added (the others are listed, by name and help, as always)."""
    named = next((word for word in argv or () if not word.startswith("-")), None)
    parser = _Parser(
        prog="frame-spine",
        description="Look up one slice of a frame-spine plan kept in GitHub issue comments.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    found = commands()
    if named not in {command.name for command in found}:
        named = None
    for command in found:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            allow_abbrev=False,
        )
        if named is None or command.name == named:
            command.add_arguments(sub)
        sub.set_defaults(run=command.run, subparser=sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it).

    Args:
        argv: the arguments after the program name; ``sys.argv[1:]`` when ``None``.

    Returns:
        0 for ``ok``/``stale-spine`` (and a printed digest, a valid plan, a clean audit),
        1 for every other status, 2 for a usage error (printed by argparse on stderr).
        SIGINT or SIGTERM ends the process at once, exit 130 or 143 (SPEC 6 "Interrupts",
        :mod:`frame_spine.interrupts`).
    """
    with interrupts.handled():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    args = build_parser(words).parse_args(words)
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
    from .modes.lookup.models import LookupResult
    from .modes.lookup.render import result_json, result_text

    if getattr(args, "verbose", False):
        import traceback

        console.stderr("".join(traceback.format_exception(exc)))
    result = LookupResult.of_failure(
        error(f"internal error ({exc.__class__.__name__}): please report it")
    )
    console.print_result(getattr(args, "format", "text"), result, result_json, result_text)
    return 1


if __name__ == "__main__":
    sys.exit(main())
