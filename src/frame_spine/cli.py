"""The ``frame-spine`` command line (SPEC 9).

An edge: it reads files or stdin, calls the pure core, renders the result and chooses the
exit code (0 ``ok``/``stale-spine``, 1 every other status, 2 usage errors). Malformed values
and unreadable files are ``error`` results (exit 1), never tracebacks.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from . import __version__
from .auth_token import Redactor
from .lookup import current_spine, lookup, scan_bodies
from .models import LookupResult, Status, error_result, validate_lookup_inputs
from .render import json_line, result_json, result_text
from .workflow_commands import could_be_command, wrap_untrusted

if TYPE_CHECKING:  # validate mode is imported only when used
    from .request_log import RequestListener, RequestRecord
    from .validate import ValidationResult

EXIT_USAGE = 2
#: Where the online forms read a token (SPEC 9); every value found is redacted from all
#: output, whichever one is used.
TOKEN_VARIABLES = ("GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")


def _redactor() -> Redactor:
    """The one redaction every text the CLI writes passes: the token values of the
    environment, as given (SPEC 6: no output ever contains the token)."""
    return Redactor(*(os.environ.get(name) for name in TOKEN_VARIABLES))


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors on exit code 2 (as argparse) and no abbreviations."""

    def error(self, message: str) -> NoReturn:
        # The message may quote arguments: keep it on one line and free of "##[", so the
        # runner cannot read it as a workflow command.
        message = message.replace("\r", "\\r").replace("\n", "\\n").replace("##[", "#\\#[")
        message = _redactor()(message)
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _add_online_flags(group: argparse._ArgumentGroup, *, auto: bool) -> None:
    group.add_argument("--repo", metavar="OWNER/NAME", help="fetch the comments from GitHub")
    group.add_argument("--plan-comment-id", metavar="ID", help="plan comment id (with --repo)")
    group.add_argument(
        "--slices-comment-id",
        metavar="ID|auto" if auto else "ID",
        help="sibling comment id"
        + (", or auto to follow the spine" if auto else " (default: the spine's pointer)")
        + " (with --repo)",
    )
    group.add_argument("--api-url", metavar="URL", help="GitHub REST API URL (with --repo)")
    group.add_argument(
        "--timeout",
        metavar="SECONDS",
        default="10",
        help="seconds per request (with --repo; default 10)",
    )
    group.add_argument(
        "--max-wait",
        metavar="SECONDS",
        default="60",
        help="seconds of rate-limit waiting (with --repo; default 60)",
    )
    group.add_argument(
        "--verbose",
        action="store_true",
        help="log each request on stderr: method, path, status, milliseconds, rate limit "
        "remaining, request id (with --repo)",
    )


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of SPEC 9 (``lookup``, ``digest``, ``validate``, ``audit``)."""
    parser = _Parser(
        prog="frame-spine",
        description="Look up one slice of a frame-spine plan kept in GitHub issue comments.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )

    lookup = commands.add_parser(
        "lookup",
        help="find one step's slice and report a status",
        description="Find one step's slice. Exit 0 for ok and stale-spine (branch on status!), "
        "1 for any other status, 2 for a usage error.",
        allow_abbrev=False,
    )
    source = lookup.add_argument_group("comment bodies (choose one source)")
    source.add_argument(
        "--plan-body", metavar="PATH", help="plan comment body file, or - for stdin"
    )
    source.add_argument("--slices-body", metavar="PATH", help="sibling comment body file")
    source.add_argument(
        "--comment-body-path",
        metavar="PATH",
        help="one pre-concatenated body (plan + sibling) file",
    )
    source.add_argument(
        "--comment-body-stdin",
        action="store_true",
        help="read one pre-concatenated body from stdin",
    )
    _add_online_flags(source, auto=True)
    dispatch = lookup.add_argument_group("dispatch inputs")
    dispatch.add_argument("--issue-number", metavar="N", help="the plan's issue number")
    dispatch.add_argument(
        "--generated-at",
        metavar="TS",
        required=True,
        help="the spine's generated_at at dispatch time, or current",
    )
    dispatch.add_argument("--step-id", metavar="ID", required=True, help="the step, e.g. s4")
    dispatch.add_argument("--spine-digest", metavar="D", help="the spine digest at dispatch time")
    lookup.add_argument("--format", choices=("text", "json"), default="text")
    lookup.set_defaults(subparser=lookup)

    digest = commands.add_parser(
        "digest",
        help="print the spine digest of a plan comment",
        description="Print the SPEC 7 digest of the plan's spine (exit 1 with the lookup "
        "status when the plan has no single valid spine).",
        allow_abbrev=False,
    )
    digest.add_argument(
        "--plan-body", metavar="PATH", required=True, help="plan comment body file, or - for stdin"
    )
    digest.add_argument("--format", choices=("text", "json"), default="text")

    validate = commands.add_parser(
        "validate",
        help="report every finding about a plan and its sibling (pre-dispatch validation)",
        description="Validate a plan comment and its sibling (SPEC 10). Exit 0 when valid, "
        "1 when invalid or when fetching fails, 2 for a usage error.",
        allow_abbrev=False,
    )
    checked = validate.add_argument_group("comments (local bodies, or --repo)")
    checked.add_argument("--plan-body", metavar="PATH", help="plan comment body file, or -")
    checked.add_argument("--slices-body", metavar="PATH", help="sibling comment body file")
    _add_online_flags(checked, auto=False)
    checked.add_argument(
        "--issue-number",
        metavar="N",
        help="the plan's issue (default: the plan's own plan-issue-N marker); with --repo "
        "alone, the issue whose newest plan comment is validated",
    )
    validate.add_argument("--format", choices=("text", "json"), default="text")
    validate.set_defaults(subparser=validate)

    audit = commands.add_parser(
        "audit",
        help="classify every plan of a repository as fresh or drifted (scheduled audits)",
        description="Audit every plan comment of a repository (SPEC 11). Exit 0 when clean, "
        "1 when some plan has findings or fetching fails, 2 for a usage error.",
        allow_abbrev=False,
    )
    audit.add_argument("--repo", metavar="OWNER/NAME", required=True, help="the repository")
    audit.add_argument(
        "--state",
        metavar="open|closed|all",
        default="open",
        help="audit plans on open (default) or closed issues, or on all (lists no issues)",
    )
    audit.add_argument("--since", metavar="TS", help="only comments updated since then")
    audit.add_argument("--api-url", metavar="URL", help="GitHub REST API URL")
    audit.add_argument("--timeout", metavar="SECONDS", default="10", help="seconds per request")
    audit.add_argument(
        "--max-wait", metavar="SECONDS", default="60", help="seconds of rate-limit waiting"
    )
    audit.add_argument(
        "--verbose",
        action="store_true",
        help="log each request on stderr: method, path, status, milliseconds, rate limit "
        "remaining, request id",
    )
    audit.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def read_body(path: str, flag: str) -> str | LookupResult:
    """Read a comment body from ``path`` (``-`` for stdin) as UTF-8.

    Returns:
        The text, or an ``error`` result naming ``flag`` when the file is missing,
        unreadable, a directory or not UTF-8. Never raises ``OSError``.
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        return error_result(f"cannot read {flag} {path!r}: {reason}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error_result(
            f"{flag} {path!r} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start})"
        )


