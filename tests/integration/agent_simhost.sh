#!/bin/bash
# agent_simhost.sh -- 50 sessions of workloads/simhost-task-worker.yaml log on to simhost, run
# two loops each, and log off cleanly: every timer of every loop of every session is recorded
# (counted in the JSON lines), no session fails, and the agent's health records are present.
. "$(dirname "$0")/lib/agent_env.sh"
N=50
start_simhost $((N + 5)) --work-scale 0.2
set +e
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --sessions $N \
  --workload "$S/workloads/simhost-task-worker.yaml" --loops 2 --duration 400s --ramp 10s \
  --fingerprint "$SIM_FP" --connect-threads 4 --logoff-timeout 60s \
  > "$T/out.jsonl" 2> "$T/err.txt"
rc=$?
set -e
cat "$T/err.txt" >&2
J="$T/out.jsonl"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="active" for r in recs)')" = $N ] \
  || fail "not all $N sessions logged on"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = $N ] \
  || fail "not all $N sessions ended cleanly"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="failed" for r in recs)')" = 0 ] \
  || fail "some sessions failed"
# every (session, loop 0..1, timer) has a sample; the timer set is the workload's
python3 - "$J" "$S/workloads/simhost-task-worker.yaml" $N <<'PY' || fail "missing samples"
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
n = int(sys.argv[3])
timers = set(re.findall(r"timer:\s*(\w+)", open(sys.argv[2]).read()))
assert timers, "no timers found in the workload"
got = {}
for r in recs:
    if r["type"] == "sample" and not r["measure"]:
        got.setdefault((r["session"], r["loop"]), set()).add(r["name"])
missing = [(s, l, sorted(timers - got.get((s, l), set())))
           for s in range(n) for l in (0, 1) if timers - got.get((s, l), set())]
total = sum(1 for r in recs if r["type"] == "sample" and not r["measure"])
bad = sum(1 for r in recs if r["type"] == "sample" and not r["ok"])
print(f"samples: {total} timer samples for {n} sessions x 2 loops x {len(timers)} timers; "
      f"{bad} not ok", file=sys.stderr)
if missing:
    print("missing:", missing[:5], file=sys.stderr)
    sys.exit(1)
PY
[ "$(jl "$J" 'sum(r["type"]=="health" for r in recs) > 0')" = True ] || fail "no health records"
[ "$(jl "$J" 'sum(r["type"]=="traffic" and r["bytes_in"] > 0 and r["rtt_us"] > 0 for r in recs) > 0')" = True ] \
  || fail "no traffic records with bytes and RTT"
[ $rc -le 1 ] || fail "agent exit code $rc"
echo "agent_simhost: ok"
