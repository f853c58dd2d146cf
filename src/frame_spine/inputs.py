"""Inputs: reusable checked types, and one way to parse a mode's inputs (SPEC 5, 8, 9, 11).

Pure: raw values (CLI flags or ``INPUT_*`` variables, all strings) in, a validated pydantic
model out, or a :class:`~frame_spine.core.status.Failure` whose message names the first
malformed input. Malformed values are never usage errors and never make a request.

Each checked type is an ``Annotated`` type whose validator raises ``ValueError`` with the
message a user sees (naming the input by its kebab-case name, e.g. ``plan-comment-id``); a
mode's input model is an :class:`Inputs` model of such fields, parsed by :func:`parse_inputs`
from raw values keyed by input name (``plan-comment-id``, as the action reads them) or by
field name (``plan_comment_id``). Fields are checked in their order in the model, and the
first malformed one is reported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PlainValidator,
    ValidationError,
    ValidationInfo,
)

from .core.digest import normalise_digest
from .core.shown import knob, quoted
from .core.status import Failure, error
from .core.timestamps import is_timestamp
from .core.trust import DEFAULT_POLICY, TrustPolicy, parse_policy
from .github.defaults import DEFAULT_MAX_WAIT, DEFAULT_TIMEOUT
from .values import check_api_url, parse_positive_id

if TYPE_CHECKING:
    from .github.auth import TokenProblem
    from .github.client import CommentFetcher
    from .github.request_log import RequestListener

#: The public API, used when neither the input nor ``GITHUB_API_URL`` names one.
PUBLIC_API_URL = "https://api.github.com"
#: The ``generated-at`` keyword that skips the dispatch freshness check (SPEC 5 check 4).
CURRENT = "current"
#: The ``slices-comment-id`` keyword that follows the spine's ``slice_comment_id`` (SPEC 6).
AUTO = "auto"

_STEP_ID = re.compile(r"[sS][0-9]+", re.ASCII)
_REPOSITORY = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\.\.?$)[A-Za-z0-9._-]{1,100}", re.ASCII
)
_SECONDS = re.compile(r"[0-9]{1,6}", re.ASCII)
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")


def _text(value: Any) -> str:
    return str(value).strip() if value is not None else ""


def _input_name(info: ValidationInfo) -> str:
    """A field's input name: ``plan_comment_id`` -> ``plan-comment-id``."""
    return (info.field_name or "").replace("_", "-")


def _malformed(name: str, text: str, why: str) -> ValueError:
    """The error of input ``name`` given as ``text``: the input as the caller set it, the value
    quoted, then ``why``."""
    return ValueError(f"{knob(name)} {quoted(text)} {why}")


def _step_id(value: Any) -> str:
    text = _text(value)
    if not _STEP_ID.fullmatch(text):
        raise _malformed("step-id", text, "is not a step id (expected s<digits>, e.g. s4)")
    return text.lower()


def _dispatched_at(value: Any) -> str:
    text = _text(value)
    if text != CURRENT and not is_timestamp(text):
        expected = "expected YYYY-MM-DDTHH:MM:SS[.fraction]Z, or 'current'"
        raise _malformed("generated-at", text, f"is not a timestamp ({expected})")
    return text


def _digest(value: Any) -> str | None:
    text = _text(value)
    if not text:
        return None
    digest = normalise_digest(text)
    if digest is None:
        raise _malformed("spine-digest", text, "is not a digest (expected sha256:<64 hex digits>)")
    return digest


def _optional_id(value: Any, info: ValidationInfo) -> int | None:
    return parse_positive_id(value, _input_name(info))


def _required_id(value: Any, info: ValidationInfo) -> int:
    number = parse_positive_id(value, _input_name(info))
    if number is None:
        raise ValueError(f"{knob(_input_name(info))} is empty")
    return number


def _id_or_auto(auto: str | None) -> BeforeValidator:
    """A positive id, or the keyword ``auto``, read as ``auto`` (:data:`AUTO`, or ``None``
    for the spine's pointer)."""

    def check(value: Any, info: ValidationInfo) -> int | str | None:
        if isinstance(value, str) and value.strip().lower() == AUTO:
            return auto
        return parse_positive_id(value, _input_name(info))

    return BeforeValidator(check)


def _repository(value: Any) -> str:
    text = str(value or "").strip()
    if not _REPOSITORY.fullmatch(text):
        raise _malformed("repository", text, "is not OWNER/NAME")
    return text


def _seconds(name: str, low: int, high: int) -> BeforeValidator:
    def check(value: Any) -> int:
        text = str(value).strip()
        if not _SECONDS.fullmatch(text) or not low <= int(text) <= high:
            raise _malformed(name, text, f"is not a whole number of seconds in {low}..{high}")
        return int(text)

    return BeforeValidator(check)


def _one_of(name: str, choices: tuple[str, ...], default: str) -> BeforeValidator:
    def check(value: Any) -> str:
        text = str(value or default).strip()
        if text not in choices:
            raise _malformed(name, text, f"is not one of {', '.join(choices)}")
        return text

    return BeforeValidator(check)


