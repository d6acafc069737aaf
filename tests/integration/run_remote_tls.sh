#!/bin/bash
# run_remote_tls.sh -- remote agents over TLS: the controller listens and prints its certificate
# fingerprint; an agent with a wrong token and one pinning another certificate are refused with a
# clear reason; two good agents (token from SESSMAX_TOKEN, --tls-pin) run the sessions and the
# run completes with both agents recorded.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 10
write_plan 4 1 2 2s 4s
listen_agents 2 60s
export SESSMAX_TOKEN=$(openssl rand -hex 32)
start_run
tls_fingerprint

# a wrong token: the agent notices the controller cannot prove the token, and exits non-zero
set +e
SESSMAX_TOKEN=not-the-right-token-at-all timeout 30 "$B/sessmax-agent" connect "127.0.0.1:$LPORT" --name intruder \
    --tls-pin "$FP" >"$WORK/intruder.log" 2>&1
rc_bad_token=$?
# a wrong pin: refused before anything is sent
timeout 30 "$B/sessmax-agent" connect "127.0.0.1:$LPORT" --name mitm \
    --tls-pin "sha256:$(printf '00:%.0s' $(seq 31))00" >"$WORK/mitm.log" 2>&1
rc_bad_pin=$?
set -e
[ $rc_bad_token -ne 0 ] && grep -q "authentication failed" "$WORK/intruder.log" || fail "wrong token not refused (rc=$rc_bad_token)"
[ $rc_bad_pin -ne 0 ] && grep -q "not the pinned" "$WORK/mitm.log" || fail "wrong pin not refused (rc=$rc_bad_pin)"

for n in 1 2; do
    "$B/sessmax-agent" connect "127.0.0.1:$LPORT" --name "remote-$n" --capacity 2 --tls-pin "$FP" \
        >"$WORK/agent$n.log" 2>&1 &
    PIDS+=($!)
done
wait_run
[ $rc -le 2 ] || fail "sessmax run exited $rc"
[ "$(q "select status from runs")" = completed ] || fail "run not completed"
[ "$(q "select group_concat(name) from (select name from agents order by name)")" = "remote-1,remote-2" ] || fail "agents"
[ "$(q "select count(*) from sessions where state = 'ended'")" = 4 ] || fail "sessions did not end"
echo PASS
