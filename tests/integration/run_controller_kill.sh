#!/bin/bash
# run_controller_kill.sh -- SIGKILL of the controller mid-run: its agents notice and exit, the
# database passes `sessmax db check` with the committed samples in it, and the next run on the
# same database marks the killed run aborted.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 10
write_plan 6 2 3 4s 60s
start_run
wait_for 90 counts_at_least 10 "select count(*) from samples" || fail "no samples arrived"
kill_controller "$CTL"
"$B/sessmax" db check "$WORK/r.db" || fail "db check after SIGKILL"
[ "$(q "select status from runs where id = 1")" = running ] || fail "the killed run should still read running"
n=$(q "select count(*) from samples where run_id = 1")
[ "$n" -ge 10 ] || fail "committed samples lost ($n)"

write_plan 2 1 2 1s 1s
run_to_end run2
[ $rc -le 2 ] || fail "second run exited $rc"
grep -q "marked aborted" "$WORK/run2.log" || fail "no message about the stale run"
[ "$(q "select status from runs where id = 1")" = aborted ] || fail "killed run not marked aborted"
[ "$(q "select status from runs where id = 2")" = completed ] || fail "second run not completed"
echo PASS
