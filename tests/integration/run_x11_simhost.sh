#!/bin/bash
# run_x11_simhost.sh -- `sessmax run` of a plan with `client: {x11: xfreerdp}` end to end: the
# controller starts a local agent, which runs Debian's xfreerdp once per session on its own Xvfb
# against simhost. 5 sessions of workloads/simhost-task-worker.yaml: every session logs on (logon
# timer stored), every timer of the workload and the `vsi` measure have samples in the database,
# every session logs off cleanly; the run is labelled client=xfreerdp with the preset's transport
# (tcp); `sessmax run` and `sessmax score` print a score (smax or its lower bound, not n/a); no X
# server or client outlives the run; the password is on no command line and in no log. The
# client's TCP traffic (read from its socket by the agent) gives kbit/s per session, within an
# order of magnitude of the built-in engine's for the same workload (a second, builtin run).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
for t in xfreerdp Xvfb; do
    command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
N=5
start_simhost $((N + 2)) --work-scale 0.2
W=$S/workloads/simhost-task-worker.yaml
plan_fields "name: x11-e2e" "client: {x11: xfreerdp}" "workload: $W" "sessions: $N" "launch_window: 5s" \
    "steady_state: 45s" "logoff_deadline: 30s" "agents: {local: 1, heartbeat_timeout: 10s}" \
    "score: {baseline_count: 3}"
"$B/sessmax" validate "$WORK/plan.yaml" >"$WORK/validate.log" 2>&1 || fail "validate: $(cat "$WORK/validate.log")"
grep -q 'labels .*transport=tcp .*client=xfreerdp' "$WORK/validate.log" || fail "validate labels: $(cat "$WORK/validate.log")"

start_run
# while it runs: no process of the run holds the password on its command line
until run_ended; do
    for p in $(pgrep -f "xfreerdp /v:127.0.0.1:$SIM_PORT" || true); do
        tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "$SESSMAX_PASSWORD" && fail "password on argv of $p"
    done
    sleep 0.5
done
wait_run
[ $rc -le 2 ] || fail "sessmax run exited $rc"

[ "$(q "select status || '/' || client || '/' || transport from runs where id = 1")" = completed/xfreerdp/tcp ] \
    || fail "run row: $(q "select status, client, transport, message from runs")"
[ "$(q "select count(*) from sessions where run_id = 1 and state = 'ended' and reason = 'none' and logon_us > 0")" = $N ] \
    || fail "not all $N sessions logged on and off: $(q "select user, state, reason, detail from sessions")"
# every timer of the workload, and the measure, has ok samples; every session has samples
for t in $(awk '/^ *- timer: / { print $3 }' "$W" | sort -u) vsi; do
    n=$(q "select count(*) from samples s join timer_names t on t.id = s.name_id where s.run_id = 1 and t.name = '$t' and s.ok = 1")
    [ "$n" -gt 0 ] || fail "no ok sample of timer $t"
done
[ "$(q "select count(distinct session) from samples where run_id = 1 and ok = 1")" = $N ] || fail "a session has no ok sample"
[ "$(q "select count(*) from agents where run_id = 1 and status = 'done'")" = 1 ] || fail "agent not done"
# a score, printed by run and by score
grep -q '^run 1  x11-e2e  transport=tcp platform=simhost-e2e network=lan client=xfreerdp  (completed)$' "$WORK/run.log" \
    || fail "run summary does not name the client"
grep -qE '^smax +([0-9]|not reached at [0-9]+ active \(smax >= [0-9])' "$WORK/run.log" || fail "no score in the run's summary"
"$B/sessmax" score "$WORK/r.db" >"$WORK/score.log" 2>&1 || [ $? -le 2 ] || fail "score: $(cat "$WORK/score.log")"
grep -qE '^smax +([0-9]|not reached at [0-9]+ active \(smax >= [0-9])' "$WORK/score.log" || fail "no score: $(cat "$WORK/score.log")"
# traffic of the client's own socket: records from every session, kbit/s per session printed
[ "$(q "select count(distinct session) from traffic where run_id = 1 and wire_in > 0 and bytes_in = wire_in")" = $N ] \
    || fail "not every session has traffic records: $(q "select session, max(wire_in) from traffic group by session")"
x11_kbps=$(sed -n 's/^bandwidth  \([0-9.]*\) kbit\/s per session$/\1/p' "$WORK/score.log")
[ -n "$x11_kbps" ] && awk -v k="$x11_kbps" 'BEGIN { exit !(k > 0) }' || fail "no kbit/s: $(cat "$WORK/score.log")"
# the clients' and X servers' costs came over the link, were stored and are printed per session
[ "$(q "select count(*) from health where run_id = 1 and ext_sessions > 0 and ext_client_pss_kb > 0 and ext_xserver_pss_kb > 0")" -gt 0 ] \
    || fail "no external costs stored: $(q "select * from health where run_id = 1")"
grep -qE '^clients    per session: client [0-9.]+ MiB PSS' "$WORK/score.log" || fail "no per-session costs: $(cat "$WORK/score.log")"
grep -qE '^           capacity   [0-9]+ sessions per core' "$WORK/score.log" || fail "no capacity: $(cat "$WORK/score.log")"
# nothing outlives the run, nothing leaked the password
sleep 0.5
left=$(pgrep -af "xfreerdp /v:127\.0\.0\.1:$SIM_PORT" || true)
[ -z "$left" ] || fail "left behind: $left"
if grep -rqa -- "$SESSMAX_PASSWORD" "$WORK/r.db" "$WORK/r.db-wal" "$WORK/run.log" "$WORK"/r.db.agents.log 2>/dev/null; then
    fail "the password leaked into the database or a log"
fi
# the built-in engine, same workload and sessions: kbit/s per session of the same order
sed -e '/^client:/d' -e 's/^steady_state: .*/steady_state: 30s/' "$WORK/plan.yaml" >"$WORK/builtin.yaml"
"$B/sessmax" run "$WORK/builtin.yaml" --plain >"$WORK/run2.log" 2>&1 || [ $? -le 2 ] || fail "builtin run: $(cat "$WORK/run2.log")"
"$B/sessmax" score "$WORK/r.db" --run 2 >"$WORK/score2.log" 2>&1 || [ $? -le 2 ] || fail "score 2: $(cat "$WORK/score2.log")"
eng_kbps=$(sed -n 's/^bandwidth  \([0-9.]*\) kbit\/s per session$/\1/p' "$WORK/score2.log")
[ -n "$eng_kbps" ] || fail "builtin run has no kbit/s: $(cat "$WORK/score2.log")"
echo "kbit/s per session: xfreerdp $x11_kbps, builtin $eng_kbps"
awk -v a="$x11_kbps" -v b="$eng_kbps" 'BEGIN { r = a / b; exit !(r > 0.1 && r < 10) }' \
    || fail "xfreerdp's kbit/s ($x11_kbps) not within 10x of the builtin engine's ($eng_kbps)"
echo "run_x11_simhost: ok ($(q "select count(*) from samples where run_id = 1") samples)"
