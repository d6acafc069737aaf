#!/usr/bin/env bash
# report_cli.sh -- the analysis verbs as a CI job uses them: exit codes of score (pass, fail,
# inconclusive, usage, data, missing file), verdict.json, compare/export formats written to
# files, and the dashboard, on a store written by the report unit test; outputs replace a link
# planted at their name instead of writing through it.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
S=$B/sessmax
. "$(dirname "$0")/lib/harness.sh"
scratch_dir TMP sessmax-report-cli
expect_rc() {   # expect_rc CODE cmd...
    local want=$1; shift
    set +e; "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?; set -e
    [ "$rc" -eq "$want" ] || { cat "$TMP/out" "$TMP/err" >&2; fail "exit $rc, want $want: $*"; }
}

( cd "$TMP" && SESSMAX_FIXTURE_DB="$TMP/f.db" "$B/tests/test_report" >/dev/null ) || fail "fixture"
DB=$TMP/f.db

# run 1 passes its thresholds; run 3 never reaches smax and has no thresholds
expect_rc 0 "$S" score "$DB" --run 1 --verdict "$TMP/v1.json"
grep -q '^smax ' "$TMP/out" && grep -q '^verdict    pass' "$TMP/out" || fail "score text"
grep -q 'mean of the 15 lowest samples after dropping the 2 lowest: 13 values' "$TMP/out" || fail "baseline wording"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]=="pass" and d["exit_code"]==0' "$TMP/v1.json" \
    || fail "verdict.json"
expect_rc 0 "$S" score "$DB" --run 3 --no-store
grep -q 'not reached at 40 active (smax >= 39)' "$TMP/out" || fail "not reached"
# a stricter plan re-scores run 1: a failed threshold is exit 1
printf 'thresholds: ["smax >= 500"]\n' >"$TMP/strict.yaml"
expect_rc 1 "$S" score "$DB" --run 1 --plan "$TMP/strict.yaml" --no-store
# a stuck limit of 0 % cannot be broken by a clean run; lag limit below the agents' 3 ms can
printf 'score: {lag_p99_max_ms: 1}\n' >"$TMP/lag.yaml"
expect_rc 2 "$S" score "$DB" --run 1 --plan "$TMP/lag.yaml" --no-store
grep -q 'agent loop lag p99 3.0 ms' "$TMP/out" || fail "lag reason"
# bad input: positioned config error, unknown timer, usage, missing file, not a database
printf 'thresholds: ["p95(app_start) < 3000", "p97(app_start) < 1"]\n' >"$TMP/bad.yaml"
expect_rc 78 "$S" score "$DB" --plan "$TMP/bad.yaml"
grep -q "bad.yaml:1:39: .*unknown metric 'p97'" "$TMP/err" || { cat "$TMP/err"; fail "positioned error"; }
printf 'thresholds: ["p95(nope) < 3000"]\n' >"$TMP/nope.yaml"
# a threshold on a timer without samples fails with its reason (docs/scoring.md), not a data error
expect_rc 1 "$S" score "$DB" --plan "$TMP/nope.yaml" --no-store
grep -q "\[fail\] p95(nope) < 3000: no 'nope' sample in this run" "$TMP/out" || fail "unknown timer message"
expect_rc 64 "$S" score
expect_rc 64 "$S" score "$DB" --run abc
expect_rc 65 "$S" score "$DB" --run 99
expect_rc 66 "$S" score "$TMP/missing.db"
echo "not a database" >"$TMP/junk.db"
expect_rc 65 "$S" score "$TMP/junk.db"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "junk db: one line expected"

# every verb's help is printed as written (no printf escapes such as %% left in it)
for v in run matrix validate score compare trend report dashboard export demo agents db; do
    expect_rc 0 "$S" help "$v"
    grep -q '%%' "$TMP/out" && fail "sessmax help $v prints '%%'"
done

