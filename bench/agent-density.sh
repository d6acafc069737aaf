#!/bin/bash
# agent-density.sh -- one sessmax-agent process with N sessions vs K xfreerdp processes (each with
# its own Xvfb), side by side in ONE run against one simhost. Prints, for the agent: active
# sessions per agent CPU core, RSS per session, loop lag (p99 and max over the whole run: ramp,
# steady state and logoff; p99 of the median and worst 2 s window; the 2 s windows whose max passed
# 20 ms, by phase); for xfreerdp+Xvfb: RSS and PSS per session; and the ratios against the targets
# (>= 200 sessions/core, <= 3 MiB/session at 1024x768x16, loop lag p99 over the run <= 2 ms and max
# <= 20 ms, memory per session <= 1/10 of xfreerdp+Xvfb).
#   bench/agent-density.sh [N=200] [K=4]   env: MEASURE_S (60), RAMP_S (40), WORK_SCALE (0.05),
#                                            AGENT_NICE (0; e.g. -10 to keep the agent ahead of
#                                            simhost on a small shared box: shows how much of the
#                                            lag is CPU contention rather than the agent's own work),
#                                            PIN (0; 1: simhost on the last CPU, the agent and the
#                                            xfreerdp clients on the others, via taskset),
#                                            RT (0; 1: PIN=1 and simhost and the agent under
#                                            `chrt -r 10`, so a shared machine's other load does
#                                            not decide the figures; a few minutes at most),
#                                            KEEP_LOGS (a directory: the run's logs are copied there),
#                                            CONNECT_THREADS (4; FreeRDP's connect takes ~0.5 s of
#                                            100 ms steps, so 4 threads log on at most ~7 sessions/s)
# The agent sessions run workloads/simhost-task-worker.yaml; the xfreerdp sessions sit logged on
# (nobody drives them), so their CPU figure is an idle floor, not a like-for-like comparison.
set -euo pipefail
N=${1:-200}
K=${2:-4}
MEASURE_S=${MEASURE_S:-60}
RAMP_S=${RAMP_S:-40}
WORK_SCALE=${WORK_SCALE:-0.05}
AGENT_NICE=${AGENT_NICE:-0}
PIN=${PIN:-0}
CONNECT_THREADS=${CONNECT_THREADS:-4}
RT=${RT:-0}
[ "$RT" = 1 ] && PIN=1
NCPU=$(nproc)
SIM_CPUS=""; CLIENT_CPUS=""; RT_PREFIX=""
if [ "$PIN" = 1 ] && [ "$NCPU" -ge 2 ]; then
  SIM_CPUS="taskset -c $((NCPU - 1))"
  CLIENT_CPUS="taskset -c 0-$((NCPU - 2))"
