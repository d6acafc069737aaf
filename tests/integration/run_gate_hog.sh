#!/bin/bash
# run_gate_hog.sh -- same plan, same verdict beside company: three `sessmax demo` runs of one short
# plan with a busy loop pinned to the agent's CPU all end with the same verdict, and none is made
# inconclusive by the agent gate on the loop's lag alone (the agent's share of the samples is
# judged, and the busy loop leaves it a few ms). The agent's run delay is measured and shown.
. "$(dirname "$0")/lib/gate.sh"
scratch_dir WORK run_gate_hog
gate_plan "$WORK/plan.yaml" 5 9s
busy_start 0
verdicts=""
for i in 1 2 3; do
    gate_demo "$WORK/plan.yaml" "$WORK/run$i"
    item=$(gate_item "$WORK/run$i/verdict.json")
    echo "run $i: $item"
    "$B/sessmax" score "$WORK/run$i/results.db" --no-store 2>/dev/null | grep '^agent      share' || true
    [[ $item == *"no agent share measured"* ]] && fail "run $i: no agent share measured"
    verdicts="$verdicts ${item%%|*}"
done
busy_stop
set -- $verdicts
[ "$1" = "$2" ] && [ "$2" = "$3" ] || fail "three runs of one plan beside a busy loop:$verdicts"
runs=$(sqlite3 "$WORK/run1/results.db" "SELECT count(*) FROM health WHERE loop_delay_permille IS NOT NULL")
[ "$runs" -gt 0 ] || fail "no health record with the agent's run delay"
echo "run_gate_hog: ok (verdicts:$verdicts)"
