"""The command line's I/O (SPEC 9), shared by every mode's ``command`` module: reading bodies,
writing results (:func:`emit`), the token, the repository of the checkout, flags."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from . import help_text, interrupts
from .core.shown import name_as, quoted
from .core.status import Failure, error
from .declared import INPUTS
from .workflow_commands import could_be_command, wrap_untrusted

# The GitHub helpers and the inputs' models are loaded by the functions that need them: an
# offline command never builds what only the online forms read.
if TYPE_CHECKING:
    from .github.auth import Redactor, TokenProblem
    from .github.client import CommentFetcher
    from .github.request_log import RequestListener, RequestRecord
    from .inputs import ApiTarget
    from .programs import Unanswered

Result = TypeVar("Result")

#: Tokens ``gh auth token`` printed in this run (redacted like the variables).
_PRINTED_TOKENS: list[str] = []


def redactor() -> Redactor:
    """The one redaction every text the CLI writes passes: the token values of the
    environment, as given, and any token ``gh`` printed (SPEC 6: no output ever contains the
    token)."""
    from .github.auth import TOKEN_VARIABLES, Redactor

    return Redactor(*(os.environ.get(name) for name in TOKEN_VARIABLES), *_PRINTED_TOKENS)


#: What each body flag reads, for the note on a terminal.
_READS = {
    "--plan-body": "the plan comment body",
    "--slices-body": "the sibling comment body",
    "--comment-body-stdin": "the plan and sibling bodies, concatenated",
}
#: Said on stderr when a body is read from a terminal (else the command waits silently).
_STDIN_NOTE = (
    "frame-spine: reading {what} ({flag}) from standard input; end it with Ctrl-D on a line "
    "of its own (Ctrl-Z then Enter on Windows)\n"
)


def read_body(path: str, flag: str) -> str | Failure:
    """Read a comment body from ``path`` (``-`` for stdin) as UTF-8. When stdin is a
    terminal, a note on stderr first says what is read and how to end it.
    """
    try:
        if path == "-":
            if sys.stdin.isatty():
                stderr(_STDIN_NOTE.format(what=_READS.get(flag, "the comment body"), flag=flag))
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        return error(f"cannot read {flag} {quoted(path)}: {reason}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error(
            f"{flag} {quoted(path)} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start})"
        )


def read_plan_and_sibling(
    plan_path: str, slices_path: str | None
) -> tuple[str, str | None] | Failure:
    """Read ``--plan-body`` and, when given, ``--slices-body`` (at most one of them from
    stdin: :func:`check_one_stdin` is the usage error). Returns the two texts, or the first
    failure."""
    plan = read_body(plan_path, "--plan-body")
    if isinstance(plan, Failure):
        return plan
    if slices_path is None:
        return plan, None
    sibling = read_body(slices_path, "--slices-body")
    return sibling if isinstance(sibling, Failure) else (plan, sibling)


def check_one_stdin(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error (exit 2) when both ``--plan-body`` and ``--slices-body`` are ``-``: one
    stream cannot hold two bodies (a conflict of sources, like every other)."""
    if args.plan_body == "-" and getattr(args, "slices_body", None) == "-":
        parser.error(
            "--plan-body - and --slices-body - cannot be combined: only one body can come "
            "from standard input; give the other as a file"
        )


def emit(text: str, *, untrusted: bool) -> None:
    """Write ``text`` on stdout: redacted; inside a GitHub Actions job, text that could be
    read as a workflow command is fenced by ``::stop-commands::`` (only ``untrusted`` text:
    comment-derived); anything else is written byte for byte."""
    text = redactor()(text)
    if untrusted and os.environ.get("GITHUB_ACTIONS") == "true" and could_be_command(text):
        text = wrap_untrusted(text)
    with interrupts.deferred():  # SPEC 6 "Interrupts": a result is printed whole
        interrupts.write_whole(sys.stdout.buffer, text.encode("utf-8", "replace"))


def stderr(text: str) -> None:
    """Write a diagnostic on stderr, redacted."""
    with interrupts.deferred():
        interrupts.write_whole(sys.stderr.buffer, redactor()(text).encode("utf-8", "replace"))