_DURATION = re.compile(r"([0-9]{1,4})([dhm])", re.ASCII)
_UNITS = {"d": 86400, "h": 3600, "m": 60}


def _since(value: Any, info: ValidationInfo) -> str | None:
    text = str(value or "").strip()
    if text and not is_timestamp(text) and not _DURATION.fullmatch(text):
        kinds = "a timestamp (YYYY-MM-DDTHH:MM:SSZ) nor a duration back from now (7d, 24h, 90m)"
        raise _malformed(_input_name(info), text, f"is neither {kinds}")
    return text or None


def resolved_since(since: str | None, now: float) -> str | None:
    """``since`` as the timestamp it stands for (SPEC 9): a duration back from ``now`` (epoch
    seconds), or the timestamp as given."""
    duration = _DURATION.fullmatch(since or "")
    if duration is None:
        return since
    seconds = int(duration.group(1)) * _UNITS[duration.group(2)]
    return datetime.fromtimestamp(int(now) - seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _yaml_bool(value: Any, info: ValidationInfo) -> bool:
    text = str(value or "true")
    if text not in _TRUE + _FALSE:
        raise _malformed(_input_name(info), text, "is not true or false")
    return text in _TRUE


def _trusted_authors(value: Any) -> TrustPolicy:
    if isinstance(value, TrustPolicy):
        return value
    return parse_policy(None if value is None else str(value))


_STEP_SEPARATORS = re.compile(r"[\s,]+")


def _step_ids(value: Any, info: ValidationInfo) -> tuple[str, ...] | None:
    text = _text(value)
    if not text:
        return None
    steps: dict[str, None] = {}
    for item in _STEP_SEPARATORS.split(text):
        if not item:
            continue
        if not _STEP_ID.fullmatch(item):
            raise ValueError(
                f"{knob(_input_name(info))}: {quoted(item)} is not a step id (expected s<digits> "
                "separated by commas or whitespace, e.g. s1, s2)"
            )
        steps[item.lower()] = None
    return tuple(steps)


def _workspace_path(value: Any, info: ValidationInfo) -> str | None:
    name = _input_name(info)
    text = str(value or "")
    if not text:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{knob(name)} is not a UTF-8 path") from None
    path = PurePosixPath(text)
    if path.is_absolute() or ".." in path.parts or "\\" in text or "\0" in text:
        raise _malformed(
            name, text, "must be a relative path inside the workspace (no leading / and no ..)"
        )
    return str(path)


def _workspace_file(value: Any, info: ValidationInfo) -> str | None:
    text = str(value or "")
    if text.endswith("/"):
        raise _malformed(_input_name(info), text, "ends in /: name a file, not a directory")
    return _workspace_path(value, info)


#: ``s<digits>``, any case, lower-cased (SPEC 5).
StepId = Annotated[str, BeforeValidator(_step_id)]
#: A contract timestamp as given, or ``current`` (SPEC 5).
DispatchedAt = Annotated[str, BeforeValidator(_dispatched_at)]
#: ``sha256:<64 lowercase hex>`` (given with or without the prefix), or ``None`` (SPEC 7).
SpineDigest = Annotated[str | None, BeforeValidator(_digest)]
#: A positive id (issue number, comment id), or ``None`` when empty.
OptionalId = Annotated[int | None, BeforeValidator(_optional_id)]
#: A positive id that must be given.
RequiredId = Annotated[int, BeforeValidator(_required_id)]
#: A sibling id, ``auto`` (follow the spine's pointer), or ``None`` (no sibling; SPEC 6).
SiblingId = Annotated[int | Literal["auto"] | None, _id_or_auto(AUTO)]
#: A sibling id, or ``None`` for the spine's pointer, which ``auto`` also means (validate and
#: render follow the pointer by default; SPEC 8 offers ``auto`` in every mode).
PointerId = Annotated[int | None, _id_or_auto(None)]
#: ``OWNER/NAME`` (GitHub's characters; ``.`` and ``..`` are not names).
Repository = Annotated[str, BeforeValidator(_repository)]
#: An ``http(s)://host[:port][/path]`` API root requests can be sent to, without a trailing
#: slash (SPEC 6: see :func:`check_api_url`).
ApiUrl = Annotated[str, BeforeValidator(check_api_url)]
#: Seconds per request, 1..600 (``timeout``).
TimeoutSeconds = Annotated[int, _seconds("timeout", 1, 600)]
#: Seconds of rate-limit waiting in all, 0..3600 (``max-wait``).
MaxWaitSeconds = Annotated[int, _seconds("max-wait", 0, 3600)]
#: The ``trusted-authors`` policy (SPEC 6.1); empty is the default,
#: :data:`~frame_spine.core.trust.DEFAULT_TRUSTED_AUTHORS`.
TrustedAuthors = Annotated[TrustPolicy, PlainValidator(_trusted_authors)]
#: ``open`` (default), ``closed`` or ``all`` (SPEC 11).
IssueState = Annotated[
    Literal["open", "closed", "all"], _one_of("issue-state", ("open", "closed", "all"), "open")
]
#: A contract timestamp or a duration back from the run's start (``7d``), or ``None``
#: (audit's ``since``, SPEC 9).
Since = Annotated[str | None, BeforeValidator(_since)]
#: The action's mode (SPEC 8).
#: Every mode, in the order the command line lists its commands (each one folder of
#: :mod:`frame_spine.modes`, which loads them by these names).
MODES = ("lookup", "validate", "audit", "render")

Mode = Annotated[str, _one_of("mode", MODES, "lookup")]
#: ``error`` (default), ``not-ok`` or ``never`` (SPEC 8).
FailOn = Annotated[
    Literal["error", "not-ok", "never"], _one_of("fail-on", ("error", "not-ok", "never"), "error")
]
#: A YAML 1.2 boolean (``true``/``false`` in three spellings); empty is ``true``.
YamlBool = Annotated[bool, BeforeValidator(_yaml_bool)]
#: A workspace-relative path (no leading ``/``, no ``..``), or ``None`` when empty.
WorkspacePath = Annotated[str | None, BeforeValidator(_workspace_path)]
#: A workspace-relative file: a :data:`WorkspacePath` not ending in ``/`` (SPEC 8).
WorkspaceFile = Annotated[str | None, BeforeValidator(_workspace_file)]
#: Step ids separated by commas or whitespace, lower-cased, each once, in order; ``None``
#: when empty (SPEC 14 ``completed-steps``).
StepIds = Annotated[tuple[str, ...] | None, BeforeValidator(_step_ids)]


class Inputs(BaseModel):
    """Base of every mode's input model: frozen; each field is read by its input name (the
    field name in kebab case, ``plan_comment_id`` -> ``plan-comment-id``) or its own name;
    values of other inputs are ignored. Each model's validator is built when it first
    validates (``defer_build``): a command builds only the models it reads."""

    model_config = ConfigDict(
        defer_build=True,
        frozen=True,
        alias_generator=lambda name: name.replace("_", "-"),
        validate_by_name=True,
        validate_by_alias=True,
    )


class ApiTarget(Inputs):
    """Where an online mode fetches from: the inputs every online mode shares.

    Attributes:
        repository: ``OWNER/NAME``. api_url: the REST API root (``http(s)://host[/path]``).
        timeout: seconds per request, 1-600. max_wait: seconds of rate-limit waiting, 0-3600.
        trusted_authors: whose comments are plans and siblings (SPEC 6.1).
    """

    repository: Repository
    api_url: ApiUrl
    timeout: TimeoutSeconds = DEFAULT_TIMEOUT
    max_wait: MaxWaitSeconds = DEFAULT_MAX_WAIT
    trusted_authors: TrustedAuthors = DEFAULT_POLICY

    def fetcher(
        self, token: str | TokenProblem | None, on_request: RequestListener | None = None
    ) -> CommentFetcher:
        """A fetcher for this target with ``token`` as given (SPEC 6)."""
        from .github.client import CommentFetcher
        from .github.session import ApiSession, ApiSettings

        settings = ApiSettings.of(self.repository, self.api_url, token, self.timeout, self.max_wait)
        return CommentFetcher(ApiSession(settings, on_request=on_request))


class StepSettings(Inputs):
    """The action inputs that shape the step rather than what it looks at (SPEC 8).

    Attributes:
        mode: one of :data:`MODES`.
        fail_on: ``error`` (fail on exit-1 statuses; in validate mode on any error finding),
            ``not-ok`` (also on ``stale-spine``; in validate mode on warnings) or ``never``.
        job_summary: whether to write the job summary.
        slice_file: a workspace-relative path for the slice, or ``None``.
        report_file: a workspace-relative path for the audit's JSON report, or ``None``.
    """

    mode: Mode
    fail_on: FailOn
    job_summary: YamlBool
    slice_file: WorkspaceFile
    report_file: WorkspaceFile = None


def first_error_message(exc: ValidationError) -> str:
    """The message of the first error in a pydantic ``ValidationError``: for the validators
    of this module the ``ValueError`` text itself (which names the input); otherwise
    pydantic's own message prefixed by the field name."""
    detail = exc.errors()[0]
    original = detail.get("ctx", {}).get("error")
    if original is not None:
        return str(original)
    location = ".".join(str(part) for part in detail.get("loc", ()))
    return f"{location}: {detail.get('msg', 'invalid value')}"


Model = TypeVar("Model", bound=BaseModel)


def parse_inputs(model: type[Model], raw: Mapping[str, Any]) -> Model | Failure:
    """Parse raw inputs into ``model`` (SPEC 5 input checks; every mode)."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        return error(first_error_message(exc))


def api_url_or_default(given: str | None, environ: Mapping[str, str]) -> str:
    """The REST API root: the ``api-url`` input or ``--api-url``, else the runner's
    ``GITHUB_API_URL``, else the public API (SPEC 8, 9)."""
    return given or environ.get("GITHUB_API_URL") or PUBLIC_API_URL
