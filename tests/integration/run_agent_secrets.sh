#!/bin/bash
# run_agent_secrets.sh -- local agents get the token through an inherited pipe: neither the token
# nor the users' password is in their environment (/proc/PID/environ) or command line; the agent
# refuses a token shorter than the controller's minimum and a token file others can read.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

# the agent's own checks, before it connects anywhere
set +e
SESSMAX_TOKEN=short "$B/sessmax-agent" connect 127.0.0.1:9 >"$WORK/short.log" 2>&1; rc=$?
set -e
[ $rc = 78 ] || fail "short token: expected exit 78 (EX_CONFIG), got $rc"
grep -q "16-64 characters" "$WORK/short.log" || fail "short token: no clear message"
printf 'a-long-enough-token-0123456789\n' >"$WORK/token"
chmod 644 "$WORK/token"
set +e
env -u SESSMAX_TOKEN "$B/sessmax-agent" connect 127.0.0.1:9 --token-file "$WORK/token" >"$WORK/perm.log" 2>&1; rc=$?
set -e
[ $rc = 78 ] && grep -q "chmod 600" "$WORK/perm.log" || fail "world-readable token file accepted (rc $rc)"

start_simhost 8
write_plan 4 2 2 2s 8s
export SESSMAX_TOKEN=controller-env-token-should-not-leak
start_run
active() { [ -f "$WORK/r.db" ] && [ "$(q "select count(*) from sessions where state = 'active'" 2>/dev/null)" -ge 2 ]; }
wait_for 90 active || fail "sessions did not become active"
n=0
for pid in $(pgrep -P "$CTL" -f -- "connect"); do
    n=$((n + 1))
    tr '\0' '\n' <"/proc/$pid/environ" >"$WORK/environ.$pid"
    grep -q "^SESSMAX_TOKEN=" "$WORK/environ.$pid" && fail "agent $pid has SESSMAX_TOKEN in its environment"
    grep -q "$SESSMAX_PASSWORD" "$WORK/environ.$pid" && fail "agent $pid has the users' password in its environment"
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--token-fd" || fail "agent $pid did not get --token-fd"
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "$SESSMAX_PASSWORD" && fail "password in agent $pid argv"
done
[ $n = 2 ] || fail "expected 2 local agents, found $n"
# exit 2 is an inconclusive verdict (a loaded machine's loop lag), not a failed run
rc=0
wait "$CTL" || rc=$?
[ $rc -le 2 ] || fail "run failed ($rc): $(tail -5 "$WORK/run.log")"
[ "$(q "select status from runs")" = completed ] || fail "run not completed"
[ "$(q "select count(*) from sessions where state = 'ended'")" = 4 ] || fail "not every session ended"
echo PASS
