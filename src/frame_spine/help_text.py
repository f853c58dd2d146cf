"""What ``frame-spine --help`` teaches beyond the flags: each command's examples and the
``--format`` descriptions, as data (the command line shows them; nothing here runs).

Conventions (after ``gh``): every help ends with two or three real examples, for a person at a
terminal, a CI job and a specialist agent; examples use the bundled files
``examples/plan-878.md`` and ``examples/sibling-878.md`` (run them from a clone) or
``OWNER/NAME`` for a repository. No text here names a section of the specification: an
installed user does not have it.
"""

from __future__ import annotations

#: ``--format`` of the commands that print text or JSON.
FORMAT_TEXT_JSON = (
    "text: readable lines for a person; json: one JSON object on one line, for scripts and "
    "agents, which branch on its status field"
)
#: ``--format`` of ``render``.
FORMAT_MARKDOWN_JSON = (
    "markdown: a ports table and a Mermaid step graph, for a job summary or a comment; json: "
    "the same as one JSON object on one line"
)

#: The top level's closing text.
TOP_EPILOG = """\
examples:
  # A person at a terminal: the slice of step s1 of the bundled example
  $ frame-spine lookup --plan-body examples/plan-878.md \\
      --slices-body examples/sibling-878.md --issue-number 878 --step-id s1 \\
      --generated-at 2026-07-18T22:20:00Z

  # A CI job before dispatch: every finding about the newest plan of issue 878
  $ frame-spine validate --repo OWNER/NAME --issue-number 878 --format json

  # What a command takes
  $ frame-spine help lookup

Run 'frame-spine help COMMAND' or 'frame-spine COMMAND --help' for its flags.
Exit codes: 0 for ok, stale-spine (branch on status!), valid, clean, and
render's missing-spine; 1 for any other status; 2 for a usage error; 130 or 143
when interrupted."""

#: Each command's examples, by command name (the closing text of its help).
EXAMPLES = {
    "lookup": """\
examples:
  # A person at a terminal: step s1's slice from the bundled example files
  $ frame-spine lookup --plan-body examples/plan-878.md \\
      --slices-body examples/sibling-878.md --issue-number 878 --step-id s1 \\
      --generated-at 2026-07-18T22:20:00Z

  # A specialist agent: its dispatched step, one JSON line to branch on
  $ frame-spine lookup --repo OWNER/NAME --plan-comment-id PLAN_ID \\
      --slices-comment-id auto --issue-number N --step-id sN \\
      --generated-at GENERATED_AT --format json

  # A CI job: the same, checked against the digest recorded at dispatch
  $ frame-spine lookup --repo OWNER/NAME --plan-comment-id PLAN_ID \\
      --slices-comment-id SIBLING_ID --issue-number N --step-id sN \\
      --generated-at GENERATED_AT --spine-digest DIGEST --format json

PLAN_ID is the N of #issuecomment-N in the plan comment's link; GENERATED_AT
and DIGEST are the spine's values the dispatcher recorded (validate's dispatch
matrix carries them).""",
    "digest": """\
examples:
  # A person at a terminal: the digest of the bundled example plan
  $ frame-spine digest --plan-body examples/plan-878.md

  # A dispatcher: each step's digest and generated_at, in validate's matrix
  $ frame-spine validate --repo OWNER/NAME --issue-number 878 --format json""",
    "validate": """\
examples:
  # A person at a terminal: every finding about the bundled example
  $ frame-spine validate --plan-body examples/plan-878.md \\
      --slices-body examples/sibling-878.md

  # A CI job before dispatch: issue 878's newest plan and its dispatch matrix
  $ frame-spine validate --repo OWNER/NAME --issue-number 878 \\
      --completed-steps s1,s2 --format json

  # A specialist agent checking a plan it wrote, before posting it
  $ frame-spine validate --plan-body plan.md --issue-number 878 --format json""",
    "render": """\
examples:
  # A person at a terminal: the bundled example drawn, into a file to preview
  $ frame-spine render --plan-body examples/plan-878.md \\
      --slices-body examples/sibling-878.md > plan-878.md

  # A CI job: the newest plan of issue 878 into the job summary
  $ frame-spine render --repo "$GITHUB_REPOSITORY" --issue-number 878 \\
      >> "$GITHUB_STEP_SUMMARY"

  # A specialist agent: the ports and the step graph as one JSON line
  $ frame-spine render --plan-body examples/plan-878.md \\
      --slices-body examples/sibling-878.md --format json""",
    "audit": """\
examples:
  # A person in a clone: the plans on open issues of its origin repository
  $ frame-spine audit

  # A weekly CI job: the plans updated in the last 8 days, open or closed
  $ frame-spine audit --repo "$GITHUB_REPOSITORY" --state all --since 8d \\
      --format json

  # A slow network: longer requests, no waiting on the rate limit
  $ frame-spine audit --repo OWNER/NAME --timeout 30 --max-wait 0""",
    "help": """\
examples:
  $ frame-spine help
  $ frame-spine help lookup""",
}
