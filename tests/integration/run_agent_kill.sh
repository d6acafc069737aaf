#!/bin/bash
# run_agent_kill.sh -- SIGKILL of one local agent mid-run: its sessions are marked lost with the
# reason, the other agent's sessions run to the end, the run completes and is inconclusive (2).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 20
write_plan 16 2 8 6s 25s
start_run
wait_for 90 counts_at_least 14 "select count(*) from sessions where state = 'active'" || fail "sessions did not become active"
VICTIM=$(pgrep -P "$CTL" -f -- "--name local-1") || fail "agent local-1 not found among the controller's children"
kill -9 "$VICTIM"
wait_run
[ $rc = 2 ] || fail "expected exit 2 (inconclusive: an agent was lost), got $rc"
grep -q "agent local-1 lost" "$WORK/run.log" || fail "no clear message about the lost agent"
[ "$(q "select status from runs")" = completed ] || fail "run not completed"
[ "$(q "select status from agents where name = 'local-1'")" = lost ] || fail "agent not marked lost"
lost=$(q "select count(*) from sessions s join agents a on a.id = s.agent_id where a.name = 'local-1' and s.state = 'failed' and s.reason = 'lost'")
mine=$(q "select count(*) from sessions s join agents a on a.id = s.agent_id where a.name = 'local-1'")
[ "$lost" = "$mine" ] && [ "$mine" -gt 0 ] || fail "local-1 sessions: $lost of $mine marked lost"
q "select s.detail from sessions s join agents a on a.id = s.agent_id where a.name = 'local-1' limit 1" | grep -q "local-1 lost" \
    || fail "lost sessions carry no reason"
[ "$(q "select count(*) from sessions s join agents a on a.id = s.agent_id where a.name = 'local-2' and s.state = 'ended'")" = \
  "$(q "select count(*) from sessions s join agents a on a.id = s.agent_id where a.name = 'local-2'")" ] || fail "local-2 sessions did not all end"
[ "$(q "select verdict from runs")" = inconclusive ] || fail "verdict not inconclusive"
echo PASS