fi
[ "$RT" = 1 ] && RT_PREFIX="chrt -r 10"
S=${SESSMAX_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SESSMAX_BUILD_DIR:-$S/build}
. "$S/bench/lib.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-density.XXXXXX")
bench_cleanup_on_exit "$T"
bench_keep() {
  [ -z "${KEEP_LOGS:-}" ] || { mkdir -p "$KEEP_LOGS" && cp "$T"/*.log "$T"/*.err "$T"/*.jsonl "$KEEP_LOGS"/ 2>/dev/null; }
}
export SESSMAX_PASSWORD=${SESSMAX_PASSWORD:-density-bench-pass}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
pss_kb() { awk '/^Pss:/ {print $2}' "/proc/$1/smaps_rollup"; }
HZ=$(getconf CLK_TCK)
last_active() {   # sessions_active of the agent's latest health record (0 before the first)
  { grep '"health"' "$T/agent.jsonl" 2>/dev/null || true; } | tail -1 |
    python3 -c 'import json,sys; l=sys.stdin.read().strip(); print(json.loads(l)["sessions_active"] if l else 0)'
}


# --- the machine's own timer lateness, before anything starts: the floor under any loop lag
BASE_LAG=$(python3 -c '
import time
late = []
for _ in range(250):
    due = time.monotonic() + 0.02
    time.sleep(0.02)
    late.append((time.monotonic() - due) * 1e3)
late.sort()
print("%.2f %.2f" % (late[124], late[247]))')

# --- target
PORT=$(free_port)
$RT_PREFIX $SIM_CPUS "${SESSMAX_SIMHOST:-$B/sessmax-simhost}" --listen "127.0.0.1:$PORT" --users $((N + K)) --work-scale "$WORK_SCALE" \
  --state-dir "$T/sim" > "$T/sim.log" 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 100); do grep -q 'listening on' "$T/sim.log" && break; sleep 0.1; done
FP=$(grep -o 'sha256:[0-9A-Fa-f:]*' "$T/sim.log" | head -1)
[ -n "$FP" ] || { cat "$T/sim.log" >&2; exit 1; }

# --- the agent: N sessions of the task worker
DUR=$((RAMP_S * 4 + 240 + MEASURE_S + 60))   # generous: a slow ramp must not end the run; stopped by SIGINT below
$RT_PREFIX $CLIENT_CPUS nice -n "$AGENT_NICE" "$B/sessmax-agent" run --target "127.0.0.1:$PORT" --users 'simuser{n:03}' --sessions "$N" \
  --workload "$S/workloads/simhost-task-worker.yaml" --duration "${DUR}s" --ramp "${RAMP_S}s" \
  --fingerprint "$FP" --connect-threads "$CONNECT_THREADS" > "$T/agent.jsonl" 2> "$T/agent.err" &
AGENT=$!
PIDS="$PIDS $AGENT"

# --- K xfreerdp processes, each on its own Xvfb (password on stdin, never argv)
XPIDS=""
for i in $(seq 1 "$K"); do
  d=$((200 + i + $$ % 100))
  Xvfb ":$d" -screen 0 1024x768x16 -nolisten tcp > /dev/null 2>&1 &
  XV=$!
  PIDS="$PIDS $XV"
  for _ in $(seq 50); do [ -S "/tmp/.X11-unix/X$d" ] && break; sleep 0.1; done
  u=$(printf 'simuser%03d' $((N + i)))
  printf '%s\n' "$SESSMAX_PASSWORD" | DISPLAY=":$d" $CLIENT_CPUS xfreerdp /v:"127.0.0.1:$PORT" /u:"$u" \
    /from-stdin:force /cert:ignore /size:1024x768 /bpp:16 > "$T/xf$i.log" 2>&1 &
  XF=$!
  PIDS="$PIDS $XF"
  XPIDS="$XPIDS $XV:$XF"
done

# --- wait for all agent sessions to be active, then warm up
active=0
for _ in $(seq $((RAMP_S * 4 + 240))); do
  active=$(last_active)
  [ "$active" -ge "$N" ] && break
  kill -0 "$AGENT" 2>/dev/null || break
  sleep 0.5
done
[ "$active" -ge "$N" ] || { echo "only $active/$N agent sessions active" >&2; tail -5 "$T/agent.err" >&2; }
sleep 10

# --- measure window
t1=$(date +%s.%N); c1=$(cpu_ticks "$AGENT")
x1=0; for p in $XPIDS; do x1=$((x1 + $(cpu_ticks "${p#*:}") + $(cpu_ticks "${p%:*}"))); done
s1=$(grep -c '"sample"' "$T/agent.jsonl" || true)
h1=$(grep -c '"health"' "$T/agent.jsonl" || true)
sleep "$MEASURE_S"
t2=$(date +%s.%N); c2=$(cpu_ticks "$AGENT")
x2=0; for p in $XPIDS; do x2=$((x2 + $(cpu_ticks "${p#*:}") + $(cpu_ticks "${p%:*}"))); done
s2=$(grep -c '"sample"' "$T/agent.jsonl" || true)
a_rss=$(rss_kb "$AGENT"); a_thr=$(awk '/^Threads/ {print $2}' "/proc/$AGENT/status")
xf_rss=0; xf_pss=0; xv_rss=0; xv_pss=0; xok=0
for p in $XPIDS; do
  xv=${p%:*}; xf=${p#*:}
  if kill -0 "$xf" 2>/dev/null; then
    xok=$((xok + 1))
    xf_rss=$((xf_rss + $(rss_kb "$xf"))); xf_pss=$((xf_pss + $(pss_kb "$xf")))
    xv_rss=$((xv_rss + $(rss_kb "$xv"))); xv_pss=$((xv_pss + $(pss_kb "$xv")))
  fi
done
active_now=$(last_active)
lag=$(tail -n +"$((h1 + 1))" <(grep '"health"' "$T/agent.jsonl") | python3 -c '
import json, sys
p99 = sorted(json.loads(l)["lag_p99_us"] for l in sys.stdin if l.strip())
print("%.2f %.2f" % (p99[len(p99) // 2] / 1000, p99[-1] / 1000) if p99 else "0 0")')
t_stop_us=$(date +%s%6N)
kill -INT "$AGENT" 2>/dev/null || true
wait "$AGENT" 2>/dev/null || true
# the whole run's loop lag (the agent's closing summary) and the 2 s windows past 20 ms, by phase
run_lag=$(sed -n 's/^agent loop lag: p50=\([0-9.]*\) ms p99=\([0-9.]*\) ms max=\([0-9.]*\) ms.*/\1 \2 \3/p' "$T/agent.err" | tail -1)
[ -n "$run_lag" ] || run_lag="-1 -1 -1"
stalls=$(grep '"health"' "$T/agent.jsonl" | python3 -c '
import json, sys
stop = int(sys.argv[1]); n = int(sys.argv[2])
ph = {"ramp": 0, "steady": 0, "logoff": 0}
for l in sys.stdin:
    h = json.loads(l)
    if h["lag_max_us"] <= 20000:
        continue
    k = "logoff" if h["t_us"] > stop else ("ramp" if h["sessions_active"] < n or h["sessions_connecting"] else "steady")
    ph[k] += 1
print(ph["ramp"], ph["steady"], ph["logoff"])' "$t_stop_us" "$N")

python3 - "$N" "$active_now" "$t1" "$t2" "$c1" "$c2" "$HZ" "$a_rss" "$a_thr" "$lag" "$((s2 - s1))" \
  "$xok" "$x1" "$x2" "$xf_rss" "$xf_pss" "$xv_rss" "$xv_pss" "$AGENT_NICE" "$(nproc)" \
  "$(cut -d' ' -f1 /proc/loadavg)" "$BASE_LAG" \
  "$([ -n "$SIM_CPUS" ] && echo "simhost pinned apart" || echo "not pinned")$([ "$RT" = 1 ] && echo ", both under chrt -r 10")" \
  "$run_lag" "$stalls" <<'PY'
import sys
a = sys.argv[1:]
n, active = int(a[0]), int(a[1])
wall = float(a[3]) - float(a[2])
hz = int(a[6])
cores = (int(a[5]) - int(a[4])) / hz / wall
rss = int(a[7]) / 1024
thr = int(a[8])
lag_med, lag_max = (float(x) for x in a[9].split())
samples = int(a[10])
k = int(a[11])
xcores = (int(a[13]) - int(a[12])) / hz / wall
xf_rss, xf_pss, xv_rss, xv_pss = (int(x) / 1024 for x in a[14:18])
per_core = active / cores if cores > 0 else float("inf")
per_sess = rss / max(active, 1)
print(f"agent-density: one sessmax-agent vs xfreerdp+Xvfb, same simhost, {wall:.0f} s window "
      f"({a[19]} CPUs, load average {a[20]}, agent nice {a[18]}, {a[22]})")
print(f"  sessmax-agent : {active} active sessions (of {n}), {samples} timer samples in the window "
      f"({samples / wall:.1f}/s), {thr} threads")
print(f"                  CPU {cores:.3f} cores -> {per_core:.0f} active sessions per agent core")
print(f"                  RSS {rss:.0f} MiB -> {per_sess:.2f} MiB per session (1024x768x16)")
print(f"                  loop lag p99: median window {lag_med:.2f} ms, worst 2 s window {lag_max:.2f} ms")
r50, r99, rmax = (float(x) for x in a[23].split())
st = [int(x) for x in a[24].split()]
print(f"                  loop lag over the whole run (ramp, steady, logoff): p50 {r50:.2f} ms, p99 {r99:.2f} ms, "
      f"max {rmax:.2f} ms; 2 s windows with max > 20 ms: ramp {st[0]}, steady {st[1]}, logoff {st[2]}")
b50, b99 = (float(x) for x in a[21].split())
print(f"  machine floor : a bare 20 ms sleep loop (python, before the run) is late p50 {b50:.2f} ms, p99 {b99:.2f} ms")
if k:
    print(f"  xfreerdp+Xvfb : {k} sessions (logged on, idle), CPU {xcores / k:.3f} cores per session (idle floor)")
    print(f"                  RSS per session {(xf_rss + xv_rss) / k:.1f} MiB (xfreerdp {xf_rss / k:.1f} + Xvfb {xv_rss / k:.1f}); "
          f"PSS {(xf_pss + xv_pss) / k:.1f} MiB")
    mem_ratio = ((xf_pss + xv_pss) / k) / per_sess
    print(f"  ratios        : memory per session xfreerdp+Xvfb(PSS) / agent = {mem_ratio:.1f}x "
          f"(RSS: {((xf_rss + xv_rss) / k) / per_sess:.1f}x)")
else:
    mem_ratio = 0
    print("  xfreerdp+Xvfb : none connected")
def verdict(ok): return "met" if ok else "MISSED"
print(f"  targets       : >=200 sessions/core: {verdict(per_core >= 200)}; <=3 MiB/session: {verdict(per_sess <= 3)}; "
      f"run lag p99 <=2 ms: {verdict(0 <= r99 <= 2)} ({r99:.2f}), max <=20 ms: {verdict(0 <= rmax <= 20)} ({rmax:.2f}); "
      f"<=1/10 of xfreerdp+Xvfb: by PSS {verdict(mem_ratio >= 10)}, by RSS {verdict(k and ((xf_rss + xv_rss) / k) / per_sess >= 10)}")
PY
tail -4 "$T/agent.err" | sed 's/^/  agent summary: /'
