#!/bin/bash
# run_agent_waits.sh -- agents started before their controller (as on Kubernetes, where both start
# together): with --controller-wait they retry with backoff while nothing listens, and join once
# `sessmax run` listens; the controller's certificate comes from files (agents.tls_cert/tls_key),
# so its pin is known before the run -- one agent pins it with --tls-pin-cert, one with the
# fingerprint openssl prints. With no controller at all an agent exits 69 at the deadline; a key
# file others can read is refused with the chmod that fixes it.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=sessmax-controller -days 30 \
    -keyout "$WORK/tls.key" -out "$WORK/tls.crt" 2>/dev/null || fail "openssl could not make a certificate"
chmod 600 "$WORK/tls.key"
OPENSSL_FP=sha256:$(openssl x509 -in "$WORK/tls.crt" -noout -fingerprint -sha256 | cut -d= -f2)
export SESSMAX_TOKEN=$(openssl rand -hex 32)

start_simhost 10
LPORT=$(free_port)
AGENTS="{expect: 2, listen: \"127.0.0.1:$LPORT\", wait: 60s, tls_cert: $WORK/tls.crt, tls_key: $WORK/tls.key}"
plan_fields "sessions: 4" "launch_window: 2s" "steady_state: 4s" "agents: $AGENTS"

# the agents first: nothing listens on LPORT yet
SESSMAX_LOG=info "$B/sessmax-agent" connect "127.0.0.1:$LPORT" --name early-1 --capacity 2 --controller-wait 60s \
    --tls-pin-cert "$WORK/tls.crt" >"$WORK/agent1.log" 2>&1 &
A1=$!
SESSMAX_LOG=info "$B/sessmax-agent" connect "127.0.0.1:$LPORT" --name early-2 --capacity 2 --controller-wait 60s \
    --tls-pin "$OPENSSL_FP" >"$WORK/agent2.log" 2>&1 &
A2=$!
PIDS+=("$A1" "$A2")
for n in 1 2; do
    wait_for 20 grep -q "no controller at 127.0.0.1:$LPORT yet: .*refused" "$WORK/agent$n.log" ||
        fail "agent $n did not report the missing controller: $(cat "$WORK/agent$n.log")"
done
kill -0 "$A1" && kill -0 "$A2" || fail "an agent gave up before its --controller-wait"

start_run
tls_fingerprint
[ "$FP" = "$OPENSSL_FP" ] || fail "the controller's pin $FP is not the certificate file's $OPENSSL_FP"
wait_run
[ $rc -le 2 ] || fail "sessmax run exited $rc"
[ "$(q "select group_concat(name) from (select name from agents order by name)")" = "early-1,early-2" ] ||
    fail "the early agents did not both join"
[ "$(q "select count(*) from sessions where state = 'ended'")" = 4 ] || fail "sessions did not end"
for a in "$A1" "$A2"; do
    set +e; wait "$a"; arc=$?; set -e
    [ $arc -eq 0 ] || fail "an early agent exited $arc"
done
[ "$(grep -c "no controller at" "$WORK/agent1.log")" -le 3 ] || fail "agent 1 logged every attempt"

# no controller at all: exit 69 (unavailable) after the wait, with the reason
set +e
timeout 60 "$B/sessmax-agent" connect "127.0.0.1:$(free_port)" --controller-wait 3s --tls-pin-cert "$WORK/tls.crt" \
    >"$WORK/alone.log" 2>&1
arc=$?
set -e
[ $arc -eq 69 ] || fail "an agent without a controller exited $arc, not 69: $(cat "$WORK/alone.log")"
grep -q "error: no controller at 127.0.0.1:.*refused (.* attempts; --controller-wait 3 s)" "$WORK/alone.log" ||
    fail "no reason given: $(cat "$WORK/alone.log")"

# a key file that others can read: the run refuses it, naming the file
chmod 644 "$WORK/tls.key"
plan_fields "sessions: 4" "agents: $AGENTS" "results: $WORK/r2.db"
run_to_end refused
[ $rc -ne 0 ] && grep -q "$WORK/tls.key: the TLS key file has mode 0644.*chmod 600" "$WORK/refused.log" ||
    fail "a world-readable key was not refused (rc=$rc)"
echo PASS
