#!/bin/bash
# xrdp_wan.sh -- one short WAN run against the real server: workloads/xrdp-plan.yaml cut to 3
# sessions (20 s launch window, 60 s steady state) with `network: wan-100ms`, run by `sessmax run`
# with a local agent whose RDP traffic goes through the emulated link. The run must complete with
# every session on the desktop and logged off, the profile stored with it, the agents' measured
# RTT p50 the profile's (100 ms within 10 % + 2 ms, plus up to 40 ms of the server's delayed
# ACKs), successful samples of several timers, and nothing of the emulator left behind.
# Needs root (xrdp, accounts, CAP_NET_ADMIN).
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock

xrdp_plan 3 xrdp-wan-plan.yaml -e "s|^network: lan|network: wan-100ms|" \
    -e "s|^launch_window: .*|launch_window: 20s|" -e "s|^steady_state: .*|steady_state: 60s|"
grep -q "^network: wan-100ms" "$PLAN" || fail "could not edit the plan copy"

xrdp_start --users $SESSIONS --cpus 1 --port "$PORT"
note "sessmax run ($SESSIONS sessions on xrdp over wan-100ms)"
xrdp_run 5

q() { sqlite3 -batch -noheader "$DB" "$1"; }
run=$(q "SELECT max(id) FROM runs")
[ "$(q "SELECT status FROM runs WHERE id=$run")" = completed ] || fail "the run did not complete"
[ "$(q "SELECT json_extract(network_profile, '$.name') || ' ' || json_extract(network_profile, '$.rtt_ms') FROM runs WHERE id=$run")" = \
  "wan-100ms 100.0" ] || fail "the profile is not stored with the run: $(q "SELECT network_profile FROM runs")"
active=$(q "SELECT count(*) FROM sessions WHERE run_id=$run AND active_us > 0")
ended=$(q "SELECT count(*) FROM sessions WHERE run_id=$run AND state='ended' AND reason='none'")
[ "$active" = $SESSIONS ] && [ "$ended" = $SESSIONS ] || fail "$active sessions reached the desktop, $ended ended cleanly (want $SESSIONS)"
rtt=$(q "SELECT rtt_us FROM traffic WHERE run_id=$run AND rtt_us > 0 ORDER BY rtt_us LIMIT 1 OFFSET
         (SELECT count(*) / 2 FROM traffic WHERE run_id=$run AND rtt_us > 0)")
echo "measured RTT p50 ${rtt} us (profile 100 ms)"
[ -n "$rtt" ] && [ "$rtt" -ge 88000 ] && [ "$rtt" -le 152000 ] || fail "RTT p50 $rtt us, want about 100 ms"
timers=$(q "SELECT count(DISTINCT s.name_id) FROM samples s WHERE s.run_id=$run AND s.ok=1")
echo "timers with successful samples: $timers"
[ "$timers" -ge 4 ] || fail "only $timers timers recorded over the WAN"
"$BUILD/sessmax" score "$DB" --run "$run" --no-store > "$WORK/score.txt" 2>&1
grep -E '^network' "$WORK/score.txt" >&2
grep -q '^network    configured wan-100ms (rtt 100.0 ms.*measured min RTT p50 1[0-5][0-9]\.[0-9] ms' "$WORK/score.txt" \
    || fail "score does not show the profile beside the measured RTT"
for name in $(ip netns list | grep -oE '^smx-[0-9]+'); do
    kill -0 "${name##*-}" 2>/dev/null || fail "the emulator left namespace $name"
done
echo "PASS xrdp_wan"
