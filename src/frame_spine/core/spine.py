"""The spine grammar (SPEC 3): a strict line grammar, not general YAML.

Pure: a spine payload in, a :class:`SpineParse` out. Every violation is reported as a
:class:`SpineProblem` with the comment line it sits on; parsing never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .timestamps import Instant, parse_instant

_TOP_LEVEL = re.compile(r"([A-Za-z_]+):(.*)", re.ASCII)
_PORT_LINE = re.compile(r"  ([A-Za-z0-9_-]+):(.*)", re.ASCII)
_SLICE_LINE = re.compile(r"  (s[0-9]+):", re.ASCII)
_PROPERTY_LINE = re.compile(r"    ([A-Za-z0-9_]+):(.*)", re.ASCII)
# Cycles are small counts and comment ids are 64-bit on GitHub: longer digit runs are refused
# here (and never handed to int(), which raises beyond 4,300 digits).
_TOKEN = re.compile(r"(s[0-9]+)(?:#cycle:([0-9]{1,18}))?(#terminal)?", re.ASCII)
_DIGITS = re.compile(r"[0-9]{1,18}", re.ASCII)
_COMMENT_ID = re.compile(r"[0-9]{1,20}", re.ASCII)

_SCALAR_KEYS = ("spine_schema_version", "generated_at", "coverage", "slice_comment_id")
_SECTIONS = ("ports", "slices")
_LIST_PROPERTIES = ("ac_refs", "depends_on")


@dataclass(frozen=True, slots=True)
class PortToken:
    """A port token ``sN[#cycle:K][#terminal]`` (SPEC 3).

    Attributes:
        step: the step id (``"s8"``).
        cycle: ``K`` of ``#cycle:K``, or ``None``.
        terminal: whether ``#terminal`` is present.
    """

    step: str
    cycle: int | None
    terminal: bool


@dataclass(frozen=True, slots=True)
class PortRoute:
    """One line of the ``ports:`` section: a port name routed to step tokens, and its line."""

    name: str
    tokens: tuple[PortToken, ...]
    line: int


@dataclass(frozen=True, slots=True)
class SpineSlice:
    """One entry of the ``slices:`` section.

    Attributes:
        step: the step id (``"s4"``).
        line: 1-based comment line of ``  sN:``.
        ac_refs, depends_on: the inline lists' items.
        cycle: a non-negative integer.
        terminal: ``True``/``False`` when a ``terminal:`` key is present, else ``None``.
        properties: every property as written (``key -> raw value``), in order.
        property_lines: the 1-based comment line of each property.
    """

    step: str
    line: int
    ac_refs: tuple[str, ...]
    depends_on: tuple[str, ...]
    cycle: int
    terminal: bool | None
    properties: dict[str, str] = field(hash=False, compare=False)
    property_lines: dict[str, int] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True, slots=True)
class Spine:
    """A valid spine (SPEC 3).

    Attributes:
        schema_version: 1 or 2.
        generated_at: the timestamp as written; ``instant`` is its parsed value.
        coverage: the free-text ``coverage`` value, or ``None`` when absent.
        slice_comment_id: the sibling's comment id as decimal digits, or ``None``.
        ports: the port lines in order; slices: the slice entries in order.
        key_lines: the 1-based comment line of each top-level key and section header
            (``"generated_at"``, ``"slice_comment_id"``, ``"ports"``, ...).
    """

    schema_version: int
    generated_at: str
    instant: Instant
    coverage: str | None
    coverage_line: int | None
    slice_comment_id: str | None
    ports: tuple[PortRoute, ...]
    slices: tuple[SpineSlice, ...]
    key_lines: dict[str, int] = field(default_factory=dict, hash=False, compare=False)

    @property
    def steps(self) -> frozenset[str]:
        """The steps "in the spine": keys under ``slices:`` and steps of any port token."""
        named = {entry.step for entry in self.slices}
        named.update(token.step for route in self.ports for token in route.tokens)
        return frozenset(named)


@dataclass(frozen=True, slots=True)
class SpineProblem:
    """A violation of SPEC 3.

    Attributes:
        line: 1-based comment line of the offending spine line, or ``None`` for a problem of
            the whole spine (a missing required key or section).
        message: what is wrong, e.g. ``"unknown key 'owner'"``.
    """

    line: int | None
    message: str


@dataclass(frozen=True, slots=True)
class SpineParse:
    """The outcome of :func:`parse_spine`: a spine, or every problem found (never both)."""

    spine: Spine | None
    problems: tuple[SpineProblem, ...]


def parse_inline_list(value: str) -> tuple[str, ...] | None:
    """Parse an inline list ``[a, b]`` (SPEC 3).

    Args:
        value: the text after the key's colon, stripped.

    Returns:
        The trimmed items (``()`` for ``[]``), or ``None`` when ``value`` is not an inline
        list or has an empty item (``[a,,b]``, ``[a,]``) or a nested bracket.
    """
    if len(value) < 2 or value[0] != "[" or value[-1] != "]":
        return None
    inner = value[1:-1]
    if "[" in inner or "]" in inner:
        return None
    if not inner.strip():
        return ()
    items = tuple(item.strip() for item in inner.split(","))
    if any(not item for item in items):
        return None
    return items


class _SliceDraft:
    __slots__ = ("line", "lines", "properties", "step")

    def __init__(self, step: str, line: int) -> None:
        self.step = step
        self.line = line
        # Two flat dicts of strings and ints (no tuples): the garbage collector can leave
        # them alone, which keeps a 5,000-step spine linear in practice.
        self.properties: dict[str, str] = {}
        self.lines: dict[str, int] = {}


def _finish_slice(draft: _SliceDraft, problems: list[SpineProblem]) -> SpineSlice | None:
    values: dict[str, object] = {}
    ok = True
    for key in (*_LIST_PROPERTIES, "cycle"):
        if key not in draft.properties:
            problems.append(SpineProblem(draft.line, f"slice {draft.step} has no {key}"))
            ok = False
    for key, raw in draft.properties.items():
        line = draft.lines[key]
        if key in _LIST_PROPERTIES:
            items = parse_inline_list(raw)
            if items is None:
                problems.append(SpineProblem(line, f"{key} of {draft.step} is not an inline list"))
                ok = False
            values[key] = items
        elif key == "cycle":
            if not _DIGITS.fullmatch(raw):
                problems.append(
                    SpineProblem(line, f"cycle of {draft.step} is not a non-negative integer")
                )
                ok = False
            else:
                values[key] = int(raw)
        elif key == "terminal":
            if raw not in ("true", "false"):
                problems.append(SpineProblem(line, f"terminal of {draft.step} is not true/false"))
                ok = False
            values[key] = raw == "true"
    if not ok:
        return None
    ac_refs = values["ac_refs"]
    depends_on = values["depends_on"]
    cycle = values["cycle"]
    terminal = values.get("terminal")
    assert isinstance(ac_refs, tuple) and isinstance(depends_on, tuple)
    assert isinstance(cycle, int) and (terminal is None or isinstance(terminal, bool))
    return SpineSlice(
        step=draft.step,
        line=draft.line,
        ac_refs=ac_refs,
        depends_on=depends_on,
        cycle=cycle,
        terminal=terminal,
        properties=draft.properties,
        property_lines=draft.lines,
    )


def _parse_tokens(value: str) -> tuple[PortToken, ...] | str:
    items = parse_inline_list(value)
    if items is None:
        return "is not an inline list"
    tokens: list[PortToken] = []
    for item in items:
        match = _TOKEN.fullmatch(item)
        if match is None:
            return f"has a malformed port token {item!r} (expected sN[#cycle:K][#terminal])"
        cycle = match.group(2)
        tokens.append(
            PortToken(
                match.group(1), None if cycle is None else int(cycle), match.group(3) is not None
            )
        )
    return tuple(tokens)


def parse_spine(payload: str, first_line: int = 1) -> SpineParse:
    """Parse a spine payload (SPEC 3), collecting every problem.

    Args:
        payload: the spine block's payload (LF line ends; SPEC 2.6).
        first_line: the 1-based comment line of the payload's first line, so problems point
            into the comment.

    Returns:
        :class:`SpineParse` with the :class:`Spine` when there is no problem, else ``None``
        and the problems in line order (whole-spine problems, ``line=None``, last).
        Never raises.
    """
    problems: list[SpineProblem] = []
    scalars: dict[str, tuple[str, int]] = {}
    seen_sections: set[str] = set()
    key_lines: dict[str, int] = {}
    section: str | None = None
    ports: list[PortRoute] = []
    port_names: set[str] = set()
    drafts: list[_SliceDraft] = []
    slice_steps: set[str] = set()
    current: _SliceDraft | None = None

    for offset, raw_line in enumerate(payload.split("\n")):
        line_no = first_line + offset
        line = raw_line.rstrip(" \t")
        if not line:
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:indent]:
            problems.append(SpineProblem(line_no, "tab in indentation"))
            continue
        if indent == 0:
            current = None
            match = _TOP_LEVEL.fullmatch(line)
            key = match.group(1).lower() if match is not None else ""
            if match is None or (key not in _SCALAR_KEYS and key not in _SECTIONS):
                problems.append(SpineProblem(line_no, "unknown or malformed top-level line"))
                section = None
                continue
            value = match.group(2).strip(" \t")
            if key in _SECTIONS:
                if key in seen_sections:
                    problems.append(SpineProblem(line_no, f"repeated {key}: section"))
                elif value:
                    problems.append(SpineProblem(line_no, f"{key}: takes no value on its line"))
                seen_sections.add(key)
                key_lines.setdefault(key, line_no)
                section = key
                continue
            section = None
            if key in scalars:
                problems.append(SpineProblem(line_no, f"repeated {key}"))
                continue
            scalars[key] = (value, line_no)
            key_lines[key] = line_no
            continue
        if section == "ports":
            port = _PORT_LINE.fullmatch(line)
            if port is None:
                problems.append(
                    SpineProblem(line_no, "a ports: line must be two spaces, name: [tokens]")
                )
                continue
            name = port.group(1)
            tokens = _parse_tokens(port.group(2).strip(" \t"))
            if isinstance(tokens, str):
                problems.append(SpineProblem(line_no, f"port {name} {tokens}"))
                continue
            if name.lower() in port_names:
                problems.append(SpineProblem(line_no, f"repeated port {name}"))
                continue
            port_names.add(name.lower())
            ports.append(PortRoute(name, tokens, line_no))
            continue
        if section == "slices":
            if indent == 2:
                opened = _SLICE_LINE.fullmatch(line)
                if opened is None:
                    current = None
                    problems.append(
                        SpineProblem(line_no, "a slices: entry must be two spaces, sN:")
                    )
                    continue
                step = opened.group(1)
                current = _SliceDraft(step, line_no)
                if step in slice_steps:
                    # Its properties are read (so they are not reported) but never kept.
                    problems.append(SpineProblem(line_no, f"repeated step {step}"))
                    continue
                slice_steps.add(step)
                drafts.append(current)
                continue
            prop = _PROPERTY_LINE.fullmatch(line) if indent == 4 else None
            if prop is None or current is None:
                problems.append(
                    SpineProblem(
                        line_no,
                        "a slice property must be four spaces, key: value, under an sN: entry",
                    )
                )
                continue
            key = prop.group(1)
            if key in current.properties:
                problems.append(SpineProblem(line_no, f"repeated {key} in {current.step}"))
                continue
            current.properties[key] = prop.group(2).strip(" \t")
            current.lines[key] = line_no
            continue
        problems.append(SpineProblem(line_no, "indented line outside ports:/slices:"))

    schema_version = 0
    version = scalars.get("spine_schema_version")
    if version is None:
        problems.append(SpineProblem(None, "no spine_schema_version"))
    elif version[0] not in ("1", "2"):
        problems.append(SpineProblem(version[1], "spine_schema_version must be 1 or 2"))
    else:
        schema_version = int(version[0])

    generated_at = ""
    instant: Instant | None = None
    stamp = scalars.get("generated_at")
    if stamp is None:
        problems.append(SpineProblem(None, "no generated_at"))
    else:
        generated_at = stamp[0]
        instant = parse_instant(generated_at)
        if instant is None:
            problems.append(
                SpineProblem(stamp[1], "generated_at is not a YYYY-MM-DDTHH:MM:SS[.f]Z instant")
            )

    slice_comment_id: str | None = None
    pointer = scalars.get("slice_comment_id")
    if pointer is not None and pointer[0]:
        if _COMMENT_ID.fullmatch(pointer[0]) and int(pointer[0]) > 0:
            slice_comment_id = str(int(pointer[0]))
        else:
            problems.append(SpineProblem(pointer[1], "slice_comment_id is not a positive integer"))

    slices = [entry for entry in (_finish_slice(d, problems) for d in drafts) if entry]
    if not ports and "ports" not in seen_sections:
        problems.append(SpineProblem(None, "no ports: section"))
    elif not ports:
        problems.append(SpineProblem(None, "no port under ports:"))
    if not drafts and "slices" not in seen_sections:
        problems.append(SpineProblem(None, "no slices: section"))
    elif not drafts:
        problems.append(SpineProblem(None, "no slice under slices:"))

    if problems or instant is None:
        problems.sort(key=lambda problem: (problem.line is None, problem.line or 0))
        return SpineParse(None, tuple(problems))
    coverage = scalars.get("coverage")
    return SpineParse(
        Spine(
            schema_version=schema_version,
            generated_at=generated_at,
            instant=instant,
            coverage=None if coverage is None else coverage[0],
            coverage_line=None if coverage is None else coverage[1],
            slice_comment_id=slice_comment_id,
            ports=tuple(ports),
            slices=tuple(slices),
            key_lines=key_lines,
        ),
        (),
    )
