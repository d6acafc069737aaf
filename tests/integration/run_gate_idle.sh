#!/bin/bash
# run_gate_idle.sh -- an agent with nothing connected never trips the gate: a run against a port
# nobody listens on, with a busy loop on the agent's CPU (its loop lag then is the machine's, not
# the sessions'). The run is inconclusive for want of samples, never for the agent: the gate's
# item passes (no sample to judge) whatever the loop lag.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
source "$S/tests/integration/lib/cpuload.sh"
source "$S/tests/integration/lib/gate_item.sh"
at_exit busy_stop
SIM_PORT=$(free_port)   # nothing listens there
plan_fields "sessions: 2" "launch_window: 1s" "steady_state: 8s" "logon_retries: 0" \
    'agents: {local: 1, cpus: "0", heartbeat_timeout: 5s}'
busy_start 0
run_to_end run
busy_stop
"$B/sessmax" score "$WORK/r.db" --verdict "$WORK/v.json" --no-store > "$WORK/score.txt" 2>&1 || true
item=$(gate_item "$WORK/v.json")
echo "idle: $item"
echo "health records: $(q "select count(*) from health"), loop lag p99 max $(q "select max(lag_p99_us) / 1000.0 from health") ms"
[[ $item == *"|pass|no ok sample to judge"* ]] || fail "an idle agent's gate item did not pass for want of samples"
case $(q "select verdict_reasons from runs where id = 1") in
    *"loop lag"*|*"agent's share"*|*"agent's own work"*|*"other processes"*) fail "an idle agent tripped the agent gate" ;;
esac
echo "run_gate_idle: ok"
