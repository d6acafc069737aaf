#!/bin/bash
# run_drive_copy.sh -- copy throughput through the controller: the shipped drive-copy workload
# (sizes cut to 1 MB / 3 MB) with its drives: moved into the plan, one loop (loops: 1), run twice
# against simhost. Checks: the copy sizes come from the plan's drives; `sessmax score` prints the
# copy table (both directions x both sizes, seconds and MB/s); the report, compare (CSV and
# --ab) and every export carry the throughput; a bad plan-level drive is refused at file:line:col.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
start_simhost 1
sed -e '/^drives:/,+1d' -e 's/out10m 10MB/out10m 1MB/' -e 's/out300m 300MB/out300m 3MB/' \
    "$S/workloads/drive-copy.yaml" > "$WORK/drive-copy.yaml"
grep -q '^drives:' "$WORK/drive-copy.yaml" && fail "the workload still declares its drives"
sed -e "s|port: 3389|port: $SIM_PORT|" -e "s|^results: .*|results: $WORK/r.db|" \
    -e "s|^workload: .*|workload: $WORK/drive-copy.yaml|" "$S/workloads/drive-copy-plan.yaml" > "$WORK/plan.yaml"
echo 'drives: {share: {files: {file10m: 1MB, file300m: 3MB}}}' >> "$WORK/plan.yaml"

# a plan-level drive with a bad name: refused where it is written
sed -e 's/^drives: {share:/drives: {"bad name":/' "$WORK/plan.yaml" > "$WORK/bad.yaml"
set +e
out=$("$B/sessmax" validate "$WORK/bad.yaml" 2>&1); rc=$?
set -e
[ $rc -ne 0 ] && grep -qE "bad.yaml:[0-9]+:[0-9]+: drive name 'bad name' must be" <<<"$out" \
    || fail "bad plan drive: exit $rc, '$out'"
# a copy timer whose file is in no drive
sed -e 's/file300m: 3MB/other: 3MB/' "$WORK/plan.yaml" > "$WORK/nofile.yaml"
set +e
out=$("$B/sessmax" validate "$WORK/nofile.yaml" 2>&1); rc=$?
set -e
[ $rc -ne 0 ] && grep -qE "drive-copy.yaml:[0-9]+:[0-9]+: copy size 'share/file300m': no such file" <<<"$out" \
    || fail "copy of a missing drive file: exit $rc, '$out'"

# validate tells a workload from a plan by its content
"$B/sessmax" validate "$S/workloads/drive-copy.yaml" | grep -q "valid workload 'drive-copy'" || fail "validate workload"
"$B/sessmax" validate --workload "$WORK/drive-copy.yaml" | grep -q 'copyin_10m (copy)' || fail "validate --workload"
# one loop of copy timers, no measure group, no focus: valid, but no run of it can be scored, and
# validate says so with the inconclusive exit code
set +e
out=$("$B/sessmax" validate "$WORK/plan.yaml" 2>&1); rc=$?
set -e
[ $rc = 2 ] && grep -q "valid plan 'drive-copy'" <<<"$out" && grep -q "cannot collect the samples a score needs" <<<"$out" \
    || fail "validate plan: exit $rc, '$out'"

for run in 1 2; do
    set +e
    "$B/sessmax" run "$WORK/plan.yaml" --plain --report "$WORK/report$run.html" > "$WORK/run$run.log" 2>&1
    rc=$?
    set -e
    [ $rc -le 2 ] || { cat "$WORK/run$run.log"; fail "run $run: sessmax run exited $rc"; }
    grep -q 'every session ran its 1 loops' "$WORK/run$run.log" || fail "run $run did not end after its loop"
    grep -q "^agents     1 (0 lost)" "$WORK/run$run.log" || fail "run $run: the agent was lost at the end"
done
cat "$WORK/run1.log"
[ "$(q "SELECT count(*) FROM samples WHERE run_id = 1 AND ok = 1")" = 4 ] || fail "run 1: not 4 ok copy samples"
[ "$(q "SELECT group_concat(name || ':' || to_client || ':' || bytes, ' ') FROM copy_timers WHERE run_id = 1")" = \
  "copyin_10m:0:1048576 copyin_300m:0:3145728 copyout_10m:1:1048576 copyout_300m:1:3145728" ] \
    || fail "copy timers stored: $(q 'SELECT * FROM copy_timers')"

# the copy table in the run's summary: a header with both sizes, a row per direction with s and MB/s
grep -qE '^copies \(median.*1 MB +3 MB' "$WORK/run1.log" || fail "no copy table header"
grep -qE '^client -> server \(copy in\) +[0-9.]+ s +[0-9.]+ MB/s +[0-9.]+ s +[0-9.]+ MB/s' "$WORK/run1.log" \
    || fail "no client -> server row"
grep -qE '^server -> client \(copy out\) +[0-9.]+ s +[0-9.]+ MB/s +[0-9.]+ s +[0-9.]+ MB/s' "$WORK/run1.log" \
    || fail "no server -> client row"
set +e; "$B/sessmax" score "$WORK/r.db" --run 1 --no-store > "$WORK/score.txt"; set -e
grep -qE '^copyin_300m .*\(copy in, [0-9.]+ MB/s at p50\)' "$WORK/score.txt" || fail "score: no MB/s beside copyin_300m"

grep -q 'id="copies"' "$WORK/report1.html" || fail "report: no copy table"
grep -q 'MB/s at p50 (copy timers)' "$WORK/report1.html" || fail "report: no MB/s column"

"$B/sessmax" compare "$WORK/r.db" 1 2 --format csv -o "$WORK/cmp.csv"
head -1 "$WORK/cmp.csv" | grep -q 'p95_ms(copyin_10m),MiB_per_s_at_p95(copyin_10m)' || fail "compare: no throughput column"
set +e
"$B/sessmax" compare "$WORK/r.db" 1 2 --ab > "$WORK/ab.txt" 2>&1
set -e
cat "$WORK/ab.txt"
grep -qE '^copyout_300m +3 MB +server -> client +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$WORK/ab.txt" || fail "compare --ab: no throughput"

for f in csv json openmetrics junit; do "$B/sessmax" export "$WORK/r.db" --run 1 --format $f -o "$WORK/x.$f"; done
grep -qE '^1,copy_mib_per_s_p50,copyin_10m,[0-9.]+$' "$WORK/x.csv" || fail "csv export"
python3 - "$WORK/x.json" <<'PY' || fail "json export"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"] if "runs" in d else [d]
t = {x["name"]: x for x in runs[0]["timers"]}
c = t["copyout_300m"]["copy"]
assert c["bytes"] == 3145728 and c["direction"] == "server->client" and c["mib_per_s_p50"] > 0, c
PY
grep -qE '^sessmax_copy_mib_per_s\{.*timer="copyin_300m",direction="client->server",bytes="3145728"\} [0-9.e+]+$' \
    "$WORK/x.openmetrics" || fail "openmetrics export"
grep -q 'property name="copy.copyin_10m" value="[0-9.]* s, [0-9.]* MiB/s at p50' "$WORK/x.junit" || fail "junit export"
echo PASS
