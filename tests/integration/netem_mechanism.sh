#!/bin/bash
# netem_mechanism.sh -- which emulator an agent uses: it probes for sch_netem in a throwaway
# namespace (removed again) and uses the kernel's netem on a veth pair where it is there, the
# built-in emulator where it is not. On a kernel without sch_netem (the CI machine): auto falls back
# to the built-in emulator and still gives the profile's RTT; SESSMAX_NETEM=kernel is refused with
# the reason before anything is built; SESSMAX_NETEM=builtin skips the probe. On a kernel with it:
# auto uses sch_netem, the RTT is the profile's, and the veth pair goes with the agent. A bad
# SESSMAX_NETEM value is an error. Nothing is left behind. Needs root (CAP_NET_ADMIN).
. "$(dirname "$0")/lib/agent_env.sh"
. "$(dirname "$0")/lib/netem.sh"
[ "$(id -u)" = 0 ] || fail "needs root (CAP_NET_ADMIN) for the network namespaces"
netcheck() {   # netcheck MODE: wan-50ms, 4 echo sessions for 2 s, --check; output in $T/MODE.txt
  local rc=0
  SESSMAX_LOG=info SESSMAX_NETEM=$1 "$AGENT" netcheck --network wan-50ms --sessions 4 --seconds 2 --bulk 1 \
    --bulk-seconds 1 --check > "$T/$1.txt" 2>&1 || rc=$?
  echo "== SESSMAX_NETEM=$1: exit $rc" >&2
  grep -E 'network emulator|check rtt|SESSMAX_NETEM|netem' "$T/$1.txt" >&2 || true
  return $rc
}
if tc qdisc add dev lo root netem delay 0ms 2>/dev/null; then
  tc qdisc del dev lo root 2>/dev/null
  HAVE=1
else
  HAVE=0
fi
echo "sch_netem on this kernel: $HAVE" >&2

netcheck auto || fail "auto: netcheck failed"
grep -q 'check rtt: .*PASS' "$T/auto.txt" || fail "auto: the RTT is not the profile's"
if [ $HAVE = 1 ]; then
  grep -q 'sch_netem on veth smxr-' "$T/auto.txt" || fail "auto: sch_netem is here but was not used"
else
  grep -q 'network emulator: built-in (the kernel has no sch_netem' "$T/auto.txt" \
    || fail "auto: no fallback to the built-in emulator with the probe's reason"
  rc=0; netcheck kernel || rc=$?
  [ $rc != 0 ] || fail "SESSMAX_NETEM=kernel was accepted on a kernel without sch_netem"
  grep -q 'SESSMAX_NETEM=kernel: the kernel has no sch_netem' "$T/kernel.txt" || fail "kernel: no reason given"
fi
netcheck builtin || fail "builtin: netcheck failed"
grep -q 'network emulator: built-in (SESSMAX_NETEM=builtin)' "$T/builtin.txt" || fail "builtin: not the built-in emulator"
rc=0; netcheck bogus || rc=$?
[ $rc != 0 ] && grep -q 'expected auto, kernel or builtin' "$T/bogus.txt" || fail "a bad SESSMAX_NETEM was not refused"
[ -z "$(netem_leftovers)" ] || fail "left behind: $(netem_leftovers)"
echo "netem_mechanism: ok"
