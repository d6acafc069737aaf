#!/bin/bash
# agent-latency.sh -- the agent's own share of a response time, at 10, 150 and 1,000 sessions.
# One simhost (--event-log) and one sessmax-agent running the task worker, simhost pinned to the
# last CPU and the agent to the one before it. Each timed action (app_start, file_open, zip_high,
# zip_low, cpu) is joined with simhost's event-log line of the same user and action, both clocks
# CLOCK_MONOTONIC (the agent's sample times are wall clock; the bench converts them with the
# REALTIME - MONOTONIC offset read before and after each run). For every response:
#   agent response = timer end - first input sent
#   server         = frame_sent_us - write_wait_us - first input sent
#   agent share    = agent response - server = write_wait_us + (frame sent -> timer end)
# write_wait_us is the time simhost's paint of the result waited for the agent to read (the
# socket full): an agent that reads late makes the frame's write end late, and that part of the
# delay is the agent's, not the server's.
# The input path (the agent's timer starts just before it writes the input; on loopback the bytes
# are in simhost's socket when that write returns) is counted as the server's: what it holds is
# simhost not reading its socket yet. It is printed apart as "input wait" (sent -> input_us); the
# agent's own send call inside it (microseconds) is not separated.
# Prints per session count: p50/p99/max of the agent share, the split, the targets (p99 <= 1 ms at
# 150 sessions, <= 2 ms at 1,000), simhost's and the agent's CPU over the window.
#   bench/agent-latency.sh [N ...]   (default 10 150 1000)
#   env: MEASURE_S (60), WARM_S (10), WORK_SCALE (0.02), RAMP_S (N/10, at least 5), CONNECT_THREADS (4),
#        RT (0; 1: the agent SCHED_RR 10 via chrt and simhost at nice -20, so each has its CPU on
#            a busy machine; keep such runs to a few minutes), SIM_RT (0; 1: simhost SCHED_RR 10
#            too: then a worker doing an action holds simhost's CPU for a whole 100 ms RR slice
#            before the event loop reads the next input, which shows as input transit)
set -euo pipefail
S=${SESSMAX_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SESSMAX_BUILD_DIR:-$S/build}
MEASURE_S=${MEASURE_S:-60}
WARM_S=${WARM_S:-10}
WORK_SCALE=${WORK_SCALE:-0.02}
RT=${RT:-0}
NCPU=$(nproc)
SIM_CPU=""; AGENT_CPU=""; PRIO=""
if [ "$NCPU" -ge 2 ]; then
  SIM_CPU="taskset -c $((NCPU - 1))"
  AGENT_CPU="taskset -c $((NCPU - 2))"
fi
SIM_PRIO=""
if [ "$RT" = 1 ]; then
  PRIO="chrt -r 10"
  SIM_PRIO="nice -n -20"
  [ "${SIM_RT:-0}" = 1 ] && SIM_PRIO="chrt -r 10"
