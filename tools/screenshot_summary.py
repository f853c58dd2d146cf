"""Screenshot job-summary Markdown the way a user sees it on GitHub (development tool).

For each Markdown file (the text an action appends to ``GITHUB_STEP_SUMMARY``):

1. render it to HTML with ``cmark-gfm`` (Debian's build of GitHub's renderer) with GitHub's
   extensions ``table strikethrough autolink tagfilter tasklist``, ``--github-pre-lang``
   (fences become ``<pre lang="...">`` as on github.com) and ``--unsafe`` (keep raw HTML:
   without it cmark-gfm replaces ``<details>``/``<summary>`` by ``<!-- raw HTML omitted -->``,
   while GitHub's summary renderer keeps them; ``tagfilter`` still neutralises ``<script>``,
   ``<style>``, ``<iframe>`` ... as GitHub does, and the page's Content-Security-Policy lets
   only this tool's own scripts run, so raw HTML in a summary cannot execute anything);
2. turn each Mermaid fence (``<pre lang="mermaid"><code>`` or
   ``<pre><code class="language-mermaid">``) into ``<pre class="mermaid">`` with the text left
   HTML-escaped (Mermaid decodes the entities itself), and draw it with ``mermaid.min.js`` from
   the npm package in ``tools/node_modules`` (no CDN);
3. wrap it in a page styled like a job summary on a run's page (``github-markdown-css``'s light
   theme, a white bordered card titled "<name> summary" on GitHub's grey canvas), with every
   ``<details>`` opened (``--closed-details`` keeps them closed, as GitHub first shows them)
   and long code lines wrapped (GitHub scrolls them sideways, which a picture cannot);
4. load the page in headless Chromium once to measure its height after Mermaid has drawn
   (``--dump-dom``), then take the screenshot at that height (capped at ``--max-height``).

Usage::

    python3 tools/screenshot_summary.py [--out-dir DIR] [--width 1200] [--max-height 4000]
        [--closed-details] [--keep-html] SUMMARY.md [SUMMARY.md ...]

Writes ``<out-dir>/<name>.png`` per file (default: next to the Markdown) and prints one line
per file: size in pixels and bytes, Mermaid blocks drawn, seconds taken. Exits 1 when a tool is
missing, Chromium fails, or a Mermaid block does not draw. Needs ``cmark-gfm``, ``chromium``
and ``npm ci`` in tools/ (``make screenshot-tools`` installs all three); Python 3.11+ stdlib only.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
NODE_MODULES = TOOLS / "node_modules"
MERMAID_JS = NODE_MODULES / "mermaid" / "dist" / "mermaid.min.js"
MARKDOWN_CSS = NODE_MODULES / "github-markdown-css" / "github-markdown-light.css"
CMARK_EXTENSIONS = ("table", "strikethrough", "autolink", "tagfilter", "tasklist")
# Debian's launcher (/usr/bin/chromium) adds extension flags and a noisy /dev/shm check; the
# browser binary itself takes the same flags.
CHROMIUM_CANDIDATES = ("/usr/lib/chromium/chromium", "chromium", "chromium-browser")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--force-device-scale-factor=1",
    "--virtual-time-budget=5000",
)
MERMAID_FENCE = re.compile(
    r'<pre lang="mermaid"><code>(?P<a>.*?)</code></pre>'
    r'|<pre><code class="language-mermaid">(?P<b>.*?)</code></pre>',
    re.DOTALL,
)

PAGE_STYLE = """
html { background: #f6f8fa; overflow: hidden; }
body { margin: 0; padding: 16px; }
.summary-card { background: #ffffff; border: 1px solid #d0d7de; border-radius: 6px; }
.summary-title { margin: 0; padding: 16px 24px; border-bottom: 1px solid #d0d7de;
  font: 600 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica,
  Arial, sans-serif; color: #1f2328; }
.markdown-body { padding: 16px 24px 24px; font-size: 14px; }
.markdown-body pre:not(.mermaid), .markdown-body pre:not(.mermaid) code { white-space: pre-wrap;
  overflow-wrap: anywhere; }
.markdown-body pre.mermaid { background: transparent; text-align: center; padding: 8px 0; }
"""

PAGE_SCRIPT = """
(async () => {
  const state = document.body.dataset;
  const errors = [];
  if (%(open)s) document.querySelectorAll('details').forEach((d) => { d.open = true; });
  const blocks = document.querySelectorAll('pre.mermaid');
  if (blocks.length) {
    if (typeof mermaid === 'undefined') {
      errors.push('mermaid.min.js did not load');
    } else {
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' });
      try {
        await mermaid.run({ nodes: blocks });
      } catch (e) {
        errors.push(String((e && e.message) || e));
      }
    }
  }
  const drawn = document.querySelectorAll('pre.mermaid svg:not([aria-roledescription="error"])');
  await document.fonts.ready;
  state.mermaidBlocks = String(blocks.length);
  state.mermaidDrawn = String(drawn.length);
  state.mermaidErrors = errors.join(' | ').slice(0, 500);
  const card = document.querySelector('.summary-card').getBoundingClientRect();
  state.height = String(Math.ceil(card.bottom + window.scrollY) + 16);
  state.done = '1';
})();
"""


class ToolError(Exception):
    """A missing tool, a failed render or screenshot, or a Mermaid block that did not draw."""


@dataclass(frozen=True)
class Shot:
    """One screenshot taken: where, pixel size, bytes, Mermaid blocks drawn, seconds, cut."""

    png: Path
    width: int
    height: int
    content_height: int
    size: int
    mermaid_blocks: int
    mermaid_drawn: int
    seconds: float


def find_chromium() -> str:
    """The Chromium binary: ``$CHROMIUM``, else Debian's browser binary, else ``chromium``."""
    for candidate in (os.environ.get("CHROMIUM", ""), *CHROMIUM_CANDIDATES):
        if candidate and (found := shutil.which(candidate)):
            return found
    raise ToolError("chromium is not installed: run `make screenshot-tools`")


def render_markdown(markdown: str) -> str:
    """GitHub-flavoured Markdown to an HTML fragment with cmark-gfm (see the module doc)."""
    cmark = shutil.which("cmark-gfm")
    if cmark is None:
        raise ToolError("cmark-gfm is not installed: run `make screenshot-tools`")
    command = [cmark, "--unsafe", "--github-pre-lang"]
    for extension in CMARK_EXTENSIONS:
        command += ["--extension", extension]
    done = subprocess.run(command, input=markdown.encode("utf-8"), capture_output=True, check=False)
    if done.returncode != 0:
        raise ToolError(f"cmark-gfm failed: {done.stderr.decode('utf-8', 'replace')}")
    return done.stdout.decode("utf-8")


def mermaid_blocks_to_divs(fragment: str) -> str:
    """Each Mermaid fence's ``<pre lang="mermaid"><code>T</code></pre>`` (or its
    ``<pre><code class="language-mermaid">`` form) to ``<pre class="mermaid">T</pre>``.

    ``T`` stays exactly as cmark-gfm escaped it (``&lt;``, ``&amp;``, ``&quot;``): Mermaid reads
    the element's HTML and decodes entities before parsing, so labels keep their characters.
    """

    def replace(match: re.Match[str]) -> str:
        text = match.group("a") if match.group("a") is not None else match.group("b")
        return f'<pre class="mermaid">{text}</pre>'

    return MERMAID_FENCE.sub(replace, fragment)


def build_page(fragment: str, title: str, *, open_details: bool, load_mermaid: bool) -> str:
    """The whole HTML page around a rendered summary fragment; ``load_mermaid`` adds the
    ``<script>`` of mermaid.min.js (5.5 MB, about a second to parse: only when needed)."""
    if not MARKDOWN_CSS.is_file() or not MERMAID_JS.is_file():
        raise ToolError(f"npm packages missing in {NODE_MODULES}: run `make screenshot-tools`")
    nonce = secrets.token_hex(16)
    policy = (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; "
        "img-src data: file:; font-src data: file:"
    )
    css = MARKDOWN_CSS.read_text("utf-8")
    script = PAGE_SCRIPT % {"open": "true" if open_details else "false"}
    mermaid = (
        f'<script nonce="{nonce}" src="{MERMAID_JS.as_uri()}"></script>\n' if load_mermaid else ""
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        f"<title>{html.escape(title)}</title>\n"
        f"<style>{css}</style>\n<style>{PAGE_STYLE}</style>\n</head>\n<body>\n"
        f'<div class="summary-card"><h2 class="summary-title">{html.escape(title)}</h2>\n'
        f'<div class="markdown-body">\n{fragment}</div></div>\n'
        f"{mermaid}"
        f'<script nonce="{nonce}">{script}</script>\n</body></html>\n'
    )


def _chromium(chromium: str, page: Path, width: int, height: int, *extra: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="screenshot-profile-") as profile:
        command = [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            *extra,
            page.as_uri(),
        ]
        done = subprocess.run(command, capture_output=True, timeout=120, check=False)
    if done.returncode != 0:
        raise ToolError(
            f"chromium exited {done.returncode}: {done.stderr.decode('utf-8', 'replace')[-2000:]}"
        )
    return done.stdout


def _body_data(dom: str, name: str) -> str | None:
    body = re.search(r"<body\b[^>]*>", dom)
    if body is None:
        return None
    found = re.search(rf'\bdata-{name}="([^"]*)"', body.group(0))
    return html.unescape(found.group(1)) if found else None


def png_size(png: Path) -> tuple[int, int]:
    """Width and height in pixels from a PNG's IHDR chunk."""
    header = png.read_bytes()[:24]
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise ToolError(f"{png} is not a PNG")
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def screenshot(
    markdown_file: Path,
    png: Path,
    *,
    width: int = 1200,
    max_height: int = 4000,
    open_details: bool = True,
    keep_html: bool = False,
    title: str | None = None,
) -> Shot:
    """Render ``markdown_file`` and write its screenshot to ``png`` (see the module doc).

    ``width`` is the browser window's width in CSS pixels (device scale 1); the height is the
    page's own height after Mermaid has drawn, at most ``max_height`` (the rest is cut).
    Raises :class:`ToolError` on a missing tool, a Chromium failure, or an undrawn diagram.
    """
    started = time.monotonic()
    chromium = find_chromium()
    rendered = render_markdown(markdown_file.read_text("utf-8"))
    page_text = build_page(
        mermaid_blocks_to_divs(rendered),
        title or f"{markdown_file.stem} summary",
        open_details=open_details,
        load_mermaid=MERMAID_FENCE.search(rendered) is not None,
    )
    with tempfile.TemporaryDirectory(prefix="screenshot-page-") as scratch:
        page = Path(scratch) / f"{markdown_file.stem}.html"
        page.write_text(page_text, "utf-8")
        png.parent.mkdir(parents=True, exist_ok=True)
        if keep_html:
            png.with_suffix(".html").write_text(page_text, "utf-8")
        dom = _chromium(chromium, page, width, 800, "--dump-dom").decode("utf-8", "replace")
        if _body_data(dom, "done") != "1":
            raise ToolError(f"{markdown_file}: the page script did not finish in virtual time")
        blocks = int(_body_data(dom, "mermaid-blocks") or 0)
        drawn = int(_body_data(dom, "mermaid-drawn") or 0)
        errors = _body_data(dom, "mermaid-errors") or ""
        if errors or drawn != blocks:
            reason = errors or "no error text"
            raise ToolError(f"{markdown_file}: {drawn} of {blocks} Mermaid blocks drawn; {reason}")
        content_height = int(_body_data(dom, "height") or 0)
        height = max(1, min(content_height, max_height))
        png.unlink(missing_ok=True)
        _chromium(chromium, page, width, height, f"--screenshot={png}")
    if not png.is_file():
        raise ToolError(f"chromium wrote no screenshot for {markdown_file}")
    shot_width, shot_height = png_size(png)
    return Shot(
        png=png,
        width=shot_width,
        height=shot_height,
        content_height=content_height,
        size=png.stat().st_size,
        mermaid_blocks=blocks,
        mermaid_drawn=drawn,
        seconds=time.monotonic() - started,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("markdown", nargs="+", type=Path, help="job-summary Markdown files")
    parser.add_argument("--out-dir", type=Path, help="where PNGs go (default: beside each file)")
    parser.add_argument("--width", type=int, default=1200, help="window width, CSS px")
    parser.add_argument("--max-height", type=int, default=4000, help="cut taller pages, px")
    parser.add_argument("--closed-details", action="store_true", help="keep <details> closed")
    parser.add_argument("--keep-html", action="store_true", help="also write <name>.html")
    args = parser.parse_args(argv)
    failed = False
    for markdown_file in args.markdown:
        out_dir = args.out_dir or markdown_file.parent
        png = out_dir / f"{markdown_file.stem}.png"
        try:
            shot = screenshot(
                markdown_file,
                png,
                width=args.width,
                max_height=args.max_height,
                open_details=not args.closed_details,
                keep_html=args.keep_html,
            )
        except (ToolError, OSError, subprocess.TimeoutExpired) as problem:
            print(f"{markdown_file}: {problem}", file=sys.stderr)
            failed = True
            continue
        cut = f", cut from {shot.content_height} px" if shot.content_height > shot.height else ""
        print(
            f"{shot.png}: {shot.width}x{shot.height} px{cut}, {shot.size} bytes, "
            f"mermaid {shot.mermaid_drawn}/{shot.mermaid_blocks}, {shot.seconds:.2f} s"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
