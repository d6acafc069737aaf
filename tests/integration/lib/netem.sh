# netem.sh -- for the end-to-end tests of the network emulator (sourced after agent_env.sh or
# controller.sh): what an agent's emulator may leave behind.

# netem_leftovers: prints the namespaces (smx-PID, the probe's smxprobe-PID), devices (smxr-PID) and
# NAT rules (smx-PID) named after a pid that no longer runs; other live agents (of a test running
# beside this one) are not leftovers. Prints nothing when all is clean.
netem_leftovers() {
  { ip netns list | grep -oE '^smx(probe)?-[0-9]+' || true
    ip -o link show | grep -oE 'smxr-[0-9]+' || true
    iptables -w -t nat -S | grep -oE 'smx-[0-9]+' || true; } | sort -u |
  while read -r name; do kill -0 "${name##*-}" 2>/dev/null || echo "$name"; done
}
