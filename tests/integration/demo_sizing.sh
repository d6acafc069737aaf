#!/bin/bash
# demo_sizing.sh -- `sessmax demo` sizes its ramp past the knee it predicts: a plan of 2 sessions
# over 2 s on a budget of 5 % of a CPU (the short worker at work-scale 0.05) is far too short, so
# the demo runs the predictor, says "predicted knee N on this machine: ramping to M users", ramps
# M >= 1.3 x N sessions at the plan's rate (1 user/s) and keeps the prediction in OUT/predict.txt.
# The sizing rule itself is tests/unit/test_demo_size.c.
set -euo pipefail
. "$(dirname "$0")/lib/harness.sh"
B=${SESSMAX_BUILD_DIR:?} S=${SESSMAX_SOURCE_DIR:?}
scratch_dir WORK demo_sizing
export SESSMAX_AGENT_BIN=$B/sessmax-agent

cat > "$WORK/plan.yaml" <<YAML
version: 1
name: demo-sizing
target: {host: 127.0.0.1, port: 3390, verify: false, security: tls, local: {cpu_percent: 5, simhost_work_scale: 0.05}}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-e2e
workload: $S/tests/integration/short-worker.yaml
sessions: 2
launch_window: 2s
steady_state: 5s
logoff_deadline: 20s
early_stop: {margin: 5s}
agents: {local: 1}
YAML

rc=0
"$B/sessmax" demo --plan "$WORK/plan.yaml" --out "$WORK/out" > "$WORK/demo.log" 2>&1 || rc=$?
[ $rc -le 2 ] || { cat "$WORK/demo.log"; fail "the demo failed (exit $rc)"; }
[ -s "$WORK/out/predict.txt" ] || { cat "$WORK/demo.log"; fail "no OUT/predict.txt"; }
grep -q -- "--cpus 0.05 --ramp-to 600," "$WORK/demo.log" || { cat "$WORK/demo.log"; fail "the predictor was not asked for the plan's budget and cap"; }
line=$(grep "^sessmax demo: predicted knee " "$WORK/demo.log") || { cat "$WORK/demo.log" "$WORK/out/predict.txt"; fail "no decision line"; }
knee=$(sed -n 's/^sessmax demo: predicted knee \([0-9]*\) on this machine.*/\1/p' <<<"$line")
to=$(sed -n 's/.*: ramping to \([0-9]*\) users .*/\1/p' <<<"$line")
pred=$(sed -n 's/^predicted smax for the plan: \([0-9]*\) .*/\1/p' "$WORK/out/predict.txt")
[ -n "$knee" ] && [ "$knee" = "$pred" ] || { echo "$line"; fail "the knee '$knee' is not the predictor's '$pred'"; }
[ -n "$to" ] && [ $((to * 10)) -ge $((knee * 13)) ] || { echo "$line"; fail "ramping to '$to' is not 1.3x past the knee $knee"; }
grep -q "^ramp: $to sessions over $to s on 1 agents" "$WORK/demo.log" || { cat "$WORK/demo.log"; fail "the run did not ramp $to sessions at 1 user/s"; }
echo "demo_sizing: ok ($line)"
