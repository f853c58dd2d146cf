"""A generated repository for audit tests and the audit benchmark (SPEC 11).

``populate(fake)`` fills a :class:`FakeGitHub` with 1,000 issues (960 open, 30 closed, 10 open
pull requests) and exactly 10,000 comments: plans of every kind (fresh split and legacy plans,
stale, unstamped and missing siblings, invalid spines, spineless variants, issues with
several plan comments) and decoy comments with other markers. It returns what an audit must
find.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tests.builders import entry, plan_marker, sibling_head, slice_block, spine_block
from tests.fake_github import FakeGitHub

STAMP = "2026-05-04T14:30:00Z"
OLD = "2026-05-01T09:00:00Z"
KINDS = (
    "fresh-split",
    "fresh-legacy",
    "stale",
    "unstamped",
    "missing-sibling",
    "invalid",
    "goal-contract",
    "brief",
    "plan-too-small",
    "prose",
    "duplicate",
    "none",
)
STATE_OF = {
    "fresh-split": "fresh",
    "fresh-legacy": "fresh",
    "stale": "stale-sibling",
    "unstamped": "sibling-unstamped",
    "missing-sibling": "sibling-missing",
    "invalid": "invalid",
    "goal-contract": "no-spine",
    "brief": "no-spine",
    "plan-too-small": "no-spine",
    "prose": "no-spine",
    "duplicate": "fresh",
}
DECOYS = (
    "<!-- design-phase-complete-{n} -->\n\nTechnical design complete for #{n}.",
    "<!-- judge-rulings\n- finding_id: M1\n  judge_ruling: sustained\n-->",
    "<!-- cost-pattern-data\nversion: 1\ngenerated_at: 2026-07-18T06:16:17Z\n-->",
    "LGTM, thanks! Mentions `<!-- plan-issue-{n} -->` only in prose.",
    "```\n<!-- frame-slices-{n} -->\n<!-- frame-slices-generated-at: {stamp} -->\n```",
)


def spine(pointer: int | None, *, stamp: str = STAMP, broken: bool = False) -> str:
    pointed = [] if pointer is None else [f"slice_comment_id: {pointer}"]
    lines = spine_block(
        "coverage: complete",
        *pointed,
        "ports:",
        "  code: [s1]",
        "  review: [s2]",
        "slices:",
        *entry("s1"),
        *entry("s2", depends_on="[s1]"),
        generated_at=stamp,
    )
    if broken:
        lines.insert(4, "owner: someone")
    return "\n".join(lines)


def slices() -> str:
    return (
        "\n".join(slice_block("s1", "provides: [code]", "rc: do it"))
        + "\n\n"
        + "\n".join(slice_block("s2", "provides: [review]", "rc: check it"))
    )


def plan(issue: int, body: str, variant: str | None = None) -> str:
    head = f"{plan_marker(issue)}\n\n"
    if variant is not None:
        head += f"---\n{variant}\n---\n\n"
    return head + f"# Plan for #{issue}\n\nProse about the plan.\n\n" + body


def sibling(issue: int, stamp: str | None) -> str:
    return "\n".join(sibling_head(issue, stamp)) + "\n\n" + slices()


@dataclass
class Expected:
    """What an audit of the populated repository must report."""

    states: dict[int, str] = field(default_factory=dict)  # issue -> state (every plan)
    closed: set[int] = field(default_factory=set)
    duplicates: set[int] = field(default_factory=set)
    missing_siblings: set[int] = field(default_factory=set)  # issues whose sibling is 404
    comments: int = 0

    def counts(self, *, open_only: bool) -> Counter[str]:
        return Counter(
            state
            for issue, state in self.states.items()
            if not (open_only and issue in self.closed)
        )

    def sibling_fetches(self, *, open_only: bool) -> int:
        return sum(1 for issue in self.missing_siblings if not (open_only and issue in self.closed))


def populate(fake: FakeGitHub, total_comments: int = 10_000, issues: int = 1_000) -> Expected:
    """Fill ``fake`` and return the expectations (see the module docstring)."""
    expected = Expected()
    next_id = 100_000
    bodies: list[tuple[int, int, str, str]] = []  # (id, issue, body, updated_at)

    def comment(issue: int, body: str, updated_at: str = "2026-05-04T15:00:00Z") -> int:
        nonlocal next_id
        next_id += 1
        bodies.append((next_id, issue, body, updated_at))
        return next_id

    numbers = list(range(1, issues + 1))
    pulls = set(numbers[-10:])
    closed = set(numbers[-40:-10])
    expected.closed = closed
    for index, issue in enumerate(numbers):
        state = "closed" if issue in closed else "open"
        fake.add_issue(issue, state, pull_request=issue in pulls)
        if issue in pulls:
            continue
        kind = KINDS[index % len(KINDS)]
        if kind == "none":
            continue
        expected.states[issue] = STATE_OF[kind]
        if kind in ("fresh-split", "stale", "unstamped", "duplicate"):
            stamp = {"stale": OLD, "unstamped": None}.get(kind, STAMP)
            sibling_id = comment(issue, sibling(issue, stamp))
            if kind == "duplicate":
                comment(issue, plan(issue, spine(sibling_id, stamp=OLD)), "2026-05-01T10:00:00Z")
                expected.duplicates.add(issue)
            comment(issue, plan(issue, spine(sibling_id)))
        elif kind == "missing-sibling":
            comment(issue, plan(issue, spine(99_000_000 + issue)))
            expected.missing_siblings.add(issue)
        elif kind == "fresh-legacy":
            comment(issue, plan(issue, spine(None) + "\n\n" + slices()))
        elif kind == "invalid":
            comment(issue, plan(issue, spine(None, broken=True) + "\n\n" + slices()))
        elif kind == "goal-contract":
            comment(
                issue,
                plan(issue, "<!-- goal-contract\ngoal: x\n-->", "plan-variant: goal-contract"),
            )
        elif kind == "brief":
            comment(issue, plan(issue, "A brief plan.", 'plan-variant: "brief"'))
        elif kind == "plan-too-small":
            comment(issue, plan(issue, "Too small for a spine.", "spine-omitted: plan-too-small"))
        else:
            comment(issue, plan(issue, "A legacy prose plan, written before spines existed."))
    decoy = 0
    while len(bodies) < total_comments:
        issue = numbers[decoy % len(numbers)]
        comment(issue, DECOYS[decoy % len(DECOYS)].format(n=issue, stamp=STAMP))
        decoy += 1
    for comment_id, issue, body, updated_at in bodies:
        fake.add_comment(comment_id, body, issue, updated_at=updated_at)
    expected.comments = len(bodies)
    return expected