# compare: text, CSV, Markdown, grouped
expect_rc 0 "$S" compare "$DB"
[ "$(wc -l <"$TMP/out")" -eq 4 ] || fail "compare rows"
expect_rc 0 "$S" compare "$DB" --by transport,platform,network --format csv -o "$TMP/cmp.csv"
head -1 "$TMP/cmp.csv" | grep -q '^group,runs,smax,baseline_ms,p95_ms(app_start)' || fail "compare csv header"
grep -q '^tcp/ws2022/lan,2,' "$TMP/cmp.csv" || fail "compare group"
expect_rc 0 "$S" compare "$DB" 1 2 --format markdown
grep -q '^|:-' "$TMP/out" || fail "markdown"
expect_rc 64 "$S" compare "$DB" --by colour

# export: every format to a file
for f in csv json junit openmetrics; do
    expect_rc 0 "$S" export "$DB" --run 2 --format "$f" -o "$TMP/e.$f"
    [ -s "$TMP/e.$f" ] || fail "export $f empty"
done
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/e.json" || fail "export json"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP/e.junit" || fail "junit xml"
tail -1 "$TMP/e.openmetrics" | grep -qx '# EOF' || fail "openmetrics EOF"
expect_rc 64 "$S" export "$DB" --format yaml

# dashboard and report
expect_rc 0 "$S" dashboard "$DB" -o "$TMP/dash"
for f in index.html run-1.html run-2.html run-3.html; do [ -s "$TMP/dash/$f" ] || fail "dashboard $f"; done
mkdir -p "$TMP/r"
expect_rc 0 "$S" report "$DB" --run 2 -o "$TMP/r/report.html"
[ -e "$TMP/r/verdict.json" ] && fail "report wrote a verdict.json nobody asked for"
expect_rc 0 "$S" report "$DB" --run 2 -o "$TMP/r/report.html" --verdict "$TMP/r/v.json"
[ -s "$TMP/r/v.json" ] || fail "no verdict.json at --verdict"
# outputs never write through a link planted at their name: the link is replaced, its target kept;
# files are owner-only (they name users and hosts)
echo precious >"$TMP/victim"
mkdir -p "$TMP/plant"
for f in report.html export.csv compare.csv v.json index.html; do ln -sf "$TMP/victim" "$TMP/plant/$f"; done
expect_rc 0 "$S" report "$DB" --run 2 -o "$TMP/plant/report.html" --verdict "$TMP/plant/v.json"
expect_rc 0 "$S" export "$DB" --run 2 --format csv -o "$TMP/plant/export.csv"
expect_rc 0 "$S" compare "$DB" --format csv -o "$TMP/plant/compare.csv"
expect_rc 0 "$S" dashboard "$DB" -o "$TMP/plant"
[ "$(cat "$TMP/victim")" = precious ] || fail "an output was written through a planted link"
for f in report.html export.csv compare.csv v.json index.html; do
    [ -f "$TMP/plant/$f" ] && [ ! -L "$TMP/plant/$f" ] && [ -s "$TMP/plant/$f" ] || fail "$f is not a new file"
    [ "$(stat -c %a "$TMP/plant/$f")" = 600 ] || fail "$f is mode $(stat -c %a "$TMP/plant/$f"), not 600"
done
ls -A "$TMP/plant" | grep -q '^\.' && fail "a temporary file was left: $(ls -A "$TMP/plant")"
expect_rc 74 "$S" report "$DB" --run 2 -o "$TMP/nodir/x/report.html"
# a tampered runs.score_params (a \u escape then 40,000 bytes) overflowed the old hand-written
# JSON reader (exit 139); now every verb that reads it says what is wrong in one line
cp "$DB" "$TMP/t.db"
sqlite3 "$TMP/t.db" "update runs set score_params='{\"measure\":\"\\u1'||replace(hex(zeroblob(20000)),'0','A')||'\"}' where id=1"
expect_rc 65 "$S" score "$TMP/t.db" --run 1 --no-store
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'score_params' "$TMP/err" || { cat "$TMP/err"; fail "tampered score_params message"; }
expect_rc 65 "$S" report "$TMP/t.db" --run 1 -o "$TMP/r/t.html"
expect_rc 65 "$S" export "$TMP/t.db" --run 1 --format json
sqlite3 "$TMP/t.db" "update runs set score_params='{\"measure\":\"\\u1\"}' where id=1"
expect_rc 65 "$S" score "$TMP/t.db" --run 1 --no-store
echo "report_cli: ok"
