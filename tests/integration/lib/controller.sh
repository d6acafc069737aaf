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

# write_plan SESSIONS AGENTS CAPACITY WINDOW STEADY
write_plan() {
    cat >"$WORK/plan.yaml" <<YAML
name: e2e
target: {host: 127.0.0.1, port: $SIM_PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-e2e
network: lan
workload: $S/tests/integration/short-worker.yaml
sessions: $1
launch_window: $4
steady_state: $5
logoff_deadline: 20s
agents: {local: $2, capacity: $3, heartbeat_timeout: 5s}
results: $WORK/r.db
YAML
}

# wait_for SECONDS CMD...: polls CMD until it succeeds
wait_for() {
    local n=$(( $1 * 5 )); shift
    for _ in $(seq "$n"); do "$@" && return 0; sleep 0.2; done
    return 1
}
