#!/bin/bash
# netem.sh -- the built-in network emulator's own cost and accuracy (sessmax-agent netcheck):
#   throughput through it and CPU per Mbit forwarded (4 bulk connections, 2 ms RTT, no rate);
#   delay error |measured - configured RTT| p50/p99 with 10, 100 and 500 echo sessions (a 64-byte
#   ping each every 100 ms) on wan-50ms, and the shaper's own lateness p99.
# Prints each figure beside its target. Needs root (CAP_NET_ADMIN).   bench/netem.sh [SECONDS=10]
set -euo pipefail
B=${SESSMAX_BUILD_DIR:-build}
SECS=${1:-10}
AGENT=$B/sessmax-agent
export SESSMAX_NETEM=builtin   # this measures the built-in emulator, also where the kernel has sch_netem
[ "$(id -u)" = 0 ] || { echo "bench/netem.sh: needs root (CAP_NET_ADMIN)"; exit 1; }
fast='{"name":"fast","rtt_ms":2,"jitter_ms":0,"loss_pct":0,"rate_down_kbit":0,"rate_up_kbit":0,"queue":1000,"connection":"lan"}'
t=$("$AGENT" netcheck --network "$fast" --sessions 10 --seconds 2 --bulk 4 --bulk-seconds "$SECS" --json)
python3 - "$t" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"throughput   {r['link_mbit']:8.1f} Mbit/s on the link ({r['goodput_mbit']:.1f} goodput)   target >= 100")
print(f"cpu          {r['cpu_ms_per_mbit']:8.3f} ms per Mbit forwarded ({r['cpu_ms_per_mbit'] * 10:.1f} % of a core "
      f"at 100 Mbit/s)   target <= 5 ms")
PY
for n in 10 100 500; do
    j=$("$AGENT" netcheck --network wan-50ms --sessions $n --seconds "$SECS" --bulk 0 --json)
    python3 - "$j" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"sessions {r['sessions']:3d}  delay error p50 {r['delay_err_p50_ms']:6.2f} ms  p99 {r['delay_err_p99_ms']:6.2f} ms  "
      f"(rtt p50 {r['rtt_p50_ms']:.1f} of {r['rtt_ms']:.0f} ms, {r['pings']} pings, shaper "
      f"{r['echo_cpu_pct']:.0f} % of a core)   "
      f"target p50 <= 1 ms, p99 <= 5 ms")
PY
done
