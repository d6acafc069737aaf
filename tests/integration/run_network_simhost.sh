#!/bin/bash
# run_network_simhost.sh -- the LAN-vs-WAN table, shortened for CI: the shipped plans
# workloads/network-{lan,wan}-plan.yaml (8 sessions, 25 s launch window, 30 s steady state) run by
# `sessmax run` with local agents against simhost into one database. Then: the WAN run stored its
# profile, its agents measured the profile's RTT (TCP srtt p50 within 10 % + 2 ms of 250 ms, plus
# up to 40 ms of the server's delayed ACKs) and retransmitted segments, the LAN run (almost) none; `score` shows
# the configured profile beside the measurements; `compare --by network` prints both rows with
# p50 per timer, kbit/s, RTT and retransmission rate; nothing of the emulator is left behind.
# Needs root (CAP_NET_ADMIN) for the emulator.
. "$(dirname "$0")/lib/controller.sh"
[ "$(id -u)" = 0 ] || fail "needs root (CAP_NET_ADMIN) for the network emulator"
# namespaces and rules named after a pid that no longer runs
leftovers() {
    { ip netns list | grep -oE '^smx-[0-9]+' || true; iptables -w -t nat -S | grep -oE 'smx-[0-9]+' || true; } |
        sort -u | while read -r name; do kill -0 "${name##*-}" 2>/dev/null || echo "$name"; done
}
start_simhost 20
for net in lan wan; do
    sed -e "s|^  port: 3390|  port: $SIM_PORT|" -e "s|^workload: .*|workload: $S/workloads/simhost-task-worker.yaml|" \
        -e "s|^sessions: .*|sessions: 8|" -e "s|^launch_window: .*|launch_window: 25s|" \
        -e "s|^steady_state: .*|steady_state: 30s|" -e "s|^results: .*|results: $WORK/r.db|" \
        "$S/workloads/network-$net-plan.yaml" > "$WORK/$net.yaml"
    grep -q "port: $SIM_PORT" "$WORK/$net.yaml" || fail "could not set the port in the $net plan"
    rc=0
    timeout -k 10 400 "$B/sessmax" run "$WORK/$net.yaml" --plain --agent-log "$WORK/agents-$net.log" \
        > "$WORK/run-$net.log" 2>&1 || rc=$?
    tail -n 4 "$WORK/run-$net.log"
    [ $rc -lt 64 ] || fail "sessmax run ($net) exited $rc"
done
[ "$(q "select count(*) from runs where status = 'completed'")" = 2 ] || fail "both runs should complete"
[ "$(q "select json_extract(network_profile, '$.name') || ' ' || json_extract(network_profile, '$.rtt_ms') \
        || ' ' || json_extract(network_profile, '$.loss_pct') from runs where id = 2")" = "wan-250ms-1pct 250.0 1.0" ] \
    || fail "the WAN profile is not stored with the run: $(q "select network_profile from runs where id = 2")"
for run in 1 2; do
    [ "$(q "select count(*) from sessions where run_id = $run and state = 'ended' and reason = 'none'")" = 8 ] \
        || fail "run $run: not every session ended cleanly"
done
# measured per traffic record: the kernel's RTT and the retransmissions, against the profile
rtt_lan=$(q "select max(rtt_us) from traffic where run_id = 1")
rtt_wan=$(q "select rtt_us from traffic where run_id = 2 and rtt_us > 0 order by rtt_us limit 1 offset
             (select count(*) / 2 from traffic where run_id = 2 and rtt_us > 0)")
echo "measured: lan rtt max ${rtt_lan} us, wan rtt p50 ${rtt_wan} us"
[ "$rtt_lan" -lt 50000 ] || fail "LAN RTT $rtt_lan us: the LAN run was shaped"
# 250 ms +- (10 % + 2 ms), plus up to 40 ms of the server's delayed ACK in the kernel's estimate
[ "$rtt_wan" -ge 223000 ] && [ "$rtt_wan" -le 317000 ] || fail "WAN RTT p50 $rtt_wan us, want about 250 ms"
re_wan=$(q "select sum(r) from (select max(retrans) r from traffic where run_id = 2 group by session)")
re_lan=$(q "select sum(r) from (select max(retrans) r from traffic where run_id = 1 group by session)")
echo "retransmitted segments: lan $re_lan, wan $re_wan"
# a loaded machine may see a spurious tail-loss probe on loopback, not more
[ "$re_lan" -le 3 ] || fail "the LAN run retransmitted $re_lan segments"
[ "$re_wan" -gt "$re_lan" ] || fail "no more retransmissions at 1 % loss ($re_wan) than on the LAN ($re_lan)"
"$B/sessmax" score "$WORK/r.db" --run 2 --no-store > "$WORK/score.txt" || true
grep -q '^network    configured wan-250ms-1pct (rtt 250.0 ms.*measured RTT p50 2[0-9][0-9]\.[0-9] ms' "$WORK/score.txt" \
    || { cat "$WORK/score.txt"; fail "score does not show the profile beside the measured RTT"; }
"$B/sessmax" compare "$WORK/r.db" --by network --format csv > "$WORK/cmp.csv" || fail "compare failed"
cat "$WORK/cmp.csv"
head -1 "$WORK/cmp.csv" | grep -q '^group,runs,smax,baseline_ms,p50_ms(app_start),.*,kbps_per_session,rtt_p50_ms,retrans_pct,stuck_sessions$' \
    || fail "compare header"
grep -q '^lan,1,' "$WORK/cmp.csv" && grep -q '^wan-250ms-1pct,1,' "$WORK/cmp.csv" || fail "compare rows"
python3 - "$WORK/cmp.csv" <<'PY' || fail "compare figures"
import csv, sys
rows = {r["group"]: r for r in csv.DictReader(open(sys.argv[1]))}
lan, wan = rows["lan"], rows["wan-250ms-1pct"]
assert float(wan["rtt_p50_ms"]) > 200 > float(lan["rtt_p50_ms"]), (lan["rtt_p50_ms"], wan["rtt_p50_ms"])
assert float(wan["retrans_pct"]) > float(lan["retrans_pct"]), (lan["retrans_pct"], wan["retrans_pct"])
assert float(wan["kbps_per_session"]) > 0 and float(lan["kbps_per_session"]) > 0
# an action is a round trip or more: the WAN's typical app start is slower by at least one RTT
assert float(wan["p50_ms(app_start)"]) > float(lan["p50_ms(app_start)"]) + 200, (lan["p50_ms(app_start)"], wan["p50_ms(app_start)"])
PY
[ -z "$(leftovers)" ] || fail "the emulator left: $(leftovers)"
echo "run_network_simhost: ok"