fi
. "$S/bench/lib.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-latency.XXXXXX")
bench_cleanup_on_exit "$T"
export SESSMAX_PASSWORD=${SESSMAX_PASSWORD:-latency-bench-pass}
mono_us() { python3 -c 'import time;print(time.clock_gettime_ns(time.CLOCK_MONOTONIC)//1000)'; }
# REALTIME - MONOTONIC in µs, from the tightest of 50 bracketed reads
wall_offset() {
  python3 -c '
import time
best = None
for _ in range(50):
    a = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    w = time.clock_gettime_ns(time.CLOCK_REALTIME)
    b = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    if best is None or b - a < best[0]:
        best = (b - a, w - (a + b) // 2)
print(best[1] // 1000)'
}
last_active() {
  { grep '"health"' "$1" 2>/dev/null || true; } | tail -1 |
    python3 -c 'import json,sys; l=sys.stdin.read().strip(); print(json.loads(l)["sessions_active"] if l else 0)'
}

# one_run N: simhost + agent with N sessions; leaves $T/N/{events.log,agent.jsonl,figures}
one_run() {
  local n=$1 d="$T/$1" ramp=${RAMP_S:-$(( $1 / 10 > 5 ? $1 / 10 : 5 ))}
  mkdir -p "$d"
  local off0; off0=$(wall_offset)
  local port; port=$(free_port)
  $SIM_PRIO $SIM_CPU "${SESSMAX_SIMHOST:-$B/sessmax-simhost}" --listen "127.0.0.1:$port" --users "$n" \
    --work-scale "$WORK_SCALE" --state-dir "$d/sim" --event-log "$d/events.log" > "$d/sim.log" 2>&1 &
  local sim=$!
  PIDS="$PIDS $sim"
  for _ in $(seq 100); do grep -q 'listening on' "$d/sim.log" && break; sleep 0.1; done
  local fp; fp=$(grep -ao 'sha256:[0-9A-Fa-f:]*' "$d/sim.log" | head -1)
  [ -n "$fp" ] || { cat "$d/sim.log" >&2; exit 1; }
  $PRIO $AGENT_CPU "$B/sessmax-agent" run --target "127.0.0.1:$port" --users 'simuser{n:03}' --sessions "$n" \
    --workload "$S/workloads/simhost-task-worker.yaml" --duration "$((ramp * 6 + 240 + WARM_S + MEASURE_S))s" \
    --ramp "${ramp}s" --fingerprint "$fp" --connect-threads "${CONNECT_THREADS:-4}" > "$d/agent.jsonl" 2> "$d/agent.err" &
  local agent=$!
  PIDS="$PIDS $agent"
  local active=0
  for _ in $(seq $(( (ramp * 3 + 120) * 2 ))); do   # the agent's --duration leaves twice that
    active=$(last_active "$d/agent.jsonl")
    [ "$active" -ge "$n" ] && break
    kill -0 "$agent" 2>/dev/null || break
    sleep 0.5
  done
  [ "$active" -ge "$n" ] || { echo "agent-latency: only $active/$n sessions active" >&2; tail -3 "$d/agent.err" >&2; }
  sleep "$WARM_S"
  local w0 c0 s0 w1 c1 s1
  w0=$(mono_us); c0=$(cpu_ticks "$agent"); s0=$(cpu_ticks "$sim")
  sleep "$MEASURE_S"
  w1=$(mono_us); c1=$(cpu_ticks "$agent"); s1=$(cpu_ticks "$sim")
  kill -0 "$agent" 2>/dev/null || { echo "agent-latency: the agent exited before the window ended:" >&2; tail -3 "$d/agent.err" >&2; }
  local active_end; active_end=$(last_active "$d/agent.jsonl")
  kill -INT "$agent" 2>/dev/null || true
  for _ in $(seq 200); do kill -0 "$agent" 2>/dev/null || break; sleep 0.1; done
  kill "$sim" 2>/dev/null || true
  wait "$agent" "$sim" 2>/dev/null || true
  echo "$n $active_end $w0 $w1 $c0 $c1 $s0 $s1 $off0 $(wall_offset)" > "$d/figures"
}

join() {   # join N: prints the figures of $T/N
  python3 - "$T/$1" "$(getconf CLK_TCK)" "$RT" "${SIM_RT:-0}" <<'PY'
import bisect, json, sys
d, hz, rt, sim_rt = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4] == "1"
n, active, w0, w1, c0, c1, s0, s1, off0, off1 = (int(x) for x in open(d + "/figures").read().split())
off = (off0 + off1) // 2
action = {"app_start": "edit", "file_open": "open", "zip_high": "zip9", "zip_low": "zip1", "cpu": "cpu"}
events = {}
for line in open(d + "/events.log"):
    f = dict(kv.split("=", 1) for kv in line.split())
    if f.get("ok") == "1" and "input_us" in f:
        t = tuple(int(f[k]) for k in ("input_us", "work_start_us", "work_end_us", "frame_sent_us")) + \
            (int(f.get("write_wait_us", 0)),)
        events.setdefault((f["user"], f["action"]), []).append(t)
for v in events.values():
    v.sort()
user, rows, unmatched, lag = {}, [], 0, []
for line in open(d + "/agent.jsonl"):
    if not line.startswith("{"):
        continue
    r = json.loads(line)
    if r["type"] == "session" and r.get("user"):
        user[r["session"]] = r["user"]
    elif r["type"] == "health" and w0 <= r["t_us"] - off <= w1:
        lag.append(r["lag_p99_us"])
    elif r["type"] == "sample" and r["name"] in action and r["ok"] and not r["suspect"]:
        end = r["t_us"] - off
        if not w0 <= end <= w1:
            continue
        start = end - r["value_us"]
        ev = events.get((user.get(r["session"]), action[r["name"]]), [])
        i = bisect.bisect_left(ev, (start - 1000,))   # 1 ms: clock conversion slack
        if i == len(ev) or ev[i][0] > end:
            unmatched += 1
            continue
        inp, ws, we, fs, ww = ev.pop(i)
        rows.append((end - fs + ww, inp - start, ws - inp, we - ws, fs - we - ww, ww, end - fs))
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))] if v else 0
ms = lambda us: us / 1000
col = lambda k: [r[k] for r in rows]
share = col(0)
target = {150: 1.0, 1000: 2.0}.get(n)
verdict = "no target"
if target and not rows:
    verdict = "no responses joined: NOT MEASURED"
elif target:
    p99 = ms(pct(share, 0.99))
    verdict = "target p99 <= %g ms: %s (%.2fx of target)" % (target, "met" if p99 <= target else "MISSED", p99 / target)
wall = (w1 - w0) / 1e6
sched = "plain scheduling"
if rt:
    sched = "agent SCHED_RR 10, simhost " + ("SCHED_RR 10" if sim_rt else "nice -20")
sched += ", each pinned to its CPU"
print("agent-latency: %d sessions (%d active at the end), %d responses joined in %.0f s (%d not found "
      "in the event log), %s; agent %.2f cores, simhost %.2f cores; agent loop lag p99 per 2 s "
      "window: median %.2f ms, worst %.2f ms; clock offset drift %d us"
      % (n, active, len(rows), wall, unmatched, sched, (c1 - c0) / hz / wall, (s1 - s0) / hz / wall,
         ms(pct(lag, 0.5)), ms(max(lag) if lag else 0), off1 - off0))
print("agent-latency: %4d sessions: agent share p50 %.2f ms, p99 %.2f ms, max %.2f ms   %s"
      % (n, ms(pct(share, 0.5)), ms(pct(share, 0.99)), ms(max(share) if share else 0), verdict))
names = ("input wait (server's)", "server queue", "server work", "server paint",
         "paint waiting for the agent to read", "frame sent -> timer end")
print("agent-latency: %4d sessions: split p50/p99 ms: " % n +
      ", ".join("%s %.2f/%.2f" % (nm, ms(pct(col(k), 0.5)), ms(pct(col(k), 0.99))) for k, nm in enumerate(names, 1)))
PY
}

for n in "${@:-10 150 1000}"; do
  for m in $n; do
    one_run "$m"
    join "$m"
  done
done