def _api_url(args: argparse.Namespace) -> str:
    """The REST API root: ``--api-url``, else ``GITHUB_API_URL``, else the public API."""
    from .github_api import PUBLIC_API_URL

    return str(args.api_url or os.environ.get("GITHUB_API_URL") or PUBLIC_API_URL)


def _token() -> str | None:
    """The token of the online forms, as given: ``GITHUB_TOKEN``, else ``GH_TOKEN``, else
    none (the fetcher trims it, and refuses one an HTTP header cannot carry)."""
    return os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN") or None


def _emit(text: str, *, untrusted: bool) -> None:
    # In a GitHub Actions job, comment text that could read as a workflow command is fenced
    # by ::stop-commands::; anything else is printed byte for byte. The token never is.
    text = _redactor()(text)
    if untrusted and os.environ.get("GITHUB_ACTIONS") == "true" and could_be_command(text):
        text = wrap_untrusted(text)
    sys.stdout.buffer.write(text.encode("utf-8", "replace"))
    sys.stdout.flush()


def _stderr(text: str) -> None:
    """Write a diagnostic line on stderr, redacted."""
    sys.stderr.buffer.write(_redactor()(text).encode("utf-8", "replace"))
    sys.stderr.flush()


def _request_listener(args: argparse.Namespace) -> RequestListener | None:
    """With ``--verbose``, a listener writing each request's debug line on stderr (SPEC 8)."""
    if not getattr(args, "verbose", False):
        return None
    from .request_log import request_log_line

    def log(record: RequestRecord) -> None:
        _stderr(request_log_line(record) + "\n")

    return log


def _emit_result(result: LookupResult, output_format: str) -> int:
    if output_format == "json":
        _emit(result_json(result) + "\n", untrusted=False)
    else:
        untrusted = result.slice is not None or result.message is not None
        _emit(result_text(result), untrusted=untrusted)
    return result.exit_code


