#!/bin/bash
# run_agent_resume.sh -- a remote agent (TLS, token from the environment) reaches the controller
# through a TCP relay that the test kills mid-run and starts again 10 s later:
#  1. grace 60 s: the agent's sessions go on during the cut, it reconnects, proves itself again
#     and sends what was not acknowledged; the run completes with every sample the agent says
#     it produced stored exactly once (samples from inside the cut included), no session lost,
#     and a verdict that says no agent was lost;
#  2. grace 3 s: the controller gives the agent up, its sessions are recorded lost with the
#     reason, the verdict is inconclusive, and the agent exits 1 when its grace is over.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

export SESSMAX_TOKEN=$(openssl rand -hex 32)
start_simhost 10

# run GRACE: starts the controller with a remote agent expected behind the relay
run() {
    write_plan 4 1 4 2s "$2"
    listen_agents 1 60s ", grace: $1"
    echo 'score: {lag_p99_max_ms: 5000}' >>"$WORK/plan.yaml"
    rm -rf "$WORK"/r.db* "$WORK/relay.port" "$WORK/relay.log"
    start_run
    tls_fingerprint
    relay_start
    wait_for 10 test -s "$WORK/relay.port" || fail "relay did not start"
    SESSMAX_LOG=info "$B/sessmax-agent" connect "127.0.0.1:$(cat "$WORK/relay.port")" --name remote-1 --capacity 4 \
        --tls-pin "$FP" --buffer-mib 1 --spill-dir "$WORK" >"$WORK/agent.log" 2>&1 &
    AGENT=$!
    PIDS+=("$AGENT")
}
relay_start() {
    python3 "$S/tests/integration/lib/tcpcount.py" "$WORK/relay.port" "$WORK/relay.log" forward "127.0.0.1:$LPORT" &
    RELAY=$!
    PIDS+=("$RELAY")
}
# cut_link SECONDS: kills the relay (every connection through it breaks) and starts it again later
cut_link() {
    active() { [ -f "$WORK/r.db" ] && [ "$(q "select count(*) from sessions where state = 'active'" 2>/dev/null)" = 4 ] &&
               [ "$(q "select count(*) from samples" 2>/dev/null)" -ge 8 ]; }
    wait_for 90 active || fail "sessions did not become active"
    kill -9 "$RELAY"
    CUT_FROM=$(date +%s%6N)
    sleep "$1"
    CUT_TO=$(date +%s%6N)
    relay_start
}
finish() {
    set +e
    wait "$CTL"; rc=$?
    wait "$AGENT"; arc=$?
    set -e
    cat "$WORK/run.log"
    tail -n 8 "$WORK/agent.log"
}

# --- 1. a 10 s cut within the grace period ---
run 60s 40s
cut_link 10
finish
[ $rc = 0 ] || fail "resume: sessmax run exited $rc (want 0: pass)"
[ $arc = 0 ] || fail "resume: the agent exited $arc"
grep -q "link to the controller resumed" "$WORK/agent.log" || fail "the agent did not resume its link"
grep -q "agent remote-1 is back after" "$WORK/run.log" || fail "the controller did not take the agent back"
[ "$(grep -c accept "$WORK/relay.log")" -ge 2 ] || fail "the agent did not connect again through the relay"
[ "$(q "select status from runs")" = completed ] || fail "resume: run not completed"
[ "$(q "select status from agents")" = done ] || fail "resume: agent not done"
[ "$(q "select count(*) from sessions where state = 'ended'")" = 4 ] || \
    fail "resume: sessions $(q "select state, reason, count(*) from sessions group by 1, 2")"
produced=$(sed -n 's/.*results produced: \([0-9]*\) samples.*/\1/p' "$WORK/agent.log")
stored=$(q "select count(*) from samples")
[ -n "$produced" ] && [ "$produced" = "$stored" ] || fail "the agent produced $produced samples, $stored are stored"
[ "$(q "select count(*) from (select session, loop, name_id, t_us from samples group by 1, 2, 3, 4 having count(*) > 1)")" = 0 ] \
    || fail "a sample is stored twice"
inside=$(q "select count(*) from samples where t_us between $CUT_FROM and $CUT_TO")
[ "$inside" -gt 0 ] || fail "no sample taken during the cut was stored"
[ "$(q "select verdict from runs")" = pass ] || fail "resume: verdict $(q "select verdict, verdict_reasons from runs")"
grep -q "agents *1 (0 lost)" "$WORK/run.log" || fail "resume: the score counts a lost agent"
echo "resume: $stored samples stored ($inside taken during the cut), $(grep -c accept "$WORK/relay.log") connections"

# --- 2. a cut longer than a 3 s grace period ---
run 3s 30s
cut_link 10
finish
[ $rc = 2 ] || fail "grace over: expected exit 2 (inconclusive), got $rc"
[ $arc = 1 ] || fail "grace over: the agent exited $arc (want 1)"
grep -q "agent remote-1 lost: link lost .* not back within the grace period of 3 s" "$WORK/run.log" \
    || fail "grace over: no clear reason"
grep -q "within its grace period of 3 s: dropping all sessions" "$WORK/agent.log" || fail "grace over: agent message"
[ "$(q "select status from agents")" = lost ] || fail "grace over: agent not marked lost"
[ "$(q "select count(*) from sessions where state = 'failed' and reason = 'lost'")" = 4 ] || \
    fail "grace over: sessions $(q "select state, reason, count(*) from sessions group by 1, 2")"
[ "$(q "select verdict from runs")" = inconclusive ] || fail "grace over: verdict not inconclusive"
q "select verdict_reasons from runs" | grep -q "1 of 1 agents lost" || fail "grace over: the verdict does not say why"
echo PASS
