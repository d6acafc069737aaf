#!/bin/bash
# run_network_edges.sh -- the network profile at its edges, through `sessmax run`:
#  - without CAP_NET_ADMIN a shaped profile is refused before the run starts, saying what is
#    needed (no run row, no agent, no emulator);
#  - a remote agent (`sessmax-agent connect`, not spawned by the controller) applies the profile
#    the controller sends it, on its own host: its sessions measure the profile's RTT, while its
#    controller link stays unshaped;
#  - Ctrl-C of a shaped run stops it and leaves no namespace, device or rule behind.
# Needs root (CAP_NET_ADMIN) for the emulator; talks only to loopback and namespaces it creates.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
[ "$(id -u)" = 0 ] || fail "needs root (CAP_NET_ADMIN) for the network emulator"
command -v setpriv >/dev/null || fail "setpriv (util-linux) is needed"
# namespaces and NAT rules of the emulator (named smx-PID)
emulator_state() {
    { ip netns list | grep -oE '^smx-[0-9]+' || true; iptables -w -t nat -S | grep -oE 'smx-[0-9]+' || true;
      ip -o link | grep -oE 'smx[a-z0-9-]*' || true; } | sort -u
}
before=$(emulator_state)
start_simhost 10

# 1. no CAP_NET_ADMIN: refused before the run starts
write_plan 2 1 2 2s 4s
sed -i "s/^network: lan/network: wan-50ms/" "$WORK/plan.yaml"
rc=0
setpriv --bounding-set=-net_admin --inh-caps=-net_admin "$B/sessmax" run "$WORK/plan.yaml" --plain \
    >"$WORK/nocap.log" 2>&1 || rc=$?
cat "$WORK/nocap.log"
[ $rc -ne 0 ] || fail "a shaped run without CAP_NET_ADMIN should fail"
[ "$(wc -l <"$WORK/nocap.log")" -le 3 ] || fail "the refusal should be short"
grep -q "needs CAP_NET_ADMIN" "$WORK/nocap.log" || fail "the refusal does not say what is needed"
[ ! -f "$WORK/r.db" ] || [ "$(q "select count(*) from runs")" = 0 ] || fail "a refused run left a run row"
pgrep -f "sessmax-agent connect.*$WORK" >/dev/null && fail "a refused run started agents"
[ "$(emulator_state)" = "$before" ] || fail "a refused run built an emulator"

# 2. a remote agent applies the profile the controller sends
write_plan 2 1 2 2s 15s
LPORT=$(free_port)
sed -i -e "s/^network: lan/network: wan-100ms/" \
    -e "s/^agents: .*/agents: {expect: 1, listen: \"127.0.0.1:$LPORT\", wait: 60s, heartbeat_timeout: 5s}/" "$WORK/plan.yaml"
export SESSMAX_TOKEN=$(openssl rand -hex 32)
"$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/remote.log" 2>&1 &
CTL=$!
PIDS+=("$CTL")
listening() { grep -q "sessmax-agent connect" "$WORK/remote.log"; }
wait_for 30 listening || fail "the controller did not wait for its agent"
FP=$(grep -o -- "--tls-pin sha256:[0-9A-F:]*" "$WORK/remote.log" | head -1 | cut -d' ' -f2)
"$B/sessmax-agent" connect "127.0.0.1:$LPORT" --name far-away --capacity 2 --tls-pin "$FP" >"$WORK/agent.log" 2>&1 &
AG=$!
PIDS+=("$AG")
shaped_link() { ip netns list | grep -q "^smx-$AG"; }
wait_for 60 shaped_link || fail "the remote agent built no emulated link"
# the controller link is not shaped: while the sessions run over 100 ms, it keeps loopback RTTs
sleep 3
ctl_rtt=$(ss -tin "( sport = :$LPORT )" | grep -oE ' rtt:[0-9.]+' | head -1 | cut -d: -f2)
echo "controller link RTT while the RDP traffic is shaped: ${ctl_rtt:-none} ms"
[ -n "$ctl_rtt" ] || fail "no controller link to measure"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 20 else 1)" "$ctl_rtt" \
    || fail "the controller link is shaped too (RTT $ctl_rtt ms)"
rc=0
wait "$CTL" || rc=$?
[ $rc -le 2 ] || fail "sessmax run exited $rc"
[ "$(q "select status from runs")" = completed ] || fail "remote run not completed"
[ "$(q "select json_extract(network_profile, '$.name') from runs")" = wan-100ms ] || fail "profile not stored"
[ "$(q "select count(*) from sessions where state = 'ended'")" = 2 ] || fail "sessions did not end"
rtt=$(q "select rtt_us from traffic where rtt_us > 0 order by rtt_us limit 1 offset
         (select count(*) / 2 from traffic where rtt_us > 0)")
echo "remote agent: RDP RTT p50 $rtt us"
# 100 ms +- (10 % + 2 ms), plus up to 40 ms of the server's delayed ACKs in the kernel's estimate
[ "$rtt" -ge 88000 ] && [ "$rtt" -le 152000 ] || fail "remote agent RTT p50 $rtt us, want about 100 ms"
wait "$AG" 2>/dev/null || true

# 3. Ctrl-C of a shaped run leaves nothing behind
rm -f "$WORK/r.db"
write_plan 4 1 4 4s 120s
sed -i "s/^network: lan/network: wan-50ms/" "$WORK/plan.yaml"
"$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/int.log" 2>&1 &
CTL=$!
PIDS+=("$CTL")
sampling() { [ -f "$WORK/r.db" ] && [ "$(q "select count(*) from samples" 2>/dev/null)" -gt 0 ]; }
wait_for 90 sampling || fail "the shaped run never sampled"
[ "$(emulator_state)" != "$before" ] || fail "the shaped run has no emulator"
controller=$(pgrep -f "^$B/sessmax run $WORK/plan.yaml" | head -1)
kill -INT "$controller"
rc=0
wait "$CTL" || rc=$?
echo "interrupted run exited $rc"
[ $rc = 2 ] || fail "an interrupted run should exit 2 (inconclusive), got $rc"
[ "$(q "select status from runs")" = aborted ] || fail "the interrupted run reads $(q "select status from runs")"
gone() { [ "$(emulator_state)" = "$before" ]; }
wait_for 30 gone || fail "Ctrl-C left the emulator behind: $(emulator_state)"
echo PASS
