#!/bin/bash
# drive_copy.sh -- client drive redirection end to end, agent -> simhost (FreeRDP's rdpdr channel
# on both sides): copies both ways with every byte checked (a copied-out file is copied back in
# and compared with its generated content), a missing file, a server that refuses drives, a
# client without drives. Failures must be failed samples with a clear error on screen, not hangs;
# the agent must delete what the server wrote and keep nothing of the session's drive.
. "$(dirname "$0")/lib/agent_env.sh"
run_agent() {   # run_agent WORKLOAD OUT: one session, one loop
  "$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --sessions 1 \
    --workload "$1" --loops 1 --duration 200s --fingerprint "$SIM_FP" --config-dir "$T/agentcfg" \
    > "$2" 2> "$2.err" || true
}
# ok flags of a timer's samples in loop 0 (a second loop may start before the logoff)
ok_of() { jl "$1" "[r['ok'] for r in recs if r['type']=='sample' and r['name']=='$2' and r['loop']==0]"; }

# 1. copies both ways, content checked by simhost, plus a missing file
start_simhost 3 --event-log "$T/events.log"
run_agent "$S/tests/integration/drive-test.yaml" "$T/a.jsonl"
for t in copyin_1m copyin_odd copyout_3m copyin_back; do
  [ "$(ok_of "$T/a.jsonl" $t)" = "[True]" ] || { cat "$T/simhost.log" >&2; fail "$t: not one ok sample"; }
done
[ "$(ok_of "$T/a.jsonl" copyin_missing)" = "[False]" ] || fail "copyin of a missing file was not a failed sample"
grep -q 'copyin #2: share:\\odd 5000 bytes' "$T/simhost.log" || fail "odd-sized copy: wrong byte count"
grep -q 'copyout #3: share:\\back 3145728 bytes' "$T/simhost.log" || fail "copyout: wrong byte count"
grep -q 'copyin #4: share:\\back 3145728 bytes' "$T/simhost.log" || fail "copy back: not verified"
grep -q 'share:\\nofile: open failed: no such file' "$T/simhost.log" || fail "missing file: no clear error"
# simhost asks the client for the size first and reads exactly that: 1 MiB in 4064-byte reads is 259
# of them, none past the end (a reader that pipelines past the end fails on FreeRDP ~deb12u2, whose
# client answers such a read with STATUS_UNSUCCESSFUL)
grep -q 'copyin #1: share:\\file1m: size 1048576 bytes from the client, 259 reads, none past the end' \
  "$T/simhost.log" || fail "copyin of file1m: not 259 reads within its size"
grep -q 'copyin #2: share:\\odd: size 5000 bytes from the client, 2 reads, none past the end' \
  "$T/simhost.log" || fail "copyin of odd: not 2 reads within its size"
[ "$(grep -c 'action=copy.* seq=[1-4] .*ok=1' "$T/events.log")" = 4 ] || { cat "$T/events.log" >&2; fail "event log: not 4 ok copies"; }
[ -f "$T/agentcfg/drives/shared/share/file1m" ] || fail "shared file not generated"
[ "$(stat -c %s "$T/agentcfg/drives/shared/share/file1m")" = 1048576 ] || fail "shared file size"
[ ! -e "$T/agentcfg/drives/s0" ] || fail "the session's drive directory was not removed"

# 2. a client without drives (no rdpdr channel)
sed -e '/^drives:/,/^  share:/d' "$S/tests/integration/drive-test.yaml" > "$T/nodrive.yaml"
run_agent "$T/nodrive.yaml" "$T/c.jsonl"
[ "$(ok_of "$T/c.jsonl" copyin_1m)" = "[False]" ] || fail "client without drives: not a failed sample"
grep -q 'the client offers no drive redirection' "$T/simhost.log" || fail "client without drives: no clear error"
# 3. a server that refuses drive redirection: a clear error, a failed sample, no hang
kill "$SIM_PID"; sleep 0.5
mv "$T/simhost.log" "$T/simhost1.log"
start_simhost 3 --drive-redirection off
run_agent "$S/tests/integration/drive-test.yaml" "$T/b.jsonl"
[ "$(ok_of "$T/b.jsonl" copyin_1m)" = "[False]" ] || fail "refused drive: not a failed sample"
grep -q 'drive redirection is disabled on this server' "$T/simhost.log" || fail "refused drive: no clear error"
[ "$(jl "$T/b.jsonl" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = 1 ] \
  || fail "refused drive: the session did not end cleanly"

echo "drive_copy: ok"
