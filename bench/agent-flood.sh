#!/bin/bash
# agent-flood.sh -- does a flood of connections without the token lock a real agent out? A remote
# agent (TLS) reaches the controller through a TCP relay; once its sessions are active, FLOOD
# silent connections from 20 loopback addresses (tests/integration/lib/flood.py), each reopened as
# the controller closes it at up to RATE opens/s, try to fill the listener; the relay is then cut
# for CUT_S seconds and the agent must reconnect through the flood and resume.
#   bench/agent-flood.sh
#   env: FLOOD (1100), RATE (300), SESSIONS (8), STEADY_S (60), GRACE_S (30), CUT_S (3), KEEP=1
# Prints the flood's figures (connections opened, closed by the controller, opens/s), the time
# the agent was away against its grace period, and samples stored against produced (duplicates
# and losses). Figures, not a pass/fail; exit 1 only when the run itself did not happen.
set -euo pipefail
S=${SESSMAX_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SESSMAX_BUILD_DIR:-$S/build}
FLOOD=${FLOOD:-1100}
RATE=${RATE:-300}
N=${SESSIONS:-8}
STEADY_S=${STEADY_S:-60}
GRACE_S=${GRACE_S:-30}
CUT_S=${CUT_S:-3}
. "$S/bench/lib.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-flood.XXXXXX")
BENCH_KEEP_DIR=${KEEP:-0}
bench_keep() { [ "$BENCH_KEEP_DIR" != 1 ] || echo "flood: kept $T" >&2; }
bench_cleanup_on_exit "$T"
export SESSMAX_PASSWORD=${SESSMAX_PASSWORD:-flood-bench-pass-$$}
export SESSMAX_TOKEN=$(openssl rand -hex 32)
q() { sqlite3 -cmd '.timeout 5000' "file:$T/r.db?mode=ro" "$1"; }
waitfor() { local n=$1; shift; for _ in $(seq $((n * 10))); do "$@" && return 0; sleep 0.1; done; return 1; }
die() { echo "flood: $*" >&2; exit 1; }

PORT=$(free_port); LPORT=$(free_port)
"$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users $((N + 5)) --work-scale 0.05 \
  --state-dir "$T/sim" --log-level warn >"$T/simhost.log" 2>&1 &
PIDS="$PIDS $!"
waitfor 30 grep -q "listening on" "$T/simhost.log" || die "simhost did not start"
cat >"$T/plan.yaml" <<YAML
name: flood
target: {host: 127.0.0.1, port: $PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-flood
workload: $S/tests/integration/short-worker.yaml
sessions: $N
launch_window: 2s
steady_state: ${STEADY_S}s
logoff_deadline: 30s
agents: {expect: 1, listen: "127.0.0.1:$LPORT", tls: true, wait: 60s, grace: ${GRACE_S}s, capacity: $N}
results: $T/r.db
score: {lag_p99_max_ms: 5000}   # the flood shares this machine's CPUs with the agent: lag is not the question
YAML
"$B/sessmax" run "$T/plan.yaml" --plain >"$T/run.log" 2>&1 &
CTL=$!; PIDS="$PIDS $CTL"
waitfor 30 grep -q -- "--tls-pin sha256:" "$T/run.log" || die "the controller did not start: $(head -c 300 "$T/run.log")"
FP=$(grep -o -- "--tls-pin sha256:[0-9A-F:]*" "$T/run.log" | head -1 | cut -d' ' -f2)
relay() {
  python3 "$S/tests/integration/lib/tcpcount.py" "$T/relay.port" "$T/relay.log" forward "127.0.0.1:$LPORT" &
  RELAY=$!; PIDS="$PIDS $RELAY"
}
relay
waitfor 10 test -s "$T/relay.port" || die "the relay did not start"
SESSMAX_LOG=info "$B/sessmax-agent" connect "127.0.0.1:$(cat "$T/relay.port")" --name remote-1 --capacity "$N" \
  --tls-pin "$FP" --buffer-mib 1 --spill-dir "$T" >"$T/agent.log" 2>&1 &
AGENT=$!; PIDS="$PIDS $AGENT"
active() { [ -f "$T/r.db" ] && [ "$(q "select count(*) from sessions where state = 'active'" 2>/dev/null)" = "$N" ]; }
waitfor 120 active || die "sessions did not become active"

python3 "$S/tests/integration/lib/flood.py" "127.0.0.1:$LPORT" "$FLOOD" "$RATE" 20 "$T/flood.stats" &
FL=$!; PIDS="$PIDS $FL"
opened() { [ -s "$T/flood.stats" ] && [ "$(cut -d' ' -f2 "$T/flood.stats")" -ge "$1" ]; }
waitfor 60 opened $((FLOOD + RATE * 2)) || die "the flood did not get going"
read -r _ o0 _ c0 _ _ <"$T/flood.stats"; t0=$(date +%s%N)
kill -9 "$RELAY"; sleep "$CUT_S"; relay
back=0; waitfor $((GRACE_S + 5)) grep -q "agent remote-1 is back after" "$T/run.log" && back=1
sleep 5
read -r _ o1 _ c1 _ open1 <"$T/flood.stats"; t1=$(date +%s%N)
kill "$FL" 2>/dev/null || true
set +e; wait "$CTL"; rc=$?; wait "$AGENT"; arc=$?; set -e

away=$(sed -n 's/.*agent remote-1 is back after \([0-9.]*\) s.*/\1/p' "$T/run.log" | head -1)
produced=$(sed -n 's/.*results produced: \([0-9]*\) samples.*/\1/p' "$T/agent.log")
stored=$(q "select count(*) from samples")
dups=$(q "select count(*) from (select session, loop, name_id, t_us from samples group by 1, 2, 3, 4 having count(*) > 1)")
lost_agents=$(q "select count(*) from agents where status = 'lost'")
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
echo "flood: $FLOOD silent connections from 20 addresses, reopened at up to $RATE/s"
awk -v o="$((o1 - o0))" -v c="$((c1 - c0))" -v s="$secs" -v n="$open1" 'BEGIN {
  printf "  during the cut and resume (%s s): %d opened (%.0f/s), %d closed by the controller, %d open at the end\n", s, o, o / s, c, n }'
if [ "$back" = 1 ]; then
  awk -v a="$away" -v g="$GRACE_S" -v c="$CUT_S" 'BEGIN { printf "  agent back after %.1f s away (cut %s s), %.2fx of its %s s grace\n", a, c, a / g, g }'
else
  echo "  agent NOT back within its ${GRACE_S} s grace"
fi
awk -v p="${produced:-0}" -v s="$stored" -v d="$dups" 'BEGIN {
  printf "  samples: %d stored of %d produced (%.3fx), %d stored twice\n", s, p, p ? s / p : 0, d }'
echo "  run exit $rc, agent exit $arc, agents lost $lost_agents"
