#!/bin/bash
# run_x11_crash.sh -- external clients that fail, through `sessmax run` with a local agent. One
# that crashes: both sessions end with reason client_exit, the last line of the client's stderr in
# the stored detail, and its stderr tail saved beside the results
# (<db>.shots/run-1/USER-client-stderr.txt). One that never shows a window: both sessions end
# with client_timeout after its window_timeout. Each run ends on its own (no hang). The plan's
# `preflight: false` lets the ramp run although the first logon fails.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
command -v Xvfb >/dev/null || { echo "SKIP: Xvfb missing (scripts/install-deps)"; exit 77; }
start_simhost 4
plan_fields "name: x11-crash" \
    "client: {x11: \"sh -c 'echo starting >&2; echo cannot open the session: boom >&2; exit 3' {host}\", password: none}" \
    "launch_window: 1s" "steady_state: 5s" "logoff_deadline: 10s" "agents: {local: 1, heartbeat_timeout: 10s}" \
    "preflight: false"   # both sessions fail: the pre-flight would stop the run after the first
rc=0
timeout -k 5 120 "$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/run.log" 2>&1 || rc=$?
[ $rc -le 2 ] || fail "sessmax run exited $rc: $(tail -5 "$WORK/run.log")"
[ "$(q "select count(*) from sessions where run_id = 1 and reason = 'client_exit'")" = 2 ] \
    || fail "sessions: $(q "select user, state, reason, detail from sessions")"
q "select detail from sessions where run_id = 1" | grep -q 'cannot open the session: boom' \
    || fail "detail without the stderr line: $(q "select detail from sessions")"
for u in simuser001 simuser002; do
    f="$WORK/r.db.shots/run-1/$u-client-stderr.txt"
    [ -s "$f" ] || fail "no stderr tail beside the results for $u ($(ls -R "$WORK/r.db.shots" 2>&1))"
    grep -q '^starting$' "$f" && grep -q 'boom' "$f" || fail "$f: $(cat "$f")"
done
# a client that never maps a window
sed -i -e "s|^client: .*|client: {x11: \"sh -c 'sleep 120' {host}\", password: none, window_timeout: 2s}|" \
    -e 's|^name: .*|name: x11-nowin|' "$WORK/plan.yaml"
rc=0
timeout -k 5 120 "$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/run2.log" 2>&1 || rc=$?
[ $rc -le 2 ] || fail "sessmax run (no window) exited $rc: $(tail -5 "$WORK/run2.log")"
[ "$(q "select count(*) from sessions where run_id = 2 and reason = 'client_timeout'")" = 2 ] \
    || fail "sessions of the windowless client: $(q "select user, state, reason, detail from sessions where run_id = 2")"
echo "run_x11_crash: ok"