def request_listener(args: argparse.Namespace) -> RequestListener | None:
    """With ``--verbose``, a listener writing each request's debug line on stderr (SPEC 8)."""
    if not getattr(args, "verbose", False):
        return None
    from .github.request_log import request_log_line

    def log(record: RequestRecord) -> None:
        stderr(request_log_line(record) + "\n")

    return log


def token(api_url: str, args: argparse.Namespace) -> str | TokenProblem:
    """The token of the online forms (SPEC 9), as ``gh`` finds one: ``GH_TOKEN``, else
    ``GITHUB_TOKEN`` (for a GitHub Enterprise Server ``GH_ENTERPRISE_TOKEN``, else
    ``GITHUB_ENTERPRISE_TOKEN``, first), else, only when no variable is set, what
    ``gh auth token --hostname HOST`` prints.
    """
    from . import programs
    from .github.auth import no_token, token_from_environment
    from .github.hosts import PUBLIC_HOST, github_host
    from .github.urls import is_loopback

    found = token_from_environment(os.environ, api_url)
    if found is not None:
        _say(args, f"token: from {found[0]}")
        return found[1]
    host = github_host(api_url)
    printed = programs.gh_auth_token(host, os.environ)
    if isinstance(printed, str):
        _PRINTED_TOKENS.append(printed)
        _say(args, f"token: from gh auth token --hostname {host}")
        return printed
    if is_loopback(host):  # a local stand-in: gh has no login for it
        return no_token(f"set GH_TOKEN ({printed.reason})")
    login = "gh auth login" + ("" if host == PUBLIC_HOST else f" --hostname {host}")
    return no_token(f"set GH_TOKEN or run {login} ({printed.reason})")


def _say(args: argparse.Namespace, line: str) -> None:
    """With ``--verbose``, one diagnostic line on stderr."""
    if getattr(args, "verbose", False):
        stderr(line + "\n")


def api_url(args: argparse.Namespace) -> str:
    """The REST API root: ``--api-url``, else ``GITHUB_API_URL`` (then messages name it),
    else the public API."""
    from .inputs import api_url_or_default

    if args.api_url is None and os.environ.get("GITHUB_API_URL"):
        name_as("api-url", "GITHUB_API_URL")
    return api_url_or_default(args.api_url, os.environ)


def api_inputs(args: argparse.Namespace) -> dict[str, Any]:
    """The inputs of the command's online form, by input name, from its flags
    (:func:`~frame_spine.declared.raw_inputs`), the API URL with its fallbacks."""
    from .declared import raw_inputs

    return {**raw_inputs(args, args.command), "api-url": api_url(args)}


def fetcher(target: ApiTarget, args: argparse.Namespace) -> CommentFetcher:
    """A fetcher for ``target`` with the environment's token and, with ``--verbose``, the
    stderr debug lines (PyGithub is imported here, by online forms only)."""
    return target.fetcher(token(target.api_url, args), request_listener(args))


def checkout_repository(api_url: str) -> str | Unanswered:
    """The repository of the ``origin`` remote of the git checkout around the current
    directory (SPEC 9: ``--repo`` left out), when that remote is on the GitHub of
    ``api_url`` (github.com for the public API, else the API URL's host).
    """
    from .github.hosts import PUBLIC_HOST, github_host, parse_remote, remote_hosts, shown_remote
    from .programs import Unanswered, origin_url
    from .values import check_api_url

    url = origin_url(os.environ)
    if isinstance(url, Unanswered):
        return url
    remote = parse_remote(url)
    if remote is None:
        return Unanswered(f"the origin remote {shown_remote(url)} is not a GitHub repository URL")
    try:
        expected = github_host(check_api_url(api_url))
    except ValueError:  # the API URL's own status says why
        expected = ""
    if expected and remote.host not in remote_hosts(api_url):
        hint = (
            f" (if that is a GitHub Enterprise Server, give --api-url https://{remote.host}/api/v3)"
            if expected == PUBLIC_HOST
            else ""
        )
        return Unanswered(
            f"the origin remote {shown_remote(url)} is on {remote.host}, not on {expected}" + hint
        )
    return remote.repository


