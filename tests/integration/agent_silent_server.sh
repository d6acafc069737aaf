#!/bin/bash
# agent_silent_server.sh -- a server that accepts TCP and never answers. One agent process runs
# 6 sessions through a listener that holds simuser001/002's connections open without a word
# (it reads the RDP cookie "mstshash=USER") and forwards the others to simhost. The connect
# watchdog fires: those two fail with reason connect_timeout after exactly --max-attempts
# attempts (counted as held TCP connections), while the four others, in the same process and
# sharing the 2 connect threads with the stuck ones, log on, run a loop and end cleanly.
. "$(dirname "$0")/lib/agent_env.sh"
start_simhost 8 --work-scale 0.2
start_tcpcount forward "127.0.0.1:$SIM_PORT" simuser001,simuser002
set +e
"$AGENT" run --target "127.0.0.1:$CNT_PORT" --users 'simuser{n:03}' --sessions 6 \
  --workload "$S/workloads/simhost-task-worker.yaml" --loops 1 --duration 240s \
  --connect-timeout 3s --max-attempts 2 --connect-threads 2 --fingerprint "$SIM_FP" \
  > "$T/out.jsonl" 2> "$T/err.txt"
rc=$?
set -e
cat "$T/err.txt" >&2
J="$T/out.jsonl"
[ $rc = 1 ] || fail "agent exit code $rc (want 1: two sessions failed)"
[ "$(jl "$J" 'sorted(r["user"] for r in recs if r["type"]=="session" and r["event"]=="failed" and r["reason"]=="connect_timeout")')" = "['simuser001', 'simuser002']" ] \
  || fail "the silent sessions did not fail with connect_timeout"
[ "$(jl "$J" 'all("attempt 2/2" in r["detail"] for r in recs if r["type"]=="session" and r["event"]=="failed")')" = True ] \
  || fail "failure detail does not say attempt 2/2"
held=$(grep -c held "$CNT_LOG" || true)
[ "$held" = 4 ] || fail "$held held connections (want 2 sessions x 2 attempts)"
[ "$(jl "$J" 'sorted(r["user"] for r in recs if r["type"]=="session" and r["event"]=="ended")')" = "['simuser003', 'simuser004', 'simuser005', 'simuser006']" ] \
  || fail "the other sessions did not end cleanly"
echo "agent_silent_server: ok ($held held connections)"
