"""The spine grammar (SPEC 3): a payload in, a :class:`~.spine_model.SpineParse` out."""

from __future__ import annotations

import re
from functools import lru_cache

from .inline_list import parse_inline_list
from .spine_model import PortRoute, PortToken, Spine, SpineParse, SpineProblem, SpineSlice
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

_BLANKS = ("", " ", "\t")  # what cannot follow exactly four spaces of indentation
_SCALAR_KEYS = ("spine_schema_version", "generated_at", "coverage", "slice_comment_id")
_SECTIONS = ("ports", "slices")
_LIST_PROPERTIES = ("ac_refs", "depends_on")


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
    step, known = draft.step, len(problems)
    for key in (*_LIST_PROPERTIES, "cycle"):
        if key not in draft.properties:
            problems.append(SpineProblem(draft.line, f"slice {step} has no {key}"))
    lists: dict[str, tuple[str, ...]] = {}
    cycle, terminal = 0, None
    for key, raw in draft.properties.items():
        line = draft.lines[key]
        if key in _LIST_PROPERTIES:
            items = parse_inline_list(raw)
            if items is None:
                problems.append(SpineProblem(line, f"{key} of {step} is not an inline list"))
            else:
                lists[key] = items
        elif key == "cycle":
            if _DIGITS.fullmatch(raw):
                cycle = int(raw)
            else:
                problems.append(
                    SpineProblem(line, f"cycle of {step} is not a non-negative integer")
                )
        elif key == "terminal":
            if raw not in ("true", "false"):
                problems.append(SpineProblem(line, f"terminal of {step} is not true/false"))
            terminal = raw == "true"
    if len(problems) > known:
        return None
    return SpineSlice(
        step=step,
        line=draft.line,
        ac_refs=lists["ac_refs"],
        depends_on=lists["depends_on"],
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
        step, cycle, terminal = match.groups()
        tokens.append(PortToken(step, None if cycle is None else int(cycle), terminal is not None))
    return tuple(tokens)


class _Reader:
    """Reads a spine payload line by line, collecting every problem; :meth:`finish` checks
    what the whole spine needs."""

    def __init__(self) -> None:
        self.problems: list[SpineProblem] = []
        self.scalars: dict[str, tuple[str, int]] = {}
        self.key_lines: dict[str, int] = {}
        self.section: str | None = None
        self.ports: list[PortRoute] = []
        self.port_names: set[str] = set()
        self.drafts: list[_SliceDraft] = []
        self.slice_steps: set[str] = set()
        self.current: _SliceDraft | None = None

    def problem(self, line: int | None, message: str) -> None:
        self.problems.append(SpineProblem(line, message))

    def read(self, payload: str, first_line: int) -> None:
        """Read every line of ``payload``: a slice property line (most of a large spine) at
        once, any other line, or one with a problem, through :meth:`line`."""
        property_line = _PROPERTY_LINE.fullmatch
        line_no = first_line - 1
        for raw_line in payload.split("\n"):
            line_no += 1
            current = self.current  # set only under slices:
            if current is not None and raw_line[:4] == "    " and raw_line[4:5] not in _BLANKS:
                prop = property_line(raw_line.rstrip(" \t"))
                if prop is not None:
                    key = prop.group(1)
                    if key not in current.properties:
                        current.properties[key] = prop.group(2).strip(" \t")
                        current.lines[key] = line_no
                        continue
            self.line(line_no, raw_line)

    def line(self, line_no: int, raw_line: str) -> None:
        line = raw_line.rstrip(" \t")
        if not line:
            return
        indent = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:indent]:
            self.problem(line_no, "tab in indentation")
        elif indent == 0:
            self.top_level(line_no, line)
        elif self.section == "ports":
            self.port(line_no, line)
        elif self.section == "slices":
            self.slice_line(line_no, line, indent)
        else:
            self.problem(line_no, "indented line outside ports:/slices:")

    def top_level(self, line_no: int, line: str) -> None:
        self.current = None
        match = _TOP_LEVEL.fullmatch(line)
        key = match.group(1).lower() if match is not None else ""
        if match is None or (key not in _SCALAR_KEYS and key not in _SECTIONS):
            self.problem(line_no, "unknown or malformed top-level line")
            self.section = None
            return
        value = match.group(2).strip(" \t")
        if key in _SECTIONS:
            if key in self.key_lines:
                self.problem(line_no, f"repeated {key}: section")
            elif value:
                self.problem(line_no, f"{key}: takes no value on its line")
            self.key_lines.setdefault(key, line_no)
            self.section = key
            return
        self.section = None
        if key in self.scalars:
            self.problem(line_no, f"repeated {key}")
            return
        self.scalars[key] = (value, line_no)
        self.key_lines[key] = line_no

    def port(self, line_no: int, line: str) -> None:
        port = _PORT_LINE.fullmatch(line)
        if port is None:
            self.problem(line_no, "a ports: line must be two spaces, name: [tokens]")
            return
        name = port.group(1)
        tokens = _parse_tokens(port.group(2).strip(" \t"))
        if isinstance(tokens, str):
            self.problem(line_no, f"port {name} {tokens}")
        elif name.lower() in self.port_names:
            self.problem(line_no, f"repeated port {name}")
        else:
            self.port_names.add(name.lower())
            self.ports.append(PortRoute(name, tokens, line_no))

    def slice_line(self, line_no: int, line: str, indent: int) -> None:
        if indent == 2:
            opened = _SLICE_LINE.fullmatch(line)
            if opened is None:
                self.current = None
                self.problem(line_no, "a slices: entry must be two spaces, sN:")
                return
            step = opened.group(1)
            self.current = _SliceDraft(step, line_no)
            if step in self.slice_steps:
                # Its properties are read (so they are not reported) but never kept.
                self.problem(line_no, f"repeated step {step}")
                return
            self.slice_steps.add(step)
            self.drafts.append(self.current)
            return
        prop = _PROPERTY_LINE.fullmatch(line) if indent == 4 else None
        current = self.current
        if prop is None or current is None:
            self.problem(
                line_no, "a slice property must be four spaces, key: value, under an sN: entry"
            )
            return
        key = prop.group(1)
        if key in current.properties:
            self.problem(line_no, f"repeated {key} in {current.step}")
            return
        current.properties[key] = prop.group(2).strip(" \t")
        current.lines[key] = line_no

    def finish(self) -> SpineParse:
        schema_version = self.schema_version()
        generated_at, instant = self.generated_at()
        slice_comment_id = self.slice_comment_id()
        slices = [
            entry for entry in (_finish_slice(d, self.problems) for d in self.drafts) if entry
        ]
        for items, name, present in (
            (self.ports, "port", "ports" in self.key_lines),
            (self.drafts, "slice", "slices" in self.key_lines),
        ):
            if not items:
                message = f"no {name} under {name}s:" if present else f"no {name}s: section"
                self.problem(None, message)
        if self.problems or instant is None:
            self.problems.sort(key=lambda problem: (problem.line is None, problem.line or 0))
            return SpineParse(None, tuple(self.problems), tuple(self.ports), tuple(slices))
        coverage, coverage_line = self.scalars.get("coverage") or (None, None)
        spine = Spine(
            schema_version=schema_version,
            generated_at=generated_at,
            instant=instant,
            coverage=coverage,
            coverage_line=coverage_line,
            slice_comment_id=slice_comment_id,
            ports=tuple(self.ports),
            slices=tuple(slices),
            key_lines=self.key_lines,
        )
        return SpineParse(spine, (), spine.ports, spine.slices)

    def schema_version(self) -> int:
        version = self.scalars.get("spine_schema_version")
        if version is None:
            self.problem(None, "no spine_schema_version")
        elif version[0] not in ("1", "2"):
            self.problem(version[1], "spine_schema_version must be 1 or 2")
        else:
            return int(version[0])
        return 0

    def generated_at(self) -> tuple[str, Instant | None]:
        stamp = self.scalars.get("generated_at")
        if stamp is None:
            self.problem(None, "no generated_at")
            return "", None
        instant = parse_instant(stamp[0])
        if instant is None:
            self.problem(stamp[1], "generated_at is not a YYYY-MM-DDTHH:MM:SS[.f]Z instant")
        return stamp[0], instant

    def slice_comment_id(self) -> str | None:
        pointer = self.scalars.get("slice_comment_id")
        if pointer is None or not pointer[0]:
            return None
        if _COMMENT_ID.fullmatch(pointer[0]) and int(pointer[0]) > 0:
            return str(int(pointer[0]))
        self.problem(pointer[1], "slice_comment_id is not a positive integer")
        return None


@lru_cache(maxsize=4)
def parse_spine(payload: str, first_line: int = 1) -> SpineParse:
    """Parse a spine payload whose first line is comment line ``first_line`` (SPEC 3). The
    last answers are remembered: validate's rules, its matrix and render read the same spine."""
    reader = _Reader()
    reader.read(payload, first_line)
    return reader.finish()
