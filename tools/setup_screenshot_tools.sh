#!/usr/bin/env bash
# make screenshot-tools: install what tools/screenshot_summary.py needs, only what is missing.
# Debian packages: chromium (headless browser), cmark-gfm (GitHub's Markdown renderer),
# fonts-liberation (metric twins of Arial/Helvetica, in GitHub's font stack) and
# fonts-noto-color-emoji (the status icons), npm when there is no npm; then the npm packages
# pinned by tools/package-lock.json (mermaid, github-markdown-css) into tools/node_modules
# (git-ignored). Needs root or password-less sudo for apt-get; the npm registry for npm ci.
# A development tool: not part of `make test` or CI.
set -euo pipefail
cd "$(dirname "$0")"

if [ "$(id -u)" = 0 ]; then sudo=(); elif sudo -n true 2>/dev/null; then sudo=(sudo -n); else
  sudo=(false); fi

missing=()
for package in chromium cmark-gfm fonts-liberation fonts-noto-color-emoji; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${sudo[0]:-}" = false ]; then
    echo "missing Debian packages: ${missing[*]} (install them as root: apt-get install ...)" >&2
    exit 1
  fi
  echo "installing with apt-get: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing the npm packages of tools/package-lock.json into tools/node_modules"
  # --ignore-scripts: only the browser bundle (mermaid.min.js) and a stylesheet are used.
  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
fi

chromium_version=$( (/usr/lib/chromium/chromium --version || chromium --version) 2>/dev/null | head -1)
echo "screenshot tools: ${chromium_version}; $(cmark-gfm --version | head -1 | cut -d' ' -f1-2);" \
  "mermaid $(node -p 'require("./node_modules/mermaid/package.json").version');" \
  "github-markdown-css $(node -p 'require("./node_modules/github-markdown-css/package.json").version')"
