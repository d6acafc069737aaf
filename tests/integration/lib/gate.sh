# gate.sh -- the launcher-health gate's end-to-end tests (sourced, not run; run_gate_*.sh):
# `sessmax demo` runs of a short plan with simhost pinned to CPU 1 and the agent to CPU 0, and
# the gate's verdict item read back from verdict.json. Needs 2 CPUs.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?} S=${SESSMAX_SOURCE_DIR:?}
[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs"; exit 77; }
. "$S/tests/integration/lib/harness.sh"
source "$S/tests/integration/lib/cpuload.sh"
source "$S/tests/integration/lib/gate_item.sh"
at_exit busy_stop
export SESSMAX_PASSWORD=gate-pass-$$

# gate_plan FILE SESSIONS STEADY: a demo plan of the short worker, the agent on CPU 0, simhost on 1
gate_plan() {
    cat > "$1" <<YAML
version: 1
name: gate
target: {host: 127.0.0.1, port: 3390, verify: false, security: tls, local: {cpus: "1", cpu_percent: 100}}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-e2e
workload: $S/tests/integration/short-worker.yaml
sessions: $2
launch_window: 2s
steady_state: $3
logoff_deadline: 20s
agents: {local: 1, cpus: "0"}
results: $WORK/unused.db
YAML
}

# gate_demo PLAN OUT [PREFIX...]: sessmax demo --as-planned (the plan as written: no prediction) into OUT (any verdict: it exits with the verdict's
# code), run under PREFIX (a command that runs the rest, e.g. a cgroup joiner)
gate_demo() {
    local plan=$1 out=$2 rc=0
    shift 2
    "$@" "$B/sessmax" demo --as-planned --plan "$plan" --out "$out" > "$out.log" 2>&1 || rc=$?
    if [ $rc = 69 ] && grep -q 'sessmax-simhost did not start' "$out.log"; then   # a loaded machine: once more
        rm -rf "$out"
        rc=0
        "$@" "$B/sessmax" demo --as-planned --plan "$plan" --out "$out" > "$out.log" 2>&1 || rc=$?
    fi
    [ $rc -le 2 ] || { cat "$out.log"; fail "$out: demo failed (exit $rc)"; }
    [ -f "$out/verdict.json" ] || { cat "$out.log"; fail "$out: no verdict.json"; }
}
