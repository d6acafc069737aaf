#!/bin/bash
# xrdp_failures.sh -- sessmax-agent against the real xrdp when things go wrong; each case must end
# with a clear reason and no hang:
#   wrong password        -> reason auth (xrdp drops the client before any desktop; see docs/xrdp.md)
#   same user twice       -> the first session fails with reason replaced, the second runs on
#   xrdp killed mid-run   -> sessions fail with reason disconnect and the agent exits; the same
#                            under `sessmax run`: the run ends, the database says disconnect
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock

AGENT=$BUILD/sessmax-agent
WL=$SRC/workloads/xrdp-task-worker.yaml
[ -x "$AGENT" ] || fail "$AGENT is not built"
PORT=$(free_port)
xrdp_start --users 3 --port "$PORT"

# agent NAME ARGS...: sessmax-agent run in the background, JSON lines in $WORK/NAME.jsonl
agent() {
    local name=$1; shift
    timeout -k 5 200 "$AGENT" run --target 127.0.0.1:"$PORT" --workload "$WL" --no-verify "$@" \
        > "$WORK/$name.jsonl" 2> "$WORK/$name.err" &
    AGENT_PID=$!
    PIDS+=($AGENT_PID)
}
# session_event FILE USER EVENT: the JSON line of that event for that user (empty if none)
session_event() {
    python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("type") == "session" and r.get("user") == sys.argv[2] and r.get("event") == sys.argv[3]:
        print(json.dumps(r))
EOF
}
reason_of() { session_event "$1" "$2" failed | python3 -c 'import json,sys; l=sys.stdin.readline(); print(json.loads(l).get("reason","") if l else "")'; }
exited() { ! kill -0 "$AGENT_PID" 2>/dev/null; }

note "wrong password -> auth"
SESSMAX_PASSWORD="wrong-$SESSMAX_PASSWORD" agent badpw --users rdpuser1 --sessions 1 --duration 60s
wait_for 60 exited || fail "agent still running 60 s after a wrong password"
r=$(reason_of "$WORK/badpw.jsonl" rdpuser1)
[ "$r" = auth ] || fail "wrong password: reason '$r', want auth; $(session_event "$WORK/badpw.jsonl" rdpuser1 failed)"
grep -q -- "wrong-" "$WORK/badpw.jsonl" "$WORK/badpw.err" && fail "the password leaked into the agent output"
no_user_procs rdpuser1 || fail "a failed login left processes for rdpuser1"

note "same user twice -> the first session is replaced"
agent twice --users rdpuser2 --sessions 2 --ramp 8s --duration 40s
replaced() { [ "$(reason_of "$WORK/twice.jsonl" rdpuser2)" = replaced ]; }
wait_for 60 replaced || fail "no session of rdpuser2 failed with reason replaced: $(grep '"session"' "$WORK/twice.jsonl" | tr '\n' ' ')"
wait_for 90 exited || fail "agent did not end after its duration"
[ "$(session_event "$WORK/twice.jsonl" rdpuser2 failed | wc -l)" = 1 ] || fail "exactly one session of rdpuser2 should fail"

note "xrdp killed mid-run -> disconnect, the agent ends"
agent kill --users 'rdpuser{n}' --sessions 2 --duration 120s
both_active() { [ -n "$(session_event "$WORK/kill.jsonl" rdpuser1 active)" ] && [ -n "$(session_event "$WORK/kill.jsonl" rdpuser2 active)" ]; }
wait_for 90 both_active || fail "the two sessions did not reach the desktop: $(tail -3 "$WORK/kill.err")"
xp=$(cat "$SESSMAX_XRDP_STATE/xrdp.pid")
kill -KILL $(pgrep -P "$xp") "$xp"
wait_for 60 exited || fail "agent still running 60 s after xrdp was killed"
for u in rdpuser1 rdpuser2; do
    r=$(reason_of "$WORK/kill.jsonl" $u)
    [ "$r" = disconnect ] || fail "$u after xrdp was killed: reason '$r', want disconnect"
done

note "xrdp killed during sessmax run -> the run ends, sessions recorded as disconnect"
xrdp_start --users 3 --port "$PORT"          # restarts the daemons the previous case killed
DB=$WORK/kill.db
sed -e "s|^  port: 3389|  port: $PORT|" -e "s|^workload: .*|workload: $WL|" \
    -e "s|^sessions: .*|sessions: 2|" -e "s|^launch_window: .*|launch_window: 4s|" \
    -e "s|^steady_state: .*|steady_state: 90s|" -e "s|^logoff_deadline: .*|logoff_deadline: 15s|" \
    "$SRC/workloads/xrdp-plan.yaml" > "$WORK/kill-plan.yaml"
timeout -k 5 240 "$BUILD/sessmax" run "$WORK/kill-plan.yaml" --db "$DB" --plain > "$WORK/run.out" 2>&1 &
RUN_PID=$!
PIDS+=($RUN_PID)
two_desktops() { user_runs rdpuser1 openbox && user_runs rdpuser2 openbox; }
wait_for 90 two_desktops || fail "sessmax run: the two sessions did not reach the desktop: $(tail -3 "$WORK/run.out")"
sleep 3
xp=$(cat "$SESSMAX_XRDP_STATE/xrdp.pid")
kill -KILL $(pgrep -P "$xp") "$xp"
run_done() { ! kill -0 "$RUN_PID" 2>/dev/null; }
wait_for 200 run_done || fail "sessmax run still running 200 s after xrdp was killed"
wait "$RUN_PID"
rc=$?
[ $rc = 124 ] || [ $rc = 137 ] && fail "sessmax run hung (killed by timeout)"
[ $rc -ge 64 ] && fail "sessmax run exited $rc: $(tail -3 "$WORK/run.out")"
q() { sqlite3 -batch -noheader "$DB" "$1"; }
st=$(q "SELECT status FROM runs ORDER BY id DESC LIMIT 1")
[ "$st" != running ] || fail "the run is still marked running"
n=$(q "SELECT count(*) FROM sessions WHERE reason='disconnect'")
[ "$n" = 2 ] || fail "want 2 sessions with reason disconnect, got: $(q "SELECT user||':'||state||':'||reason FROM sessions" | tr '\n' ' ')"
echo "PASS xrdp_failures"
