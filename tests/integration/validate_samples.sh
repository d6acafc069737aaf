#!/bin/bash
# validate_samples.sh -- `sessmax validate` exits 2 (inconclusive, with one line on stderr, -q
# too) when it already knows a valid plan's run cannot collect the samples its score needs: too
# short for a baseline, no measure group and no focus: timer, or a single-user plan (focus:, no
# measure group) with fewer focus samples than the verdict needs; 0 when the run can.
set -euo pipefail
. "$(dirname "$0")/lib/harness.sh"
B=${SESSMAX_BUILD_DIR:?} S=${SESSMAX_SOURCE_DIR:?}
scratch_dir WORK validate_samples
export SESSMAX_PASSWORD=validate-samples

# validate_rc WANT NAME [ARGS...]: `sessmax validate ARGS $WORK/NAME.yaml`, output in NAME.out/.err
validate_rc() {
    local want=$1 name=$2 rc=0
    shift 2
    "$B/sessmax" validate "$@" "$WORK/$name.yaml" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
    [ $rc = "$want" ] || { cat "$WORK/$name.out" "$WORK/$name.err"; fail "validate $name: exit $rc, expected $want"; }
}

# the shipped single-user A/B plan: 25 loops of its focus timer, 15 needed
sed "s|^workload: .*|workload: $S/workloads/appstart-ab.yaml|" "$S/workloads/ab-plan.yaml" > "$WORK/ab.yaml"
validate_rc 0 ab
grep -q "judged on its focus timer" "$WORK/ab.out" || fail "validate did not say the A/B plan is judged on its focus timer"
grep -q "^  focus      appstart: at most 25 samples .*; the verdict needs 15 ok ones" "$WORK/ab.out" ||
    fail "no focus line: $(cat "$WORK/ab.out")"
[ ! -s "$WORK/ab.err" ] || fail "stderr for a plan that can be scored: $(cat "$WORK/ab.err")"

sed "s/^loops: 25/loops: 5/" "$WORK/ab.yaml" > "$WORK/ab5.yaml"
validate_rc 2 ab5
grep -q "NOT ENOUGH: the verdict needs 15 ok ones" "$WORK/ab5.out" || fail "ab5: $(cat "$WORK/ab5.out")"
grep -qx "sessmax validate: $WORK/ab5.yaml: valid, but its run cannot collect the samples a score needs (at most 5 samples of the focus timer, the verdict needs 15): it would end inconclusive" \
    "$WORK/ab5.err" || fail "ab5 stderr: $(cat "$WORK/ab5.err")"
validate_rc 2 ab5 -q
[ ! -s "$WORK/ab5.out" ] || fail "-q printed on stdout"
grep -q "it would end inconclusive" "$WORK/ab5.err" || fail "-q: no reason on stderr"

# no measure group and no focus: nothing to score
grep -v '^focus:' "$WORK/ab.yaml" > "$WORK/nofocus.yaml"
validate_rc 2 nofocus
grep -q "(no measure group 'vsi' and no focus: timer)" "$WORK/nofocus.err" || fail "nofocus: $(cat "$WORK/nofocus.err")"

# a measure group, but a ramp too short for a baseline (the task worker's loop takes 28.5 s of thinks)
cat > "$WORK/short.yaml" <<YAML
name: short
target: {host: 127.0.0.1, port: 3389, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
workload: $S/workloads/simhost-task-worker.yaml
sessions: 4
launch_window: 10s
steady_state: 30s
agents: {local: 1}
YAML
validate_rc 2 short
grep -q "NOT ENOUGH: at most 4 'vsi' samples" "$WORK/short.out" || fail "short: $(cat "$WORK/short.out")"
grep -q "(at most 4 'vsi' samples, a baseline needs 15)" "$WORK/short.err" || fail "short stderr: $(cat "$WORK/short.err")"
sed "s/^steady_state: 30s/steady_state: 10m/" "$WORK/short.yaml" > "$WORK/long.yaml"
validate_rc 0 long
echo "validate_samples: ok"
