#!/bin/bash
# simhost_predict.sh -- `--predict --plan` calibrates from a real session: with --session-loops 1
# it plays one loop of the plan's workload into a simhost child, prints the real-session line and
# prices the plan with that figure (the "cost model: X s of CPU per loop" line bench/demo-predict.sh
# reads carries the real session's X); with --session-loops 0 it uses the synthetic model alone.
# Work-scale 0.2 keeps the loop short; it wins over the plan's target.local.simhost_work_scale
# (0.5, the simhost `sessmax demo` starts), which --predict --plan uses when none is given.
. "$(dirname "$0")/lib/agent_env.sh"
PLAN=$S/workloads/demo-plan.yaml
"$SIMHOST" --predict --plan "$PLAN" --cpus 1 --work-scale 0.2 --session-loops 1 --state-dir "$T/p1" \
  > "$T/p1.txt" 2> "$T/p1.err" || { cat "$T/p1.txt" "$T/p1.err" >&2; fail "--predict --session-loops 1 failed"; }
real=$(sed -n 's/^sessmax-simhost: real session: \([0-9.]*\) s of CPU per loop (1 loop played into one session.*the prediction uses the real session.s$/\1/p' "$T/p1.txt")
[ -n "$real" ] || { cat "$T/p1.txt" "$T/p1.err" >&2; fail "no real-session line"; }
model=$(sed -n 's/^sessmax-simhost: cost model: \([0-9.]*\) s of CPU per loop$/\1/p' "$T/p1.txt")
[ "$model" = "$real" ] || { cat "$T/p1.txt" >&2; fail "the plan is priced at $model s per loop, not the real session's $real s"; }
grep -q '^predicted smax for the plan: ' "$T/p1.txt" || fail "no prediction with --session-loops 1"
grep -q ' on 1 CPU at work-scale 0.2; ' "$T/p1.txt" || { cat "$T/p1.txt" >&2; fail "--work-scale 0.2 did not win over the plan's"; }
"$SIMHOST" --predict --plan "$PLAN" --cpus 1 --session-loops 0 --state-dir "$T/p0" \
  > "$T/p0.txt" 2> "$T/p0.err" || { cat "$T/p0.err" >&2; fail "--predict --session-loops 0 failed"; }
grep -q 'real session' "$T/p0.txt" && fail "--session-loops 0 still ran the real-session check"
grep -q '^predicted smax for the plan: ' "$T/p0.txt" || fail "no prediction with --session-loops 0"
grep -q ' on 1 CPU at work-scale 0.5; ' "$T/p0.txt" || { cat "$T/p0.txt" >&2; fail "the plan's simhost_work_scale 0.5 was not used"; }
grep -q '^sessmax-simhost: cost model at work-scale 0.5 ' "$T/p0.txt" || { cat "$T/p0.txt" >&2; fail "not calibrated at the plan's work scale"; }
echo "simhost_predict: real session $real s per loop at work-scale 0.2; ok"
