"""The one module that reaches below cmarkgfm's public surface (the SPEC 2.4 parser).

Why it exists: :mod:`frame_spine.core.code_regions` needs cmark-gfm (the C library GitHub
renders comments with) to render a body as HTML with source positions, with GitHub's comment
extensions and footnotes, and to give back every byte it allocated. cmarkgfm's public Python
helpers (``markdown_to_html_with_extensions``, ``render_html`` and the ``parser_*`` wrappers)
never free the document tree nor the rendered HTML: measured with releases 2022.10.27,
2024.1.14, 2024.11.20, 2025.10.20 and 2025.10.22, a realistic 64 KB plan leaks about 1.1 MB
per parse through them (4.4 MB for a 64 KB body of lists and tables), which audit mode would
pay once per comment. No public name frees either. So this module calls cmark-gfm's own C
API (``cmark-gfm.h``, stable across the 0.29 line: parser, extensions, ``cmark_render_html``,
``cmark_node_free`` and the allocator that freed the HTML) through :mod:`ctypes`, on the
shared library that cmarkgfm ships. The one private name it needs is where that library is:
the file of cmarkgfm's compiled module ``cmarkgfm._cmark``. The option bits come from
cmarkgfm's public ``cmarkgfm.cmark.Options``.

Layering: this is a leaf below ``core`` (it imports nothing of the package); ``core`` calls
its one pure function, :func:`render_html`, bytes in and bytes out. Loading a shared library
with ``ctypes`` is kept out of ``core`` so that ``core`` stays plain Python on top of its
dependencies.

When cmarkgfm changes (the compiled module moves, a symbol is gone, the bundled cmark-gfm is
no longer of the 0.29 line, an extension is missing, or a probe parse no longer renders what
``core.code_regions`` reads) the first call raises :class:`CmarkgfmChanged`, which names the
installed release and the releases this was tested with, instead of failing deep inside a
parse. Nothing is imported before the first call (a body without possible code never loads
the binding).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

#: The cmarkgfm releases this module was tested with (pyproject.toml allows exactly these).
TESTED_RELEASES = "2024.11.20, 2025.10.20 and 2025.10.22"
#: The cmark-gfm line the C API below is written against (``cmark_version_string()``).
CMARK_LINE = "0.29.0.gfm."
#: The name under which footnotes are asked for: as with the ``cmark-gfm`` program's
#: ``-e footnotes``, it is a parser option, not a syntax extension.
FOOTNOTES = "footnotes"

# A probe parse at first use, and what the HTML must hold: a fence's and a footnote's code
# blocks with their source positions, a table, and the footnotes section.
_PROBE = b"| a |\n|---|\n\n```x\ny\n```\n\n[^n]: z\n\n        w\n\n[^n]\n"
_PROBE_EXPECTS = (
    b'<table data-sourcepos="1:1-',
    b'<pre data-sourcepos="4:1-',
    b'"><code class="language-x">y\n</code></pre>',
    b'<section class="footnotes"',
    b'<pre data-sourcepos="10:9-',
    b'"><code>w\n</code></pre>',
)


class CmarkgfmChanged(RuntimeError):
    """cmarkgfm no longer provides what :func:`render_html` uses (raised at first use)."""


class _Library(NamedTuple):
    """cmark-gfm's functions, its free() for what it allocates, and the option bits."""

    call: dict[str, Callable[..., Any]]
    free: Callable[[int], None]
    string_at: Callable[[int], bytes]
    sourcepos: int
    validate_utf8: int
    footnotes: int


_LOCK = threading.Lock()


def render_html(data: bytes, extensions: tuple[str, ...]) -> bytes:
    """Render UTF-8 Markdown as cmark-gfm's HTML with source positions, freeing what it allocates.

    Raw HTML is never rendered (no ``UNSAFE`` option), so the output's ``<pre`` tags are cmark's
    own; invalid UTF-8 is replaced (``VALIDATE_UTF8``), so no byte string can fail.
    """
    library = _library()
    syntax, options = _extensions(extensions)
    return _render(library, data, syntax, options)


def _render(library: _Library, data: bytes, syntax: tuple[int, ...], options: int) -> bytes:
    """One parse and render; the tree, the HTML and the parser are freed whatever happens."""
    call = library.call
    parser = call["cmark_parser_new"](options)
    root = None
    try:
        for extension in syntax:
            call["cmark_parser_attach_syntax_extension"](parser, extension)
        call["cmark_parser_feed"](parser, data, len(data))
        root = call["cmark_parser_finish"](parser)
        rendered = call["cmark_render_html"](
            root, options, call["cmark_parser_get_syntax_extensions"](parser)
        )
        if not rendered:
            raise MemoryError("cmark-gfm rendered no HTML")
        try:
            html = library.string_at(rendered)
        finally:
            library.free(rendered)
        return html
    finally:
        if root:
            call["cmark_node_free"](root)
        call["cmark_parser_free"](parser)


