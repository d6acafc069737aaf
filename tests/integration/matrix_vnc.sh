#!/bin/bash
# matrix_vnc.sh -- one table for three clients (issue 13): `sessmax matrix --vary
# client=builtin,xfreerdp,vncviewer`, the built-in engine and xfreerdp against simhost, the VNC
# viewer against VNC desktops (TigerVNC Xvnc, one per connection, lib/vnc_desktops.py) whose app
# is simhost's desktop shown by an xfreerdp on that desktop: the same workload, through another
# server and protocol. The plan's `clients:` entry gives vncviewer its own target. Every cell ends
# with a completed run of 2 sessions labelled with its client and target, each with `cpu`
# samples; the table has the three columns with a figure each and says the columns ran against
# different servers; `compare --by client`, the dashboard and the run report group or label the
# runs by client.
. "$(dirname "$0")/lib/controller.sh"
for t in xfreerdp Xvfb vncviewer vncpasswd Xvnc; do
    command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
start_simhost 12
(umask 077; printf '%s\n' "$SESSMAX_PASSWORD" | vncpasswd -f >"$WORK/vncpasswd")
# each desktop's app: simhost's desktop for simuser011, 012, ... (the RDP cells use 001, 002)
APP="n=\$((10 + VNC_DESKTOP)); printf '%s\n' \"\$SESSMAX_PASSWORD\" | exec xfreerdp /v:127.0.0.1:$SIM_PORT \
/u:simuser0\$n /from-stdin:force /cert:ignore /sec:tls /f /size:1024x768 /bpp:16 -clipboard /log-level:WARN"
python3 "$S/tests/integration/lib/vnc_desktops.py" "$WORK/vnc.port" "$WORK/vncpasswd" 1024x768 "$APP" &
PIDS+=($!)
wait_for 20 test -s "$WORK/vnc.port" || fail "VNC desktops did not start"
VNC_PORT=$(cat "$WORK/vnc.port")
plan_fields "name: mxv" "client: builtin" \
    "clients: {vncviewer: {resolution: 1024x768, target: {host: 127.0.0.1, port: $VNC_PORT}}}" \
    "launch_window: 2s" "steady_state: 15s" "agents: {local: 1, heartbeat_timeout: 10s}" "score: {baseline_count: 3}"
"$B/sessmax" validate "$WORK/plan.yaml" >"$WORK/validate.log" 2>&1 || fail "validate: $(cat "$WORK/validate.log")"
rc=0
timeout -k 10 300 "$B/sessmax" matrix "$WORK/plan.yaml" --plain --vary client=builtin,xfreerdp,vncviewer \
    >"$WORK/m.log" 2>&1 || rc=$?
sed -n '/^platform /,$p' "$WORK/m.log"
[ $rc = 0 ] || fail "matrix exited $rc"
[ "$(q "select group_concat(cell || ':' || client || ':' || target || ':' || status, ' ') from runs")" = \
  "client=builtin:builtin:127.0.0.1:$SIM_PORT:completed client=xfreerdp:xfreerdp:127.0.0.1:$SIM_PORT:completed client=vncviewer:vncviewer:127.0.0.1:$VNC_PORT:completed" ] \
    || fail "cells: $(q "select id, cell, client, target, status from runs")"
[ "$(q "select count(*) from sessions where state = 'ended' and reason = 'none' and logon_us > 0")" = 6 ] \
    || fail "sessions: $(q "select run_id, user, state, reason, detail from sessions")"
for r in 1 2 3; do
    [ "$(q "select count(*) from samples s join timer_names t on t.id = s.name_id
            where s.run_id = $r and t.name = 'cpu' and s.ok = 1")" -ge 2 ] || fail "run $r has no cpu samples"
done
# the table: one row, a column per client, a figure in each, and the note on the servers
grep -q '^platform  *builtin  *xfreerdp  *vncviewer$' "$WORK/m.log" || fail "no table header with three clients"
grep -qE "^simhost-e2e( +(>= )?[0-9.]+ [^/]*/ [0-9.]+ ms / [-0-9.]+ kbit/s){3}$" "$WORK/m.log" \
    || fail "row: $(grep '^simhost-e2e ' "$WORK/m.log")"
grep -qF "(the columns ran against different servers: they compare clients and protocols, not one host; builtin at 127.0.0.1:$SIM_PORT, xfreerdp at 127.0.0.1:$SIM_PORT, vncviewer at 127.0.0.1:$VNC_PORT)" \
    "$WORK/m.log" || fail "no note on the columns' servers"
# grouped and labelled by client
"$B/sessmax" compare "$WORK/r.db" --by client --format csv >"$WORK/by.csv" || fail "compare --by client"
[ "$(cut -d, -f1,2 "$WORK/by.csv" | tail -n +2 | sort | tr '\n' ' ')" = "builtin,1 vncviewer,1 xfreerdp,1 " ] \
    || fail "compare --by client: $(cat "$WORK/by.csv")"
"$B/sessmax" dashboard "$WORK/r.db" -o "$WORK/dash" >/dev/null 2>&1 || fail "dashboard"
for c in builtin xfreerdp vncviewer; do
    grep -q "tcp / simhost-e2e / lan / $c" "$WORK/dash/index.html" || fail "dashboard: no cell of client $c"
done
"$B/sessmax" report "$WORK/r.db" --run 3 -o "$WORK/r3.html" >/dev/null 2>&1 || fail "report of the vncviewer run"
grep -q 'vncviewer' "$WORK/r3.html" || fail "report: the vncviewer run is not labelled"
echo "matrix_vnc: ok"
