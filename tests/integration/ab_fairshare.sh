#!/bin/bash
# ab_fairshare.sh -- single-user A/B diagnosis end to end: the same one-session appstart plan
# against simhost with --io-fairshare off (run 1) and on (run 2); `sessmax compare --ab` must call
# run 2 slower with p < 0.01 and exit 1 over a 50 % regression limit, and exit 0 when the runs
# are given the other way round (B faster is no regression).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
plan() {
    sed -e "s|port: 3389|port: $SIM_PORT|" -e "s|^workload: .*|workload: $S/workloads/appstart-ab.yaml|" \
        -e "s|^steady_state: .*|steady_state: 20s|" -e "s|^results: .*|results: $WORK/ab.db|" \
        "$S/workloads/ab-plan.yaml" > "$WORK/plan.yaml"
}
run_plan() {   # the verdict of a one-user run is "inconclusive" (exit 2): no capacity is measured
    set +e
    "$B/sessmax" run "$WORK/plan.yaml" --plain > "$WORK/$1.log" 2>&1
    local rc=$?
    set -e
    [ $rc -le 2 ] || { cat "$WORK/$1.log"; fail "$1: sessmax run exited $rc"; }
}
start_simhost 1
plan
run_plan run1
stop_simhost
start_simhost 1 --io-fairshare on
plan
run_plan run2
set +e
"$B/sessmax" compare "$WORK/ab.db" 1 2 --ab --max-regression 50% > "$WORK/ab.txt" 2> "$WORK/ab.err"
rc=$?
"$B/sessmax" compare "$WORK/ab.db" 2 1 --ab --max-regression 50% > "$WORK/ba.txt" 2>&1
rc2=$?
set -e
cat "$WORK/ab.txt" "$WORK/ab.err"
[ $rc = 1 ] || fail "compare --ab exited $rc, expected 1 (regression over the limit)"
[ $rc2 = 0 ] || fail "compare --ab B-faster exited $rc2, expected 0"
line=$(grep '^appstart ' "$WORK/ab.txt") || fail "no appstart row"
echo "$line" | grep -q 'B slower by' || fail "the knob was not detected"
echo "$line" | grep -q 'REGRESSION' || fail "not flagged over the limit"
python3 - "$line" <<'PY' || fail "p-value not below 0.01"
import sys
p = sys.argv[1].split()[8]
assert p == "<0.001" or float(p) < 0.01, p
PY
grep '^appstart ' "$WORK/ba.txt" | grep -q 'B faster by' || fail "reverse comparison"
echo PASS
