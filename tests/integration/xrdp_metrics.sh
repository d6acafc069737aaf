#!/bin/bash
# xrdp_metrics.sh -- target.metrics against the real xrdp held to one CPU (scripts/xrdp-target
# --cpus 1): Debian's prometheus-node-exporter runs on the target side (this machine, loopback),
# the plan scrapes it counting CPU 1 only (metrics: {url, cpus: "1"}, the CPU the target is pinned
# to) and ramps task workers until the index crosses. The stored CPU tracks the ramp (its mean at
# the most sessions is above its mean at one or none), and score names CPU at the knee
# ("resources  ... at the knee (N active): CPU .. %: CPU-bound") on the 1-CPU target.
set -u
. "$(dirname "$0")/xrdp_common.inc"
NE=$(command -v prometheus-node-exporter || true)
[ -n "$NE" ] || { echo "SKIP: prometheus-node-exporter is not installed (scripts/install-deps)"; exit 77; }
xrdp_lock
[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs"; exit 77; }

NE_PORT=$(free_port)
"$NE" --web.listen-address="127.0.0.1:$NE_PORT" > "$WORK/node_exporter.log" 2>&1 &
PIDS+=($!)
wait_for 20 bash -c "exec 3<>/dev/tcp/127.0.0.1/$NE_PORT" || fail "node_exporter did not listen on $NE_PORT"

SESSIONS=12
xrdp_plan $SESSIONS metrics-plan.yaml -e "s|^name: .*|name: xrdp-metrics-1cpu|" \
    -e "s|^launch_window: .*|launch_window: 6m|" -e "s|^steady_state: .*|steady_state: 1m|"
# the target pinned to CPU 1 under a quota of one CPU (as xrdp-office-plan), scraped every 2 s
sed -i "s|^  security: tls.*|&\n  local: {cgroup: sessmax-xrdp, cpus: \"1\", cpu_percent: 100}\n  metrics: {url: \"http://127.0.0.1:$NE_PORT/metrics\", cpus: \"1\", interval: 2s}|" "$PLAN"
grep -q "metrics: {url: \"http://127.0.0.1:$NE_PORT/metrics\"" "$PLAN" || fail "could not add target.metrics to the plan copy"
grep -q '^early_stop' "$PLAN" || echo "early_stop: {margin: 60s}" >> "$PLAN"
sed -i 's|^agents: .*|agents: {local: 1, cpus: "0"}|' "$PLAN"
"$BUILD/sessmax" validate "$PLAN" > "$WORK/validate.out" 2>&1 || { cat "$WORK/validate.out"; fail "the plan copy does not validate"; }
grep -q "^  metrics    http://127.0.0.1:$NE_PORT/metrics, every 2 s" "$WORK/validate.out" || fail "validate does not name the exporter"

xrdp_start --users $SESSIONS --cpus 2 --port "$PORT"
note "sessmax run: $SESSIONS task workers on one CPU, node_exporter scraped"
xrdp_run 12

q() { sqlite3 -batch -noheader "$DB" "$1"; }
run=$(q "SELECT max(id) FROM runs")
rows=$(q "SELECT count(*) FROM target_metrics WHERE run_id = $run AND source = '127.0.0.1:$NE_PORT' AND cpu_pct >= 0")
[ "$rows" -ge 20 ] || fail "$rows target_metrics rows with CPU"
low=$(q "SELECT coalesce(avg(cpu_pct), -1) FROM target_metrics WHERE run_id = $run AND active <= 1")
high=$(q "SELECT avg(cpu_pct) FROM target_metrics WHERE run_id = $run
          AND active >= (SELECT max(active) FROM target_metrics WHERE run_id = $run) - 1")
echo "FIGURES target CPU 1: $low % at 0-1 active, $high % at the most sessions"
awk -v l="$low" -v h="$high" 'BEGIN { exit !(h > l + 20) }' || fail "CPU 1 did not rise with the sessions ($low -> $high)"

"$BUILD/sessmax" score "$DB" --run "$run" --no-store > "$WORK/score.out" 2>&1 || true
grep '^smax\|^resources' "$WORK/score.out" >&2
grep -qE "^resources  at the knee \([0-9]+ active\): CPU [0-9]+ %.*: CPU-bound$" "$WORK/score.out" ||
    fail "score does not name CPU at the knee: $(grep '^resources\|^smax' "$WORK/score.out")"
"$BUILD/sessmax" report "$DB" --run "$run" -o "$WORK/report.html" > /dev/null || fail "report"
grep -q 'data-series="res-cpu-active"' "$WORK/report.html" || fail "the report has no CPU against sessions chart"
echo "xrdp_metrics: ok"
