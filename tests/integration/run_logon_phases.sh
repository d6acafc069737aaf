#!/bin/bash
# run_logon_phases.sh -- `sessmax run` of 4 sessions against simhost, then what the logon and RTT
# figures say: every active session has all six logon phases, none negative, adding up exactly to
# its logon time, which ends no later than its active record (launch to active also covers the
# logon condition's confirmation); `score` prints the phase breakdown; on loopback the minimum RTT
# reads below a millisecond and below the kernel's smoothed RTT, which is named for what it is.
# Orderings and sums only: no absolute time is asserted, but that loopback reads sub-millisecond.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 6
plan_fields "sessions: 4" "launch_window: 2s" "steady_state: 6s"
run_checked run
[ "$(q "select count(*) from sessions where run_id = 1 and logon_us >= 0")" = 4 ] \
    || fail "not every session logged on: $(q "select idx, state, reason, detail from sessions")"

# all phases present and >= 0; their sum is the logon; the logon ends by the active record
bad=$(q "select idx, logon_us, logon_wait_us, logon_tcp_us, logon_security_us, logon_rdp_us, logon_paint_us,
                logon_desktop_us, active_us - launch_us from sessions
         where run_id = 1 and logon_us >= 0 and (
               min(logon_wait_us, logon_tcp_us, logon_security_us, logon_rdp_us, logon_paint_us, logon_desktop_us) < 0
            or logon_wait_us + logon_tcp_us + logon_security_us + logon_rdp_us + logon_paint_us + logon_desktop_us
               != logon_us
            or logon_us <= 0 or logon_us > active_us - launch_us)")
[ -z "$bad" ] || fail "logon phases not all present, ordered and adding up to the logon (idx|logon|phases..|launch to active): $bad"
# the RDP connection sequence is a series of round trips: longer than the TCP connect's one
[ "$(q "select count(*) from sessions where run_id = 1 and logon_rdp_us > logon_tcp_us")" = 4 ] \
    || fail "an RDP connection sequence no longer than its TCP connect"
echo "phases (ms, session 0): $(q "select printf('wait %.1f tcp %.2f security %.1f rdp %.1f paint %.1f desktop %.1f = %.1f; launch to active %.1f',
      logon_wait_us/1e3, logon_tcp_us/1e3, logon_security_us/1e3, logon_rdp_us/1e3, logon_paint_us/1e3,
      logon_desktop_us/1e3, logon_us/1e3, (active_us - launch_us)/1e3) from sessions where idx = 0")"

"$B/sessmax" score "$WORK/r.db" --no-store > "$WORK/score.txt" || true
cat "$WORK/score.txt"
grep -q '^           phases over 4 sessions' "$WORK/score.txt" || fail "score prints no logon phases"
for label in 'wait (connect thread, setup, name lookup)' 'TCP connect' 'security (X.224, TLS, NLA)' \
             'RDP connection sequence' 'first paint' 'desktop ready'; do
    grep -qF -- "$label" "$WORK/score.txt" || fail "score's logon phases lack '$label'"
    grep -F -- "$label" "$WORK/score.txt" | grep -qE ' [0-9]+\.[0-9] +[0-9]+\.[0-9]$' \
        || fail "no p50/p95 for '$label'"
done
grep -q 'launch to active p50' "$WORK/score.txt" || fail "score does not give launch to active beside the logon"

# RTT on loopback: the minimum RTT reads sub-millisecond, below the smoothed RTT, which is named
grep -qE '^network    configured lan .*measured min RTT p50 0\.[0-9]+ ms, p95 [0-9.]+ ms; kernel smoothed TCP RTT \(includes delayed ACKs\) p50' \
    "$WORK/score.txt" || fail "the network line does not read as a loopback RTT"
[ "$(q "select count(*) from traffic where run_id = 1 and min_rtt_us > 0")" -gt 0 ] || fail "no minimum RTT stored"
[ "$(q "select count(*) from traffic where run_id = 1 and min_rtt_us > 0 and min_rtt_us > rtt_us")" = 0 ] \
    || fail "a minimum RTT above its smoothed RTT"

"$B/sessmax" report "$WORK/r.db" -o "$WORK/report.html" >/dev/null || fail "report failed"
grep -q 'id="logon-phases"' "$WORK/report.html" || fail "the report has no logon phases table"
grep -q 'kernel smoothed TCP RTT (includes delayed ACKs)' "$WORK/report.html" || fail "the report's RTT is not named"
echo PASS
