#!/bin/bash
# x11_failures.sh -- external clients that fail, each for its own reason, in one agent run beside
# a healthy xfreerdp session that is not disturbed: a client that crashes (client_exit, its
# stderr tail in the detail and saved beside the shots), a client that never shows a window
# (client_timeout), and an X server killed under a running session (xserver) in an agent whose
# other session goes on to a clean end. No agent hangs or leaves a zombie or a process behind.
. "$(dirname "$0")/lib/agent_env.sh"
for t in xfreerdp Xvfb; do
  command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
start_simhost 7 --work-scale 0.2
one() {  # one NAME FIRST CLIENT-JSON: one session of user number FIRST, in the background
  "$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --first "$2" --sessions 1 \
    --workload "$S/workloads/simhost-task-worker.yaml" --loops 1 --duration 120s \
    --fingerprint "$SIM_FP" --shots "$T/shots.$1" --client "$3" > "$T/$1.jsonl" 2> "$T/$1.err" &
  PIDS+=("$!"); eval "PID_$1=$!"
}
one crash 1 '{"x11":"sh -c '"'"'echo starting >&2; echo cannot open the session: boom >&2; exit 3'"'"'","password":"none"}'
one nowin 2 '{"x11":"sleep 60","password":"none","window_timeout":"3s"}'
one good 4 xfreerdp
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --first 5 --sessions 2 \
  --workload "$S/workloads/simhost-task-worker.yaml" --loops 1 --duration 120s \
  --fingerprint "$SIM_FP" --client xfreerdp > "$T/xdie.jsonl" 2> "$T/xdie.err" &
PID_xdie=$!; PIDS+=("$PID_xdie")
# once both of its sessions are active, kill one of their X servers
for _ in $(seq 600); do
  [ "$(grep -c '"event":"active"' "$T/xdie.jsonl" 2>/dev/null)" = 2 ] && break
  kill -0 $PID_xdie 2>/dev/null || break
  sleep 0.1
done
[ "$(grep -c '"event":"active"' "$T/xdie.jsonl" 2>/dev/null)" = 2 ] || { cat "$T/xdie.err" >&2; fail "xdie: sessions not active"; }
victim=$( (for c in $(ps -o pid= --ppid $PID_xdie || true); do
  tr '\0' ' ' < /proc/$c/cmdline 2>/dev/null | grep -q '^Xvfb ' && echo $c || true; done) | sed -n 1p)
[ -n "$victim" ] || fail "xdie: no Xvfb child found"
kill -9 "$victim"
for n in crash nowin; do
  eval p=\$PID_$n
  for _ in $(seq 300); do
    kill -0 $p 2>/dev/null || break
    for c in $(ps -o pid= --ppid $p 2>/dev/null); do
      [ "$(ps -o stat= -p $c 2>/dev/null | cut -c1)" = Z ] && { sleep 1; [ "$(ps -o stat= -p $c 2>/dev/null | cut -c1)" = Z ] && fail "$n: zombie child $c"; }
    done
    sleep 0.2
  done
  kill -0 $p 2>/dev/null && fail "$n: the agent did not end on its own"
done
wait $PID_good || true
wait $PID_xdie || true
reason() { jl "$T/$1.jsonl" '[r.get("reason") for r in recs if r["type"]=="session" and r["event"]=="failed"]'; }
detail() { jl "$T/$1.jsonl" '[r.get("detail") for r in recs if r["type"]=="session" and r["event"]=="failed"][0]'; }
[ "$(reason crash)" = "['client_exit']" ] || fail "crash: $(reason crash)"
detail crash | grep -q "exit status 3: cannot open the session: boom" || fail "crash detail: $(detail crash)"
grep -q "cannot open the session: boom" "$T/shots.crash/simuser001-client-stderr.txt" || fail "crash: stderr tail not saved"
[ "$(reason nowin)" = "['client_timeout']" ] || fail "nowin: $(reason nowin)"
[ "$(reason xdie)" = "['xserver']" ] || { cat "$T/xdie.err" >&2; fail "xdie: $(reason xdie)"; }
detail xdie | grep -q "X server (Xvfb)" || fail "xdie detail: $(detail xdie)"
[ "$(jl "$T/xdie.jsonl" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = 1 ] \
  || { cat "$T/xdie.err" >&2; fail "the other session of the agent whose X server died did not end cleanly"; }
[ "$(jl "$T/good.jsonl" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = 1 ] \
  || { cat "$T/good.err" >&2; fail "the healthy session did not end cleanly"; }
sleep 0.5
left=$(ps -eo pid=,args= | grep -E '^ *[0-9]+ (sleep 60|sleep 30|Xvfb .*-auth .*/sessmax-x11\.)' | grep -v grep || true)
for p in $(echo "$left" | awk '{print $1}'); do   # only children of our agents count
  ppid=$(ps -o ppid= -p $p 2>/dev/null | tr -d ' ')
  for a in $PID_crash $PID_nowin $PID_good $PID_xdie; do [ "$ppid" = $a ] && fail "left behind: $p"; done
  [ "$ppid" = 1 ] && grep -q "$T\|sessmax-x11" /proc/$p/cmdline 2>/dev/null && fail "orphan left behind: $p"
done
echo "x11_failures: ok"
