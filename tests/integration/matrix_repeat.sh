#!/bin/bash
# matrix_repeat.sh -- `sessmax matrix --repeat N` end to end: every cell runs N times into one
# matrix (N completed runs per cell tag), the table's cells aggregate the N runs (`runs` = N in
# CSV), and a --resume of the finished matrix has nothing to do.
. "$(dirname "$0")/lib/controller.sh"
start_simhost 6
plan_fields "name: mxr" "sessions: 1" "launch_window: 1s" "steady_state: 4s" "score: {baseline_count: 3}"
mx() { timeout -k 10 200 "$B/sessmax" matrix "$WORK/plan.yaml" --plain --vary sessions=1,2 --repeat 2 "$@"; }
rc=0
mx --format csv >"$WORK/t.csv" 2>"$WORK/m.log" || rc=$?
cat "$WORK/t.csv"
[ $rc = 0 ] || fail "matrix exited $rc: $(tail -5 "$WORK/m.log")"
grep -q '2 cells x 2 runs .* (4 runs to do)' "$WORK/m.log" || fail "not 4 runs to do: $(head -3 "$WORK/m.log")"
[ "$(q "select group_concat(cell || ':' || n, ' ') from (select cell, count(*) n from runs
        where status = 'completed' and matrix_id = 1 group by cell order by cell)")" = "sessions=1:2 sessions=2:2" ] \
    || fail "runs per cell: $(q "select id, matrix_id, cell, status from runs")"
[ "$(grep -c '^simhost-e2e,[12],2,' "$WORK/t.csv")" = 2 ] || fail "csv: each cell should aggregate 2 runs"
mx --resume >"$WORK/r.log" 2>&1 || fail "resume of the finished matrix failed: $(tail -5 "$WORK/r.log")"
grep -q '(0 runs to do)' "$WORK/r.log" || fail "resume of a finished matrix had work to do"
[ "$(q "select count(*) from runs")" = 4 ] || fail "resume added runs"
echo "matrix_repeat: ok"