def _library() -> _Library:
    """The loaded library (thread-safe first use: cmark registers its extensions globally)."""
    with _LOCK:
        return _load()


@cache
def _extensions(names: tuple[str, ...]) -> tuple[tuple[int, ...], int]:
    """The syntax extensions' pointers and the option bits for ``names`` (looked up once)."""
    library = _library()
    options = library.sourcepos | library.validate_utf8
    syntax = []
    for name in names:
        if name == FOOTNOTES:
            options |= library.footnotes
            continue
        extension = library.call["cmark_find_syntax_extension"](name.encode())
        if not extension:
            raise ValueError(f"cmark-gfm has no syntax extension {name!r}")
        syntax.append(int(extension))
    return tuple(syntax), options


def _c_api(path: str) -> dict[str, Callable[..., Any]]:
    """The functions of cmark-gfm's C API that the adapter calls, from the shared library at
    ``path``, typed as cmark-gfm.h and cmark-gfm-core-extensions.h declare them."""
    import ctypes

    pointer, text, size, number = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int
    signatures: dict[str, tuple[Any, tuple[Any, ...]]] = {  # name -> (restype, argtypes)
        "cmark_version_string": (text, ()),
        "cmark_gfm_core_extensions_ensure_registered": (None, ()),
        "cmark_find_syntax_extension": (pointer, (text,)),
        "cmark_parser_new": (pointer, (number,)),
        "cmark_parser_attach_syntax_extension": (number, (pointer, pointer)),
        "cmark_parser_feed": (None, (pointer, text, size)),
        "cmark_parser_finish": (pointer, (pointer,)),
        "cmark_parser_get_syntax_extensions": (pointer, (pointer,)),
        "cmark_render_html": (pointer, (pointer, number, pointer)),
        "cmark_node_free": (None, (pointer,)),
        "cmark_parser_free": (None, (pointer,)),
        "cmark_get_default_mem_allocator": (pointer, ()),
    }
    shared = ctypes.CDLL(path)
    call: dict[str, Callable[..., Any]] = {}
    for name, (restype, argtypes) in signatures.items():
        function = getattr(shared, name)
        function.restype = restype
        function.argtypes = argtypes
        call[name] = function
    return call


@cache
def _load() -> _Library:
    """Find cmarkgfm's shared library, resolve the C API, probe one parse (first use only)."""
    import ctypes
    from importlib import metadata

    try:
        release = metadata.version("cmarkgfm")
    except metadata.PackageNotFoundError:
        release = "not installed"

    def changed(what: str) -> CmarkgfmChanged:
        return CmarkgfmChanged(
            f"cmarkgfm {release} {what}; frame-spine's code regions (what GitHub shows as code) "
            f"need cmarkgfm as in its releases {TESTED_RELEASES} "
            "(src/frame_spine/cmarkgfm_adapter.py)"
        )

    try:
        from cmarkgfm import _cmark  # type: ignore[import-untyped]
        from cmarkgfm.cmark import Options  # type: ignore[import-untyped]

        path = str(_cmark.__file__)
        bits = [  # in the order of _Library's option fields
            int(getattr(Options, name))
            for name in ("CMARK_OPT_SOURCEPOS", "CMARK_OPT_VALIDATE_UTF8", "CMARK_OPT_FOOTNOTES")
        ]
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        raise changed(f"does not provide its compiled module and options ({error})") from error
    try:
        call = _c_api(path)
    except (OSError, AttributeError) as error:
        raise changed(f"does not export cmark-gfm's C API ({error})") from error
    version = (call["cmark_version_string"]() or b"").decode("ascii", "replace")
    if not version.startswith(CMARK_LINE):
        raise changed(f"bundles cmark-gfm {version}, not of the {CMARK_LINE}x line")

    class Mem(ctypes.Structure):
        """cmark's ``cmark_mem`` allocator: the functions that allocated what it hands back."""

        _fields_ = (
            ("calloc", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)),
            ("realloc", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)),
            ("free", ctypes.CFUNCTYPE(None, ctypes.c_void_p)),
        )

    call["cmark_gfm_core_extensions_ensure_registered"]()
    allocator = ctypes.cast(call["cmark_get_default_mem_allocator"](), ctypes.POINTER(Mem))
    library = _Library(call, allocator.contents.free, ctypes.string_at, *bits)
    syntax = []
    for name in ("table", "tasklist"):
        extension = call["cmark_find_syntax_extension"](name.encode())
        if not extension:
            raise changed(f"bundles a cmark-gfm without the {name} extension")
        syntax.append(int(extension))
    options = library.sourcepos | library.validate_utf8 | library.footnotes
    probe = _render(library, _PROBE, tuple(syntax), options)
    missing = [expected for expected in _PROBE_EXPECTS if expected not in probe]
    if missing:
        raise changed(f"renders {_PROBE!r} without {missing[0]!r} (got {probe[:400]!r})")
    return library
