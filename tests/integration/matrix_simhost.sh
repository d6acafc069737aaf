#!/bin/bash
# matrix_simhost.sh -- `sessmax matrix` against simhost, shortened for CI.
#  1. A 2x2 matrix (sessions 1,2 x network lan,wan-100ms) runs four cells in order into one
#     database, each run tagged with its matrix and cell and stored with the cell's labels; the
#     text table has one row per network and a column per sessions value; --resume of a finished
#     matrix runs nothing and prints the same cells as CSV, JSON and Markdown.
#  2. An interrupted matrix resumes: Ctrl-C during cell 2 stops it after that run (exit 2); the
#     first --resume runs cell 2 again but not cell 1; SIGKILL during cell 3 leaves the run
#     `running`; the second --resume marks it aborted and runs cell 3 only. Every cell ends with
#     exactly one completed run, all in the one matrix.
# Needs root (CAP_NET_ADMIN) for the wan-100ms cells.
. "$(dirname "$0")/lib/controller.sh"
[ "$(id -u)" = 0 ] || fail "needs root (CAP_NET_ADMIN) for the network emulator"
start_simhost 10
# plan STEADY DB: the short worker, 2 s launch window; the matrix sets sessions and network
plan() {
    cat >"$WORK/plan.yaml" <<YAML
# matrix test plan
name: mx
target:
  host: 127.0.0.1
  port: $SIM_PORT
  verify: false
  security: tls
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-e2e
network: lan
workload: $S/tests/integration/short-worker.yaml
sessions: 2
launch_window: 2s
steady_state: $1
logoff_deadline: 20s
agents: {local: 1, heartbeat_timeout: 5s}
score: {baseline_count: 3}
results: $2
YAML
}
mx() { timeout -k 10 300 "$B/sessmax" matrix "$WORK/plan.yaml" --plain "$@"; }
# the pid of the running `sessmax matrix` itself (not its `timeout` or subshell)
controller() { pgrep -f "^$B/sessmax matrix $WORK/plan.yaml"; }

# --- 1. the 2x2 matrix -------------------------------------------------------------------------
plan 6s "$WORK/r.db"
rc=0
mx --vary sessions=1,2 --vary network=lan,wan-100ms >"$WORK/m1.log" 2>&1 || rc=$?
tail -n 5 "$WORK/m1.log"
[ $rc = 0 ] || fail "matrix exited $rc"
[ "$(q "select group_concat(cell || ':' || network || ':' || sessions_planned || ':' || status, ' ') from runs")" = \
  "network=lan,sessions=1:lan:1:completed network=wan-100ms,sessions=1:wan-100ms:1:completed network=lan,sessions=2:lan:2:completed network=wan-100ms,sessions=2:wan-100ms:2:completed" ] \
    || fail "cells, order or labels: $(q "select id, cell, network, sessions_planned, status from runs")"
[ "$(q "select count(distinct matrix_id) || ' ' || min(matrix_id) from runs")" = "1 1" ] || fail "one matrix, id 1"
q "select plan_text from runs where id = 4" | grep -q '^# sessmax matrix cell network=wan-100ms,sessions=2$' \
    || fail "the stored plan does not say its cell"
# the wan cells really were shaped: measured RTT about 100 ms, the lan cells far below
[ "$(q "select count(*) from traffic t join runs r on r.id = t.run_id where r.network = 'wan-100ms' and t.rtt_us >= 90000")" -gt 0 ] \
    || fail "no WAN-like RTT measured in the wan-100ms cells"
[ "$(q "select coalesce(max(t.rtt_us), 0) from traffic t join runs r on r.id = t.run_id where r.network = 'lan'")" -lt 50000 ] \
    || fail "the lan cells were shaped"
grep -A3 '^platform  *network  *sessions=1  *sessions=2$' "$WORK/m1.log" > "$WORK/table.txt" || fail "no table header"
grep -q '^simhost-e2e  *lan  *.* ms / .*  *.* ms / ' "$WORK/table.txt" || fail "lan row: $(cat "$WORK/table.txt")"
grep -q '^simhost-e2e  *wan-100ms  ' "$WORK/table.txt" || fail "wan row"

mx --vary sessions=1,2 --vary network=lan,wan-100ms --resume --format csv >"$WORK/t.csv" 2>"$WORK/m1r.log" \
    || fail "resume of a finished matrix failed"
grep -q '(0 runs to do)' "$WORK/m1r.log" || fail "resume of a finished matrix ran something"
[ "$(q "select count(*) from runs")" = 4 ] || fail "resume of a finished matrix added runs"
cat "$WORK/t.csv"
head -1 "$WORK/t.csv" | grep -qx 'platform,network,sessions,runs,smax_mean,smax_min,smax_max,smax_not_reached,smax_at_least,baseline_ms,kbps_per_session,target' \
    || fail "csv header"
