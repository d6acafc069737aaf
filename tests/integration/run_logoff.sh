#!/bin/bash
# run_logoff.sh -- a logoff counts only when the server confirms it: one session, one loop
# (loops: 1), then its logoff steps. Against simhost the server ends the session: state ended.
# Against simhost --ignore-logoff the steps run but nothing ends: the session must be recorded as
# logoff_incomplete (not "ended cleanly"), and the verdict's validity says so.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
run() {
    write_plan 1 1 1 1s 60s
    echo "loops: 1" >> "$WORK/plan.yaml"
    run_checked "$1"
}
start_simhost 1
run confirmed
stop_simhost
[ "$(q "SELECT state || ':' || reason FROM sessions WHERE run_id = 1")" = "ended:none" ] \
    || fail "a confirmed logoff: $(q 'SELECT * FROM sessions WHERE run_id = 1')"
grep -q '\[inconclusive\] .*logoff' "$WORK/confirmed.log" && fail "a confirmed logoff made the run inconclusive"

start_simhost 1 --ignore-logoff
run ignored
cat "$WORK/ignored.log"
[ "$(q "SELECT state || ':' || reason FROM sessions WHERE run_id = 2")" = "failed:logoff_incomplete" ] \
    || fail "an ignored logoff: $(q 'SELECT * FROM sessions WHERE run_id = 2')"
grep -q '1 sessions: 0 ended cleanly, 1 failed' "$WORK/ignored.log" || fail "counted as ended cleanly"
grep -q "\[inconclusive\] 1 sessions' logoff was not confirmed by the server (logoff_incomplete)" "$WORK/ignored.log" \
    || fail "the verdict does not flag the unconfirmed logoff"
grep -qE '^  simuser001 +logoff_incomplete ' "$WORK/ignored.log" || fail "not listed as a failed session"
echo PASS
