#!/bin/bash
# run_gate_overload.sh -- an agent with too many sessions for the CPU it has is caught: `sessmax
# demo` (controller and agent) inside a cgroup v1 group whose CFS quota is 2 % of a CPU, 12
# sessions; the verdict is inconclusive, and the agent gate says why: the agent's own work.
. "$(dirname "$0")/lib/gate.sh"
[ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ] || { echo "SKIP: needs root and cgroup v1 cpu"; exit 77; }
scratch_dir WORK run_gate_overload
G=/sys/fs/cgroup/cpu/sessmax-gate-$$
mkdir "$G"
at_exit "rmdir $G 2>/dev/null || true"
echo 100000 > "$G/cpu.cfs_period_us"
echo 2000 > "$G/cpu.cfs_quota_us"
in_group() { ( echo "$BASHPID" > "$G/cgroup.procs" && exec "$@" ); }   # a subshell joins, then runs the rest
gate_plan "$WORK/plan.yaml" 12 10s
gate_demo "$WORK/plan.yaml" "$WORK/over" in_group
item=$(gate_item "$WORK/over/verdict.json")
echo "overloaded: $item"
"$B/sessmax" score "$WORK/over/results.db" --no-store 2>/dev/null | grep '^agent      share' || true
[[ $item == "inconclusive|inconclusive|the agent's share could change the score"* ]] ||
    fail "an agent held to 2 % of a CPU with 12 sessions was not caught by the agent gate"
[[ $item == *"the agent's own work"* ]] || fail "the reason is not the agent's own work"
echo "run_gate_overload: ok"
