#!/bin/bash
# run_agent_flood.sh -- a remote agent (TLS, through a TCP relay) whose link is cut while 1,100
# silent connections from 20 addresses, reopened at up to 300/s as the controller closes them, try
# to fill the listener: the controller closes the oldest of them for each newcomer, the agent's
# reconnect gets in, resumes within its grace period, and the run completes with every sample the
# agent produced stored once. (The short version of bench/agent-flood.sh.)
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

export SESSMAX_TOKEN=$(openssl rand -hex 32)
start_simhost 10
write_plan 4 1 4 2s 35s
listen_agents 1 60s ", grace: 30s"
# the flood shares the machine's CPUs with the agent: its loop lag is not what this test asks about
echo 'score: {lag_p99_max_ms: 5000}' >>"$WORK/plan.yaml"
rm -f "$WORK/relay.port"
start_run
tls_fingerprint
relay_start() {
    python3 "$S/tests/integration/lib/tcpcount.py" "$WORK/relay.port" "$WORK/relay.log" forward "127.0.0.1:$LPORT" &
    RELAY=$!
    PIDS+=("$RELAY")
}
relay_start
wait_for 10 test -s "$WORK/relay.port" || fail "relay did not start"
SESSMAX_LOG=info "$B/sessmax-agent" connect "127.0.0.1:$(cat "$WORK/relay.port")" --name remote-1 --capacity 4 \
    --tls-pin "$FP" --buffer-mib 1 --spill-dir "$WORK" >"$WORK/agent.log" 2>&1 &
AGENT=$!
PIDS+=("$AGENT")
active() { [ -f "$WORK/r.db" ] && [ "$(q "select count(*) from sessions where state = 'active'" 2>/dev/null)" = 4 ]; }
wait_for 90 active || fail "sessions did not become active"

python3 "$S/tests/integration/lib/flood.py" "127.0.0.1:$LPORT" 1100 300 20 "$WORK/flood.stats" &
FLOOD=$!
PIDS+=("$FLOOD")
opened() { [ -s "$WORK/flood.stats" ] && [ "$(cut -d' ' -f2 "$WORK/flood.stats")" -ge "$1" ]; }
wait_for 30 opened 1400 || fail "the flood did not get going: $(cat "$WORK/flood.stats" 2>/dev/null)"
kill -9 "$RELAY"
sleep 2
relay_start
wait_for 30 grep -q "agent remote-1 is back after" "$WORK/run.log" || fail "the agent did not come back during the flood"
echo "flood during the resume: $(cat "$WORK/flood.stats")"
set +e
wait "$CTL"; rc=$?
wait "$AGENT"; arc=$?
set -e
kill "$FLOOD" 2>/dev/null || true
cat "$WORK/run.log"
tail -n 5 "$WORK/agent.log"
[ $rc = 0 ] || fail "sessmax run exited $rc (want 0: pass)"
[ $arc = 0 ] || fail "the agent exited $arc"
grep -q "link to the controller resumed" "$WORK/agent.log" || fail "the agent did not resume its link"
grep -q "closed before it authenticated" "$WORK/run.log" || fail "the controller never closed a flood connection"
[ "$(q "select count(*) from sessions where state = 'ended'")" = 4 ] || \
    fail "sessions $(q "select state, reason, count(*) from sessions group by 1, 2")"
produced=$(sed -n 's/.*results produced: \([0-9]*\) samples.*/\1/p' "$WORK/agent.log")
stored=$(q "select count(*) from samples")
[ -n "$produced" ] && [ "$produced" = "$stored" ] || fail "the agent produced $produced samples, $stored are stored"
echo "flood: $stored samples stored of $produced produced"
echo PASS
