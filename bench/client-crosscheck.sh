#!/bin/bash
# client-crosscheck.sh -- the built-in engine's timings checked against a client nobody here wrote:
# the same plan (workloads/simhost-task-worker.yaml, SESSIONS sessions) against the same simhost,
# once with `client: builtin` and once with `client: {x11: xfreerdp}` (Debian's xfreerdp on its
# own Xvfb per session), and, when TigerVNC is installed (VNC=0 turns it off), a third time with
# `vncviewer` against VNC desktops (TigerVNC Xvnc, one per connection) whose app is simhost's
# desktop shown by an xfreerdp on that desktop: the same screens through another server and
# protocol (docs/clients.md). One `sessmax matrix --vary client=builtin,xfreerdp[,vncviewer]`
# into one database. Prints per timer the p50 of every run and its difference to builtin, then
# smax and baseline of each, and the A/B statistics (median difference with a 95 % interval,
# Mann-Whitney p) of every timer against builtin.
# simhost (and the VNC desktops) are pinned to CPU 0, the agent (and so its X servers and
# clients) to CPU 1 where the machine has two, so the client side's cost does not slow the
# server directly.
#   bench/client-crosscheck.sh [SESSIONS=12] [STEADY=120s]   (env WORK_SCALE=1.0, KEEP=DIR, VNC=0)
set -euo pipefail
B=$(cd "${SESSMAX_BUILD_DIR:-build}" && pwd)
S=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-12}
STEADY=${2:-120s}
for t in xfreerdp Xvfb sqlite3; do command -v $t >/dev/null || { echo "client-crosscheck: $t missing"; exit 1; }; done
W=${KEEP:-$(mktemp -d /tmp/sessmax-crosscheck.XXXXXX)}
mkdir -p "$W"
. "$S/bench/lib.sh"
[ -z "${KEEP:-}" ] || BENCH_KEEP_DIR=1
bench_cleanup_on_exit "$W"
export SESSMAX_PASSWORD=crosscheck-$$ SESSMAX_AGENT_BIN=$B/sessmax-agent
PORT=$(free_port)
pin() { if [ "$(nproc)" -ge 2 ]; then echo "$1"; fi; }
VNC=${VNC:-1}
for t in vncviewer vncpasswd Xvnc; do command -v $t >/dev/null || VNC=0; done
SIMCPU=${SIMCPU-$(pin "taskset -c 0")}
$SIMCPU "$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users $((2 * N + 2)) \
    --work-scale "${WORK_SCALE:-1.0}" --state-dir "$W/sim" >"$W/simhost.log" 2>&1 &
PIDS=$!
for _ in $(seq 100); do grep -q 'listening on' "$W/simhost.log" && break; sleep 0.1; done
CLIENTS=builtin,xfreerdp
if [ "$VNC" = 1 ]; then
    # desktop k shows simhost's desktop of simuser N+2+k (the RDP columns use 1..N)
    (umask 077; printf '%s\n' "$SESSMAX_PASSWORD" | vncpasswd -f >"$W/vncpasswd")
    APP="n=\$(($N + 2 + VNC_DESKTOP)); printf '%s\n' \"\$SESSMAX_PASSWORD\" | exec xfreerdp /v:127.0.0.1:$PORT \
/u:simuser\$(printf %03d \$n) /from-stdin:force /cert:ignore /sec:tls /f /size:1024x768 /bpp:16 -clipboard /log-level:WARN"
    $SIMCPU python3 "$S/tests/integration/lib/vnc_desktops.py" "$W/vnc.port" "$W/vncpasswd" 1024x768 "$APP" &
    PIDS="$PIDS $!"
    for _ in $(seq 100); do [ -s "$W/vnc.port" ] && break; sleep 0.1; done
    CLIENTS=$CLIENTS,vncviewer
fi
cat >"$W/plan.yaml" <<YAML
name: crosscheck
target: {host: 127.0.0.1, port: $PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost
network: lan
client: builtin
$([ "$VNC" = 1 ] && printf 'clients:\n  vncviewer: {resolution: 1024x768, target: {host: 127.0.0.1, port: %s}}' "$(cat "$W/vnc.port")")
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
     "(freerdp2-x11 $(dpkg-query -W -f='${Version}' freerdp2-x11 2>/dev/null)$([ "$VNC" = 1 ] &&
     echo ", tigervnc-viewer $(dpkg-query -W -f='${Version}' tigervnc-viewer 2>/dev/null)"))"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$B/sessmax" matrix "$W/plan.yaml" --plain --vary client=$CLIENTS >"$W/matrix.log" 2>&1 || {
    tail -n 30 "$W/matrix.log"; echo "client-crosscheck: matrix failed"; exit 1; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
sed -n '/^platform /,$p' "$W/matrix.log"
echo
RUNS=$(seq -s' ' 1 $(( VNC == 1 ? 3 : 2 )))
"$B/sessmax" compare "$W/x.db" $RUNS --stat p50 --format csv >"$W/p50.csv"
python3 - "$W/p50.csv" "$W/x.db" <<'PY'
import csv, sqlite3, sys
rows = list(csv.reader(open(sys.argv[1])))
head, runs = rows[0], rows[1:]
names = ["builtin", "xfreerdp", "vncviewer"][:len(runs)]
db = sqlite3.connect(sys.argv[2])
def n(run, timer):
    return db.execute("select count(*) from samples s join timer_names t on t.id = s.name_id "
                      "where s.run_id = ? and t.name = ? and s.ok = 1", (run, timer)).fetchone()[0]
line = f"{'timer':<10} {'n':>4} {'builtin':>9}"
for name in names[1:]:
    line += f" {'n':>4} {name:>9} {name[0] + ' - b':>8} {name[0] + ' / b':>6}"
print(line)
for i, h in enumerate(head):
    if not h.startswith("p50_ms("):
        continue
    t = h[7:-1]
    line = f"{t:<10} {n(1, t):4d} {runs[0][i] + 'ms' if runs[0][i] else '-':>9}"
    for k in range(1, len(runs)):
        try:
            va, vb = float(runs[0][i]), float(runs[k][i])
            ratio = f"{vb / va:6.2f}" if va > 0 else "     -"
            line += f" {n(k + 1, t):4d} {vb:7.0f}ms {vb - va:+6.0f}ms {ratio}"
        except ValueError:
            line += f" {n(k + 1, t):4d} {runs[k][i] or '-':>9} {'-':>8} {'-':>6}"
    print(line)
col = {h: i for i, h in enumerate(head)}
for label, r in zip(names, runs):
    print(f"{label:<10} smax {r[col['smax']]}, baseline {r[col['baseline_ms']]} ms, "
          f"{r[col['kbps_per_session']]} kbit/s per session, stuck {r[col['stuck_sessions']]}")
PY
for r in ${RUNS#1 }; do
    echo
    echo "A = builtin, B = $(sqlite3 "$W/x.db" "select client from runs where id = $r")"
    "$B/sessmax" compare "$W/x.db" 1 $r --ab --all-timers 2>&1 | grep -v '^$' || true
done
echo
for r in $RUNS; do
    "$B/sessmax" score "$W/x.db" --run $r 2>/dev/null | grep -E '^(run|smax|logon|agents|agent|clients) ' || true
done
