#!/bin/bash
# ab_fairshare.sh -- single-user A/B diagnosis end to end: the same one-session appstart plan
# against simhost with --io-fairshare off (run 1) and on (run 2); `sessmax compare --ab` must call
# run 2 slower with p < 0.01 and exit 1 over a 50 % regression limit, and exit 0 when the runs
# are given the other way round (B faster is no regression). The plan's loops: 25 / focus:
# appstart give exactly 25 appstart samples per run, and compare --ab shows only that timer. Each
# run is judged on its focus timer (the plan has no measure group): it passes with 25 samples (15
# needed) and says so, instead of ending "inconclusive: too few samples for a baseline" (exit 2).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
plan() {
    sed -e "s|port: 3389|port: $SIM_PORT|" -e "s|^workload: .*|workload: $S/workloads/appstart-ab.yaml|" \
        -e "s|^results: .*|results: $WORK/ab.db|" \
        "$S/workloads/ab-plan.yaml" > "$WORK/plan.yaml"
}
start_simhost 1
plan
run_to_end run1
rc1=$rc
stop_simhost
start_simhost 1 --io-fairshare on
plan
run_to_end run2
rc2=$rc
for r in 1 2; do   # no thresholds: a valid single-user run passes
    eval "code=\$rc$r"
    grep -q "^  \[pass\] single-user diagnosis, judged on its focus timer 'appstart': 25 ok samples (15 needed)" \
        "$WORK/run$r.log" || fail "run $r: the verdict does not say it was judged on the focus timer"
    grep -q "too few samples for a baseline" "$WORK/run$r.log" && fail "run $r: still 'too few samples for a baseline'"
    # pass (0); on a loaded machine the agent's loop lag alone may make it inconclusive (2), nothing else
    if [ "$code" = 2 ] && grep -q "^verdict    inconclusive" "$WORK/run$r.log"; then
        ! grep '^  \[inconclusive\]' "$WORK/run$r.log" | grep -v 'agent loop lag' ||
            fail "run $r: inconclusive for more than the agent's loop lag"
        continue
    fi
    [ "$code" = 0 ] || fail "run $r exited $code, expected 0 (judged on its focus timer, no threshold)"
    grep -q "^verdict    pass" "$WORK/run$r.log" || fail "run $r: verdict not pass"
    [ "$(sqlite3 "$WORK/ab.db" "SELECT verdict FROM runs WHERE id = $r")" = pass ] || fail "run $r: stored verdict"
done
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
grep -q '^focus: appstart' "$WORK/ab.txt" || fail "compare --ab did not announce the focus timer"
for run in 1 2; do   # loops: 25 -> exactly 25 appstart samples, then the session logged off
    n=$(sqlite3 "$WORK/ab.db" "SELECT count(*) FROM samples s JOIN timer_names t ON t.id = s.name_id
        WHERE s.run_id = $run AND t.name = 'appstart'")
    [ "$n" = 25 ] || fail "run $run: $n appstart samples, expected 25 (loops: 25)"
    grep -q 'every session ran its 25 loops' "$WORK/run$run.log" || fail "run $run did not end on its loops"
    grep -q "^agents     1 (0 lost)" "$WORK/run$run.log" || fail "run $run: the agent was lost at the end"
    grep -q '^focus      appstart: 25 samples' "$WORK/run$run.log" || fail "run $run: no focus line in the score"
done
# the plain table's smax cell says how a single-user run was judged, not "too few samples"
"$B/sessmax" compare "$WORK/ab.db" 1 2 > "$WORK/cmp.txt" 2>&1 || true
grep -q 'judged on the focus timer' "$WORK/cmp.txt" || { cat "$WORK/cmp.txt"; fail "compare: the smax cell does not say it was judged on the focus timer"; }
grep -q 'too few samples' "$WORK/cmp.txt" && { cat "$WORK/cmp.txt"; fail "compare: 'too few samples' for a single-user run"; }
echo PASS
