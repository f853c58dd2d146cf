#!/usr/bin/env bash
# `make test-deps` (issue 19): the online, action and conformance tests on every dependency
# resolution the project declares it supports, each in a fresh venv under .test-deps/:
#   lowest   every direct dependency at its lowest allowed version (uv --resolution lowest-direct)
#   pygithub-2.N   each PyGithub minor release pyproject.toml allows (the newest patch of each)
#   lock     requirements.lock (the container's pins), then the test tools
#   highest  (only with TEST_DEPS=highest: the scheduled CI job) the newest of everything
# uv's cache is shared by all of them, so a run after the first downloads nothing.
# TEST_DEPS=lowest,lock (a comma-separated subset) runs only those.
set -euo pipefail
cd "$(dirname "$0")/.."

UV=${UV:-.venv/bin/uv}
[ -x "$UV" ] || UV=$(command -v uv)
PYTHON_VERSION=${PYTHON_VERSION:-3.11}
ROOT=${TEST_DEPS_DIR:-.test-deps}
# Keep in step with the PyGithub range of pyproject.toml (tests/test_dependencies.py checks it).
PYGITHUB_MINORS=(2.4 2.5 2.6 2.7 2.8 2.9 2.10)
TESTS=(
  tests/github
  tests/modes/lookup/test_online_conformance.py
  tests/modes/lookup/test_conformance.py
  tests/modes/test_trust.py
  tests/test_action.py
  tests/test_dependencies.py
)
# TEST_DEPS_TESTS="tests/a.py tests/b" runs other test paths instead.
if [ -n "${TEST_DEPS_TESTS:-}" ]; then read -r -a TESTS <<<"$TEST_DEPS_TESTS"; fi

all="lowest"
for minor in "${PYGITHUB_MINORS[@]}"; do all="$all,pygithub-$minor"; done
all="$all,lock"
wanted=${TEST_DEPS:-$all}

install() {  # install NAME: the venv's packages for resolution NAME
  local venv=$1 name=$2
  case "$name" in
    lowest) VIRTUAL_ENV=$venv "$UV" pip install -q --resolution lowest-direct -e '.[test]' pytest-xdist ;;
    highest) VIRTUAL_ENV=$venv "$UV" pip install -q --resolution highest -e '.[test]' pytest-xdist ;;
    lock)
      VIRTUAL_ENV=$venv "$UV" pip install -q --require-hashes -r requirements.lock
      VIRTUAL_ENV=$venv "$UV" pip install -q -e '.[test]' pytest-xdist ;;
    pygithub-*) VIRTUAL_ENV=$venv "$UV" pip install -q -e '.[test]' pytest-xdist "PyGithub~=${name#pygithub-}.0" ;;
    *) echo "test-deps: unknown resolution $name" >&2; return 2 ;;
  esac
}

failed=()
started=$SECONDS
for name in ${wanted//,/ }; do
  venv=$ROOT/$name
  rm -rf "$venv"
  "$UV" venv -q --python "$PYTHON_VERSION" "$venv"
  install "$venv" "$name"
  versions=$("$venv/bin/python" -c 'from importlib.metadata import version as v
print(" ".join(f"{n}=={v(n)}" for n in ("PyGithub", "pydantic", "pydantic-core", "requests", "urllib3", "cmarkgfm", "actions-toolkit")))')
  echo "== test-deps $name: $versions"
  if "$venv/bin/python" -m pytest -q -n 2 -p no:cacheprovider "${TESTS[@]}"; then
    echo "== test-deps $name: passed"
  else
    echo "== test-deps $name: FAILED"
    failed+=("$name")
  fi
done
echo "== test-deps: $((SECONDS - started)) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-deps failed on: ${failed[*]}" >&2
  exit 1
fi
