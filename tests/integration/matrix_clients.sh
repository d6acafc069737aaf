#!/bin/bash
# matrix_clients.sh -- the 2x2 client matrix of issue 13, bounded for CI: `sessmax matrix
# --vary client=builtin,xfreerdp --vary network=lan,wan-100ms` against simhost (2 sessions of the
# short worker per cell). Every cell ends with one completed run labelled with its client and
# network, every session of it logged on and off, and a score (smax or its lower bound); the
# table prints a row per network and a column per client with a figure in every cell; the
# xfreerdp wan-100ms cell's connections really went through the emulated link (no `cpu` sample,
# a keystroke up and a repaint down, below the 100 ms RTT); `sessmax compare --by client` and
# the dashboard group the runs by client.
# Needs root (CAP_NET_ADMIN) for the wan-100ms cells.
. "$(dirname "$0")/lib/controller.sh"
[ "$(id -u)" = 0 ] || fail "needs root (CAP_NET_ADMIN) for the network emulator"
for t in xfreerdp Xvfb; do
    command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
start_simhost 6
plan_fields "name: mxc" "sessions: 2" "launch_window: 2s" "steady_state: 15s" \
    "agents: {local: 1, heartbeat_timeout: 10s}" "score: {baseline_count: 3}"
rc=0
timeout -k 10 400 "$B/sessmax" matrix "$WORK/plan.yaml" --plain --vary client=builtin,xfreerdp \
    --vary network=lan,wan-100ms >"$WORK/m.log" 2>&1 || rc=$?
sed -n '/^platform /,$p' "$WORK/m.log"
[ $rc = 0 ] || fail "matrix exited $rc"
[ "$(q "select group_concat(cell || ':' || client || ':' || network || ':' || status, ' ') from runs")" = \
  "client=builtin,network=lan:builtin:lan:completed client=builtin,network=wan-100ms:builtin:wan-100ms:completed client=xfreerdp,network=lan:xfreerdp:lan:completed client=xfreerdp,network=wan-100ms:xfreerdp:wan-100ms:completed" ] \
    || fail "cells: $(q "select id, cell, client, network, status from runs")"
[ "$(q "select count(*) from sessions where state = 'ended' and reason = 'none' and logon_us > 0")" = 8 ] \
    || fail "sessions: $(q "select run_id, user, state, reason, detail from sessions")"
# every cell has a score: smax, or the lower bound of a run that never crossed the threshold
for r in 1 2 3 4; do
    "$B/sessmax" score "$WORK/r.db" --run $r >"$WORK/s$r.log" 2>&1 || [ $? -le 2 ] || fail "score run $r"
    grep -qE '^smax +([0-9]|not reached at [0-9]+ active \(smax >= [0-9])' "$WORK/s$r.log" \
        || fail "run $r ($(q "select cell from runs where id = $r")) has no score: $(cat "$WORK/s$r.log")"
done
# the table: a row per network, a column per client, a figure in every cell
grep -q '^platform  *network  *builtin  *xfreerdp$' "$WORK/m.log" || fail "no table header"
for n in lan wan-100ms; do
    grep -qE "^simhost-e2e +$n +(>= )?[0-9.]+ .*/ [0-9.]+ ms / .* +(>= )?[0-9.]+ .*/ [0-9.]+ ms / " "$WORK/m.log" \
        || fail "row $n: $(grep "^simhost-e2e  *$n " "$WORK/m.log")"
done
# the xfreerdp connections of the wan cell took the emulated link
[ "$(q "select min(s.value_us) from samples s join timer_names t on t.id = s.name_id
        where s.run_id = 4 and t.name = 'cpu' and s.ok = 1")" -ge 100000 ] \
    || fail "xfreerdp's wan-100ms cell was not shaped: cpu samples below the RTT"
# grouped by client
"$B/sessmax" compare "$WORK/r.db" --by client --format csv >"$WORK/by.csv" || fail "compare --by client"
cat "$WORK/by.csv"
[ "$(cut -d, -f1,2 "$WORK/by.csv" | tail -n +2 | sort | tr '\n' ' ')" = "builtin,2 xfreerdp,2 " ] \
    || fail "compare --by client: $(cat "$WORK/by.csv")"
"$B/sessmax" dashboard "$WORK/r.db" -o "$WORK/dash" >/dev/null 2>&1 || fail "dashboard"
for c in builtin xfreerdp; do
    grep -q "tcp / simhost-e2e / lan / $c" "$WORK/dash/index.html" || fail "dashboard: no cell of client $c"
done
echo "matrix_clients: ok"
