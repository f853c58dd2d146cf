"""Validate's rules (SPEC 10): every finding about a plan and its sibling, at once. Each rule
family is one function on :class:`~.facts.PlanFacts`, run from two tables: :data:`PLAN_RULES`,
then :data:`~.spine_rules.SPINE_RULES` when the one spine parsed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..core.blocks import CommentScan, MarkerKind
from ..core.identity import marker_problem
from ..core.plan import ScannedComments, missing_spine_message
from ..core.slices import slice_ac_refs, slice_exploratory
from .facts import PlanFacts, plan_facts
from .models import Code, Finding, ValidationResult, at_block, finding, result_of
from .spine_rules import SPINE_RULES
from .variant_rules import design_rule, variant_rule


def _foreign_marker_line(scan: CommentScan, kind: str, issue_number: int) -> int | None:
    """The line of the first marker of ``kind`` naming another issue."""
    wanted = str(issue_number)
    return next((m.line for m in scan.markers if m.kind == kind and m.value != wanted), None)


_IDENTITY: dict[str, tuple[MarkerKind, Code]] = {
    "plan": ("plan-issue", Code.PLAN_IDENTITY_MISMATCH),
    "sibling": ("frame-slices", Code.SIBLING_IDENTITY_MISMATCH),
}


def identity_rule(facts: PlanFacts) -> list[Finding]:
    """``plan-identity-mismatch`` / ``sibling-identity-mismatch`` from the marker lines."""
    number = facts.issue_number
    if number is None:
        return []
    found = []
    for comment, scan in facts.comments.comments():
        kind, code = _IDENTITY[comment]
        problem = marker_problem(scan, kind, number)
        if problem is not None:
            line = _foreign_marker_line(scan, kind, number)
            found.append(finding(code, problem, comment=comment, line=line))
    return found


def block_rule(facts: PlanFacts) -> list[Finding]:
    """``unterminated-block`` and ``slice-without-id``."""
    found = []
    for comment, scan in facts.comments.comments():
        for head in scan.unterminated:
            message = f"the {head.name} head at line {head.line} has no closing -->"
            found.append(finding(Code.UNTERMINATED_BLOCK, message, comment=comment, line=head.line))
        for block_comment, block in facts.unaddressed:
            if block_comment == comment:
                message = (
                    f"the frame-slice block at line {block.head_line} has no column-0 "
                    "step_id: (or id:) line"
                )
                found.append(at_block(Code.SLICE_WITHOUT_ID, message, comment, block))
    return found


def spine_count_rule(facts: PlanFacts) -> list[Finding]:
    """``missing-spine`` (unless a variant or an unterminated head says why) and
    ``multiple-spines``."""
    found = []
    comments = facts.comments
    if not facts.variants and facts.omitted_line is None and not comments.holds_spine_head():
        found.append(finding(Code.MISSING_SPINE, missing_spine_message(comments), comment="plan"))
    for comment, block in facts.spines[1:]:
        message = f"another frame-spine block at line {block.head_line}; exactly one is allowed"
        found.append(at_block(Code.MULTIPLE_SPINES, message, comment, block))
    return found


def slice_field_rule(facts: PlanFacts) -> list[Finding]:
    """``exploratory-slice``, else ``slice-without-provides``."""
    found = []
    for comment, block, step in facts.slices:
        reason = slice_exploratory(block.payload)
        if reason is not None:
            message = f"slice {step} is exploratory: {reason}"
            found.append(at_block(Code.EXPLORATORY_SLICE, message, comment, block, step=step))
            continue
        provided = facts.slice_ports(block.payload)
        if provided:
            continue
        if provided is None:
            message = (
                f"slice {step} has neither a provides:/ports: inline list nor coverage: "
                "exploratory - <reason>"
            )
        else:
            message = (
                f"slice {step} has an empty provides:/ports: list (provides: [] is no list) "
                "and no coverage: exploratory - <reason>"
            )
        found.append(at_block(Code.SLICE_WITHOUT_PROVIDES, message, comment, block, step=step))
    return found


def trailing_whitespace_rule(facts: PlanFacts) -> list[Finding]:
    """``trailing-whitespace``, read from the comment (the payload's last line lost its own)."""
    if len(facts.spines) != 1:
        return []
    comment, block = facts.spines[0]
    payload_lines = block.payload.split("\n")
    first = block.payload_line - 1
    raw_lines = facts.comments.scan(comment).text.split("\n")[first : first + len(payload_lines)]
    found = []
    for offset, (text, raw) in enumerate(zip(payload_lines, raw_lines, strict=False)):
        rest = raw[len(text) :] if raw.startswith(text) else ""
        if text != text.rstrip(" \t") or (rest and not rest.strip(" \t")):
            line = block.payload_line + offset
            message = f"spine line {line} ends with whitespace"
            found.append(finding(Code.TRAILING_WHITESPACE, message, comment=comment, line=line))
    return found


def grammar_rule(facts: PlanFacts) -> list[Finding]:
    """``invalid-spine`` once per offending line; whole-spine problems at the head."""
    if not facts.problems:
        return []
    comment, block = facts.spines[0]
    text_lines = facts.comments.scan(comment).text.split("\n")
    reported: set[int | None] = set()
    found = []
    for problem in facts.problems:
        if problem.line is not None and problem.line in reported:
            continue
        reported.add(problem.line)
        message, line = problem.message, problem.line
        if line is not None:
            message += ": " + repr(text_lines[line - 1].strip()[:120])
        found.append(
            finding(Code.INVALID_SPINE, message, comment=comment, line=line or block.head_line)
        )
    return found


def acceptance_rule(facts: PlanFacts) -> list[Finding]:
    """``uncovered-ac``, for a plan with a spine block (without one nothing is dispatched)."""
    if not facts.spines or not facts.criteria:
        return []
    covered = {
        ref.upper()
        for _comment, block, _step in facts.slices
        for ref in slice_ac_refs(block.payload) or ()
    }
    spine = facts.spine
    in_spine = {ref.upper() for entry in spine.slices for ref in entry.ac_refs} if spine else set()
    found = []
    for criterion in facts.criteria:
        if criterion.id in covered:
            continue
        message = (
            f"acceptance criterion {criterion.id} is in no frame-slice block's ac-refs: no "
            "specialist is handed it"
        )
        if criterion.id in in_spine:
            message += " (the spine's ac_refs list it, but a specialist reads the slice)"
        found.append(finding(Code.UNCOVERED_AC, message, comment="plan", line=criterion.line))
    return found


def sibling_missing_rule(facts: PlanFacts) -> list[Finding]:
    """``sibling-missing``: expected (the spine's pointer, a given id) but not supplied."""
    if facts.comments.sibling is not None:
        return []
    spine = facts.spine
    if spine is not None and spine.slice_comment_id is not None:
        message = (
            f"the spine points at sibling comment {spine.slice_comment_id} "
            "(slice_comment_id), but there is no such sibling"
        )
        line = spine.key_lines.get("slice_comment_id")
        return [finding(Code.SIBLING_MISSING, message, comment="plan", line=line)]
    if facts.sibling_id is not None:
        return [finding(Code.SIBLING_MISSING, f"sibling comment {facts.sibling_id} was not found")]
    return []


Rule = Callable[[PlanFacts], Sequence[Finding]]

#: The rules on the comments, in the order their findings are listed (before sorting).
PLAN_RULES: tuple[Rule, ...] = (
    identity_rule,
    variant_rule,
    design_rule,
    block_rule,
    spine_count_rule,
    slice_field_rule,
    trailing_whitespace_rule,
    grammar_rule,
    acceptance_rule,
)


def validate_scanned(
    comments: ScannedComments,
    *,
    issue_number: int | None,
    sibling_id: int | None = None,
    extra: Iterable[Finding] = (),
    sibling_withheld: bool = False,
) -> ValidationResult:
    """Validate a plan and its sibling (SPEC 10). ``extra``: the fetching edge's findings;
    ``sibling_withheld``: an untrusted sibling left out (``extra`` says so: no
    ``sibling-missing``)."""
    facts = plan_facts(comments, issue_number=issue_number, sibling_id=sibling_id)
    findings = [finding for rule in PLAN_RULES for finding in rule(facts)]
    if (spine := facts.spine) is not None:
        findings += [finding for rule in SPINE_RULES for finding in rule(facts, spine)]
    if not sibling_withheld:
        findings += sibling_missing_rule(facts)
    findings += list(extra)
    return result_of(findings)
