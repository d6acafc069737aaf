# agent_env.sh -- shared setup of the agent's end-to-end tests (sourced): build/source dirs, a
# scratch dir, cleanup of every process started, simhost startup with its fingerprint, and JSON
# line checks. Every process is started by us and killed by PID in the EXIT trap.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?SESSMAX_BUILD_DIR not set}
S=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
AGENT=$B/sessmax-agent
SIMHOST=${SESSMAX_SIMHOST:-$B/sessmax-simhost}
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-agent-test.XXXXXX")
PIDS=""
export SESSMAX_PASSWORD=${SESSMAX_PASSWORD:-agent-test-pass}

cleanup() {
  for p in $PIDS; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 30); do
    alive=0
    for p in $PIDS; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for p in $PIDS; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "${KEEP_TMP:-0}" = 1 ]; then echo "kept $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# start_simhost NUSERS [extra args...]: sets SIM_PORT, SIM_FP
start_simhost() {
  local n=$1; shift
  SIM_PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  "$SIMHOST" --listen "127.0.0.1:$SIM_PORT" --users "$n" --state-dir "$T/sim" "$@" \
    > "$T/simhost.log" 2>&1 &
  PIDS="$PIDS $!"
  for _ in $(seq 100); do
    grep -q 'listening on' "$T/simhost.log" 2>/dev/null && break
    sleep 0.1
  done
  grep -q 'listening on' "$T/simhost.log" || { cat "$T/simhost.log" >&2; fail "simhost did not start"; }
  SIM_FP=$(grep -ao 'sha256:[0-9A-Fa-f:]*' "$T/simhost.log" | head -1)
  [ -n "$SIM_FP" ] || fail "no fingerprint in simhost output"
}

# start_tcpcount MODE [HOST:PORT]: a counting listener; sets CNT_PORT, CNT_LOG
start_tcpcount() {
  CNT_LOG="$T/tcpcount.$1.log"
  : > "$CNT_LOG"
  python3 "$S/tests/integration/lib/tcpcount.py" "$T/tcpcount.$1.port" "$CNT_LOG" "$@" &
  PIDS="$PIDS $!"
  for _ in $(seq 100); do [ -s "$T/tcpcount.$1.port" ] && break; sleep 0.05; done
  CNT_PORT=$(cat "$T/tcpcount.$1.port")
}

# jq-free JSON line queries through python: jl FILE 'python expression over recs'
jl() {
  python3 - "$1" "$2" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print(eval(sys.argv[2]))
PY
}