def _local_bodies(args: argparse.Namespace) -> tuple[str, str | None, bool] | LookupResult:
    if args.comment_body_path is not None or args.comment_body_stdin:
        path = "-" if args.comment_body_stdin else args.comment_body_path
        flag = "--comment-body-stdin" if args.comment_body_stdin else "--comment-body-path"
        body = read_body(path, flag)
        return body if isinstance(body, LookupResult) else (body, None, True)
    if args.plan_body == "-" and args.slices_body == "-":
        return error_result("only one of --plan-body and --slices-body can read stdin (-)")
    plan = read_body(args.plan_body, "--plan-body")
    if isinstance(plan, LookupResult):
        return plan
    sibling: str | None = None
    if args.slices_body is not None:
        read = read_body(args.slices_body, "--slices-body")
        if isinstance(read, LookupResult):
            return read
        sibling = read
    return plan, sibling, False


def _check_sources(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    sources = [
        flag
        for flag, given in (
            ("--plan-body", args.plan_body is not None),
            ("--comment-body-path", args.comment_body_path is not None),
            ("--comment-body-stdin", args.comment_body_stdin),
            ("--repo", args.repo is not None),
        )
        if given
    ]
    if not sources:
        parser.error(
            "lookup needs one of --plan-body, --comment-body-path, --comment-body-stdin or --repo"
        )
    if len(sources) > 1:
        parser.error(f"{' and '.join(sources)} cannot be combined: choose one source")
    online_only = [
        flag
        for flag, value in (
            ("--plan-comment-id", args.plan_comment_id),
            ("--slices-comment-id", args.slices_comment_id),
            ("--api-url", args.api_url),
        )
        if value is not None
    ]
    if args.repo is None and online_only:
        parser.error(f"{', '.join(online_only)} needs --repo")
    if args.slices_body is not None and args.plan_body is None:
        parser.error("--slices-body needs --plan-body")


def _run_lookup(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    _check_sources(parser, args)
    if args.repo is not None:
        return _emit_result(_lookup_online(args), args.format)
    has_sibling = args.slices_body is not None
    request = validate_lookup_inputs(
        step_id=args.step_id,
        generated_at=args.generated_at,
        spine_digest=args.spine_digest,
        issue_number=args.issue_number,
        has_sibling=has_sibling,
    )
    if isinstance(request, LookupResult):
        return _emit_result(request, args.format)
    bodies = _local_bodies(args)
    if isinstance(bodies, LookupResult):
        return _emit_result(bodies, args.format)
    plan, sibling, single_body = bodies
    return _emit_result(lookup(request, plan, sibling, single_body=single_body), args.format)


def _lookup_online(args: argparse.Namespace) -> LookupResult:
    # Imported here: the offline path must not pay for PyGithub's import.
    from .github_api import CommentFetcher
    from .online import lookup_online
    from .online_inputs import validate_online_inputs

    api_url = _api_url(args)
    validated = validate_online_inputs(
        repository=args.repo,
        plan_comment_id=args.plan_comment_id,
        slices_comment_id=args.slices_comment_id,
        api_url=api_url,
        step_id=args.step_id,
        generated_at=args.generated_at,
        spine_digest=args.spine_digest,
        issue_number=args.issue_number,
        timeout=args.timeout,
        max_wait=args.max_wait,
    )
    if isinstance(validated, LookupResult):
        return validated
    target, request = validated
    fetcher = CommentFetcher.for_target(target, _token(), on_request=_request_listener(args))
    return lookup_online(target, request, fetcher).result


def _run_digest(args: argparse.Namespace) -> int:
    body = read_body(args.plan_body, "--plan-body")
    if isinstance(body, LookupResult):
        return _emit_result(body, args.format)
    current = current_spine(scan_bodies(body))
    if isinstance(current, LookupResult):
        return _emit_result(current, args.format)
    if args.format == "json":
        payload = {
            "status": Status.OK.value,
            "spine_digest": current.digest,
            "generated_at": current.spine.generated_at,
        }
        _emit(json_line(payload) + "\n", untrusted=False)
    else:
        _emit(current.digest + "\n", untrusted=False)
    return 0


def _run_validate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    # Imported here: lookup does not pay for validate mode's models.
    from .render_findings import validation_json, validation_text
    from .validate import ValidationResult

    result: ValidationResult | LookupResult
    if (args.plan_body is None) == (args.repo is None):
        parser.error("validate needs exactly one of --plan-body or --repo")
    if args.plan_body is not None:
        online = [
            f
            for f, v in (
                ("--plan-comment-id", args.plan_comment_id),
                ("--slices-comment-id", args.slices_comment_id),
                ("--api-url", args.api_url),
            )
            if v is not None
        ]
        if online:
            parser.error(f"{', '.join(online)} needs --repo")
        result = _validate_local(args)
    else:
        if args.slices_body is not None:
            parser.error("--slices-body needs --plan-body")
        if args.plan_comment_id is None and args.issue_number is None:
            parser.error("validate --repo needs --plan-comment-id or --issue-number")
        result = _validate_online(args)
    if isinstance(result, LookupResult):
        result = ValidationResult(status=result.status.value, message=result.message)
    if args.format == "json":
        _emit(validation_json(result) + "\n", untrusted=False)
    else:
        _emit(validation_text(result), untrusted=True)
    return result.exit_code


def _validate_local(args: argparse.Namespace) -> ValidationResult | LookupResult:
    from .models import parse_positive_id
    from .validate import validate_scanned

    try:
        issue_number = parse_positive_id(args.issue_number, "issue-number")
    except ValueError as exc:
        return error_result(str(exc))
    if args.plan_body == "-" and args.slices_body == "-":
        return error_result("only one of --plan-body and --slices-body can read stdin (-)")
    plan = read_body(args.plan_body, "--plan-body")
    if isinstance(plan, LookupResult):
        return plan
    sibling: str | None = None
    if args.slices_body is not None:
        read = read_body(args.slices_body, "--slices-body")
        if isinstance(read, LookupResult):
            return read
        sibling = read
    comments = scan_bodies(plan, sibling)
    if issue_number is None:
        own = comments.plan.marker_values("plan-issue")
        issue_number = int(own[0]) if own and len(own[0]) <= 20 else None
    return validate_scanned(comments, issue_number=issue_number)


def _validate_online(args: argparse.Namespace) -> ValidationResult:
    from .github_api import CommentFetcher
    from .online_inputs import validate_target_inputs
    from .validate_online import failed_result, validate_online

    target = validate_target_inputs(
        repository=args.repo,
        api_url=_api_url(args),
        plan_comment_id=args.plan_comment_id,
        slices_comment_id=args.slices_comment_id,
        issue_number=args.issue_number,
        timeout=args.timeout,
        max_wait=args.max_wait,
    )
    if isinstance(target, LookupResult):
        return failed_result(target)
    fetcher = CommentFetcher.for_target(target, _token(), on_request=_request_listener(args))
    return validate_online(target, fetcher).result


def _run_audit(args: argparse.Namespace) -> int:
    # Imported here: only audits pay for audit mode and PyGithub.
    from .audit import AuditReport
    from .audit_online import audit_online
    from .github_api import CommentFetcher
    from .online_inputs import validate_audit_inputs
    from .render_audit import audit_json, audit_text

    target = validate_audit_inputs(
        repository=args.repo,
        api_url=_api_url(args),
        state=args.state,
        since=args.since,
        timeout=args.timeout,
        max_wait=args.max_wait,
    )
    if isinstance(target, LookupResult):
        report = AuditReport(
            status=target.status.value,
            repository=str(args.repo),
            requests=0,
            message=target.message,
        )
    else:
        fetcher = CommentFetcher.for_target(target, _token(), on_request=_request_listener(args))
        report = audit_online(target, fetcher)
    if args.format == "json":
        _emit(audit_json(report) + "\n", untrusted=False)
    else:
        _emit(audit_text(report), untrusted=True)
    return report.exit_code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it).

    Args:
        argv: the arguments after the program name; ``sys.argv[1:]`` when ``None``.

    Returns:
        0 for ``ok``/``stale-spine`` (and a printed digest), 1 for every other status,
        2 for a usage error (printed by argparse on stderr).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "digest":
            return _run_digest(args)
        if args.command == "validate":
            return _run_validate(args.subparser, args)
        if args.command == "audit":
            return _run_audit(args)
        return _run_lookup(args.subparser, args)
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback (SPEC 9): report an error status
        # The exception's text could quote anything (a token, a body): only its class is
        # named; --verbose adds the traceback on stderr, redacted.
        if getattr(args, "verbose", False):
            import traceback

            _stderr("".join(traceback.format_exception(exc)))
        output_format = getattr(args, "format", "text")
        return _emit_result(
            error_result(f"internal error ({exc.__class__.__name__}): please report it"),
            output_format,
        )


if __name__ == "__main__":
    sys.exit(main())
