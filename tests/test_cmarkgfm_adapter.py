"""The cmarkgfm adapter: cmark-gfm's HTML with source positions, nothing leaked, and a clear
failure at first use when the installed cmarkgfm no longer provides what it uses.

The failures are shown with stand-ins for a changed cmarkgfm (a package of that name put first
on ``sys.path`` in a fresh interpreter), since only a fresh process has not loaded the real one.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from frame_spine.cmarkgfm_adapter import TESTED_RELEASES, render_html
from frame_spine.core.code_regions import GFM_EXTENSIONS

SUFFIX = (
    "; frame-spine's code regions (what GitHub shows as code) need cmarkgfm as in its releases "
    f"{TESTED_RELEASES} (src/frame_spine/cmarkgfm_adapter.py)"
)


def test_renders_source_positions_with_the_extensions_and_footnotes() -> None:
    body = b"| a |\n|---|\n\n```x\ny\n```\n\n[^n]: z\n\n        w\n\n[^n]\n"
    assert render_html(body, GFM_EXTENSIONS) == (
        b'<table data-sourcepos="1:1-2:5">\n<thead>\n<tr data-sourcepos="1:1-1:5">\n'
        b'<th data-sourcepos="1:2-1:4">a</th>\n</tr>\n</thead>\n</table>\n'
        b'<pre data-sourcepos="4:1-6:3"><code class="language-x">y\n</code></pre>\n'
        b'<p data-sourcepos="12:1-12:4"><sup class="footnote-ref"><a href="#fn-n" id="fnref-n" '
        b"data-footnote-ref>1</a></sup></p>\n"
        b'<section class="footnotes" data-footnotes>\n<ol>\n<li id="fn-n">\n'
        b'<p data-sourcepos="8:7-8:7">z</p>\n'
        b'<pre data-sourcepos="10:9-11:0"><code>w\n</code></pre>\n'
        b'<a href="#fnref-n" class="footnote-backref" data-footnote-backref '
        b'data-footnote-backref-idx="1" aria-label="Back to reference 1">\xe2\x86\xa9</a>\n'
        b"</li>\n</ol>\n</section>\n"
    )


def test_without_footnotes_a_definition_is_a_link_reference() -> None:
    assert render_html(b"[^n]: z\n\n[^n]\n", ("table",)) == (
        b'<p data-sourcepos="3:1-3:4"><a href="z">^n</a></p>\n'
    )


def test_raw_html_is_omitted_and_bad_utf8_replaced() -> None:
    assert render_html(b'<pre data-sourcepos="1:1-1:1">\xff', GFM_EXTENSIONS) == (
        b"<!-- raw HTML omitted -->\n"
    )
    # Each bad byte and the NUL become U+FFFD (3 bytes): the end column counts those.
    assert (
        render_html(b"a\xff\x00b", ())
        == b'<p data-sourcepos="1:1-1:8">a\xef\xbf\xbd\xef\xbf\xbdb</p>\n'
    )


def test_an_unknown_extension_is_refused() -> None:
    with pytest.raises(ValueError) as raised:
        render_html(b"x", ("table", "alerts"))
    assert str(raised.value) == "cmark-gfm has no syntax extension 'alerts'"


def test_concurrent_first_use_in_a_fresh_process() -> None:
    probe = (
        "import json, threading\n"
        "from frame_spine.cmarkgfm_adapter import render_html\n"
        "out = []\n"
        "def go():\n"
        "    out.append(render_html(b'    x\\n', ('table', 'footnotes')).decode())\n"
        "threads = [threading.Thread(target=go) for _ in range(8)]\n"
        "[t.start() for t in threads]\n"
        "[t.join() for t in threads]\n"
        "print(json.dumps(sorted(set(out)) + [len(out)]))\n"
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True)
    assert json.loads(completed.stdout) == [
        '<pre data-sourcepos="1:5-1:5"><code>x\n</code></pre>\n',
        8,
    ]


def test_importing_the_adapter_loads_neither_cmarkgfm_nor_ctypes() -> None:
    probe = (
        "import json, sys\n"
        "import frame_spine.cmarkgfm_adapter\n"
        "print(json.dumps(['cmarkgfm' in sys.modules, 'ctypes' in sys.modules]))\n"
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True)
    assert json.loads(completed.stdout) == [False, False]


def test_many_renders_do_not_grow_the_process() -> None:
    import resource

    body = (b"- item\n\n      code\n\n| a | b |\n|---|---|\n| c | d |\n\n[^n]: x\n" * 800)[
        : 16 * 1024
    ]
    for index in range(20):
        render_html(body + str(index).encode(), GFM_EXTENSIONS)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for index in range(300):
        render_html(body + str(index).encode(), GFM_EXTENSIONS)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 16 * 1024


# --- a changed cmarkgfm ----------------------------------------------------------------------

PROBE = (
    "import json\n"
    "from frame_spine.cmarkgfm_adapter import CmarkgfmChanged, render_html\n"
    "seen = []\n"
    "for _ in range(2):\n"
    "    try:\n"
    "        render_html(b'x', ('table',))\n"
    "    except CmarkgfmChanged as error:\n"
    "        seen.append(str(error))\n"
    "print(json.dumps(seen))\n"
)


def stand_in(tmp_path: Path, modules: dict[str, str]) -> Path:
    """A package ``cmarkgfm`` of release 9.9.9 holding ``modules`` (name -> source)."""
    package = tmp_path / "cmarkgfm"
    package.mkdir()
    for name, source in {"__init__": "", **modules}.items():
        (package / f"{name}.py").write_text(source, "utf-8")
    info = tmp_path / "cmarkgfm-9.9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cmarkgfm\nVersion: 9.9.9\n")
    return tmp_path


def first_use_failures(path: Path, inner: str) -> tuple[list[str], str]:
    """The messages of two calls with the stand-in first on ``sys.path``, and ``inner``'s
    output run the same way (the underlying error's own words, which vary by Python)."""
    prefix = f"import sys; sys.path.insert(0, {str(path)!r})\n"
    seen = subprocess.run(
        [sys.executable, "-c", prefix + PROBE], capture_output=True, text=True, check=True
    )
    words = subprocess.run(
        [sys.executable, "-c", prefix + inner], capture_output=True, text=True, check=True
    )
    return json.loads(seen.stdout), words.stdout.strip()


def test_a_cmarkgfm_without_its_compiled_module(tmp_path: Path) -> None:
    path = stand_in(tmp_path, {"cmark": "class Options:\n    CMARK_OPT_SOURCEPOS = 2\n"})
    seen, words = first_use_failures(
        path, "try:\n    from cmarkgfm import _cmark\nexcept ImportError as e:\n    print(e)"
    )
    message = f"cmarkgfm 9.9.9 does not provide its compiled module and options ({words})" + SUFFIX
    assert seen == [message, message]


def test_a_cmarkgfm_without_an_option(tmp_path: Path) -> None:
    options = "class Options:\n    CMARK_OPT_SOURCEPOS = 2\n    CMARK_OPT_VALIDATE_UTF8 = 512\n"
    path = stand_in(tmp_path, {"cmark": options, "_cmark": ""})
    seen, _ = first_use_failures(path, "")
    message = (
        "cmarkgfm 9.9.9 does not provide its compiled module and options (type object "
        "'Options' has no attribute 'CMARK_OPT_FOOTNOTES')" + SUFFIX
    )
    assert seen == [message, message]


def test_a_cmarkgfm_whose_library_lacks_the_c_api(tmp_path: Path) -> None:
    import _ctypes

    options = (
        "class Options:\n    CMARK_OPT_SOURCEPOS = 2\n    CMARK_OPT_VALIDATE_UTF8 = 512\n"
        "    CMARK_OPT_FOOTNOTES = 8192\n"
    )
    library = _ctypes.__file__
    path = stand_in(tmp_path, {"cmark": options, "_cmark": f"__file__ = {library!r}\n"})
    seen, words = first_use_failures(
        path,
        f"import ctypes\ntry:\n    ctypes.CDLL({library!r}).cmark_version_string\n"
        "except AttributeError as e:\n    print(e)",
    )
    message = f"cmarkgfm 9.9.9 does not export cmark-gfm's C API ({words})" + SUFFIX
    assert seen == [message, message]


def test_a_cmarkgfm_whose_compiled_module_is_no_library(tmp_path: Path) -> None:
    options = (
        "class Options:\n    CMARK_OPT_SOURCEPOS = 2\n    CMARK_OPT_VALIDATE_UTF8 = 512\n"
        "    CMARK_OPT_FOOTNOTES = 8192\n"
    )
    path = stand_in(tmp_path, {"cmark": options, "_cmark": ""})
    module = tmp_path / "cmarkgfm" / "_cmark.py"
    seen, words = first_use_failures(
        path,
        f"import ctypes\ntry:\n    ctypes.CDLL({str(module)!r})\nexcept OSError as e:\n    print(e)",
    )
    message = f"cmarkgfm 9.9.9 does not export cmark-gfm's C API ({words})" + SUFFIX
    assert seen == [message, message]


def test_threads_share_one_first_use() -> None:
    # In this process the binding may already be loaded; many threads at once still agree.
    results: list[bytes] = []
    threads = [
        threading.Thread(target=lambda: results.append(render_html(b"~~~\nq\n~~~", ("table",))))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [b'<pre data-sourcepos="1:1-3:3"><code>q\n</code></pre>\n'] * 6
