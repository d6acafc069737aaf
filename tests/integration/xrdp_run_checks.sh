#!/bin/bash
# xrdp_run_checks.sh -- `sessmax run` plans against the real xrdp (scripts/xrdp-target), for what
# only a plan run shows: (1) logon_retries: the xrdp process serving rdpuser1's first connection
# stalls (SIGSTOP) after the session started, so that logon times out; the retry's fresh connection
# re-attaches the session and reaches the desktop; score and report count it "after logon retries",
# apart from rdpuser2's first-try logon. (2) target.local: the plan caps the sessmax-xrdp cgroup (quota
# of one CPU, its processes pinned to CPU 1, the sessions inheriting it) and watches CPU 1 while a
# busy loop is pinned there; target_load rows are stored and score and the report
# flag the target as SHARED. (3) logoff: both sessions' ctrl+alt+delete ends their server sessions
# (state ended, no process left); a second run whose logoff steps do not leave openbox keeps the
# xrdp session alive (sesman logs no end, its Xorg runs) and must count as logoff_incomplete.
set -u
. "$(dirname "$0")/xrdp_common.inc"
. "$SRC/tests/integration/lib/cpuload.sh"
at_exit 'busy_stop; rm -f /home/rdpuser1/.sessmax/go'
xrdp_lock
[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs"; exit 77; }
for b in sessmax sessmax-agent; do [ -x "$BUILD/$b" ] || fail "$BUILD/$b is not built"; done
PORT=$(free_port)
DB=$WORK/results.db
xrdp_start --users 2 --cpus 2 --port "$PORT"   # the plan caps it to one CPU, CPU 1
q() { sqlite3 -batch -noheader "$DB" "$1"; }

# the shared logon workload with a shorter logon timeout; a copy whose logoff leaves openbox running
sed 's/timeout: 30s}/timeout: 12s}/' "$SRC/tests/integration/xrdp-logon.yaml" > "$WORK/logon.yaml"
sed 's/key: ctrl+alt+delete/key: ctrl+alt+end/' "$WORK/logon.yaml" > "$WORK/nologoff.yaml"
grep -q 'timeout: 12s' "$WORK/logon.yaml" && grep -q 'ctrl+alt+end' "$WORK/nologoff.yaml" || fail "workload copies"

plan() { # plan NAME SESSIONS WORKLOAD
    cat > "$WORK/$1.plan.yaml" <<YAML
version: 1
name: xrdp-$1
target: {host: 127.0.0.1, port: $PORT, verify: false, security: tls, local: {cgroup: sessmax-xrdp, cpus: "1", cpu_percent: 100}}
credentials: {user: "rdpuser{n}", first: 1, password_env: SESSMAX_PASSWORD}
platform: xrdp-checks
workload: $3
sessions: $2
launch_window: 16s
steady_state: 10s
logoff_deadline: 30s
loops: 1
logon_retries: 1
agents: {local: 1, cpus: "0"}
results: $DB
YAML
}
run() { # run NAME: sessmax run of $WORK/NAME.plan.yaml, then its score
    timeout -k 10 300 "$BUILD/sessmax" run "$WORK/$1.plan.yaml" --plain --report "$WORK/$1.html" \
        --agent-log "$WORK/$1.agent.log" > "$WORK/$1.out" 2>&1
    local rc=$?
    [ $rc -le 2 ] || { tail -n 20 "$WORK/$1.out" >&2; fail "$1: sessmax run exited $rc"; }
    "$BUILD/sessmax" score "$DB" --run "$(q 'SELECT max(id) FROM runs')" --no-store > "$WORK/$1.score" 2>&1 || true
}

note "run 1: rdpuser1's first connection stalls, a busy loop shares CPU 1"
# rdpuser1's desktop turns ready only when the test says so, the first time
GO=/home/rdpuser1/.sessmax/go
rm -f "$GO"
sed -i '2i if [ ! -e "$HOME/.sessmax/go" ]; then while [ ! -e "$HOME/.sessmax/go" ]; do sleep 0.2; done; fi' \
    /home/rdpuser1/.sessmax/ready
plan retry 2 "$WORK/logon.yaml"
xlog=$(stat -c %s /var/log/xrdp.log)
busy_start 1
PIDS+=("$BUSY_PID")
run retry &
RUN=$!
xp=$(cat "$SESSMAX_XRDP_STATE/xrdp.pid")
wait_for 60 user_runs rdpuser1 openbox || fail "rdpuser1's session did not start"
cpus_of() { taskset -pc "$1" 2>/dev/null | sed 's/.*: //'; }
CG=/sys/fs/cgroup/cpu/sessmax-xrdp
[ "$(cat $CG/cpu.cfs_quota_us)" = 100000 ] || fail "the plan's cpu_percent: 100 did not set the quota ($(cat $CG/cpu.cfs_quota_us))"
for p in "$xp" "$(cat "$SESSMAX_XRDP_STATE/sesman.pid")" "$(pgrep -u rdpuser1 -x Xorg)"; do
    [ "$(cpus_of "$p")" = 1 ] || fail "process $p ($(ps -o comm= -p "$p")) runs on CPUs '$(cpus_of "$p")', the plan says 1"
done
child=$(pgrep -P "$xp")
[ "$(echo "$child" | wc -w)" = 1 ] || fail "want one xrdp connection process while rdpuser1 logs on, found: $child"
kill -STOP "$child"
PIDS+=("$child")
touch "$GO"
# the stalled process holds the session's X server (xorgxrdp waits to send to it): it is ended once
# the retry's connection has logged on, as a watchdog would, and the X server serves the new one
logons() { tail -c +$((xlog + 1)) /var/log/xrdp.log | grep -c 'INFO \] login successful for user rdpuser1 '; }
wait_for 60 eval '[ "$(logons)" -ge 2 ]' || fail "the agent did not retry rdpuser1's logon"
kill -KILL "$child"
wait "$RUN" || fail "run 1 failed"
busy_stop

run1=$(q 'SELECT max(id) FROM runs')
sess() { q "SELECT user || ':' || state || ':' || reason || ':' || detail FROM sessions WHERE run_id = $1 ORDER BY user"; }
[ "$(q "SELECT count(*) FROM sessions WHERE run_id = $run1 AND logon_us >= 0 AND state = 'ended' AND reason = 'none'")" = 2 ] ||
    fail "run 1: want both sessions logged on and ended: $(sess "$run1")"
q "SELECT detail FROM sessions WHERE run_id = $run1 AND user = 'rdpuser1'" | grep -q 'logon retries: 1' ||
    fail "rdpuser1's logon was not retried: $(sess "$run1")"
grep -q 'first try 1, after repaint requests 0, after logon retries 1 ' "$WORK/retry.score" ||
    { cat "$WORK/retry.score"; fail "score does not count the retried logon apart"; }
grep -q '<th>logons</th><td>first try 1, after repaint requests 0, after logon retries 1 ' "$WORK/retry.html" ||
    fail "the report does not count the retried logon apart"
for u in rdpuser1 rdpuser2; do wait_for 20 no_user_procs $u || fail "$u has processes left after its logoff"; done
rows=$(q "SELECT count(*) FROM target_load WHERE run_id = $run1 AND cpus = 1")
[ "$rows" -ge 5 ] || fail "run 1: $rows target_load rows"
[ "$(q "SELECT count(*) FROM target_load WHERE run_id = $run1 AND target_permille > 0")" -ge 1 ] ||
    fail "run 1: the target's own CPU use was never seen"
target_flagged "$WORK/retry.score" "$WORK/retry.html" ||
    { cat "$WORK/retry.score"; fail "a busy loop on the target's CPU was not flagged in score and report"; }
echo "run 1: $(grep -E '^(target|           first try)' "$WORK/retry.score" | tr -s ' ')"

note "run 2: the logoff steps do not end the xrdp session"
log_off=$(stat -c %s /var/log/xrdp-sesman.log)
plan nologoff 1 "$WORK/nologoff.yaml"
run nologoff
run2=$(q 'SELECT max(id) FROM runs')
[ "$(q "SELECT state || ':' || reason FROM sessions WHERE run_id = $run2")" = failed:logoff_incomplete ] ||
    fail "an unended session: $(sess "$run2")"
user_runs rdpuser1 Xorg || fail "the xrdp session of rdpuser1 should still run"
tail -c +$((log_off + 1)) /var/log/xrdp-sesman.log | grep -q 'terminated session: *username rdpuser1' &&
    fail "sesman ended rdpuser1's session, the test premise does not hold"
grep -q "logoff was not confirmed by the server (logoff_incomplete)" "$WORK/nologoff.score" ||
    { cat "$WORK/nologoff.score"; fail "score's validity does not count the unconfirmed logoff"; }
grep -qE '^  rdpuser1 +logoff_incomplete ' "$WORK/nologoff.score" || fail "score does not list rdpuser1 as logoff_incomplete"
echo "PASS xrdp_run_checks"
