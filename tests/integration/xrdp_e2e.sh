#!/bin/bash
# xrdp_e2e.sh -- the real-server integration test: xrdp capped to one CPU (scripts/xrdp-target
# starts and installs it), workloads/xrdp-plan.yaml with durations scaled down for CI, run by
# `sessmax run` with a local agent; then the database must hold 12 sessions that reached the
# desktop and logged off cleanly, samples for every timer, traffic; `sessmax score` must not fail
# with a usage/data error, a report must exist, no process of the users may survive the logoff.
# Prints the figures of the run (smax, baseline, kbit/s per session, server PSS per session).
# SESSMAX_XRDP_LAUNCH / SESSMAX_XRDP_STEADY override the scaled durations (default 120s / 100s).
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock

# the shipped plan, with this test's port, database and shorter durations
xrdp_plan 12 xrdp-plan.yaml -e "s|^launch_window: .*|launch_window: ${SESSMAX_XRDP_LAUNCH:-120s}|" \
    -e "s|^steady_state: .*|steady_state: ${SESSMAX_XRDP_STEADY:-100s}|"

xrdp_start --users $SESSIONS --cpus 1 --port "$PORT"

# server memory per session, sampled once while every session is up
(
    for ((i = 0; i < 400; i++)); do
        n=0
        for k in $(seq $SESSIONS); do pgrep -u rdpuser$k -x openbox >/dev/null && n=$((n + 1)); done
        if [ "$n" = $SESSIONS ]; then sleep 5; "$TARGET" status --mem > "$WORK/mem.txt"; exit 0; fi
        sleep 1
    done
) &
PIDS+=($!)

note "sessmax run ($SESSIONS sessions on xrdp capped to 1 CPU)"
xrdp_run 9 --report "$WORK/run-report.html"

q() { sqlite3 -batch -noheader "$DB" "$1"; }
run=$(q "SELECT max(id) FROM runs")
[ -n "$run" ] || fail "no run in $DB"
status=$(q "SELECT status FROM runs WHERE id=$run")
[ "$status" = completed ] || fail "run status is '$status', want completed ($(q "SELECT message FROM runs WHERE id=$run"))"
active=$(q "SELECT count(*) FROM sessions WHERE run_id=$run AND active_us > 0 AND logon_us >= 0")
[ "$active" = $SESSIONS ] || fail "$active of $SESSIONS sessions reached the desktop; $(q "SELECT user||':'||state||':'||reason||':'||detail FROM sessions WHERE run_id=$run AND active_us = 0" | tr '\n' ' ')"
ended=$(q "SELECT count(*) FROM sessions WHERE run_id=$run AND state='ended' AND reason='none'")
[ "$ended" = $SESSIONS ] || fail "$ended of $SESSIONS sessions logged off cleanly; $(q "SELECT user||':'||state||':'||reason||':'||detail FROM sessions WHERE run_id=$run AND state<>'ended'" | tr '\n' ' ')"

# every timer of the workload has at least one successful sample, and the measure group too
xrdp_timers_ok "$run"
logons=$(q "SELECT count(*) FROM sessions WHERE run_id=$run AND logon_us > 0")
[ "$logons" = $SESSIONS ] || fail "logon timer missing for some sessions ($logons)"
tr_sessions=$(q "SELECT count(DISTINCT session) FROM traffic WHERE run_id=$run AND bytes_in > 0 AND rtt_us > 0")
[ "$tr_sessions" = $SESSIONS ] || fail "traffic (bytes and RTT) recorded for $tr_sessions of $SESSIONS sessions"

note "logoff ended every process of every user on the server"
for k in $(seq $SESSIONS); do
    wait_for 20 no_user_procs rdpuser$k || fail "rdpuser$k still has processes: $(pgrep -u rdpuser$k -l | tr '\n' ' ')"
done

note "score and report"
"$BUILD/sessmax" score "$DB" --run "$run" > "$WORK/score.txt" 2>&1
src=$?
cat "$WORK/score.txt" >&2
[ $src -ge 64 ] && fail "sessmax score exited $src"
"$BUILD/sessmax" report "$DB" --run "$run" -o "$WORK/report.html" || fail "sessmax report failed"
[ -s "$WORK/report.html" ] || fail "no report written"
grep -q '<svg' "$WORK/report.html" || fail "the report has no chart"

# the figures of this run
kbps=$(q "SELECT printf('%.1f', avg(kbps)) FROM (SELECT session,
             (max(bytes_in) + max(bytes_out) - min(bytes_in) - min(bytes_out)) * 8.0 / 1000 /
             ((max(t_us) - min(t_us)) / 1e6) AS kbps FROM traffic WHERE run_id=$run
             GROUP BY session HAVING max(t_us) > min(t_us))")
echo "FIGURES xrdp 12 sessions, 1 CPU: smax=$(q "SELECT CASE WHEN smax_reached THEN smax ELSE 'not reached at '||active||' active (smax >= '||(active-1)||')' END FROM runs WHERE id=$run") baseline_ms=$(q "SELECT printf('%.0f', baseline_ms) FROM runs WHERE id=$run") threshold_ms=$(q "SELECT printf('%.0f', threshold_ms) FROM runs WHERE id=$run") kbit/s/session=$kbps logon_p50_ms=$(q "SELECT logon_us/1000 FROM sessions WHERE run_id=$run ORDER BY logon_us LIMIT 1 OFFSET $((SESSIONS / 2))")"
[ -s "$WORK/mem.txt" ] && echo "FIGURES $(tail -n 1 "$WORK/mem.txt")"
if [ -n "${SESSMAX_XRDP_KEEP:-}" ]; then
    mkdir -p "$SESSMAX_XRDP_KEEP" && cp "$DB" "$WORK"/*.html "$WORK"/*.txt "$WORK/run.out" "$SESSMAX_XRDP_KEEP/" 2>/dev/null
fi
echo "PASS xrdp_e2e"
