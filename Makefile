# frame-spine-lookup: `make demo` runs a lookup on the bundled real example; `make test` runs
# lint, types and the whole test suite. Both create .venv when needed.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo fake-api test test-fast test-deps e2e lint typecheck pytest bench clean cmark-gfm dist screenshot-tools screenshots mutation

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-demo $(VENV)/.installed-fake-api

demo: $(VENV)/.installed-demo
	$(BIN)/frame-spine lookup --plan-body examples/plan-878.md \
		--slices-body examples/sibling-878.md --issue-number 878 \
		--generated-at 2026-07-18T22:20:00Z --step-id s1 --format text

# A loopback fake of the GitHub API with the bundled plans, for trying the online command line
# without GitHub (docs/agents.md). It prints a table of what it serves (issues, comment ids,
# authors, roles, generated_at) and the two export lines to paste into another shell, and runs
# until Ctrl-C. FAKE_API_PORT=0 picks a free port.
FAKE_API_PORT ?= 8878
$(VENV)/.installed-fake-api: pyproject.toml | $(VENV)/.installed-demo
	@$(BIN)/python -m pip install --quiet pytest-httpserver==1.2.0
	@touch $@

fake-api: $(VENV)/.installed-demo $(VENV)/.installed-fake-api
	@$(BIN)/python e2e/fake_api.py --port $(FAKE_API_PORT)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks e2e tools
	$(BIN)/ruff format --check src tests benchmarks e2e tools
	$(BIN)/lint-imports --no-cache
	$(BIN)/hadolint Dockerfile
	$(BIN)/check-jsonschema --builtin-schema vendor.github-actions action.yml
	$(BIN)/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml e2e/workflows/*.yml
	$(BIN)/actionlint -shellcheck $(BIN)/shellcheck .github/workflows/*.yml e2e/workflows/*.yml

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy src

# The test oracle of SPEC 2.4 (tests/code_lines.py) runs GitHub's renderer as a program, the
# Debian package cmark-gfm: installed here when missing and apt-get can (root, or sudo without
# a password). Without it the oracle tests skip, and say why (-rs).
cmark-gfm:
	@command -v cmark-gfm >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then sudo=; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	  else sudo=none; fi; \
	  if [ "$$sudo" != none ] && command -v apt-get >/dev/null 2>&1 \
	    && { $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	         $$sudo apt-get install -y -qq --no-install-recommends cmark-gfm; } >/dev/null 2>&1; \
	  then echo "installed cmark-gfm (the SPEC 2.4 test oracle)"; \
	  else echo "cmark-gfm could not be installed: the SPEC 2.4 oracle tests will skip"; fi; }

# The suite runs on PYTEST_WORKERS pytest-xdist workers (more than the cores: most tests
# wait on a loopback server or a subprocess), then the tests marked `serial` (they time a
# signal or a deadline) alone, in one process. `make test-fast` is the quick local loop: the
# parallel part only.
PYTEST_WORKERS ?= 4

pytest: $(VENV)/.installed-test cmark-gfm
	$(BIN)/pytest -rs -n $(PYTEST_WORKERS) -m "not serial"
	$(BIN)/pytest -rs -m serial

test-fast: $(VENV)/.installed-test
	$(BIN)/pytest -x -n $(PYTEST_WORKERS) -m "not serial"

test: lint typecheck pytest

# The online, action and conformance tests on every dependency resolution the project
# declares: the lowest allowed version of each direct dependency, each allowed PyGithub minor,
# and requirements.lock, each in a fresh venv under .test-deps/ (tools/test_deps.sh; uv's cache
# is shared). TEST_DEPS=lowest,lock runs a subset; TEST_DEPS=highest the newest resolution.
test-deps: $(VENV)/.installed-test
	bash tools/test_deps.sh

# The sdist and wheel that the release publishes to PyPI, in dist/, checked by twine. The egg-info
# an editable install leaves in src/ goes first: setuptools would add the files its stale
# SOURCES.txt lists. (`make test` checks the same build from a clean copy of the checkout,
# installed as a uv tool: tests/test_wheel.py.)
dist: $(VENV)/.installed-test
	rm -rf dist src/*.egg-info
	$(BIN)/python -m build --installer uv --outdir dist .
	$(BIN)/twine --no-color check --strict dist/*

# Build the real image with podman, run it like the runner, run a workflow through act (root).
e2e: $(VENV)/.installed-test
	bash e2e/run.sh

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_lookup.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_online.py
	$(BIN)/python benchmarks/bench_audit.py
	$(BIN)/python benchmarks/bench_drive_by.py
	$(BIN)/python benchmarks/bench_touched.py
	$(BIN)/python benchmarks/bench_regions.py
	$(BIN)/python benchmarks/bench_wire.py
	$(BIN)/python benchmarks/bench_token.py
	$(BIN)/python benchmarks/bench_dispatch.py

# Screenshots of the job summaries as a user sees them (a development tool, not part of
# `make test` or CI): tools/make_summaries.py runs the entrypoint against the loopback fake API
# and writes docs/screenshots/*.md; tools/screenshot_summary.py renders each with cmark-gfm,
# draws Mermaid and photographs it with headless Chromium into docs/screenshots/*.png. The
# hand-written Mermaid smoke check (tools/summaries/*.md) is photographed beside its source,
# out of the user's pictures. screenshot-tools installs chromium, cmark-gfm, fonts and the
# pinned npm packages.
screenshot-tools:
	bash tools/setup_screenshot_tools.sh

screenshots: $(VENV)/.installed-test screenshot-tools
	PYTHONPATH=. $(BIN)/python tools/make_summaries.py docs/screenshots
	$(BIN)/python tools/screenshot_summary.py --out-dir docs/screenshots docs/screenshots/*.md
	$(BIN)/python tools/screenshot_summary.py --out-dir tools/summaries tools/summaries/*.md

clean:
	rm -rf $(VENV) .test-deps .mypy_cache .pytest_cache .ruff_cache .hypothesis dist build src/*.egg-info

# Each default, retry, wait and limit constant mutated once: a test must fail for each
# (tools/mutation_check.py; about 1.5 minutes; .ci/run runs it).
mutation: $(VENV)/.installed-test
	$(BIN)/python tools/mutation_check.py
