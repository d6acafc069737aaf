#!/bin/bash
# x11_network.sh -- the xfreerdp preset announces the connection type of the run's network profile
# (/network:{network}), as the built-in engine does: one xfreerdp session per type against
# simhost, with unshaped profiles that only name a connection (no CAP_NET_ADMIN needed), and
# simhost's log shows the type the server received.
. "$(dirname "$0")/lib/agent_env.sh"
for t in xfreerdp Xvfb; do
  command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
start_simhost 4 --work-scale 0.2
n=0
for conn in wan broadband-high satellite; do
  n=$((n + 1))
  prof="{\"name\":\"t-$conn\",\"rtt_ms\":0,\"jitter_ms\":0,\"loss_pct\":0,\"rate_down_kbit\":0,\"rate_up_kbit\":0,\"queue\":1000,\"connection\":\"$conn\"}"
  rc=0
  timeout -k 5 120 "$AGENT" run --target "127.0.0.1:$SIM_PORT" --users "simuser00$n" --sessions 1 \
    --workload "$S/tests/integration/short-worker.yaml" --loops 1 --duration 60s \
    --fingerprint "$SIM_FP" --logoff-timeout 20s --client xfreerdp --network "$prof" \
    > "$T/out-$conn.jsonl" 2> "$T/err-$conn.txt" || rc=$?
  [ $rc -le 1 ] || { cat "$T/err-$conn.txt" >&2; fail "agent ($conn) exit code $rc"; }
  [ "$(jl "$T/out-$conn.jsonl" 'sum(r["type"]=="session" and r["event"]=="active" for r in recs)')" = 1 ] \
    || { cat "$T/err-$conn.txt" >&2; fail "the $conn session did not log on"; }
  grep -q "simuser00$n logged on .*link $conn" "$T/simhost.log" \
    || fail "simhost did not see link $conn: $(grep "simuser00$n logged on" "$T/simhost.log")"
done
echo "x11_network: ok"
