# controller.sh -- helpers shared by the controller's end-to-end tests (sourced, not run): plans,
# runs, waits. fail, free_port, start_simhost (here with work scaled down: the tests check plumbing,
# not capacity) and the cleanup of every process in PIDS come from harness.sh.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
B=${SESSMAX_BUILD_DIR:?}
S=${SESSMAX_SOURCE_DIR:?}
scratch_dir WORK sessmax-ctl
export SESSMAX_PASSWORD=e2e-pass-$$
export SESSMAX_AGENT_BIN=$B/sessmax-agent
SIM_ARGS=(--work-scale 0.05)

q() { sqlite3 "$WORK/r.db" "$1"; }

# plan_fields [FIELD: VALUE]...: writes $WORK/plan.yaml, a plan against start_simhost's simhost.
# Each argument "field: value" replaces that field's default line or adds a line; the defaults are
# the short worker, 2 sessions, one local agent, a 20 s logoff deadline, results in $WORK/r.db.
plan_fields() {
    local -a order=(name target credentials platform network workload sessions launch_window steady_state
                    logoff_deadline agents)
    local -A v=([name]=e2e [target]="{host: 127.0.0.1, port: $SIM_PORT, verify: false, security: tls}"
                [credentials]='{user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}'
                [platform]=simhost-e2e [network]=lan [workload]=$S/tests/integration/short-worker.yaml
                [sessions]=2 [launch_window]=2s [steady_state]=15s [logoff_deadline]=20s
                [agents]="{local: 1, heartbeat_timeout: 5s}" [results]=$WORK/r.db)
    local kv k
    for kv in "$@"; do
        k=${kv%%:*}
        [ -n "${v[$k]+set}" ] || order+=("$k")   # results stays the last line
        v[$k]=${kv#*: }
    done
    for k in "${order[@]}" results; do printf '%s: %s\n' "$k" "${v[$k]}"; done >"$WORK/plan.yaml"
}

# write_plan SESSIONS AGENTS CAPACITY WINDOW STEADY
write_plan() {
    plan_fields "sessions: $1" "launch_window: $4" "steady_state: $5" \
        "agents: {local: $2, capacity: $3, heartbeat_timeout: 5s}"
}

# listen_agents EXPECT WAIT [MORE]: the plan's agents come from outside: EXPECT remote agents
# connect over TLS to 127.0.0.1:$LPORT (a free port) within WAIT; MORE is added to the agents'
# map (", grace: 5s")
listen_agents() {
    LPORT=$(free_port)
    sed -i "s/^agents: .*/agents: {expect: $1, listen: \"127.0.0.1:$LPORT\", tls: true, wait: $2${3:-}}/" \
        "$WORK/plan.yaml"
}

# start_run [ARGS...]: `sessmax run` of $WORK/plan.yaml in the background (output in
# $WORK/run.log); CTL is its PID
start_run() {
    # emptied here, not by the background job's redirection: that one may run after the caller's
    # first look at run.log, which would then read the previous run's lines (tls_fingerprint did)
    : >"$WORK/run.log"
    "$B/sessmax" run "$WORK/plan.yaml" --plain "$@" >>"$WORK/run.log" 2>&1 &
    CTL=$!
    PIDS+=("$CTL")
}

# wait_run: waits for the run start_run started and prints its output; rc is its exit status
wait_run() {
    set +e
    wait "$CTL"
    rc=$?
    set -e
    cat "$WORK/run.log"
}

# run_to_end LOG [ARGS...]: `sessmax run` of $WORK/plan.yaml to its end, output in $WORK/LOG.log
# and printed; rc is its exit status
run_to_end() {
    local log=$WORK/$1.log; shift
    set +e
    "$B/sessmax" run "$WORK/plan.yaml" --plain "$@" >"$log" 2>&1
    rc=$?
    set -e
    cat "$log"
}

# run_checked LOG: `sessmax run` of $WORK/plan.yaml to its end, output in $WORK/LOG.log; fails
# (printing that output) unless it exits 0, 1 or 2 (a verdict, even "inconclusive")
run_checked() {
    local rc=0
    "$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/$1.log" 2>&1 || rc=$?
    [ $rc -le 2 ] || { cat "$WORK/$1.log"; fail "$1: sessmax run exited $rc"; }
}

# counts_at_least N SQL: the database exists and SQL's count is N or more
counts_at_least() { [ -f "$WORK/r.db" ] && [ "$(q "$2" 2>/dev/null)" -ge "$1" ]; }

# run_ended: the run start_run started has exited
run_ended() { ! kill -0 "$CTL" 2>/dev/null; }

# tls_fingerprint: waits for the run's log to print the controller's certificate pin; sets FP
tls_fingerprint() {
    wait_for 30 grep -q -- "--tls-pin sha256:" "$WORK/run.log" || fail "the controller did not print its fingerprint"
    FP=$(grep -o -- "--tls-pin sha256:[0-9A-F:]*" "$WORK/run.log" | head -1 | cut -d' ' -f2) || true
    [ -n "$FP" ] || fail "no fingerprint in the controller's output: $(head -c 300 "$WORK/run.log")"
}

# kill_controller PID: SIGKILL of controller PID (CTL or its child) once its agents are known
# (AGENTS); the agents must notice and exit within 40 s
kill_controller() {
    AGENTS=$(pgrep -P "$1" -d ' ' -f "sessmax-agent connect") || fail "agents not found"
    PIDS+=($AGENTS)
    kill -9 "$1"
    wait "$CTL" 2>/dev/null || true
    agents_gone() { for p in $AGENTS; do kill -0 "$p" 2>/dev/null && return 1; done; return 0; }
    wait_for 40 agents_gone || fail "agents kept running after the controller died"
}
