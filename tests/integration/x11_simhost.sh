#!/bin/bash
# x11_simhost.sh -- the external-client connector with the xfreerdp preset (Debian's xfreerdp,
# a client nobody here wrote) against simhost: 5 sessions of workloads/simhost-task-worker.yaml,
# each on its own Xvfb, log on, run one loop and log off cleanly; every timer of every session is
# recorded (ok, or suspect: sooner than the session's own input echo), every screen is read
# through MIT-SHM, the health records carry the clients' costs, the password never shows on a command
# line, and no X server or client outlives the agent.
. "$(dirname "$0")/lib/agent_env.sh"
for t in xfreerdp Xvfb; do
  command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
N=5
start_simhost $((N + 2)) --work-scale 0.2
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --sessions $N \
  --workload "$S/workloads/simhost-task-worker.yaml" --loops 1 --duration 240s --ramp 5s \
  --fingerprint "$SIM_FP" --logoff-timeout 30s --client xfreerdp --log-level info \
  > "$T/out.jsonl" 2> "$T/err.txt" &
AG=$!; PIDS+=("$AG")
# while it runs: no command line of its children holds the password, no zombie child
seen=0
children=""   # every child of the agent seen (its X servers and clients)
while kill -0 $AG 2>/dev/null; do
  for c in $(ps -o pid= --ppid $AG 2>/dev/null); do
    seen=1
    case " $children " in *" $c "*) ;; *) children="$children $c" ;; esac
    { tr '\0' ' ' < /proc/$c/cmdline; } 2>/dev/null | grep -q -- "$SESSMAX_PASSWORD" && fail "password on argv of $c"
    [ "$(ps -o stat= -p $c 2>/dev/null | cut -c1)" = Z ] && { sleep 1; [ "$(ps -o stat= -p $c | cut -c1)" = Z ] && fail "zombie child $c"; }
  done
  sleep 0.5
done
set +e; wait $AG; rc=$?; set -e
cat "$T/err.txt" >&2
[ $seen = 1 ] || fail "the agent started no child process"
[ "$(grep -c 'screen pixels through MIT-SHM' "$T/err.txt")" = $N ] || fail "not every session read its screen through MIT-SHM"
J="$T/out.jsonl"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="active" for r in recs)')" = $N ] || fail "not all $N sessions logged on"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = $N ] || fail "not all $N sessions ended cleanly"
python3 - "$J" "$S/workloads/simhost-task-worker.yaml" $N <<'PY' || fail "missing samples"
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
n = int(sys.argv[3])
timers = set(re.findall(r"timer:\s*(\w+)", open(sys.argv[2]).read()))
got = {}
for r in recs:
    if r["type"] == "sample" and not r["measure"] and (r["ok"] or r["suspect"]):
        got.setdefault(r["session"], set()).add(r["name"])
missing = {s: sorted(timers - got.get(s, set())) for s in range(n) if timers - got.get(s, set())}
print(f"timer samples: {sum(len(v) for v in got.values())} for {n} sessions x {len(timers)} timers",
      file=sys.stderr)
if missing:
    print("missing or failed:", missing, file=sys.stderr)
    sys.exit(1)
h = [r for r in recs if r["type"] == "health" and r.get("ext_sessions", 0) > 0]
assert h, "no health record with the external clients' costs"
assert all(r["ext_client_pss_kb"] > 0 and r["ext_xserver_pss_kb"] > 0 for r in h), h[0]
assert any(r["ext_capacity"] > 0 for r in h), "no capacity derived from the costs"
PY
grep -q "external clients ($N measured)" "$T/err.txt" || grep -q "external clients (" "$T/err.txt" \
  || fail "no cost line in the summary"
grep -q "capacity at these costs: [1-9][0-9]* sessions" "$T/err.txt" || fail "no capacity line in the summary"
# nothing outlives the agent (Xvfb and xfreerdp die with it); X servers of other tests running
# beside this one are not ours: only the agent's own children count
sleep 0.5
left=$(for c in $children; do ps -o pid=,args= -p "$c" 2>/dev/null | grep -E 'Xvfb|xfreerdp' || true; done)
[ -z "$left" ] || fail "left behind: $left"
[ $rc -le 1 ] || fail "agent exit code $rc"   # 1: a suspect sample (checked above)
echo "x11_simhost: ok"
