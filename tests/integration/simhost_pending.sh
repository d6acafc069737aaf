#!/bin/bash
# simhost_pending.sh -- a flood of half-open connections must not exhaust simhost's memory nor keep
# real clients out. Each pending handshake costs simhost a thread and a FreeRDP peer context
# (about 3 MB); with --max-pending 10, 150 held connections (HELD=N to change; half silent TCP,
# half stopped inside the TLS handshake) must leave its RSS growth under 150 MB (measured: about
# 100 MB, the cap plus what the allocator keeps of the evicted threads' arenas, the same for 400;
# without the cap 150 take about 400 MB), the refusal/eviction is logged naming the peer,
# and, with all 150 still held open, a real agent session logs on, runs a loop and logs off.
. "$(dirname "$0")/lib/agent_env.sh"
HELD=${HELD:-150}
start_simhost 2 --max-pending 10 --handshake-timeout 120 --work-scale 0.2
SIM=$SIM_PID
rss_mb() { awk '/^VmRSS:/ {print int($2 / 1024)}' /proc/$SIM/status; }
base=$(rss_mb)

cat > "$T/hold.py" <<'PY'
import socket, sys, time
port, n, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
X224_TLS = bytes.fromhex("030000130ee000000000000100080001000000")
socks = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    if i % 2:      # negotiate TLS, then half a ClientHello and stop
        try:
            s.sendall(X224_TLS); s.recv(64); s.sendall(bytes.fromhex("1603010200010001fc0303"))
        except OSError:
            pass   # shut down by the gate already: fine
    socks.append(s)
open(ready, "w").write("%d\n" % len(socks))
time.sleep(600)
PY
python3 "$T/hold.py" "$SIM_PORT" $HELD "$T/held" &
PIDS+=("$!")
for _ in $(seq 600); do [ -s "$T/held" ] && break; sleep 0.1; done
[ -s "$T/held" ] || fail "could not open $HELD connections"
sleep 3   # let simhost accept and set up every one it admits
peak=$(rss_mb)
grow=$((peak - base))
echo "simhost RSS ${base} MB -> ${peak} MB with $HELD half-open connections (growth ${grow} MB)" >&2
[ $grow -lt 150 ] || fail "simhost grew by ${grow} MB with $HELD half-open connections (cap 10)"
grep -aqE 'peer 127\.0\.0\.1: (refused|handshake shut down)' "$T/simhost.log" \
  || fail "no log line naming the peer of a refused or shut-down handshake"

# with the flood still held open, a real client gets through
set +e
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --sessions 1 \
  --workload "$S/tests/integration/short-worker.yaml" --loops 1 --duration 120s \
  --fingerprint "$SIM_FP" --logoff-timeout 30s > "$T/out.jsonl" 2> "$T/err.txt"
rc=$?
set -e
J="$T/out.jsonl"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="active" for r in recs)')" = 1 ] \
  || { cat "$T/err.txt" >&2; tail -5 "$T/simhost.log" >&2; fail "the real session did not log on during the flood"; }
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = 1 ] \
  || fail "the real session did not end cleanly"
[ $rc -le 1 ] || fail "agent exit code $rc"
kill -0 "$SIM" || fail "simhost died"
[ $(($(rss_mb) - base)) -lt 150 ] || fail "simhost grew past the bound after the session"
echo "simhost_pending: ok"
