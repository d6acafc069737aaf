#!/bin/bash
# run_auth_failed.sh -- failed logons say so. Against simhost with a wrong password: the pre-flight
# (the first session, alone, before the ramp) fails and stops the run before any other session is
# launched; `sessmax run` exits 77 with "authentication failed for simuser001 (wrong password,
# locked or expired account)" on its closing lines, in the verdict, in verdict.json (exit_code 77)
# and `sessmax score` exits 77 too. With --no-preflight the ramp runs, every session fails auth,
# and the run still exits 77 with the same words. An unreachable target fails the pre-flight with
# 69, and a wrong pin with 78; a right password passes the pre-flight and the ramp runs.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
WORDS="authentication failed for simuser001 (wrong password, locked or expired account)"

start_simhost 8
plan_fields "sessions: 4" "launch_window: 2s" "steady_state: 30s"

# 1. the pre-flight: one session, exit 77, the words
SESSMAX_PASSWORD=not-the-password run_to_end pre --verdict "$WORK/verdict.json"
[ "$rc" = 77 ] || fail "wrong password: sessmax run exited $rc, expected 77"
grep -qF "pre-flight: logging simuser001 on before the ramp" "$WORK/pre.log" || fail "no pre-flight line"
grep -qF "run 1 failed: pre-flight failed: $WORDS: LOGON_FAILED_BAD_PASSWORD in the server's logon error info" "$WORK/pre.log" ||
    fail "the closing line does not say the pre-flight's authentication failed"
grep -qF "exit 77 (authentication failed): $WORDS" "$WORK/pre.log" || fail "no exit line with the words"
grep -q "^verdict    inconclusive (exit 77: authentication failed)" "$WORK/pre.log" || fail "the verdict does not say 77"
grep -qF "[inconclusive] $WORDS; 1 of 1 sessions failed authentication" "$WORK/pre.log" || fail "no verdict item"
grep -q "unavailable" "$WORK/pre.log" && fail "a refused logon was called an unavailable target"
grep -q "^ramp:" "$WORK/pre.log" && fail "the ramp started after a failed pre-flight"
[ "$(q "select count(*) from sessions where run_id = 1")" = 1 ] ||
    fail "the pre-flight let $(q "select count(*) from sessions where run_id = 1") sessions start"
[ "$(q "select reason from sessions where run_id = 1")" = auth ] || fail "stored reason is not auth"
q "select detail from sessions where run_id = 1" | grep -q "^authentication failed: LOGON_FAILED_BAD_PASSWORD" ||
    fail "stored detail: $(q "select detail from sessions where run_id = 1")"
python3 - "$WORK/verdict.json" <<'PY' || fail "verdict.json does not say 77"
import json, sys
v = json.load(open(sys.argv[1]))
assert v["exit_code"] == 77 and v["auth_failed"] == 1, v
assert any("authentication failed for simuser001 (wrong password, locked or expired account)" in i["reason"]
           for i in v["items"]), v["items"]
PY
set +e
"$B/sessmax" score "$WORK/r.db" --run 1 --no-store >"$WORK/score.log" 2>&1
src=$?
set -e
[ "$src" = 77 ] || { cat "$WORK/score.log"; fail "sessmax score exited $src, expected 77"; }
grep -qF "$WORDS" "$WORK/score.log" || fail "sessmax score does not say it"

# 2. --no-preflight: the ramp runs, and the run still says so and exits 77
SESSMAX_PASSWORD=not-the-password run_to_end ramp --no-preflight
[ "$rc" = 77 ] || fail "--no-preflight: sessmax run exited $rc, expected 77"
grep -q "^ramp: 4 sessions" "$WORK/ramp.log" || fail "--no-preflight: no ramp"
grep -q "pre-flight" "$WORK/ramp.log" && fail "--no-preflight ran a pre-flight"
grep -qE "^run 2 failed: authentication failed for simuser00[0-9] \(wrong password, locked or expired account\): the last [0-9]+ sessions failed \(auth x[0-9]+\)" \
    "$WORK/ramp.log" || fail "--no-preflight: the closing line does not say authentication failed"
grep -qF "exit 77 (authentication failed): $WORDS" "$WORK/ramp.log" || fail "--no-preflight: no exit line with the words"
[ "$(q "select count(*) from sessions where run_id = 2")" -ge 2 ] || fail "--no-preflight: the ramp launched one session"

# 3. a right password: the pre-flight passes and the ramp launches the other three
run_to_end ok
[ "$rc" -le 2 ] || fail "right password: sessmax run exited $rc"
grep -q "^pre-flight: the first session logged on in " "$WORK/ok.log" || fail "the pre-flight did not pass"
grep -q "^ramp: 3 sessions" "$WORK/ok.log" || fail "no ramp of the other 3 sessions after the pre-flight"
[ "$(q "select count(*) from sessions where run_id = 3 and logon_us >= 0 and active_us > 0")" = 4 ] ||
    fail "not every session logged on: $(q "select user, state, reason from sessions where run_id = 3")"

# 4. a wrong pin: 78, and the line points at probe
plan_fields "sessions: 4" "launch_window: 2s" "steady_state: 30s" \
    "target: {host: 127.0.0.1, port: $SIM_PORT, fingerprint: \"sha256:$(printf '00:%.0s' {1..31})00\", security: tls}"
run_to_end pin
[ "$rc" = 78 ] || fail "wrong pin: sessmax run exited $rc, expected 78"
grep -qF "pre-flight failed: TLS with the target 127.0.0.1:$SIM_PORT failed" "$WORK/pin.log" || fail "no TLS line"
grep -qF "sessmax-agent probe 127.0.0.1:$SIM_PORT" "$WORK/pin.log" || fail "the TLS line does not name probe"
grep -q "^exit 78 (configuration): " "$WORK/pin.log" || fail "no exit 78 line"
[ "$(q "select count(*) from sessions where run_id = 4")" = 1 ] || fail "wrong pin: more than the pre-flight started"

# 5. nobody listens: 69 from the pre-flight, one session
stop_simhost
run_to_end gone
[ "$rc" = 69 ] || fail "unreachable: sessmax run exited $rc, expected 69"
grep -qF "pre-flight failed: target 127.0.0.1:$SIM_PORT unavailable: 127.0.0.1:$SIM_PORT: connection refused" \
    "$WORK/gone.log" || fail "the pre-flight line does not name the peer and 'connection refused'"
grep -q "^exit 69 (unavailable): the pre-flight logon could not reach the target 127.0.0.1:$SIM_PORT" "$WORK/gone.log" ||
    fail "no exit 69 line"
[ "$(q "select count(*) from sessions where run_id = 5")" = 1 ] || fail "unreachable: more than the pre-flight started"
echo PASS
