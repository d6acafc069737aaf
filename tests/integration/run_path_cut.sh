#!/bin/bash
# run_path_cut.sh -- the network path between the agents and the target is cut mid-run. simhost
# runs in a network namespace made by this test, reached over a veth pair; once the sessions are
# active, iptables inside that namespace drops every packet both ways (no RST, no FIN: a dead
# route or a firewall DROP). simhost itself stays up. The TCP keepalive and user timeout FreeRDP
# sets on the agent's RDP socket must fail the sessions, and the run must end with a clear reason well
# before its 10-minute steady state, exit 2 (inconclusive), every session accounted for with a
# reason, and a database that passes `sessmax db check`. Needs root (netns, iptables).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
[ "$(id -u)" = 0 ] && command -v iptables >/dev/null || fail "needs root and iptables (scripts/install-deps)"

NS=sxcut$$
VA=vc$$a VB=vc$$b
NET=10.213.$((RANDOM % 250)).
# every process inside the namespace ends with it (ip netns exec may leave simhost under another pid)
at_exit 'for p in $(ip netns pids "$NS" 2>/dev/null); do kill -9 "$p"; done; ip netns del "$NS" 2>/dev/null
         ip link del "$VA" 2>/dev/null'
ip netns add "$NS"
ip link add "$VA" type veth peer name "$VB"
ip link set "$VB" netns "$NS"
ip addr add "${NET}1/30" dev "$VA"
ip link set "$VA" up
ip netns exec "$NS" ip addr add "${NET}2/30" dev "$VB"
ip netns exec "$NS" ip link set "$VB" up
ip netns exec "$NS" ip link set lo up

SIM_PORT=3389
ip netns exec "$NS" "$B/sessmax-simhost" --listen "${NET}2:$SIM_PORT" --users 10 --work-scale 0.05 \
    --state-dir "$WORK/sim" >"$WORK/simhost.log" 2>&1 &
SIM_PID=$!
PIDS+=("$SIM_PID")
wait_for 20 grep -q "listening on" "$WORK/simhost.log" || fail "simhost did not start in $NS"
write_plan 6 2 3 3s 10m
sed -i "s/host: 127.0.0.1, port: $SIM_PORT/host: ${NET}2, port: $SIM_PORT/" "$WORK/plan.yaml"
grep -q "host: ${NET}2" "$WORK/plan.yaml" || fail "plan target not rewritten"
start_run
wait_for 120 counts_at_least 6 "select count(*) from sessions where state = 'active'" || fail "sessions did not become active"
sleep 3
ip netns exec "$NS" iptables -A INPUT -j DROP
ip netns exec "$NS" iptables -A OUTPUT -j DROP
# the steady state is 10 minutes: finishing well before means the run noticed
wait_for 300 run_ended || fail "the run did not end after the path was cut (hang)"
wait_run
kill -0 "$SIM_PID" || fail "simhost died: this test is about the path, not the target"
[ $rc = 2 ] || fail "expected exit 2 (inconclusive), got $rc"
grep -q "target ${NET}2:$SIM_PORT unavailable" "$WORK/run.log" || fail "no clear reason"
[ "$(q "select count(*) from sessions where state in ('launched', 'active')")" = 0 ] || \
    fail "sessions left open: $(q "select state, reason from sessions")"
[ "$(q "select count(*) from sessions where state = 'failed' and reason in ('none', '')")" = 0 ] || \
    fail "failed sessions without a reason: $(q "select state, reason from sessions")"
"$B/sessmax" db check "$WORK/r.db" || fail "db check"
echo "sessions: $(q "select group_concat(state || '/' || reason, ' ') from sessions"); run $(q "select status from runs")"
echo PASS
