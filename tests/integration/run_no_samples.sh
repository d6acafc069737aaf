#!/bin/bash
# run_no_samples.sh -- one bad night never breaks the others: against simhost, a good run, then a
# run whose every logon is refused (wrong password; --no-preflight, so that both are tried), one
# stopped (SIGTERM) before its first sample and one that loses an agent, all with a timer
# threshold. Each gets a verdict (exit 2, or 77 for the refused logons; never 65) whose reason
# names what happened, through run, score, report, the four exports, compare, trend and dashboard.
# Then one run's stored score parameters are tampered with: db check names it, score refuses it
# (65), and trend and dashboard skip it (65) but still show every other run.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 8
THR='thresholds: ["p95(cpu) < 60000"]'
SCORE='score: {baseline_count: 3, baseline_drop: 0}'
D=$WORK/r.db
# sm WANT LOG ARGS...: `sessmax ARGS` into $WORK/LOG.out (stdout and stderr); its exit must be WANT
sm() {
    local want=$1 log=$2 rc=0
    shift 2
    "$B/sessmax" "$@" >"$WORK/$log.out" 2>&1 || rc=$?
    [ "$rc" = "$want" ] || { cat "$WORK/$log.out"; fail "sessmax $*: exit $rc, want $want"; }
}
has() { grep -qF -- "$2" "$WORK/$1" || { cat "$WORK/$1"; fail "$1 does not say: $2"; }; }
# ent ENTITY TEXT: TEXT with its apostrophes as the XML/HTML ENTITY (&#39; or &apos;)
ent() { local a=$1; sed "s/'/\\$a/g" <<<"$2"; }

# 1: a good night
plan_fields "name: good" "sessions: 2" "launch_window: 1s" "steady_state: 6s" "$THR" "$SCORE"
run_checked good

# 2: every logon refused
plan_fields "name: refused" "sessions: 2" "launch_window: 1s" "steady_state: 4s" "$THR" "$SCORE"
SESSMAX_PASSWORD=not-the-password run_to_end refused --no-preflight
[ $rc = 77 ] || fail "refused logons: sessmax run exited $rc, want 77 (authentication failed)"
has refused.log "[fail] p95(cpu) < 60000: no 'cpu' sample in this run"
has refused.log "failed by reason: auth 2"
[ "$(q "select verdict from runs where id = 2")" = inconclusive ] || fail "run 2: no verdict stored"

# 3: stopped before its first sample (the desktop must hold still 30 s before a logon counts)
sed 's/stable: {region: taskbar, for: 300ms}, timeout: 60s/stable: {region: taskbar, for: 30s}, timeout: 60s/' \
    "$S/tests/integration/short-worker.yaml" >"$WORK/slow-logon.yaml"
plan_fields "name: stopped" "sessions: 2" "launch_window: 1s" "steady_state: 20s" "logoff_deadline: 5s" \
    "workload: $WORK/slow-logon.yaml" "$THR" "$SCORE"
start_run
# (the pre-flight's first session is the one that waits: the ramp has not started)
wait_for 30 counts_at_least 1 "select count(*) from sessions where run_id = 3" || fail "run 3: no session launched"
kill -TERM "$CTL"
wait_run
[ $rc = 2 ] || fail "stopped run: sessmax run exited $rc, want 2"
[ "$(q "select count(*) from samples where run_id = 3")" = 0 ] || fail "run 3 has samples: not stopped in time"
[ "$(q "select status from runs where id = 3")" = aborted ] || fail "run 3 not aborted"
has run.log "[inconclusive] the run is aborted"
has run.log "no 'cpu' sample in this run"

# 4: one of two agents killed
plan_fields "name: lost" "sessions: 4" "launch_window: 2s" "steady_state: 12s" \
    "agents: {local: 2, capacity: 2, heartbeat_timeout: 5s}" "$THR" "$SCORE"
start_run
wait_for 60 counts_at_least 3 "select count(*) from sessions where run_id = 4 and state = 'active'" \
    || fail "run 4: sessions did not become active"
VICTIM=$(pgrep -P "$CTL" -f -- "--name local-1") || fail "agent local-1 not found"
kill -9 "$VICTIM"
wait_run
[ $rc = 2 ] || fail "lost agent: sessmax run exited $rc, want 2"
has run.log "1 of 2 agents lost"

