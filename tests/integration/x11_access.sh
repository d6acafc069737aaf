#!/bin/bash
# x11_access.sh -- an external client's X server admits only the session's cookie, and the screen
# is read through the XGetImage fallback when SESSMAX_X11_PIXELS=getimage forces it: one xfreerdp
# session against simhost logs on, records every timer and ends cleanly; while it runs, its Xvfb
# refuses a connection without the cookie and accepts one with it (the 0600 file the client's
# XAUTHORITY names); the file is gone after the run.
. "$(dirname "$0")/lib/agent_env.sh"
for t in xfreerdp Xvfb; do
  command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
start_simhost 3 --work-scale 0.2
SESSMAX_X11_PIXELS=getimage "$AGENT" run --log-level info --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' \
  --sessions 1 --workload "$S/workloads/simhost-task-worker.yaml" --loops 1 --duration 120s \
  --fingerprint "$SIM_FP" --logoff-timeout 30s --client xfreerdp > "$T/out.jsonl" 2> "$T/err.txt" &
AG=$!; PIDS+=("$AG")
checked=0
while kill -0 $AG 2>/dev/null && [ $checked = 0 ]; do
  for x in $(ps -o pid= --ppid $AG 2>/dev/null); do
    args=$(tr '\0' ' ' < /proc/$x/cmdline 2>/dev/null || true)
    case "$args" in Xvfb*) ;; *) continue ;; esac
    auth=$(echo "$args" | sed -n 's/.*-auth \([^ ]*\).*/\1/p')
    n=$(python3 "$S/tests/integration/lib/xconnect.py" --display-of $x 2>/dev/null || true)
    [ -n "$n" ] && [ -f "$auth" ] || continue
    [ "$(stat -c %a "$auth")" = 600 ] || fail "cookie file $auth is $(stat -c %a "$auth")"
    out=$(python3 "$S/tests/integration/lib/xconnect.py" $n || true)
    case "$out" in refused*) ;; *) fail "display :$n admitted a client without the cookie: $out" ;; esac
    python3 "$S/tests/integration/lib/xconnect.py" $n "$auth" | grep -q accepted \
      || fail "display :$n refused its own cookie"
    DISPLAY=:$n XAUTHORITY=/dev/null timeout 10 xdpyinfo >/dev/null 2>&1 \
      && fail "xdpyinfo without the cookie reached display :$n"
    echo "display :$n: without cookie $out; with cookie accepted"
    checked=1 AUTH=$auth
  done
  sleep 0.2
done
[ $checked = 1 ] || { cat "$T/err.txt" >&2; fail "no running Xvfb of the agent seen"; }
set +e; wait $AG; rc=$?; set -e
[ ! -e "$AUTH" ] || fail "cookie file $AUTH left behind"
grep -q "screen pixels through XGetImage" "$T/err.txt" || { cat "$T/err.txt" >&2; fail "the XGetImage fallback was not used"; }
J="$T/out.jsonl"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = 1 ] \
  || { cat "$T/err.txt" >&2; fail "the session did not end cleanly"; }
python3 - "$J" "$S/workloads/simhost-task-worker.yaml" <<'PY' || fail "missing samples"
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
timers = set(re.findall(r"timer:\s*(\w+)", open(sys.argv[2]).read()))
got = {r["name"] for r in recs if r["type"] == "sample" and not r["measure"] and (r["ok"] or r["suspect"])}
missing = sorted(timers - got)
print(f"timers recorded through XGetImage: {len(got)} of {len(timers)}", file=sys.stderr)
sys.exit(1 if missing else 0) if not missing else print("missing:", missing, file=sys.stderr) or sys.exit(1)
PY
[ $rc -le 1 ] || fail "agent exit code $rc"
echo "x11_access: ok"
