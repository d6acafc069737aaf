# agent_env.sh -- shared setup of the agent's end-to-end tests (sourced): build/source dirs, the
# scratch dir T, a counting TCP listener and JSON line checks; fail, start_simhost (sets SIM_PORT,
# SIM_FP) and the cleanup of every process in PIDS come from harness.sh.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
B=${SESSMAX_BUILD_DIR:?SESSMAX_BUILD_DIR not set}
S=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
AGENT=$B/sessmax-agent
SIMHOST=${SESSMAX_SIMHOST:-$B/sessmax-simhost}
scratch_dir WORK sessmax-agent-test
T=$WORK
export SESSMAX_PASSWORD=${SESSMAX_PASSWORD:-agent-test-pass}

# start_tcpcount MODE [HOST:PORT]: a counting listener; sets CNT_PORT, CNT_LOG
start_tcpcount() {
  CNT_LOG="$T/tcpcount.$1.log"
  : > "$CNT_LOG"
  python3 "$S/tests/integration/lib/tcpcount.py" "$T/tcpcount.$1.port" "$CNT_LOG" "$@" &
  PIDS+=("$!")
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