# every verb on the three bad runs: a verdict with its reason, never a data error
why=([2]="no 'cpu' sample in this run" [3]="the run is aborted" [4]="1 of 2 agents lost")
code=([2]=77 [3]=2 [4]=2)   # the refused logons: authentication failed
for r in 2 3 4; do
    sm ${code[$r]} score$r score "$D" --run $r --no-store
    has score$r.out "${why[$r]}"
    sm 0 report$r report "$D" --run $r -o "$WORK/report$r.html" --verdict "$WORK/verdict$r.json"
    has report$r.html "$(ent '&#39;' "${why[$r]}")"
    has verdict$r.json '"verdict":"inconclusive"'
    sm 0 csv$r export "$D" --run $r --format csv
    has csv$r.out "$r,verdict_exit_code,,${code[$r]}"
    has verdict$r.json "\"exit_code\":${code[$r]}"
    sm 0 json$r export "$D" --run $r --format json
    has json$r.out "${why[$r]}"
    sm 0 junit$r export "$D" --run $r --format junit
    has junit$r.out '<property name="verdict" value="inconclusive"/>'
    has junit$r.out "$(ent '&apos;' "${why[$r]}")"
    sm 0 om$r export "$D" --run $r --format openmetrics
    grep -qE "^sessmax_verdict_code\{run=\"$r\".*\} 2$" "$WORK/om$r.out" || fail "openmetrics $r: no verdict_code 2"
done
has om2.out 'reason="auth"'
has score2.out "0 ok 'vsi' samples, 3 needed; the run recorded no measure samples; 2 of 2 sessions failed (auth 2)"
has junit2.out "2 of 2 sessions failed (auth 2)"

sm 0 compare compare "$D"
[ "$(grep -cE '^[1-4] ' "$WORK/compare.out")" = 4 ] || { cat "$WORK/compare.out"; fail "compare: not 4 runs"; }
has compare.out "n/a (too few samples: 0 of 3 needed; run failed)"
has compare.out "n/a (too few samples: 0 of 3 needed; run aborted)"
sm 0 comparemd compare "$D" --format markdown
[ "$(grep -c '^| [1-4] ' "$WORK/comparemd.out")" = 4 ] || fail "compare markdown: not 4 runs"

sm 0 trend trend "$D"
has trend.out "cell tcp / simhost-e2e / lan / builtin: 4 runs"
grep -qE '^ +2  .* n/a .* inconclusive +unknown$' "$WORK/trend.out" || { cat "$WORK/trend.out"; fail "trend: run 2"; }
grep -qE '^ +3  .* n/a .* inconclusive +unknown$' "$WORK/trend.out" || { cat "$WORK/trend.out"; fail "trend: run 3"; }

sm 0 dash dashboard "$D" -o "$WORK/dash"
for r in 1 2 3 4; do
    [ -s "$WORK/dash/run-$r.html" ] || fail "dashboard: no page for run $r"
    grep -qF "<a href=\"run-$r.html\">$r</a>" "$WORK/dash/index.html" || fail "dashboard: no row for run $r"
done
grep -qF "$(ent '&#39;' "${why[2]}")" "$WORK/dash/run-2.html" || fail "dashboard: run 2's page does not say why"

# a run whose stored score parameters were tampered with: named, refused, skipped; the rest written
cp "$D" "$WORK/t.db"
sqlite3 "$WORK/t.db" "update runs set score_params = '{\"baseline_count\": \"many\"}' where id = 1"
sm 65 check db check "$WORK/t.db"
has check.out "run 1: stored score parameters"
sm 0 check0 db check "$D"
sm 65 score1 score "$WORK/t.db" --run 1 --no-store
sm 65 dasht dashboard "$WORK/t.db" -o "$WORK/dasht"
has dasht.out "run 1 skipped"
[ ! -e "$WORK/dasht/run-1.html" ] || fail "dashboard wrote a page for the bad run"
for r in 2 3 4; do [ -s "$WORK/dasht/run-$r.html" ] || fail "dashboard skipped good run $r too"; done
grep -qF "skipped: run 1: stored score parameters" "$WORK/dasht/index.html" || fail "index.html does not say why"
sm 65 trendt trend "$WORK/t.db"
has trendt.out "run 1 skipped"
grep -qE '^ +4  ' "$WORK/trendt.out" || fail "trend stopped at the bad run"
echo "run_no_samples: ok"
