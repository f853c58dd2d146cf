"""Validate mode (SPEC 10): every finding about a plan and its sibling, at once.

Pure: scanned comments (and what the fetching edge learned, as extra findings) in, a
:class:`ValidationResult` out. Each finding has a severity, a stable code, a message, and
where it applies: the comment (``plan``/``sibling``), the 1-based line in the LF-normalised
comment, the step and the port.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from .blocks import SLICE, SPINE, Block, CommentScan
from .frontmatter import SPINELESS_VARIANTS, plan_variants, spine_omitted
from .identity import plan_identity_problem, sibling_identity_problem
from .lookup import ScannedComments, missing_spine_message
from .slices import exploratory_reason, slice_exploratory, slice_ports, slice_step_id
from .spine import Spine, parse_spine
from .timestamps import parse_instant

#: Result status when no finding is an error, and when at least one is.
VALID = "valid"
INVALID = "invalid"
_COMMENT_ORDER = {"plan": 0, "sibling": 1, None: 2}


class Severity(StrEnum):
    """How much a finding matters: errors fail validation; warnings and notices do not."""

    ERROR = "error"
    WARNING = "warning"
    NOTICE = "notice"


class Finding(BaseModel):
    """One finding (SPEC 10).

    Attributes:
        severity: error, warning or notice.
        code: a stable code, e.g. ``"unresolved-step"`` (see SPEC 10 and the README).
        message: what is wrong and where, in words.
        comment: ``"plan"`` or ``"sibling"``, or ``None`` when it concerns neither.
        line: 1-based line in that LF-normalised comment, or ``None``.
        step: the step id it concerns, or ``None``. port: the port, or ``None``.
    """

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: str
    message: str
    comment: str | None = None
    line: int | None = None
    step: str | None = None
    port: str | None = None


class ValidationResult(BaseModel):
    """The result of validate mode (SPEC 10).

    Attributes:
        status: ``"valid"`` (no error finding), ``"invalid"``, or the SPEC 6 status of a
            fetch failure (``comment-not-found``, ``gh-auth-expired``, ...).
        errors, warnings: how many findings have that severity.
        findings: every finding, in comment order (plan first, then by line).
        message: why, for a fetch failure (``None`` otherwise).
    """

    model_config = ConfigDict(frozen=True)

    status: str
    errors: int = 0
    warnings: int = 0
    findings: tuple[Finding, ...] = ()
    message: str | None = None

    @property
    def exit_code(self) -> int:
        """0 when valid, 1 otherwise (SPEC 9)."""
        return 0 if self.status == VALID else 1


def _finding(
    severity: Severity,
    code: str,
    message: str,
    *,
    comment: str | None = None,
    line: int | None = None,
    step: str | None = None,
    port: str | None = None,
) -> Finding:
    return Finding(
        severity=severity,
        code=code,
        message=message,
        comment=comment,
        line=line,
        step=step,
        port=port,
    )


def error(code: str, message: str, **where: Any) -> Finding:
    """Build an error finding (``where``: comment, line, step, port)."""
    return _finding(Severity.ERROR, code, message, **where)


def warning(code: str, message: str, **where: Any) -> Finding:
    """Build a warning finding (``where``: comment, line, step, port)."""
    return _finding(Severity.WARNING, code, message, **where)


def _notice(code: str, message: str, **where: Any) -> Finding:
    return _finding(Severity.NOTICE, code, message, **where)


def result_of(findings: Iterable[Finding]) -> ValidationResult:
    """Sort findings into comment order and count them into a :class:`ValidationResult`."""
    ordered = sorted(
        enumerate(findings),
        key=lambda item: (_COMMENT_ORDER.get(item[1].comment, 2), item[1].line or 0, item[0]),
    )
    kept = tuple(finding for _index, finding in ordered)
    errors = sum(finding.severity is Severity.ERROR for finding in kept)
    warnings = sum(finding.severity is Severity.WARNING for finding in kept)
    return ValidationResult(
        status=INVALID if errors else VALID, errors=errors, warnings=warnings, findings=kept
    )


def _identity_findings(comments: ScannedComments, issue_number: int | None) -> list[Finding]:
    if issue_number is None:
        return []
    found = []
    problem = plan_identity_problem(comments.plan, issue_number)
    if problem is not None:
        found.append(
            error(
                "plan-identity-mismatch",
                problem,
                comment="plan",
                line=_foreign_marker_line(comments.plan, "plan-issue", issue_number),
            )
        )
    if comments.sibling is not None:
        problem = sibling_identity_problem(comments.sibling, issue_number)
        if problem is not None:
            found.append(
                error(
                    "sibling-identity-mismatch",
                    problem,
                    comment="sibling",
                    line=_foreign_marker_line(comments.sibling, "frame-slices", issue_number),
                )
            )
    return found


def _foreign_marker_line(scan: CommentScan, kind: str, issue_number: int) -> int | None:
    """The line of the first marker of ``kind`` naming another issue, if any."""
    for marker in scan.markers:
        if marker.kind == kind and marker.value != str(issue_number):
            return marker.line
    return None


def _spine_blocks(comments: ScannedComments) -> list[tuple[str, Block]]:
    return [
        (comment, block)
        for comment, scan in comments.comments()
        for block in scan.blocks
        if block.name == SPINE
    ]


def _variant_findings(
    comments: ScannedComments, spines: Sequence[tuple[str, Block]]
) -> list[Finding]:
    text = comments.plan.text
    variants = plan_variants(text)
    found: list[Finding] = []
    if len(variants) > 1:
        named = ", ".join(value for _line, value in variants)
        found.append(
            error(
                "ambiguous-variant",
                f"{len(variants)} plan-variant lines in the frontmatter ({named}); at most one "
                "is allowed",
                comment="plan",
                line=variants[1][0],
            )
        )
    spineless = [(line, value) for line, value in variants if value in SPINELESS_VARIANTS]
    omitted = spine_omitted(text)
    if spineless:
        line, reason = (
            spineless[0][0],
            f"a {spineless[0][1]} plan (plan-variant: {spineless[0][1]})",
        )
    elif omitted is not None:
        line, reason = omitted, "a plan that says spine-omitted: plan-too-small"
    else:
        return found
    if spines:
        comment, block = spines[0]
        found.append(
            error(
                "variant-with-spine",
                f"{reason} carries no spine by design, but a frame-spine block is at line "
                f"{block.head_line}",
                comment=comment,
                line=block.head_line,
            )
        )
    elif len(variants) <= 1:
        found.append(
            _notice(
                "no-spine-by-design",
                f"no spine: {reason} has none by design",
                comment="plan",
                line=line,
            )
        )
    return found


def _block_findings(comments: ScannedComments) -> list[Finding]:
    found = []
    for comment, scan in comments.comments():
        for head in scan.unterminated:
            found.append(
                error(
                    "unterminated-block",
                    f"the {head.name} head at line {head.line} has no closing -->",
                    comment=comment,
                    line=head.line,
                )
            )
        for block in scan.blocks:
            if block.name == SLICE and slice_step_id(block.payload) is None:
                found.append(
                    error(
                        "slice-without-id",
                        f"the frame-slice block at line {block.head_line} has no column-0 "
                        "step_id: (or id:) line",
                        comment=comment,
                        line=block.head_line,
                    )
                )
    return found


def _spine_text_findings(comment: str, block: Block, scan: CommentScan) -> list[Finding]:
    """``trailing-whitespace`` for each spine line that ends with spaces or tabs, read from
    the comment itself (the payload's last line has already lost its trailing whitespace)."""
    payload_lines = block.payload.split("\n")
    raw_lines = scan.text.split("\n")[
        block.payload_line - 1 : block.payload_line - 1 + len(payload_lines)
    ]
    found = []
    for offset, (text, raw) in enumerate(zip(payload_lines, raw_lines, strict=False)):
        rest = raw[len(text) :] if raw.startswith(text) else ""
        trailing = text != text.rstrip(" \t") or (rest and not rest.strip(" \t"))
        if trailing:
            line = block.payload_line + offset
            found.append(
                warning(
                    "trailing-whitespace",
                    f"spine line {line} ends with whitespace",
                    comment=comment,
                    line=line,
                )
            )
    return found


def _sibling_missing(
    spine: Spine | None, comments: ScannedComments, sibling_id: int | None
) -> list[Finding]:
    """``sibling-missing`` when a sibling was expected (the spine's pointer, or a given id)
    but none was supplied or found."""
    if comments.sibling is not None:
        return []
    if spine is not None and spine.slice_comment_id is not None:
        return [
            error(
                "sibling-missing",
                f"the spine points at sibling comment {spine.slice_comment_id} "
                "(slice_comment_id), but there is no such sibling",
                comment="plan",
                line=spine.key_lines.get("slice_comment_id"),
            )
        ]
    if sibling_id is not None:
        return [error("sibling-missing", f"sibling comment {sibling_id} was not found")]
    return []


def _stamp_findings(
    spine: Spine, comments: ScannedComments, sibling_id: int | None
) -> list[Finding]:
    pointer = spine.slice_comment_id
    sibling = comments.sibling
    if pointer is None or sibling is None:
        return []
    pointer_line = spine.key_lines.get("slice_comment_id")
    found = []
    if sibling_id is not None and str(sibling_id) != pointer:
        found.append(
            error(
                "sibling-identity-mismatch",
                f"sibling comment {sibling_id} was given, but the spine points at sibling "
                f"comment {pointer} (slice_comment_id)",
                comment="plan",
                line=pointer_line,
            )
        )
    stamps = [marker for marker in sibling.markers if marker.kind == "stamp"]
    instants = [parse_instant(marker.value) for marker in stamps]
    if not stamps:
        found.append(
            error(
                "sibling-unstamped",
                "the sibling carries no <!-- frame-slices-generated-at: ... --> stamp line",
                comment="sibling",
            )
        )
    elif any(instant is None for instant in instants):
        bad = next(m for m, i in zip(stamps, instants, strict=True) if i is None)
        found.append(
            error(
                "sibling-unstamped",
                f"the sibling's stamp {bad.value!r} is not a timestamp",
                comment="sibling",
                line=bad.line,
            )
        )
    elif len(set(instants)) > 1:
        found.append(
            error(
                "sibling-unstamped",
                f"the sibling carries {len(stamps)} stamps that name different instants",
                comment="sibling",
                line=stamps[1].line,
            )
        )
    elif instants[0] != spine.instant:
        found.append(
            error(
                "stale-sibling",
                f"the sibling is stamped {stamps[0].value}, but the spine's generated_at is "
                f"{spine.generated_at}: the slices were written for another spine",
                comment="sibling",
                line=stamps[0].line,
            )
        )
    return found


def _step_lines(spine: Spine) -> dict[str, int]:
    """The line that defines each step of the spine: its ``sN:`` entry under ``slices:``, or,
    for a step named only by port tokens, the first port line naming it."""
    lines: dict[str, int] = {}
    for route in spine.ports:
        for token in route.tokens:
            lines.setdefault(token.step, route.line)
    for entry in spine.slices:
        lines[entry.step] = entry.line
    return lines


#: Dependency cycles listed one by one; the rest are counted in one more finding, so the
#: work stays linear in the plan however many cycles it holds (SPEC 10).
MAX_LISTED_CYCLES = 20


@dataclass(frozen=True, slots=True)
class _Cycles:
    """The dependency cycles met by one depth-first walk (see :func:`_cycles`).

    Attributes:
        listed: the first :data:`MAX_LISTED_CYCLES` cycles, each rotated to start at its
            earliest step in ``slices:`` order.
        unlisted: how many more cycles the walk met. first_unlisted: the step that closes the
            first of them (``None`` when there are none).
    """

    listed: list[list[str]]
    unlisted: int
    first_unlisted: str | None


def _cycles(spine: Spine) -> _Cycles:
    """The dependency cycles among the spine's slices, each once, in spine order (SPEC 10).

    An iterative depth-first walk from each slice in ``slices:`` order: every edge to a step
    still on the walk's path closes one cycle (the path from that step). No recursion, so a
    ``depends_on`` chain as long as a comment can hold is fine; time is linear in steps plus
    dependencies, plus the length of the listed cycles.
    """
    graph = {entry.step: entry.depends_on for entry in spine.slices}
    order = {entry.step: index for index, entry in enumerate(spine.slices)}
    listed: list[list[str]] = []
    closed: set[tuple[str, str]] = set()
    unlisted = 0
    first_unlisted: str | None = None
    done: set[str] = set()
    position: dict[str, int] = {}  # step -> its index in ``path`` while on it
    path: list[str] = []
    for root in graph:
        if root in done:
            continue
        path.append(root)
        position[root] = 0
        pending = [iter(graph[root])]
        while pending:
            step = path[-1]
            dependency = next(pending[-1], None)
            if dependency is None:
                pending.pop()
                path.pop()
                del position[step]
                done.add(step)
                continue
            if dependency not in graph or dependency in done:
                continue
            if dependency in position:
                if (step, dependency) in closed:
                    continue
                closed.add((step, dependency))
                if len(listed) == MAX_LISTED_CYCLES:
                    unlisted += 1
                    first_unlisted = first_unlisted or dependency
                    continue
                cycle = path[position[dependency] :]
                start = min(range(len(cycle)), key=lambda i: order[cycle[i]])
                listed.append(cycle[start:] + cycle[:start])
                continue
            position[dependency] = len(path)
            path.append(dependency)
            pending.append(iter(graph[dependency]))
    return _Cycles(listed, unlisted, first_unlisted)


def _spine_findings(
    spine: Spine, comment: str, slices: Sequence[tuple[str, Block, str]]
) -> list[Finding]:
    found: list[Finding] = []
    names = [route.name for route in spine.ports]
    for previous, route in zip(spine.ports, spine.ports[1:], strict=False):
        if route.name < previous.name:
            found.append(
                warning(
                    "non-canonical-order",
                    f"ports are not in canonical (sorted) order: {route.name} comes after "
                    f"{previous.name} (expected: {', '.join(sorted(names))})",
                    comment=comment,
                    line=route.line,
                    port=route.name,
                )
            )
            break

    coverage = spine.coverage
    if coverage is not None and coverage != "complete" and exploratory_reason(coverage) is None:
        found.append(
            error(
                "invalid-coverage",
                f"spine coverage {coverage!r} is neither 'complete' nor 'exploratory - <reason>'",
                comment=comment,
                line=spine.coverage_line,
            )
        )

    steps = spine.steps
    step_lines = _step_lines(spine)
    by_step: dict[str, list[tuple[str, Block]]] = {}
    for block_comment, block, step in slices:
        by_step.setdefault(step, []).append((block_comment, block))
    for step in sorted(steps, key=lambda s: (step_lines[s], len(s), s)):
        if step not in by_step:
            found.append(
                error(
                    "unresolved-step",
                    f"step {step} is in the spine but no frame-slice block carries it",
                    comment=comment,
                    line=step_lines[step],
                    step=step,
                )
            )
    for step, blocks in by_step.items():
        if len(blocks) > 1:
            second_comment, second = blocks[1]
            found.append(
                error(
                    "duplicate-slice-id",
                    f"{len(blocks)} frame-slice blocks carry step {step}",
                    comment=second_comment,
                    line=second.head_line,
                    step=step,
                )
            )
        if step not in steps:
            block_comment, block = blocks[0]
            found.append(
                warning(
                    "orphan-slice",
                    f"the frame-slice block for {step} is for a step that is not in the spine",
                    comment=block_comment,
                    line=block.head_line,
                    step=step,
                )
            )

    routed = {token.step for route in spine.ports for token in route.tokens}
    terminal_tokens = {
        token.step for route in spine.ports for token in route.tokens if token.terminal
    }
    for entry in spine.slices:
        if entry.step not in routed:
            found.append(
                warning(
                    "unrouted-step",
                    f"no port routes to step {entry.step}",
                    comment=comment,
                    line=entry.line,
                    step=entry.step,
                )
            )
        if entry.terminal is False and entry.step in terminal_tokens:
            found.append(
                warning(
                    "terminal-mismatch",
                    f"a port token marks {entry.step} #terminal, but the "
                    "spine says terminal: false",
                    comment=comment,
                    line=entry.property_lines.get("terminal", entry.line),
                    step=entry.step,
                )
            )
        if entry.terminal is True and entry.step not in terminal_tokens:
            found.append(
                warning(
                    "terminal-mismatch",
                    f"the spine says terminal: true for {entry.step}, but "
                    "no port token marks it #terminal",
                    comment=comment,
                    line=entry.property_lines.get("terminal", entry.line),
                    step=entry.step,
                )
            )
        for dependency in entry.depends_on:
            if dependency not in steps:
                found.append(
                    error(
                        "unknown-dependency",
                        f"{entry.step} depends on {dependency}, which is not in the spine",
                        comment=comment,
                        line=entry.property_lines.get("depends_on", entry.line),
                        step=entry.step,
                    )
                )
    lines = {
        entry.step: entry.property_lines.get("depends_on", entry.line) for entry in spine.slices
    }
    cycles = _cycles(spine)
    for cycle in cycles.listed:
        found.append(
            error(
                "dependency-cycle",
                "dependency cycle: " + " -> ".join([*cycle, cycle[0]]),
                comment=comment,
                line=lines[cycle[0]],
                step=cycle[0],
            )
        )
    if cycles.first_unlisted is not None:
        found.append(
            error(
                "dependency-cycle",
                f"{cycles.unlisted} more dependency cycles (only the first "
                f"{MAX_LISTED_CYCLES} are listed)",
                comment=comment,
                line=lines[cycles.first_unlisted],
                step=cycles.first_unlisted,
            )
        )

    reported: set[tuple[str, str]] = set()
    for route in spine.ports:
        for token in route.tokens:
            if (route.name, token.step) in reported:
                continue
            reported.add((route.name, token.step))
            carriers = by_step.get(token.step)
            if not carriers:
                continue
            block_comment, block = carriers[0]
            provided = slice_ports(block.payload)
            if provided is None:
                continue  # reported as slice-without-provides (or exploratory)
            if route.name.lower() not in {port.lower() for port in provided}:
                found.append(
                    error(
                        "port-not-provided",
                        f"port {route.name} routes to {token.step}, but its slice's "
                        f"provides: [{', '.join(provided)}] omits it",
                        comment=block_comment,
                        line=block.head_line,
                        step=token.step,
                        port=route.name,
                    )
                )
    return found


def _slice_field_findings(slices: Sequence[tuple[str, Block, str]]) -> list[Finding]:
    found = []
    for comment, block, step in slices:
        reason = slice_exploratory(block.payload)
        if reason is not None:
            found.append(
                warning(
                    "exploratory-slice",
                    f"slice {step} is exploratory: {reason}",
                    comment=comment,
                    line=block.head_line,
                    step=step,
                )
            )
        elif slice_ports(block.payload) is None:
            found.append(
                error(
                    "slice-without-provides",
                    f"slice {step} has neither a provides:/ports: "
                    "inline list nor coverage: exploratory - <reason>",
                    comment=comment,
                    line=block.head_line,
                    step=step,
                )
            )
    return found


def validate_scanned(
    comments: ScannedComments,
    *,
    issue_number: int | None,
    sibling_id: int | None = None,
    extra: Iterable[Finding] = (),
) -> ValidationResult:
    """Validate a plan and its sibling (SPEC 10), reporting every finding at once.

    Args:
        comments: the scanned plan and, when there is one, sibling.
        issue_number: the plan's issue ``N`` for the identity checks, or ``None``.
        sibling_id: the id of the sibling supplied, when known, checked against the spine's
            ``slice_comment_id``.
        extra: findings the fetching edge made (``issue_url`` mismatches, older plan
            comments), merged in comment order.

    Returns:
        The :class:`ValidationResult` (``valid`` when no finding is an error). Never raises.
    """
    findings = _identity_findings(comments, issue_number)
    spines = _spine_blocks(comments)
    findings += _variant_findings(comments, spines)
    findings += _block_findings(comments)
    spineless_variant = any(
        value in SPINELESS_VARIANTS for _line, value in plan_variants(comments.plan.text)
    )
    by_design = spineless_variant or spine_omitted(comments.plan.text) is not None
    unterminated_spine = any(
        head.name == SPINE for _c, scan in comments.comments() for head in scan.unterminated
    )
    if not spines and not by_design and not unterminated_spine:
        findings.append(error("missing-spine", missing_spine_message(comments), comment="plan"))
    for comment, block in spines[1:]:
        findings.append(
            error(
                "multiple-spines",
                f"another frame-spine block at line {block.head_line}; exactly one is allowed",
                comment=comment,
                line=block.head_line,
            )
        )

    slices = [
        (comment, block, step)
        for comment, scan in comments.comments()
        for block in scan.blocks
        if block.name == SLICE and (step := slice_step_id(block.payload)) is not None
    ]
    findings += _slice_field_findings(slices)
    spine: Spine | None = None
    if len(spines) == 1:
        comment, block = spines[0]
        scan = comments.plan if comment == "plan" else comments.sibling
        assert scan is not None
        findings += _spine_text_findings(comment, block, scan)
        parsed = parse_spine(block.payload, block.payload_line)
        reported_lines: set[int | None] = set()
        text_lines = scan.text.split("\n") if parsed.problems else []
        for problem in parsed.problems:
            if problem.line is not None and problem.line in reported_lines:
                continue
            reported_lines.add(problem.line)
            quoted = ""
            if problem.line is not None:
                quoted = ": " + repr(text_lines[problem.line - 1].strip()[:120])
            findings.append(
                error(
                    "invalid-spine",
                    f"{problem.message}{quoted}",
                    comment=comment,
                    line=problem.line if problem.line is not None else block.head_line,
                )
            )
        spine = parsed.spine
        if spine is not None:
            findings += _stamp_findings(spine, comments, sibling_id)
            findings += _spine_findings(spine, comment, slices)
    findings += _sibling_missing(spine, comments, sibling_id)
    findings += list(extra)
    return result_of(findings)
