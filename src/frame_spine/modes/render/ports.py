"""The canonical port names of render mode (SPEC 13): the file names in ``ports-dir``.

An edge (it lists a directory), kept apart from :mod:`.online` so a local rendering loads no
network code.
"""

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
    """The canonical port names (SPEC 13): the names, without extension and lower-cased, of
    the ``*.yaml``, ``*.yml`` and ``*.md`` files directly in ``directory``.

    Args:
        directory: the directory to list. shown: how a message names it (the input as given).

    Returns:
        The names, or an ``error`` failure naming ``ports-dir`` when it is not a readable
        directory. Never raises ``OSError``.
    """
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
    """The canonical port set of a run (SPEC 13).

    Attributes:
        names: the port names, lower-cased.
        directory: the directory as the summary names it: the ``ports-dir`` input as given,
            or ``frame/ports`` when that default was used.
    """

    names: frozenset[str]
    directory: str


def canonical_ports(
    base: str, given: str | None, *, contained: bool
) -> CanonicalPorts | Failure | None:
    """The canonical port names of a run (SPEC 13): those of ``given`` (relative to
    ``base``, or absolute for the CLI), else of ``frame/ports`` under ``base`` when that
    directory exists, else ``None`` (no port is checked).

    Args:
        base: the workspace (action) or the current directory (CLI).
        given: the ``ports-dir`` input or ``--ports-dir``, or ``None``.
        contained: refuse a directory that resolves outside ``base`` (the action: a symbolic
            link must not lead out of the workspace).

    Returns:
        The :class:`CanonicalPorts`, ``None``, or an ``error`` failure naming ``ports-dir``.
    """
    if given is None:
        default = os.path.join(base, DEFAULT_PORTS_DIR)
        if not os.path.isdir(default):
            return None
        given, path = DEFAULT_PORTS_DIR, default
    else:
        path = os.path.join(base, given)
    if contained:
        root = os.path.realpath(base)
        real = os.path.realpath(path)
        if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
            return error(f"ports-dir {quoted(given)} resolves outside the workspace")
    names = read_port_names(path, given)
    return names if isinstance(names, Failure) else CanonicalPorts(names, given)
