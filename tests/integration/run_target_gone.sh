#!/bin/bash
# run_target_gone.sh -- the target dies mid-run (SIGKILL of simhost): every session fails with a
# reason, the run notices that none is left and ends with a clear message instead of waiting out
# its steady state, status "failed", exit 2 (inconclusive); nothing hangs.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 10
write_plan 6 2 3 3s 10m
start_run
wait_for 90 counts_at_least 6 "select count(*) from sessions where state = 'active'" || fail "sessions did not become active"
kill -9 "$SIM_PID"
# the plan's steady state is 10 minutes: finishing at all means the run noticed
wait_for 240 run_ended || fail "the run did not end after the target died"
wait_run
[ $rc = 2 ] || fail "expected exit 2 (inconclusive), got $rc"
grep -q "target 127.0.0.1:$SIM_PORT unavailable: the last 6 sessions failed" "$WORK/run.log" || fail "no clear message"
[ "$(q "select status from runs")" = failed ] || fail "run status not failed"
[ "$(q "select count(*) from sessions where state = 'failed' and reason not in ('none', '')")" = 6 ] || \
    fail "sessions without a failure reason: $(q "select state, reason from sessions")"
"$B/sessmax" db check "$WORK/r.db" || fail "db check"
echo PASS
