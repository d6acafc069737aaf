#!/bin/bash
# client-crosscheck.sh -- the built-in engine's timings checked against a client nobody here wrote:
# the same plan (workloads/simhost-task-worker.yaml, SESSIONS sessions) against the same simhost,
# once with `client: builtin` and once with `client: {x11: xfreerdp}` (Debian's xfreerdp on its
# own Xvfb per session), run by `sessmax matrix --vary client=builtin,xfreerdp` into one database.
# Prints per timer the p50 of both runs and their difference, then smax and baseline of both, and
# the A/B statistics (median difference with a 95 % interval, Mann-Whitney p) of every timer.
# simhost is pinned to CPU 0, the agent (and so its X servers and clients) to CPU 1 where the
# machine has two, so the client side's cost does not slow the server directly.
#   bench/client-crosscheck.sh [SESSIONS=12] [STEADY=120s]   (env WORK_SCALE=1.0, KEEP=DIR)
set -euo pipefail
B=$(cd "${SESSMAX_BUILD_DIR:-build}" && pwd)
S=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-12}
STEADY=${2:-120s}
for t in xfreerdp Xvfb sqlite3; do command -v $t >/dev/null || { echo "client-crosscheck: $t missing"; exit 1; }; done
W=${KEEP:-$(mktemp -d /tmp/sessmax-crosscheck.XXXXXX)}
mkdir -p "$W"
SIM=
cleanup() { [ -n "$SIM" ] && kill "$SIM" 2>/dev/null; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$W"; }
trap cleanup EXIT
export SESSMAX_PASSWORD=crosscheck-$$ SESSMAX_AGENT_BIN=$B/sessmax-agent
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
pin() { if [ "$(nproc)" -ge 2 ]; then echo "$1"; fi; }
${SIMCPU:=$(pin "taskset -c 0")} "$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users $((N + 2)) \
    --work-scale "${WORK_SCALE:-1.0}" --state-dir "$W/sim" >"$W/simhost.log" 2>&1 &
SIM=$!
for _ in $(seq 100); do grep -q 'listening on' "$W/simhost.log" && break; sleep 0.1; done
cat >"$W/plan.yaml" <<YAML
name: crosscheck
target: {host: 127.0.0.1, port: $PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost
network: lan
client: builtin
workload: $S/workloads/simhost-task-worker.yaml
sessions: $N
launch_window: 30s
steady_state: $STEADY
logoff_deadline: 60s
agents: {local: 1$([ "$(nproc)" -ge 2 ] && echo ', cpus: "1"')}
score: {baseline_count: 5}
results: $W/x.db
YAML
echo "client-crosscheck: $N sessions, steady $STEADY, simhost work scale ${WORK_SCALE:-1.0}, $(nproc) CPUs" \
     "(freerdp2-x11 $(dpkg-query -W -f='${Version}' freerdp2-x11 2>/dev/null))"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$B/sessmax" matrix "$W/plan.yaml" --plain --vary client=builtin,xfreerdp >"$W/matrix.log" 2>&1 || {
    tail -n 30 "$W/matrix.log"; echo "client-crosscheck: matrix failed"; exit 1; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
sed -n '/^platform /,$p' "$W/matrix.log"
echo
"$B/sessmax" compare "$W/x.db" 1 2 --stat p50 --format csv >"$W/p50.csv"
python3 - "$W/p50.csv" "$W/x.db" <<'PY'
import csv, sqlite3, sys
rows = list(csv.reader(open(sys.argv[1])))
head, a, b = rows[0], rows[1], rows[2]
db = sqlite3.connect(sys.argv[2])
def n(run, timer):
    return db.execute("select count(*) from samples s join timer_names t on t.id = s.name_id "
                      "where s.run_id = ? and t.name = ? and s.ok = 1", (run, timer)).fetchone()[0]
print(f"{'timer':<10} {'n':>4} {'builtin':>9} {'n':>4} {'xfreerdp':>9} {'x - b':>8} {'x / b':>6}")
for i, h in enumerate(head):
    if not h.startswith("p50_ms("):
        continue
    t = h[7:-1]
    try:
        va, vb = float(a[i]), float(b[i])
    except ValueError:
        print(f"{t:<10} {'-':>4} {a[i]:>9} {'-':>4} {b[i]:>9}")
        continue
    ratio = f"{vb / va:6.2f}" if va > 0 else "     -"
    print(f"{t:<10} {n(1, t):4d} {va:7.0f}ms {n(2, t):4d} {vb:7.0f}ms {vb - va:+6.0f}ms {ratio}")
col = {h: i for i, h in enumerate(head)}
for label, r in (("builtin", a), ("xfreerdp", b)):
    print(f"{label:<10} smax {r[col['smax']]}, baseline {r[col['baseline_ms']]} ms, "
          f"{r[col['kbps_per_session']]} kbit/s per session, stuck {r[col['stuck_sessions']]}")
PY
echo
"$B/sessmax" compare "$W/x.db" 1 2 --ab --all-timers 2>&1 | grep -v '^$' || true
for r in 1 2; do
    "$B/sessmax" score "$W/x.db" --run $r 2>/dev/null | grep -E '^(run|smax|logon|agents) ' || true
done
