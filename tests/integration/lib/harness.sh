# harness.sh -- the one shell harness of the end-to-end tests (sourced, not run): fail, a free
# loopback port, scratch folders, start_simhost, and the EXIT trap that ends every process a test
# started (by PID, never by name) and removes its scratch folders.
#   PIDS+=("$!")            after starting a process in the background: ended at exit
#   scratch_dir VAR PREFIX  makes a folder (under $TMPDIR or /tmp), sets VAR, removed at exit
#   at_exit 'COMMAND'       runs COMMAND at exit, before the processes are ended (last added first)
# On failure (a non-zero exit but 77, a skip) the scratch folders are kept and the last lines of
# their *.log printed (a folder the test removed itself is skipped); KEEP_TMP=1 keeps them always.
# Works with and without `set -euo pipefail`.
[ -n "${HARNESS_LOADED:-}" ] && return 0
HARNESS_LOADED=1
PIDS=()
HARNESS_DIRS=()
HARNESS_AT_EXIT=()

fail() { echo "FAIL: $*" >&2; exit 1; }

# free_port: prints a TCP port of 127.0.0.1 that nothing listens on
free_port() {
    python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'
}

# scratch_dir VAR PREFIX: a new folder PREFIX.XXXXXX in VAR, removed at exit
scratch_dir() {
    local d
    d=$(mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX") || fail "mktemp failed"
    HARNESS_DIRS+=("$d")
    printf -v "$1" '%s' "$d"
}

# wait_for SECONDS COMMAND...: polls COMMAND every 0.2 s; 0 when it succeeded in time
wait_for() {
    local t=$1 i
    shift
    for ((i = 0; i < t * 5; i++)); do
        "$@" && return 0
        sleep 0.2
    done
    return 1
}

at_exit() { HARNESS_AT_EXIT=("$1" "${HARNESS_AT_EXIT[@]}"); }

# stop_pids: ends every process in PIDS (TERM, up to 3 s, then KILL) and empties PIDS
stop_pids() {
    local p i alive
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for ((i = 0; i < 30; i++)); do
        alive=0
        for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.1
    done
    for p in "${PIDS[@]}"; do
        kill -9 "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    PIDS=()
}

harness_cleanup() {
    local rc=$? c d
    set +e
    for c in "${HARNESS_AT_EXIT[@]}"; do eval "$c"; done
    stop_pids
    for d in "${HARNESS_DIRS[@]}"; do
        [ -d "$d" ] || continue
        if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then   # 77: skipped
            echo "--- failed (rc=$rc); $d kept" >&2
            tail -n 30 "$d"/*.log 2>/dev/null >&2
        elif [ "${KEEP_TMP:-0}" = 1 ]; then
            echo "kept $d" >&2
        else
            rm -rf "$d"
        fi
    done
    exit $rc
}
trap harness_cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# start_simhost USERS [ARGS...]: sessmax-simhost (${SIMHOST:-$SESSMAX_BUILD_DIR/sessmax-simhost})
# on a free port of 127.0.0.1 with USERS users, state in $WORK/sim, output in $WORK/simhost.log,
# after SIM_ARGS (the caller's defaults) and ARGS. Waits up to 30 s for its "listening on" line;
# sets SIM_PORT, SIM_PID, SIM_LOG and SIM_FP (its certificate's fingerprint).
start_simhost() {
    local users=$1 i
    shift
    SIM_PORT=$(free_port)
    SIM_LOG=${WORK:?start_simhost needs WORK (scratch_dir WORK NAME)}/simhost.log
    # emptied before the start, not by the background job (a restart would see the old "listening")
    : >"$SIM_LOG"
    "${SIMHOST:-${SESSMAX_BUILD_DIR:?}/sessmax-simhost}" --listen "127.0.0.1:$SIM_PORT" --users "$users" \
        --state-dir "$WORK/sim" ${SIM_ARGS[@]+"${SIM_ARGS[@]}"} "$@" >>"$SIM_LOG" 2>&1 &
    SIM_PID=$!
    PIDS+=("$SIM_PID")
    for ((i = 0; i < 300; i++)); do
        grep -q "listening on" "$SIM_LOG" 2>/dev/null && break
        kill -0 "$SIM_PID" 2>/dev/null || break
        sleep 0.1
    done
    grep -q "listening on" "$SIM_LOG" || { cat "$SIM_LOG" >&2; fail "simhost did not start"; }
    SIM_FP=$(grep -ao 'sha256:[0-9A-Fa-f:]*' "$SIM_LOG" | head -1)
    [ -n "$SIM_FP" ] || fail "no fingerprint in simhost output"
}

# stop_simhost: ends the simhost start_simhost started last
stop_simhost() {
    kill "$SIM_PID" 2>/dev/null || true
    wait "$SIM_PID" 2>/dev/null || true
}
