#!/bin/bash
# netem_accuracy.sh -- the built-in link emulator is what its profile says (sessmax-agent netcheck
# --check): RTT p50 within 10 % + 2 ms of the profile (wan-250ms-1pct, broadband-20mbit), the
# sender's retransmission rate consistent with the configured loss (2 % at 20 ms, 1 % at 250 ms),
# throughput at most 5 % above the configured rate (broadband-20mbit, mobile-3g); then nothing is
# left behind, and the leftovers of a SIGKILLed emulator are removed by the next start.
# Needs root (CAP_NET_ADMIN); talks only to loopback through namespaces it creates.
. "$(dirname "$0")/lib/agent_env.sh"
. "$(dirname "$0")/lib/netem.sh"
[ "$(id -u)" = 0 ] || fail "needs root (CAP_NET_ADMIN) for the network namespace and TUN devices"

check() {
  local name=$1; shift
  echo "== netcheck $name" >&2
  if ! "$AGENT" netcheck --network "$name" --check "$@" > "$T/check.txt" 2>&1; then
    cat "$T/check.txt" >&2
    fail "emulator not within tolerance for $name"
  fi
  cat "$T/check.txt" >&2
  grep -q 'check rtt: .*PASS' "$T/check.txt" || fail "no RTT check for $name"
}

check wan-250ms-1pct --bulk 16 --bulk-seconds 8
grep -q 'check retrans: .*PASS' "$T/check.txt" || fail "no retransmission check at 250 ms / 1 %"
check '{"name":"loss-2pct","rtt_ms":20,"jitter_ms":0,"loss_pct":2,"rate_down_kbit":0,"rate_up_kbit":0,"queue":1000,"connection":"wan"}'
grep -q 'check retrans: .*PASS' "$T/check.txt" || fail "no retransmission check at 2 %"
check broadband-20mbit
grep -q 'check rate: .*PASS' "$T/check.txt" || fail "no rate check at 20 Mbit/s"
check mobile-3g --bulk 2
grep -q 'check rate: .*PASS' "$T/check.txt" || fail "no rate check for mobile-3g"

[ -z "$(netem_leftovers)" ] || fail "left behind: $(netem_leftovers)"

# a SIGKILLed emulator leaves its namespace; the next one removes it
"$AGENT" netcheck --network wan-100ms --seconds 30 --bulk 0 > /dev/null 2>&1 &
victim=$!
PIDS+=("$victim")
# wait until it is fully built (the DNAT rule is added after the namespace)
for _ in $(seq 100); do iptables -w -t nat -S | grep -q -- "smx-$victim" && break; sleep 0.1; done
ip netns list | grep -q "^smx-$victim" || fail "the emulator did not create smx-$victim"
kill -9 $victim
wait $victim 2>/dev/null || true
ip netns list | grep -q "^smx-$victim" || fail "expected a leftover namespace after SIGKILL"
iptables -w -t nat -S | grep -q -- "smx-$victim" || fail "expected a leftover DNAT rule after SIGKILL"
"$AGENT" netcheck --network wan-50ms --seconds 1 --bulk 0 > /dev/null 2>&1 || fail "second netcheck failed"
ip netns list | grep -q "^smx-$victim" && fail "leftover namespace smx-$victim was not removed"
iptables -w -t nat -S | grep -q -- "smx-$victim" && fail "leftover rule of $victim was not removed"
[ -z "$(netem_leftovers)" ] || fail "left behind: $(netem_leftovers)"

# a profile that shapes nothing is refused by netcheck; a bad one names the built-ins
"$AGENT" netcheck --network lan > /dev/null 2>&1 && fail "lan should be refused (shapes nothing)"
"$AGENT" netcheck --network wan-1ms 2> "$T/err.txt" && fail "unknown profile accepted"
grep -q 'wan-250ms-1pct' "$T/err.txt" || fail "the error does not list the built-ins"
echo "netem_accuracy: ok"
