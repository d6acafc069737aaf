#!/bin/bash
# run_simhost.sh -- `sessmax run` end to end: 2 local agents x 30 sessions against simhost, and
# everything recorded: every session ended, every session has samples and traffic rows, agents
# and health stored, labels and the plan text (without the password) in the run row.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 60
# a steady state well above a loaded machine's logon time, so the last sessions launched still
# complete a loop before logoff (under ASan with a parallel test, logons took 13 s)
write_plan 60 2 30 20s 30s
run_to_end run
[ $rc -le 2 ] || fail "sessmax run exited $rc"

[ "$(q "select status from runs where id = 1")" = completed ] || fail "run not completed"
[ "$(q "select count(*) from sessions where run_id = 1")" = 60 ] || fail "not 60 sessions"
[ "$(q "select count(*) from sessions where state = 'ended'")" = 60 ] || \
    fail "sessions not all ended: $(q "select state, reason, count(*) from sessions group by 1, 2")"
[ "$(q "select count(distinct session) from samples where run_id = 1")" = 60 ] || fail "a session has no samples"
[ "$(q "select count(distinct session) from traffic where run_id = 1")" = 60 ] || fail "a session has no traffic rows"
[ "$(q "select count(*) from agents where run_id = 1 and status = 'done'")" = 2 ] || fail "agents not both done"
[ "$(q "select max(c) from (select count(*) c from sessions group by agent_id)")" -le 30 ] || fail "an agent exceeded its capacity"
[ "$(q "select count(*) from health where run_id = 1")" -gt 0 ] || fail "no agent health rows"
[ "$(q "select platform || '/' || network || '/' || transport || '/' || workload_name from runs")" = \
  "simhost-e2e/lan/tcp/short-worker" ] || fail "labels"
[ "$(q "select json_extract(network_profile, '$.name') || '/' || json_extract(network_profile, '$.connection') from runs")" = \
  "lan/lan" ] || fail "the network profile is not stored with the run"
[ "$(q "select length(workload_hash) from runs")" = 64 ] || fail "workload hash"
q "select plan_text from runs" | grep -q "password_env: SESSMAX_PASSWORD" || fail "plan text not stored"
if grep -rqa -- "$SESSMAX_PASSWORD" "$WORK/r.db" "$WORK/r.db-wal" "$WORK/run.log" "$WORK"/r.db.agents.log 2>/dev/null; then
    fail "the password leaked into the database or a log"
fi
"$B/sessmax" db check "$WORK/r.db" || fail "db check"
echo "samples: $(q "select count(*) from samples") traffic: $(q "select count(*) from traffic")"
echo PASS