[ "$(grep -c '^simhost-e2e,\(lan\|wan-100ms\),[12],1,' "$WORK/t.csv")" = 4 ] || fail "csv: four cells of one run each"
mx --vary sessions=1,2 --vary network=lan,wan-100ms --resume --format json -o "$WORK/t.json" >/dev/null 2>&1 \
    || fail "json table"
python3 - "$WORK/t.json" <<'PY' || fail "json table content"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["columns"] == "sessions" and t["rows"] == ["platform", "network"], t
cells = {(c["network"], c["sessions"]): c for c in t["cells"]}
assert sorted(cells) == [("lan", "1"), ("lan", "2"), ("wan-100ms", "1"), ("wan-100ms", "2")], cells
for c in cells.values():
    assert c["runs"] == 1 and c["platform"] == "simhost-e2e", c
# a short cell on a loaded machine may have too few samples for a score (n/a); not all of them
assert any(c["smax_mean"] is not None or c["smax_at_least"] is not None for c in cells.values()), cells
PY
mx --vary sessions=1,2 --vary network=lan,wan-100ms --resume --format markdown >"$WORK/t.md" 2>/dev/null || fail "md"
grep -q '^| platform  *| network  *| sessions=1 .*| sessions=2 .*|$' "$WORK/t.md" || fail "markdown header: $(cat "$WORK/t.md")"
grep -q '^|:---|:---|----|----|$' "$WORK/t.md" || fail "markdown rule"

# --- 2. interrupted and resumed ----------------------------------------------------------------
plan 15s "$WORK/i.db"
R="$WORK/i.db"
qi() { sqlite3 "$R" "$1"; }
running_cell() { [ -f "$R" ] && [ "$(qi "select count(*) from runs where status = 'running' and cell = '$1'
    and id in (select run_id from samples)" 2>/dev/null)" = 1 ]; }
mx --vary sessions=1,2,3 >"$WORK/i1.log" 2>&1 &
CTL=$!
PIDS+=("$CTL")
wait_for 120 running_cell sessions=2 || fail "cell 2 never started"
# the controller itself (a background job of a script starts with SIGINT ignored; `timeout`
# would pass it on as SIGTERM to the whole group)
kill -INT "$(controller)"
rc=0
wait "$CTL" || rc=$?
[ $rc = 2 ] || fail "interrupted matrix exited $rc, want 2"
grep -q 'interrupted: run the same command with --resume' "$WORK/i1.log" || fail "no resume hint"
[ "$(qi "select group_concat(cell || ':' || status, ' ') from runs")" = "sessions=1:completed sessions=2:aborted" ] \
    || fail "after Ctrl-C: $(qi "select id, cell, status from runs")"

mx --vary sessions=1,2,3 --resume >"$WORK/i2.log" 2>&1 &
CTL=$!
PIDS+=("$CTL")
wait_for 120 running_cell sessions=3 || fail "cell 3 never started on resume"
grep -q '(2 runs to do)' "$WORK/i2.log" || fail "first resume should have 2 runs to do"
kill_controller "$(controller)"
[ "$(qi "select status from runs where cell = 'sessions=3'")" = running ] || fail "the killed run should read running"
rc=0
mx --vary sessions=1,2,3 --resume >"$WORK/i3.log" 2>&1 || rc=$?
tail -n 6 "$WORK/i3.log"
[ $rc = 0 ] || fail "second resume exited $rc"
grep -q '(1 runs to do)' "$WORK/i3.log" || fail "second resume should have 1 run to do"
[ "$(qi "select group_concat(cell || ':' || status, ' ') from runs")" = \
  "sessions=1:completed sessions=2:aborted sessions=2:completed sessions=3:aborted sessions=3:completed" ] \
    || fail "after resuming: $(qi "select id, cell, status from runs")"
[ "$(qi "select count(*) || ' ' || count(distinct matrix_id) from runs where matrix_id = 1")" = "5 1" ] \
    || fail "the resumed runs are not in the first matrix"
[ "$(qi "select count(*) from matrices")" = 1 ] || fail "resume started a new matrix"
grep -q '^platform  *sessions=1  *sessions=2  *sessions=3$' "$WORK/i3.log" || fail "resumed table header"
grep -q '^simhost-e2e  *[^-].* ms / .*   [^-].* ms / .*   [^-].* ms / ' "$WORK/i3.log" || fail "resumed table: a cell is empty"
echo "matrix_simhost: ok"
