#!/bin/bash
# run_controller_kill.sh -- SIGKILL of the controller mid-run: its agents notice and exit, the
# database passes `sessmax db check` with the committed samples in it, and the next run on the
# same database marks the killed run aborted.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 10
write_plan 6 2 3 4s 60s
"$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/run.log" 2>&1 &
CTL=$!
PIDS+=("$CTL")
samples() { [ -f "$WORK/r.db" ] && [ "$(q "select count(*) from samples" 2>/dev/null)" -ge 10 ]; }
wait_for 90 samples || fail "no samples arrived"
AGENTS=$(pgrep -P "$CTL" -d ' ' -f "sessmax-agent connect") || fail "agents not found"
PIDS+=($AGENTS)
kill -9 "$CTL"
wait "$CTL" 2>/dev/null || true
gone() { for p in $AGENTS; do kill -0 "$p" 2>/dev/null && return 1; done; return 0; }
wait_for 40 gone || fail "agents kept running after the controller died"
"$B/sessmax" db check "$WORK/r.db" || fail "db check after SIGKILL"
[ "$(q "select status from runs where id = 1")" = running ] || fail "the killed run should still read running"
n=$(q "select count(*) from samples where run_id = 1")
[ "$n" -ge 10 ] || fail "committed samples lost ($n)"

write_plan 2 1 2 1s 1s
set +e
"$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/run2.log" 2>&1
rc=$?
set -e
cat "$WORK/run2.log"
[ $rc -le 2 ] || fail "second run exited $rc"
grep -q "marked aborted" "$WORK/run2.log" || fail "no message about the stale run"
[ "$(q "select status from runs where id = 1")" = aborted ] || fail "killed run not marked aborted"
[ "$(q "select status from runs where id = 2")" = completed ] || fail "second run not completed"
echo PASS
