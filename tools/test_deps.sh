#!/usr/bin/env bash
# `make test-deps` (issue 19): the online, action and conformance tests on every dependency
# resolution the project declares it supports, each in a fresh venv under .test-deps/:
#   lowest   every direct dependency at its lowest allowed version (uv --resolution lowest-direct)
#   pygithub-2.N   each PyGithub minor release pyproject.toml allows (the newest patch of each)
#   lock     requirements.lock (the container's pins), then the test tools
#   highest  (only with TEST_DEPS=highest: the scheduled CI job) the newest of everything
# Each venv gets the project and only the test tools these tests use (TOOLS, at the versions
# of pyproject's `test` extra), not the linters and build tools of `make test`.
# lowest, lock and highest run every test of TESTS (lowest and lock are PyGithub 2.4 and 2.10).
# A pygithub-2.N resolution differs from the lock only in PyGithub, and of PyGithub the code
# uses only the public Auth.Token (the Authorization header; github/session.py says why no
# more): the wire under it is our requests session, the same requests and urllib3 in every
# pygithub-2.N venv. So each minor runs the tests that send authenticated requests end to
# end (ONLINE_TESTS: lookups, listings, permissions, token forms, the adapters and the action),
# not the whole wire and conformance corpus again; lowest and lock (PyGithub 2.4 and 2.10)
# run all of TESTS. Tests marked serial (they time a deadline or a signal) run after the
# parallel part, alone, as in `make test`.
# uv's cache is shared by all of them, so a run after the first downloads nothing.
# TEST_DEPS=lowest,lock (a comma-separated subset) runs only those; TEST_DEPS_WORKERS=N sets
# pytest-xdist's workers (default 2). It ends with a table of each resolution's versions and
# result, and exits 1 naming each resolution that failed.
set -euo pipefail
cd "$(dirname "$0")/.."

UV=${UV:-.venv/bin/uv}
[ -x "$UV" ] || UV=$(command -v uv)
PYTHON_VERSION=${PYTHON_VERSION:-3.11}
ROOT=${TEST_DEPS_DIR:-.test-deps}
WORKERS=${TEST_DEPS_WORKERS:-2}
# Keep in step with the PyGithub range of pyproject.toml (tests/test_dependencies.py checks it).
PYGITHUB_MINORS=(2.4 2.5 2.6 2.7 2.8 2.9 2.10)
ONLINE_TESTS=(
  tests/github/test_client.py
  tests/github/test_token.py
  tests/github/test_authors.py
  tests/github/test_adapters.py
  tests/test_action.py
)
TESTS=(
  tests/github
  tests/modes/test_trust.py
  tests/test_action.py
  tests/modes/lookup/test_online_conformance.py
  tests/modes/lookup/test_conformance.py
  tests/test_dependencies.py
)
# TEST_DEPS_TESTS="tests/a.py tests/b" runs other test paths instead (on every resolution).
if [ -n "${TEST_DEPS_TESTS:-}" ]; then
  read -r -a TESTS <<<"$TEST_DEPS_TESTS"
  ONLINE_TESTS=("${TESTS[@]}")
fi
# The test tools these tests import, pinned as pyproject's `test` extra pins them.
mapfile -t TOOLS < <(python3 - <<'PY'
import re, tomllib
extra = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["test"]
wanted = {"pytest", "pytest-httpserver", "hypothesis", "trustme", "pytest-xdist", "ruamel.yaml"}
for requirement in extra:
    if re.split(r"[=<>!~ \[]", requirement, maxsplit=1)[0].lower() in wanted:
        print(requirement)
PY
)
[ ${#TOOLS[@]} -eq 6 ] || { echo "test-deps: pyproject's test extra lacks a test tool" >&2; exit 2; }

all="lowest"
for minor in "${PYGITHUB_MINORS[@]}"; do all="$all,pygithub-$minor"; done
all="$all,lock"
wanted=${TEST_DEPS:-$all}

install() {  # install VENV NAME: the venv's packages for resolution NAME
  local venv=$1 name=$2
  local pip=(env VIRTUAL_ENV="$venv" "$UV" pip install -q)
  case "$name" in
    # lowest-direct lowers the project's own dependencies; the tools stay at their pins.
    lowest) "${pip[@]}" --resolution lowest-direct -e . "${TOOLS[@]}" ;;
    highest) "${pip[@]}" --resolution highest -e . "${TOOLS[@]}" ;;
    lock)
      "${pip[@]}" --require-hashes -r requirements.lock &&
      "${pip[@]}" -e . "${TOOLS[@]}" ;;
    pygithub-*) "${pip[@]}" -e . "${TOOLS[@]}" "PyGithub~=${name#pygithub-}.0" ;;
    *) echo "test-deps: unknown resolution $name" >&2; return 2 ;;
  esac
}

failed=()
rows=()
started=$SECONDS
for name in ${wanted//,/ }; do
  venv=$ROOT/$name
  one=$SECONDS
  rm -rf "$venv"
  result=passed
  versions="-"
  if ! { "$UV" venv -q --python "$PYTHON_VERSION" "$venv" && install "$venv" "$name"; }; then
    echo "== test-deps $name: the install FAILED" >&2
    result="FAILED (install)"
  else
    versions=$("$venv/bin/python" -c 'from importlib.metadata import version as v
print(" ".join(f"{n}=={v(n)}" for n in ("PyGithub", "pydantic", "pydantic-core", "requests", "urllib3", "cmarkgfm", "actions-toolkit", "certifi")))')
    echo "== test-deps $name: $versions"
    case "$name" in pygithub-*) paths=("${ONLINE_TESTS[@]}") ;; *) paths=("${TESTS[@]}") ;; esac
    if ! "$venv/bin/python" -m pytest -q -n "$WORKERS" -p no:cacheprovider -m "not serial" \
      "${paths[@]}"; then
      result=FAILED
    fi
    # pytest exits 5 when a path holds no serial test: that is not a failure.
    "$venv/bin/python" -m pytest -q -p no:cacheprovider -m serial "${paths[@]}" || serial=$?
    case "${serial:-0}" in 0 | 5) ;; *) result=FAILED ;; esac
    unset serial
  fi
  echo "== test-deps $name: $result ($((SECONDS - one)) s)"
  [ "$result" = passed ] || failed+=("$name")
  rows+=("$(printf '%-14s %-9s %5d s  %s' "$name" "${result%% *}" $((SECONDS - one)) "$versions")")
done
echo
echo "== test-deps summary (resolution, result, seconds, versions)"
printf '%s\n' "${rows[@]}"
echo "== test-deps: $((SECONDS - started)) s in all"
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-deps FAILED on: ${failed[*]}" >&2
  exit 1
fi
