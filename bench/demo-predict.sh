#!/bin/bash
# demo-predict.sh -- the prediction for the run that was made: predicts the smax of `make demo`'s
# plan (sessmax-simhost --predict --plan, the ramp simulated with the cost model measured on
# this machine and scaled to what a real session's loops cost simhost), runs `sessmax demo` RUNS
# times (default 3) and prints the table: predicted, each measured smax, its error against the
# prediction (target within +-10 %) and the spread of
# the measured runs (max - min over their mean, target within +-5 %, i.e. <= 10 % wide). The
# machine should be quiet: the load average at start and end is printed beside the table. When it
# may (root, or CAP_SYS_NICE), the script runs the prediction and every demo run -- simhost, the
# controller and the agents, which inherit it -- under real-time round-robin scheduling (chrt -r
# 10), so that they get their CPUs as on a quiet machine even when other jobs share it; it says so.
# RT=0 runs them with plain scheduling. (`sessmax demo` still runs simhost as SCHED_OTHER inside
# the plan's cfs quota; see controller/cli/cmd_demo.c.) LOCK=FILE takes flock FILE around the
# prediction and around each run (one run per hold) and then waits GAP seconds (default 120)
# before the next hold, so that two whole-machine measurements never overlap and others get turns.
#   bench/demo-predict.sh   env: RUNS (3), PLAN (workloads/demo-plan.yaml), CPUS (1), RT (1), LOCK, GAP,
#   KEEP (set: keep the runs' logs and databases)
set -euo pipefail
RUNS=${RUNS:-3}
S=${SESSMAX_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SESSMAX_BUILD_DIR:-$S/build}
PLAN=${PLAN:-$S/workloads/demo-plan.yaml}
CPUS=${CPUS:-1}
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-demo-predict.XXXXXX")
trap '[ -n "${KEEP:-}" ] && echo "demo-predict: logs kept in $T" || rm -rf "$T"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
LOAD0=$(load)
PIN=""
[ "$(nproc)" -gt 1 ] && PIN="taskset -c 1"   # where `sessmax demo` runs simhost
RTS=""
if [ "${RT:-1}" != 0 ] && chrt -r 10 true 2>/dev/null; then
  RTS="chrt -r 10"
  echo "demo-predict: prediction and runs under real-time scheduling (chrt -r 10; RT=0 for plain scheduling)"
else
  echo "demo-predict: plain scheduling (chrt -r 10 not permitted or RT=0): on a busy machine the figures say little"
fi
LOCKED=""
[ -n "${LOCK:-}" ] && LOCKED="flock $LOCK"
$LOCKED $RTS $PIN "$B/sessmax-simhost" --predict --plan "$PLAN" --cpus "$CPUS" --state-dir "$T/predict" >"$T/predict.txt"
grep -E '^(sessmax-simhost: (plan|real|cost model:|steady|ramp)|predicted smax)' "$T/predict.txt"
# the CPU per loop the prediction used (the real session's when its check ran)
MODEL=$(sed -n 's/^sessmax-simhost: cost model: \([0-9.]*\) s of CPU per loop.*/\1/p' "$T/predict.txt")
PRED=$(sed -n 's/^predicted smax for the plan: \([0-9][0-9]*\).*/\1/p' "$T/predict.txt")
[ -n "$PRED" ] || { echo "demo-predict: no prediction (see $T/predict.txt)" >&2; cat "$T/predict.txt" >&2; exit 1; }
MEASURED=""
for i in $(seq 1 "$RUNS"); do
  rc=0   # the demo exits with its verdict's code: any verdict (0, 1, 2) is a measurement
  # --as-planned: the run the prediction above is for (the demo would otherwise size the ramp itself)
  (cd "$S" && $LOCKED $RTS "$B/sessmax" demo --as-planned --plan "$PLAN" --out "$T/run$i" >"$T/run$i.log" 2>&1) || rc=$?
  [ $rc -le 2 ] || { echo "demo-predict: run $i failed, exit $rc (log below)" >&2; tail -20 "$T/run$i.log" >&2; exit 1; }
  M=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d.get("smax")
print("nr%s" % d.get("active", "?") if v is None else v)' "$T/run$i/verdict.json")
  MEASURED="$MEASURED $M"
  echo "demo-predict: run $i: smax $M, verdict $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("verdict"))' \
       "$T/run$i/verdict.json") (load average now $(load))"
  # what the server really spent: its group's CPU over the run (target_load) per loop (vsi samples)
  python3 - "$T/run$i/results.db" "${MODEL:-0}" "$i" <<'PY'
import sqlite3, sys
db, model, i = sqlite3.connect(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
t = db.execute("SELECT t_us, target_permille FROM target_load ORDER BY t_us").fetchall()
cpu = sum((b[0] - a[0]) / 1e6 * b[1] / 1e3 for a, b in zip(t, t[1:]))
loops = db.execute("SELECT count(*) FROM samples WHERE is_measure = 1").fetchone()[0]
if loops and model > 0:
    print("demo-predict: run %s: simhost CPU %.1f s over %d loops = %.3f s per loop (logons, idle and logoff "
          "included), cost model %.3f s: measured/model = %.2f" % (i, cpu, loops, cpu / loops, model, cpu / loops / model))
PY
  if [ -n "$LOCKED" ] && [ "$i" -lt "$RUNS" ]; then sleep "${GAP:-120}"; fi
done
python3 - "$PRED" "$LOAD0" "$(load)" $MEASURED <<'PY'
import sys
pred, load0, load1, raw = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
print("%-10s %s" % ("predicted", pred))
runs = []
def mark(ok): return "met" if ok else "MISSED"
for i, m in enumerate(raw):
    if m.startswith("nr"):   # not reached: the score only says smax >= active - 1
        print("run %-6d not reached (> %s)  error n/a       target within +-10 %%  MISSED" % (i + 1, m[2:]))
        continue
    m = int(m)
    runs.append(m)
    e = 100.0 * (m - pred) / pred
    print("run %-6d %-5d error %+6.1f %%  target within +-10 %%  %s" % (i + 1, m, e, mark(abs(e) <= 10)))
if len(runs) == len(raw):
    mean = sum(runs) / len(runs)
    dev = max(abs(r - mean) for r in runs) * 100.0 / mean
    print("spread     runs within +-%.1f %% of their mean %.1f (max-min %d)  target within +-5 %%  %s" %
          (dev, mean, max(runs) - min(runs), mark(dev <= 5)))
else:
    print("spread     n/a (a run did not reach smax)  target within +-5 %  MISSED")
ok = sum(1 for r in runs if abs(100.0 * (r - pred) / pred) <= 10)
print("runs within +-10 %% of the prediction: %d of %d  target %d of %d  %s" %
      (ok, len(raw), len(raw), len(raw), mark(ok == len(raw))))
print("load average: %s at start, %s at end (quiet: below 1)" % (load0, load1))
PY
echo "scheduling: ${RTS:-plain (no chrt)}"
