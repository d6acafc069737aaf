# controller.sh -- helpers shared by the controller's end-to-end tests (sourced, not run).
# Every process a test starts is recorded in PIDS and killed by the EXIT trap.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
S=${SESSMAX_SOURCE_DIR:?}
PIDS=()
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-ctl.XXXXXX")
export SESSMAX_PASSWORD=e2e-pass-$$
export SESSMAX_AGENT_BIN=$B/sessmax-agent

cleanup() {
    local rc=$?
    for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    if [ $rc -ne 0 ]; then
        echo "--- failed (rc=$rc); work dir $WORK kept"; tail -n 30 "$WORK"/*.log 2>/dev/null || true
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 "$WORK/r.db" "$1"; }

# start_simhost USERS [ARGS...]: a cheap simhost (work scaled down: the tests check plumbing, not
# capacity); ARGS go to simhost
start_simhost() {
    local users=$1; shift
    SIM_PORT=$(free_port)
    "$B/sessmax-simhost" --listen "127.0.0.1:$SIM_PORT" --users "$users" --work-scale 0.05 \
        --state-dir "$WORK/sim" "$@" >"$WORK/simhost.log" 2>&1 &
    SIM_PID=$!
    PIDS+=("$SIM_PID")
    for _ in $(seq 100); do
        grep -q "listening on" "$WORK/simhost.log" && return 0
        sleep 0.1
    done
    fail "simhost did not start"
}

# stop_simhost: ends the simhost start_simhost started
stop_simhost() {
    kill "$SIM_PID" 2>/dev/null || true
    wait "$SIM_PID" 2>/dev/null || true
}

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
    "$B/sessmax" run "$WORK/plan.yaml" --plain "$@" >"$WORK/run.log" 2>&1 &
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
    FP=$(grep -o -- "--tls-pin sha256:[0-9A-F:]*" "$WORK/run.log" | head -1 | cut -d' ' -f2)
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

# wait_for SECONDS CMD...: polls CMD until it succeeds
wait_for() {
    local n=$(( $1 * 5 )); shift
    for _ in $(seq "$n"); do "$@" && return 0; sleep 0.2; done
    return 1
}
