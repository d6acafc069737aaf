#!/bin/bash
# run_unreachable.sh -- a target nobody listens on: every session fails with reason connect and a
# detail that names the peer and the errno ("127.0.0.1:PORT: connection refused", not only
# FreeRDP's ERRCONNECT_CONNECT_TRANSPORT_FAILED), the run's closing line says the target is
# unavailable with that detail, and `sessmax run` exits 69 (the README's code for an unavailable
# target) after printing the score and verdict. --no-preflight: the ramp's own check is tested here
# (run_auth_failed.sh tests the pre-flight's); a target that refuses every logon exits 77.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

SIM_PORT=$(free_port)   # nothing listens there
plan_fields "sessions: 2" "launch_window: 1s" "steady_state: 30s"
run_to_end run --no-preflight
[ "$rc" = 69 ] || fail "sessmax run exited $rc, expected 69 (unavailable)"
grep -q "^run 1 failed: target 127.0.0.1:$SIM_PORT unavailable: the last 2 sessions failed (connect x2) and none is active; last: 127.0.0.1:$SIM_PORT: connection refused (ERRCONNECT_" \
    "$WORK/run.log" || fail "the closing line does not name the peer and 'connection refused'"
[ "$(grep -c "simuser00[12] .*connect .*127.0.0.1:$SIM_PORT: connection refused" "$WORK/run.log")" = 2 ] ||
    fail "the failed sessions do not say 'connection refused' with the peer"
grep -q "^verdict    inconclusive" "$WORK/run.log" || fail "no verdict before the exit"
grep -q "^exit 69 (unavailable): no session could reach the target 127.0.0.1:$SIM_PORT" "$WORK/run.log" ||
    fail "the run did not say why it exits 69"
[ "$(q "select count(*) from sessions where reason = 'connect' and detail like '127.0.0.1:$SIM_PORT: connection refused%'")" = 2 ] ||
    fail "stored details: $(q "select reason, detail from sessions")"
# a target that answers but refuses every logon is not 'unavailable': authentication failed (77)
start_simhost 2
plan_fields "sessions: 2" "launch_window: 1s" "steady_state: 30s" \
    'credentials: {user: "nosuchuser{n:03}", password_env: SESSMAX_PASSWORD}' "results: $WORK/auth.db"
run_to_end auth --no-preflight
[ "$rc" = 77 ] || fail "logons refused: sessmax run exited $rc, expected 77 (authentication failed)"
grep -q "^exit 69" "$WORK/auth.log" && fail "refused logons were called an unreachable target"
grep -q "unavailable" "$WORK/auth.log" && fail "refused logons were called an unavailable target"
grep -qF "exit 77 (authentication failed): authentication failed for nosuchuser001 (wrong password, locked or expired account)" \
    "$WORK/auth.log" || fail "refused logons: no exit line with the words"
echo PASS
