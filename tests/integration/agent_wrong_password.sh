#!/bin/bash
# agent_wrong_password.sh -- a wrong password is reported as reason auth, after exactly one
# logical attempt: no retries by the agent (max-attempts 5 allowed for connect errors) and at most
# one extra TCP connection from FreeRDP's own reconnect, counted at a forwarding listener.
# Afterwards the same server still logs the right password on (shot).
. "$(dirname "$0")/lib/agent_env.sh"
start_simhost 4 --work-scale 0.2
start_tcpcount forward "127.0.0.1:$SIM_PORT"
W="$S/workloads/simhost-task-worker.yaml"
set +e
SESSMAX_PASSWORD=not-the-password "$AGENT" run --target "127.0.0.1:$CNT_PORT" \
  --users 'simuser{n:03}' --sessions 2 --workload "$W" --duration 60s --max-attempts 5 \
  --fingerprint "$SIM_FP" > "$T/out.jsonl" 2> "$T/err.txt"
rc=$?
set -e
cat "$T/err.txt" >&2
[ $rc = 1 ] || fail "exit code $rc (want 1)"
[ "$(jl "$T/out.jsonl" 'sum(r["type"]=="session" and r["event"]=="failed" and r["reason"]=="auth" for r in recs)')" = 2 ] \
  || fail "wrong password not reported as auth for both sessions"
[ "$(jl "$T/out.jsonl" 'sum(r["type"]=="session" and r["event"]=="launched" for r in recs)')" = 2 ] \
  || fail "sessions relaunched"
conns=$(wc -l < "$CNT_LOG")
[ "$conns" -ge 2 ] && [ "$conns" -le 4 ] || fail "$conns TCP connections for 2 sessions (retry storm?)"
# the same server still takes the right password
"$AGENT" shot --target "127.0.0.1:$SIM_PORT" --user simuser003 --fingerprint "$SIM_FP" \
  --wait 1s -o "$T/ok.png" 2> "$T/shot.err" || { cat "$T/shot.err" >&2; fail "right password failed"; }
[ -s "$T/ok.png" ] || fail "no PNG from shot"
echo "agent_wrong_password: ok ($conns connections for 2 sessions)"
