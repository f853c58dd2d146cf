"""Every library src/ imports is declared, in the ranges tools/test_deps.sh tests (issue 19)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
#: Import names whose distribution is named otherwise.
DISTRIBUTIONS = {
    "github": "pygithub",
    "pydantic_core": "pydantic-core",
    "actions_toolkit": "actions-toolkit",
}


def imported_top_level_modules() -> set[str]:
    """The top-level modules of every absolute import under src/ (``import a.b``, ``from a
    import b``, inside functions too), without the standard library and the package itself."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {name for name in found if name not in sys.stdlib_module_names} - {"frame_spine"}


def declared() -> dict[str, str]:
    """pyproject's runtime dependencies: normalised distribution name -> its specifier."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    out: dict[str, str] = {}
    for requirement in project["dependencies"]:
        match = re.fullmatch(r"([A-Za-z0-9._-]+)\s*(.*)", requirement)
        assert match is not None, requirement
        out[match[1].lower().replace("_", "-")] = match[2]
    return out


def test_every_third_party_module_src_imports_is_declared() -> None:
    imported = imported_top_level_modules()
    assert imported == {
        "actions_toolkit",
        "certifi",
        "cmarkgfm",
        "github",
        "pydantic",
        "pydantic_core",
        "requests",
        "urllib3",
    }
    names = {DISTRIBUTIONS.get(module, module) for module in imported}
    assert names - set(declared()) == set()


def test_the_declared_ranges() -> None:
    assert declared() == {
        "pydantic": ">=2.11,<3",
        "pydantic-core": ">=2.33,<3",
        "pygithub": ">=2.4,<2.11",
        "requests": ">=2.32.3,<3",
        "urllib3": ">=2.2,<3",
        "certifi": ">=2024.2.2",
        "actions-toolkit": ">=0.1.15,<0.2",
        "cmarkgfm": ">=2024.11.20,<=2025.10.22",
    }


def test_test_deps_runs_each_pygithub_minor_the_range_allows() -> None:
    script = (ROOT / "tools" / "test_deps.sh").read_text(encoding="utf-8")
    match = re.search(r"^PYGITHUB_MINORS=\(([^)]*)\)$", script, re.MULTILINE)
    assert match is not None
    assert match[1].split() == ["2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10"]
