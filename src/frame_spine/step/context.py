"""One run of the action as the modes see it (SPEC 8): its inputs, and the edges they share.

An edge. A mode's ``report`` module gets a :class:`StepContext` and returns a
:class:`~frame_spine.step.report.StepReport`; through the context it reaches GitHub (a
fetcher with the ``token`` input, else the token variables, and the debug listener) and
the workspace (``slice-file``, ``report-file``), and nothing else.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..declared import DEFAULTS
from ..github.auth import TokenProblem, no_token, token_from_environment
from ..github.client import CommentFetcher
from ..github.payloads import FetchedComment
from ..github.request_log import RequestListener
from ..inputs import ApiTarget, StepSettings, api_url_or_default
from ..markdown import CommentLink
from .emitted import EmittedText
from .report import Annotation, Outcome, StepReport, outputs_of, step_exit_code
from .workspace import WriteRefused, write_in_workspace


@dataclass(frozen=True, slots=True)
class StepContext:
    """One run: its inputs and settings, and the edges the modes share.

    Attributes:
        inputs: every input of action.yml by its kebab-case name (strings, trimmed).
        environ: the runner's environment (``GITHUB_REPOSITORY``, ``GITHUB_API_URL``,
            ``GITHUB_WORKSPACE``, the token variables).
        settings: the validated :class:`~frame_spine.inputs.StepSettings`.
        emitted: the run's output filter (token redaction, valid UTF-8); files pass it.
        on_request: the debug listener (``RUNNER_DEBUG=1``), or ``None``.
    """

    inputs: Mapping[str, str]
    environ: Mapping[str, str]
    settings: StepSettings
    emitted: EmittedText
    on_request: RequestListener | None = None

    def repository(self) -> str:
        """``repository``, else the runner's ``GITHUB_REPOSITORY`` (SPEC 8)."""
        return self.inputs["repository"] or self.environ.get("GITHUB_REPOSITORY", "")

    def api_url(self) -> str:
        """``api-url``, else the runner's ``GITHUB_API_URL``, else the public API (SPEC 8)."""
        return api_url_or_default(self.inputs["api-url"], self.environ)

    def resolved_inputs(self) -> dict[str, str]:
        """Every input by name, with the shared ones resolved (SPEC 8): ``repository`` and
        ``api-url`` with their fallbacks, ``timeout`` and ``max-wait`` with their defaults."""
        return {
            **self.inputs,
            "repository": self.repository(),
            "api-url": self.api_url(),
            "timeout": self.inputs["timeout"] or DEFAULTS["timeout"],
            "max-wait": self.inputs["max-wait"] or DEFAULTS["max-wait"],
        }

    def token(self, api_url: str) -> str | TokenProblem:
        """The token (SPEC 8, 9): the ``token`` input, else the variables ``gh`` reads, in its
        order (:func:`~frame_spine.github.auth.token_variables`; there is no ``gh`` program
        in the container), else the ``no token`` problem naming the ``token`` input:
        nothing is requested without a token."""
        if self.inputs["token"]:
            return self.inputs["token"]
        found = token_from_environment(self.environ, api_url)
        if found is not None:
            return found[1]
        return no_token(
            "set the token input (it is empty: a secret this workflow run cannot read, e.g. "
            "on a pull request from a fork, is empty too)"
        )

    def fetcher(self, target: ApiTarget) -> CommentFetcher:
        """A fetcher for ``target`` with the token (:meth:`token`) and the debug listener."""
        return target.fetcher(self.token(target.api_url), self.on_request)

    def workspace(self) -> str:
        """The runner's ``GITHUB_WORKSPACE``, else the working directory (SPEC 8)."""
        return self.environ.get("GITHUB_WORKSPACE") or os.getcwd()

    def write(self, relative: str, text: str, input_name: str) -> str | WriteRefused:
        """Write a file in the workspace (SPEC 8); see
        :func:`~frame_spine.step.workspace.write_in_workspace`."""
        return write_in_workspace(
            self.workspace(), relative, text, input_name=input_name, emitted=self.emitted
        )

    def report_of(
        self,
        result: Outcome,
        result_text: str,
        *,
        summary: str,
        log_line: str,
        annotations: list[Annotation],
        not_ok: bool | None = None,
        full_list: str = "the job summary lists them",
        **outputs: str,
    ) -> StepReport:
        """A mode's ``result`` as the step's report (SPEC 8): every output
        (:func:`~frame_spine.step.report.outputs_of`, ``outputs`` as its ``more``), and the step's
        exit code (``not_ok``: what fails it under ``fail-on: not-ok`` besides an exit code 1;
        by default a status other than ``ok``) and job summary under the settings."""
        failed = result.exit_code != 0
        if not_ok is None:
            not_ok = result.status != "ok"
        return StepReport(
            outputs=outputs_of(
                str(result.status), result.exit_code, result.message, result_text, **outputs
            ),
            summary=summary,
            log_line=log_line,
            exit_code=step_exit_code(self.settings.fail_on, failed=failed, not_ok=not_ok),
            job_summary=self.settings.job_summary,
            annotations=annotations,
            full_list=full_list,
        )

    def lists(self, noun: str, places: Sequence[str], command: str) -> tuple[str, str]:
        """Where every ``noun`` is (SPEC 8): as the summary's note on rows left out words it
        (``... has all``), and as the notice on annotations left out words it."""
        rest = f"{places[-1]} has all" if places else f"`{command}` prints all"
        summary = "the job summary lists them as far as its size limit allows"
        if places:
            where = " and ".join(places)
            text = f"{where} {'list' if len(places) > 1 else 'lists'} every {noun}"
            return rest, text + (f"; {summary}" if self.settings.job_summary else "")
        text = f"there are too many for the `result` output; `{command}` prints every {noun}"
        return rest, (f"{summary}; " if self.settings.job_summary else "") + text


def link_of(comment: FetchedComment | None) -> CommentLink | None:
    """A fetched comment as the summary links it, or ``None``."""
    return CommentLink(comment.id, comment.html_url) if comment is not None else None
