#!/bin/bash
# demo_budget.sh -- `sessmax demo` gives simhost the plan's CPU budget whatever the caller's
# scheduling: started from a SCHED_BATCH shell, simhost still runs as SCHED_OTHER (nice kept) in
# its own cgroup v1 group with the plan's cfs quota (cpu_percent 50 -> 50000 of 100000), the
# default weight (only a real-time caller raises it; tests/unit/test_cmd_demo.c), and no
# real-time runtime; the controller itself runs on the agents' CPU (off simhost's); the group is
# gone after the demo; simhost runs with the plan's simhost_work_scale as --work-scale. A real-time
# caller is not tried here.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?} S=${SESSMAX_SOURCE_DIR:?}
[ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ] || { echo "SKIP: needs root and cgroup v1 cpu"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs"; exit 77; }
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK demo_budget

cat > "$WORK/plan.yaml" <<YAML
version: 1
name: demo-budget
target: {host: 127.0.0.1, port: 3390, verify: false, security: tls, local: {cpus: "1", cpu_percent: 50, simhost_work_scale: 0.25}}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-e2e
workload: $S/tests/integration/short-worker.yaml
sessions: 1
launch_window: 1s
steady_state: 8s
logoff_deadline: 20s
agents: {local: 1, cpus: "0"}
results: $WORK/unused.db
YAML

chrt -b 0 "$B/sessmax" demo --as-planned --plan "$WORK/plan.yaml" --out "$WORK/out" > "$WORK/demo.log" 2>&1 &
DEMO=$!
PIDS+=("$DEMO")
SIM=""
for _ in $(seq 1 300); do
    SIM=$(pgrep -P "$DEMO" -x sessmax-simhost || true)
    [ -n "$SIM" ] && grep -q "listening on" "$WORK/out/simhost.log" 2>/dev/null && break
    kill -0 "$DEMO" 2>/dev/null || { cat "$WORK/demo.log"; fail "the demo ended before simhost listened"; }
    sleep 0.1
done
[ -n "$SIM" ] || fail "no simhost child of the demo"
policy=$(chrt -p "$SIM" | sed -n 's/.*scheduling policy: //p')
[ "$policy" = SCHED_OTHER ] || fail "simhost runs as '$policy', not SCHED_OTHER (a caller's policy must not change its budget)"
[ "$(chrt -p "$DEMO" | sed -n 's/.*scheduling policy: //p')" = SCHED_BATCH ] || fail "the caller is not SCHED_BATCH: the test proves nothing"
group=$(sed -n 's/^[0-9]*:[^:]*cpu[,:][^:]*:\(.*\)$/\1/p; s/^[0-9]*:cpu:\(.*\)$/\1/p' "/proc/$SIM/cgroup" | head -1)
G=/sys/fs/cgroup/cpu$group
case "$group" in /sessmax-demo-*) ;; *) fail "simhost is in cpu group '$group', not the demo's";; esac
[ "$(cat "$G/cpu.cfs_period_us")" = 100000 ] || fail "cfs period $(cat "$G/cpu.cfs_period_us")"
[ "$(cat "$G/cpu.cfs_quota_us")" = 50000 ] || fail "cfs quota $(cat "$G/cpu.cfs_quota_us"), plan says 50 % of a CPU"
[ "$(cat "$G/cpu.shares")" = 1024 ] || fail "cpu.shares $(cat "$G/cpu.shares") for a caller that is not real-time"
[ ! -e "$G/cpu.rt_runtime_us" ] || [ "$(cat "$G/cpu.rt_runtime_us")" = 0 ] || fail "the group has real-time runtime $(cat "$G/cpu.rt_runtime_us")"
grep -q "cfs quota 50 % of a CPU (SCHED_OTHER, cpu.shares 1024)" "$WORK/demo.log" || { cat "$WORK/demo.log"; fail "the demo did not say its budget"; }
# the plan's simhost_work_scale is simhost's --work-scale; --users covers every session (at least 60)
args=$(tr '\0' ' ' < "/proc/$SIM/cmdline")
case "$args" in *"--users 60 --work-scale 0.25 "*) ;; *) fail "simhost started as '$args'";; esac
grep -q "(work-scale 0.25)" "$WORK/demo.log" || { cat "$WORK/demo.log"; fail "the demo did not say simhost's work scale"; }
# the (here SCHED_BATCH, under chrt real-time) controller runs on the agents' CPU, off simhost's
affinity() { taskset -pc "$1" | sed 's/.*: //'; }
for _ in $(seq 1 50); do [ "$(affinity "$DEMO")" = 0 ] && break; sleep 0.1; done
[ "$(affinity "$DEMO")" = 0 ] || fail "the controller runs on CPUs $(affinity "$DEMO"), not the agents' CPU 0"
[ "$(affinity "$SIM")" = 1 ] || fail "simhost runs on CPUs $(affinity "$SIM"), not the plan's CPU 1"
rc=0
wait "$DEMO" || rc=$?   # the verdict's code: a one-session demo is inconclusive (too few samples)
[ $rc -le 2 ] || { cat "$WORK/demo.log"; fail "the demo failed (exit $rc)"; }
[ ! -d "$G" ] || fail "$G left behind"
grep -q "^results:" "$WORK/demo.log" || { cat "$WORK/demo.log"; fail "no results line"; }
grep -q "simhost_work_scale" "$WORK/demo.log" && { cat "$WORK/demo.log"; fail "the demo's run noted the work scale it applied itself"; }
echo "demo_budget: ok (simhost $policy in $group: quota 50000/100000, shares 1024, work-scale 0.25)"
