#!/bin/bash
# run_target_shared.sh -- a target sessmax starts on this machine is watched for company: `sessmax
# demo` with a plan whose target.local pins simhost to CPU 1 under a cgroup v1 quota of one CPU.
# With a busy process pinned to CPU 1 the run's target_load rows show the others' share and
# `score` and the report flag the target as SHARED; a run without it is not flagged (asserted
# only when CPU 1 was quiet before the run: on a shared machine other jobs are company too).
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?} S=${SESSMAX_SOURCE_DIR:?}
[ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ] || { echo "SKIP: needs root and cgroup v1 cpu"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs"; exit 77; }
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK run_target_shared
source "$S/tests/integration/lib/cpuload.sh"
at_exit busy_stop

cat > "$WORK/plan.yaml" <<YAML
version: 1
name: target-shared
target: {host: 127.0.0.1, port: 3390, verify: false, security: tls, local: {cpus: "1", cpu_percent: 100}}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-e2e
workload: $S/tests/integration/short-worker.yaml
sessions: 2
launch_window: 4s
steady_state: 12s
logoff_deadline: 20s
agents: {local: 1, cpus: "0"}
results: $WORK/unused.db
YAML

demo() { # demo NAME: sessmax demo into $WORK/NAME (any verdict: it exits with the verdict's code), then its score
    local rc=0
    "$B/sessmax" demo --as-planned --plan "$WORK/plan.yaml" --out "$WORK/$1" > "$WORK/$1.log" 2>&1 || rc=$?
    [ $rc -le 2 ] || { cat "$WORK/$1.log"; fail "$1: demo failed (exit $rc)"; }
    "$B/sessmax" score "$WORK/$1/results.db" --no-store > "$WORK/$1.score" 2>&1 || true
    grep -q '^target     ' "$WORK/$1.score" || { cat "$WORK/$1.score"; fail "$1: score has no target line"; }
    rows=$(sqlite3 "$WORK/$1/results.db" "SELECT count(*) FROM target_load WHERE cpus = 1")
    [ "$rows" -ge 3 ] || fail "$1: $rows target_load rows"
}
busy_start 1
demo busy
busy_stop
target_flagged "$WORK/busy.score" "$WORK/busy/report.html" || { cat "$WORK/busy.score"; fail "a busy loop on the target's CPU was not flagged in score and report"; }
echo "busy:  $(grep '^target' "$WORK/busy.score")"

quiet=$(cpu_busy_pct 1)
demo alone
echo "alone: $(grep '^target' "$WORK/alone.score")"
if [ "$quiet" -lt 5 ]; then
    target_alone "$WORK/alone.score" || fail "a target alone on its CPU was flagged as shared"
else
    echo "note: CPU 1 was ${quiet} % busy before the second run (other jobs on this machine): its flag is not asserted"
fi
echo "run_target_shared: ok"
