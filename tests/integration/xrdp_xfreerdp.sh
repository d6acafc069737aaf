#!/bin/bash
# xrdp_xfreerdp.sh -- the xfreerdp preset against a real RDP server: `sessmax run` of a copy of
# workloads/xrdp-plan.yaml with `client: {x11: xfreerdp}`, 2 sessions on the xrdp target
# (scripts/xrdp-target), short durations. The local agent runs Debian's xfreerdp per session on
# its own Xvfb. Both sessions must reach the openbox desktop (logon timer stored), every timer of
# one loop of workloads/xrdp-task-worker.yaml must have a successful sample, both must log off
# cleanly through the workload (ctrl+alt+delete ends the xrdp session: no process of the users is
# left), the run is labelled client=xfreerdp, and no xfreerdp or Xvfb of the run outlives it.
set -u
. "$(dirname "$0")/xrdp_common.inc"
for t in xfreerdp Xvfb; do command -v $t >/dev/null || fail "$t missing (scripts/install-deps --xrdp)"; done
xrdp_lock

export SESSMAX_AGENT_BIN=$BUILD/sessmax-agent
# one loop takes about 60 s (more on a loaded machine, and logons take up to 10 s): the steady
# state lets both sessions finish their first
xrdp_plan 2 plan.yaml -e "s|^launch_window: .*|launch_window: 4s|" \
    -e "s|^steady_state: .*|steady_state: 110s|" -e "s|^platform: .*|platform: xrdp-0.9-openbox|" \
    -e "s|^transport: tcp|client: {x11: xfreerdp}|"
grep -q '^client: {x11: xfreerdp}$' "$PLAN" || fail "could not edit the plan copy"

xrdp_start --users $SESSIONS --port "$PORT"
note "sessmax run: $SESSIONS sessions through xfreerdp on xrdp"
xrdp_run 5

q() { sqlite3 -batch -noheader "$DB" "$1"; }
[ "$(q "SELECT status || '/' || client || '/' || transport FROM runs WHERE id = 1")" = completed/xfreerdp/tcp ] \
    || fail "run: $(q "SELECT status, client, transport, message FROM runs")"
n=$(q "SELECT count(*) FROM sessions WHERE run_id = 1 AND logon_us > 0 AND state = 'ended' AND reason = 'none'")
[ "$n" = $SESSIONS ] || fail "$n of $SESSIONS sessions logged on and off cleanly: $(q "SELECT user, state, reason, detail FROM sessions" | tr '\n' ' ')"
xrdp_timers_ok 1
note "logoff ended every process of every user on the server"
for k in $(seq $SESSIONS); do
    wait_for 20 no_user_procs rdpuser$k || fail "rdpuser$k still has processes: $(pgrep -u rdpuser$k -l | tr '\n' ' ')"
done
left=$(pgrep -af "xfreerdp /v:127\.0\.0\.1:$PORT" || true)
[ -z "$left" ] || fail "left behind: $left"
grep -q '^run 1  .* client=xfreerdp  (completed)$' "$WORK/run.out" || fail "the run's summary does not name the client"
echo "FIGURES xrdp via xfreerdp, $SESSIONS sessions: $(q "SELECT group_concat(t.name || '=' || cast(s.ms AS int), ' ') FROM
    (SELECT name_id, avg(value_us) / 1000 AS ms FROM samples WHERE run_id = 1 AND ok = 1 GROUP BY name_id) s
    JOIN timer_names t ON t.id = s.name_id") (ms, mean)"
echo "PASS xrdp_xfreerdp"
