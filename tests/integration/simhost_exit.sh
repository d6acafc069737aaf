#!/bin/bash
# simhost_exit.sh -- SIGTERM while sessions are logging on and others are in the middle of actions
# (work-scale 10, simhost on one CPU: each `cpu` action is seconds of CPU, shared by all in
# progress): simhost must end every connection before it frees what they share. It used to wait
# at most 10 s (or 100 wake-ups), report "connections still busy at exit" and free the accounts,
# font, certificate and event log under the actions still running. Asserts: simhost exits by
# itself with code 0 and reports no connection still busy; sessions were mid-logon and in actions
# when the signal came.
. "$(dirname "$0")/lib/agent_env.sh"
N=${N:-60}
ACTIVE=${ACTIVE:-10}
start_simhost "$N" --work-scale 10 --max-pending 200 --event-log "$T/events.log"
SIM=$SIM_PID
taskset -a -p -c 0 "$SIM" > /dev/null
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --sessions "$N" --ramp 1s \
  --connect-threads "$N" --workload "$S/tests/integration/short-worker.yaml" --duration 300s \
  --fingerprint "$SIM_FP" > "$T/a.jsonl" 2> "$T/a.err" &
PIDS+=("$!")
active() { grep -a '"type":"session"' "$T/a.jsonl" 2>/dev/null | grep -ac '"event":"active"' || true; }
for _ in $(seq 1800); do [ "$(active)" -ge "$ACTIVE" ] && break; sleep 0.1; done
[ "$(active)" -ge "$ACTIVE" ] || { tail -5 "$T/a.err" >&2; fail "only $(active) sessions active"; }
sleep 3   # they are in their `cpu` action by now (4 s of CPU each at work-scale 10, shared)
logged_on() { grep -ac 'logged on' "$T/simhost.log" || true; }
on=$(logged_on)
kill -TERM "$SIM"
for _ in $(seq 600); do kill -0 "$SIM" 2>/dev/null || break; sleep 0.1; done
kill -0 "$SIM" 2>/dev/null && fail "simhost still running 60 s after SIGTERM"
set +e
wait "$SIM"
rc=$?
set -e
echo "simhost_exit: SIGTERM with $on of $N sessions logged on, $(active) active; exit code $rc" >&2
[ "$on" -lt "$N" ] || echo "note: every session had logged on before the signal" >&2
[ "$rc" = 0 ] || { tail -5 "$T/simhost.log" >&2; fail "simhost exit code $rc after SIGTERM"; }
if grep -a 'still busy' "$T/simhost.log" >&2; then fail "simhost exited with connections still running"; fi
echo "simhost_exit: ok"
