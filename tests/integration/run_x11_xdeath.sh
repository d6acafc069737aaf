#!/bin/bash
# run_x11_xdeath.sh -- one session's X server dies in the middle of a run through `sessmax run`:
# three xfreerdp sessions against simhost with a local agent; once all are active, one Xvfb of
# the agent is killed. That session ends failed with reason xserver and a detail naming the X
# server; the two others keep running and log off cleanly at the end; the run completes on its
# own with a verdict (no stuck session), and the agent leaves no X server or client behind.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
for t in xfreerdp Xvfb; do
  command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
start_simhost 5
plan_fields "name: x11-xdeath" "client: {x11: xfreerdp}" "sessions: 3" "launch_window: 3s" \
    "steady_state: 60s" "logoff_deadline: 30s" "agents: {local: 1, heartbeat_timeout: 10s}"
start_run
wait_for 120 counts_at_least 3 "select count(*) from sessions where run_id = 1 and state = 'active'" \
    || { run_ended && cat "$WORK/run.log"; fail "the 3 sessions did not become active"; }
AGENT=$(pgrep -P "$CTL" -f "sessmax-agent connect") || fail "agent not found"
XS=$(pgrep -P "$AGENT" -x Xvfb | head -1)
[ -n "$XS" ] || fail "no Xvfb child of the agent"
CHILDREN=$(pgrep -P "$AGENT" | tr '\n' ' ')
kill -9 "$XS"
wait_for 30 counts_at_least 1 "select count(*) from sessions where run_id = 1 and reason = 'xserver'" \
    || fail "no session ended for its X server: $(q "select idx, state, reason, detail from sessions")"
timeout 240 tail --pid="$CTL" -f /dev/null || fail "the run did not end (hang)"
wait_run
[ $rc -le 2 ] || fail "sessmax run exited $rc"
[ "$(q "select status from runs where id = 1")" = completed ] || fail "run status: $(q "select status from runs")"
[ "$(q "select count(*) from sessions where run_id = 1 and state = 'failed' and reason = 'xserver'")" = 1 ] \
    || fail "sessions: $(q "select idx, state, reason, detail from sessions")"
q "select detail from sessions where run_id = 1 and reason = 'xserver'" | grep -q 'X server (Xvfb)' \
    || fail "detail: $(q "select detail from sessions where reason = 'xserver'")"
[ "$(q "select count(*) from sessions where run_id = 1 and state = 'ended' and reason = 'none'")" = 2 ] \
    || fail "the other sessions did not end cleanly: $(q "select idx, state, reason, detail from sessions")"
[ "$(q "select count(distinct session) from samples where run_id = 1 and t_us > (select end_us from sessions where run_id = 1 and reason = 'xserver')")" -ge 1 ] \
    || fail "no session kept recording samples after the X server died"
grep -q "failed by reason: xserver 1" "$WORK/run.log" || fail "summary does not count the xserver failure"
grep -qE '^verdict +(pass|inconclusive|fail)' "$WORK/run.log" || fail "no verdict"
grep -q 'stuck sessions' "$WORK/run.log" && grep -q '\[inconclusive\] stuck' "$WORK/run.log" && fail "stuck sessions"
left=$(for c in $CHILDREN; do ps -o pid=,args= -p "$c" 2>/dev/null | grep -E 'Xvfb|xfreerdp' || true; done)
[ -z "$left" ] || fail "left behind: $left"
echo "run_x11_xdeath: ok"
