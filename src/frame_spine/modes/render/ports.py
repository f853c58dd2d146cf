"""The canonical port names of render mode (SPEC 13): the file names in ``ports-dir``. Apart
from :mod:`.online`, so a local rendering loads no network code."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ...core.shown import quoted
from ...core.status import Failure, error

#: The extensions of the files whose names are canonical port names (SPEC 13).
PORT_FILE_EXTENSIONS = (".yaml", ".yml", ".md")
#: The default ``ports-dir``, relative to the workspace (action) or the current directory.
DEFAULT_PORTS_DIR = os.path.join("frame", "ports")


def read_port_names(directory: str, shown: str) -> frozenset[str] | Failure:
    """The names, without extension and lower-cased, of the port files directly in
    ``directory`` (``shown``: how a message names it)."""
    names: set[str] = set()
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                stem, extension = os.path.splitext(entry.name)
                if extension.lower() in PORT_FILE_EXTENSIONS and stem and entry.is_file():
                    names.add(stem.lower())
    except NotADirectoryError:
        return error(f"ports-dir {quoted(shown)} is not a directory")
    except FileNotFoundError:
        return error(f"ports-dir {quoted(shown)} does not exist")
    except OSError as exc:
        return error(
            f"cannot read ports-dir {quoted(shown)}: {exc.strerror or exc.__class__.__name__}"
        )
    return frozenset(names)


@dataclass(frozen=True, slots=True)
class CanonicalPorts:
    """The canonical port names of a run, and the directory as the summary names it (both
    ``None``: no port is checked)."""

    names: frozenset[str] | None = None
    directory: str | None = None


def canonical_ports(base: str, given: str | None, *, contained: bool) -> CanonicalPorts | Failure:
    """The canonical port names of a run (SPEC 13): of ``given`` (relative to ``base``), else
    of ``frame/ports`` when it exists, else none; ``contained``: refuse a directory that
    resolves outside ``base`` (the action's workspace)."""
    if given is None:
        default = os.path.join(base, DEFAULT_PORTS_DIR)
        if not os.path.isdir(default):
            return CanonicalPorts()
        given, path = DEFAULT_PORTS_DIR, default
    else:
        path = os.path.join(base, given)
    if contained:
        root, real = os.path.realpath(base), os.path.realpath(path)
        if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
            return error(f"ports-dir {quoted(given)} resolves outside the workspace")
    names = read_port_names(path, given)
    return names if isinstance(names, Failure) else CanonicalPorts(names, given)