def default_repo(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """When ``--repo`` was left out, set ``args.repo`` to the repository of the checkout's
    ``origin`` remote (:func:`checkout_repository`, for the API URL of :func:`api_url`), or
    exit with a usage error (exit 2) that says why not (SPEC 9). Call it once the command has
    decided it reads from GitHub."""
    if args.repo is not None:
        return
    from .programs import Unanswered

    found = checkout_repository(api_url(args))
    if isinstance(found, Unanswered):
        parser.error(f"--repo was left out and {found.reason}: give --repo OWNER/NAME")
    args.repo = found


def print_result(
    output_format: str,
    result: Result,
    as_json: Callable[[Result], str],
    as_text: Callable[[Result], str],
) -> None:
    """Print ``result`` as one JSON line or as text (comment-derived, so fenced inside a
    GitHub Actions job when a line could be read as a workflow command)."""
    if output_format == "json":
        emit(as_json(result) + "\n", untrusted=False)
    else:
        emit(as_text(result), untrusted=True)


def print_failure(output_format: str, failure: Failure) -> None:
    """Print a failure of no mode in particular (a defect) as every mode's result words it:
    ``{"status": ..., "message": ...}`` as one JSON line, or ``status:`` and ``message:``
    lines (SPEC 5, 9)."""
    from .step.report import failure_json

    words = f"status: {failure.status.value}\nmessage: {failure.message}\n"
    print_result(output_format, failure, failure_json, lambda _failure: words)


def mixed_sources(parser: argparse.ArgumentParser, local: str, online: list[str]) -> NoReturn:
    """The usage error of a local body given with flags of the online form (SPEC 9)."""
    if "--trusted-authors" in online:
        parser.error(
            f"--trusted-authors judges the authors of comments fetched from GitHub, and {local} "
            "has no author: fetch the plan with --repo and --plan-comment-id instead"
        )
    parser.error(f"{local} and {', '.join(online)} cannot be combined: choose one source")


#: A command's flags (SPEC 9), by argument group (``None``: the command's own options): each
#: flag as its usage shows it (``"--repo OWNER/NAME"``; a switch has no metavar), its help.
Flags = dict[str | None, dict[str, str]]


def online_flags(*, auto: bool) -> dict[str, str]:
    """The flags of the online forms of lookup, validate and render (SPEC 9): ``--repo``,
    ``--plan-comment-id``, ``--slices-comment-id`` (``auto`` too when ``auto``), then
    :func:`api_flags`."""
    return {
        "--repo OWNER/NAME": "fetch the comments from this repository (default: the origin "
        "remote of the git checkout here)",
        "--plan-comment-id ID": "plan comment id (on GitHub)",
        f"--slices-comment-id ID{'|auto' if auto else ''}": "sibling comment id (on GitHub"
        + ("), or auto to follow the spine" if auto else "; default: the spine's pointer)"),
        **api_flags(has_local_forms=True),
    }


def api_flags(*, has_local_forms: bool) -> dict[str, str]:
    """``--api-url``, ``--timeout``, ``--max-wait``, ``--trusted-authors`` and ``--verbose``
    (SPEC 6.1, 8, 9); with ``has_local_forms`` their help says they are for the online form."""
    also, default = (" (online)", "online; ") if has_local_forms else ("", "")
    return {
        "--api-url URL": "GitHub REST API URL" + also,
        "--timeout SECONDS": "seconds per request, 1 to 600" + also,
        "--max-wait SECONDS": "seconds of rate-limit waiting in all, 0 to 3600" + also,
        "--trusted-authors LIST": "whose comments are plans and siblings: author associations "
        "(OWNER, MEMBER, COLLABORATOR, ...), @login, write (write permission, one request per "
        f"author), or any alone, separated by commas or spaces ({default}"
        "default OWNER,MEMBER,COLLABORATOR,write)",
        "--verbose": "log each request on stderr: method, path, status, milliseconds, rate "
        "limit remaining, request id" + also,
    }


def plan_sources(done: str) -> Flags:
    """The comment flags of validate and render (SPEC 9): ``--plan-body`` and
    ``--slices-body``, or ``--repo`` with :func:`online_flags` and ``--issue-number``
    (``done``: what happens to the newest plan comment of that issue, e.g. ``validated``)."""
    return {
        "comments (local bodies, or --repo)": {
            "--plan-body PATH": "plan comment body file, or - for standard input",
            "--slices-body PATH": "sibling comment body file",
            **online_flags(auto=False),
            "--issue-number N": "the plan's issue (default: the plan's own plan-issue-N marker); "
            f"with --repo alone, the issue whose newest plan comment is {done}",
        }
    }


def given(args: argparse.Namespace, *flags: str) -> list[str]:
    """Those of ``flags`` that were given (with a value, or a switch set), in that order."""
    return [
        flag for flag in flags if getattr(args, flag[2:].replace("-", "_")) not in (None, False)
    ]


#: The flags of the online forms (reading GitHub) that no local body takes, ``--repo`` aside.
ONLINE_ONLY = ("--plan-comment-id", "--slices-comment-id", "--api-url", "--trusted-authors")


def check_plan_sources(
    parser: argparse.ArgumentParser, args: argparse.Namespace, command: str
) -> None:
    """``--plan-body``, or GitHub (``--repo``, or with ``--plan-comment-id`` or
    ``--issue-number`` alone the checkout's ``origin``, SPEC 9), and the flags of that form
    only (the flags of :func:`plan_sources`); a usage error (exit 2) naming ``command``
    otherwise. Online, ``args.repo`` is set (:func:`default_repo`)."""
    if args.plan_body is not None:
        check_one_stdin(parser, args)
        if args.repo is not None:
            parser.error(f"{command} needs exactly one of --plan-body or --repo")
        if online := given(args, *ONLINE_ONLY):
            mixed_sources(parser, "--plan-body", online)
        return
    if args.plan_comment_id is None and args.issue_number is None:
        parser.error(
            f"{command} needs --plan-body, or --plan-comment-id or --issue-number (with "
            "--repo, or in a checkout whose origin is on GitHub)"
            if args.repo is None
            else f"{command} --repo needs --plan-comment-id or --issue-number"
        )
    if args.slices_body is not None:
        parser.error(SLICES_BODY_NEEDS_PLAN_BODY)
    default_repo(args, parser)


#: The usage error of a sibling body without a plan body (every local form, SPEC 9).
SLICES_BODY_NEEDS_PLAN_BODY = "--slices-body needs --plan-body"


#: The flags whose default is action.yml's (the command line's other flags default to none).
_DEFAULTS = {d.flag: d.default for d in INPUTS if d.name in ("timeout", "max-wait", "issue-state")}

#: A command's entry point: the parsed arguments and the command's own parser (for usage
#: errors) in, the exit code out.
Runner = Callable[[argparse.Namespace, argparse.ArgumentParser], int]


@dataclass(frozen=True, slots=True)
class Command:
    """One ``frame-spine`` command (SPEC 9): its word, its line in ``frame-spine --help``, its
    own ``--help`` text, its :data:`Flags` (``required``: those that must be given), then
    ``--format`` (``formats``: the default, the other being ``json``, and its help) and its
    :data:`Runner` (which imports the mode's rules, fetching and rendering: a run pays only for
    its own mode)."""

    name: str
    help: str
    description: str
    flags: Flags
    run: Runner
    required: tuple[str, ...] = ()
    formats: tuple[str, str] = ("text", help_text.FORMAT_TEXT_JSON)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the command's flags to ``parser``, in their order (argparse only)."""
        for title, flags in self.flags.items():
            group = parser if title is None else parser.add_argument_group(title)
            for usage, text in flags.items():
                flag, _, meta = usage.partition(" ")
                if not meta:
                    group.add_argument(flag, action="store_true", help=text)
                    continue
                need, default = flag in self.required, _DEFAULTS.get(flag)
                group.add_argument(flag, metavar=meta, default=default, required=need, help=text)
        first, text = self.formats
        parser.add_argument("--format", choices=(first, "json"), default=first, help=text)
