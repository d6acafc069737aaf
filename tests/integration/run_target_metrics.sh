#!/bin/bash
# run_target_metrics.sh -- target.metrics and target.local by pid end to end: Debian's prometheus-node-exporter on
# loopback beside a simhost run (and simhost's own node_exporter-style --metrics-listen), plus an
# endpoint nothing listens on. The run warns once about the dead endpoint and goes on; the
# target_metrics rows of both live sources are stored with the sessions active at each scrape;
# simhost's CPU rises with the sessions (node_exporter's is the whole machine, shared with other
# jobs: its rows are checked for being there and sane, not for a trend); `sessmax score` prints
# the resources line and the report draws the resource charts. target.local names simhost by pid
# (no cgroup): validate and the run say the same about it, and its CPU is sampled.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
NE=$(command -v prometheus-node-exporter || true)
[ -n "$NE" ] || { echo "SKIP: prometheus-node-exporter is not installed (scripts/install-deps)"; exit 77; }

NE_PORT=$(free_port)
"$NE" --web.listen-address="127.0.0.1:$NE_PORT" >"$WORK/node_exporter.log" 2>&1 &
PIDS+=("$!")
wait_for 20 bash -c "exec 3<>/dev/tcp/127.0.0.1/$NE_PORT" || fail "node_exporter did not listen on $NE_PORT"
DEAD_PORT=$(free_port)
SIM_METRICS=$(free_port)

# real work (not the harness' scaled-down default): simhost's CPU must follow the sessions
SIM_ARGS=(--work-scale 0.5)
start_simhost 60 --metrics-listen "127.0.0.1:$SIM_METRICS"
plan_fields "sessions: 8" "launch_window: 24s" "steady_state: 10s" \
    "target: {host: 127.0.0.1, port: $SIM_PORT, verify: false, security: tls, local: {process: \"$SIM_PID\"}, metrics: [\"http://127.0.0.1:$NE_PORT/metrics\", {url: \"http://127.0.0.1:$SIM_METRICS/metrics\", interval: 2s}, \"http://127.0.0.1:$DEAD_PORT/metrics\"]}"
"$B/sessmax" validate "$WORK/plan.yaml" >"$WORK/validate.log" 2>&1 || { cat "$WORK/validate.log"; fail "validate"; }
run_to_end run
[ $rc -le 2 ] || fail "sessmax run exited $rc"
# target.local by pid, no cgroup: validate and the run say the same, and the run samples it
said=$(sed -n 's/^  local      //p' "$WORK/validate.log")
[ "$said" = "process $SIM_PID and its descendants (from /proc)" ] || fail "validate says: '$said'"
grep -qF "target.local: sampling $said" "$WORK/run.log" || fail "the run does not say it samples '$said'"
[ "$(q "SELECT count(*) FROM target_load WHERE target_permille > 0")" -ge 1 ] || fail "simhost's pid was not sampled"

warn=$(grep -c "target.metrics: 127.0.0.1:$DEAD_PORT .*cannot connect.*the run goes on" "$WORK/run.log" || true)
[ "$warn" = 1 ] || fail "the dead endpoint was warned about $warn times (want once)"
rows() { q "SELECT count(*) FROM target_metrics WHERE source = '127.0.0.1:$1' $2"; }
[ "$(rows "$NE_PORT" "AND cpu_pct BETWEEN 0 AND 100 AND mem_used_bytes > 0 AND mem_avail_bytes > 0")" -ge 4 ] ||
    fail "node_exporter: too few rows: $(q "SELECT * FROM target_metrics WHERE source = '127.0.0.1:$NE_PORT'")"
[ "$(rows "$NE_PORT" "AND disk_read_bps >= 0 AND disk_busy_pct BETWEEN 0 AND 100")" -ge 1 ] || fail "node_exporter: no disk figures"
[ "$(rows "$DEAD_PORT" "")" = 0 ] || fail "rows from the dead endpoint"
[ "$(rows "$SIM_METRICS" "AND cpu_pct >= 0")" -ge 8 ] || fail "simhost's metrics: too few rows"
[ "$(rows "$SIM_METRICS" "AND sessions >= 1")" -ge 1 ] || fail "simhost's metrics: no session count"

# simhost's CPU tracks the ramp: its mean with the most sessions is above its mean with none or one
low=$(q "SELECT coalesce(avg(cpu_pct), -1) FROM target_metrics WHERE source = '127.0.0.1:$SIM_METRICS' AND active <= 1")
high=$(q "SELECT avg(cpu_pct) FROM target_metrics WHERE source = '127.0.0.1:$SIM_METRICS'
          AND active >= (SELECT max(active) FROM target_metrics) - 1")
echo "simhost CPU: $low % at 0-1 active, $high % at the most sessions"
awk -v l="$low" -v h="$high" 'BEGIN { exit !(h > l + 5) }' || fail "simhost's CPU did not rise with the sessions"

"$B/sessmax" score "$WORK/r.db" --no-store >"$WORK/score.log" 2>&1 || true
grep -qE "^resources  127.0.0.1:$NE_PORT: at (the knee|the most sessions) \([0-9]+ active.*\): CPU [0-9]+ %, memory [0-9]+ %.*: ((CPU|memory|disk|network)-bound|no resource ran out)$" \
    "$WORK/score.log" || { cat "$WORK/score.log"; fail "score has no resources line for node_exporter"; }
grep -q "^resources  127.0.0.1:$SIM_METRICS: " "$WORK/score.log" || fail "score has no resources line for simhost"
"$B/sessmax" report "$WORK/r.db" -o "$WORK/report.html" >/dev/null
grep -q 'id="resources"' "$WORK/report.html" || fail "the report has no resources line"
grep -q 'data-series="res-cpu-active"' "$WORK/report.html" || fail "the report has no CPU against sessions chart"
grep -q 'data-series="res-cpu-time"' "$WORK/report.html" || fail "the report has no CPU over time chart"
grep "^resources" "$WORK/score.log"
echo "run_target_metrics: ok"
