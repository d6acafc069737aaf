#!/bin/bash
# run_evidence.sh -- failures show their evidence, and --shots all: two simhost sessions run one
# timed loop, then wait for a pixel that never appears (on_timeout: fail). Checks: --shots all
# saved a PNG at the end of the first loop's timer for each user, every failed session saved its
# screen at that moment (USER-failed.png) and an index.html contact sheet lists them; `score`,
# the report and the JSON/JUnit/OpenMetrics exports list each failed session with user, reason,
# time and that PNG; the logons are counted as first-try logons.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
start_simhost 2
# after the timed `cpu`, a wait for a pixel that never appears ends the session
cat "$S/tests/integration/lib/cpu-loop.yaml" - > "$WORK/wl.yaml" <<'YAML'
  - wait: {pixel: {x: 5, y: 5, rgb: "#123456"}, timeout: 2s, on_timeout: fail}
YAML
write_plan 2 1 2 1s 60s
sed -i "s|^workload: .*|workload: $WORK/wl.yaml|" "$WORK/plan.yaml"
set +e
"$B/sessmax" run "$WORK/plan.yaml" --plain --shots all --report "$WORK/report.html" > "$WORK/run.log" 2>&1
rc=$?
set -e
cat "$WORK/run.log"
[ $rc -le 2 ] || fail "sessmax run exited $rc"
shots="$WORK/r.db.shots/run-1"
for u in simuser001 simuser002; do
    [ -s "$shots/$u-loop0-cpu.png" ] || fail "--shots all: no $u-loop0-cpu.png"
    [ -s "$shots/$u-failed.png" ] || fail "no screen of $u's failure"
    grep -q "$u-failed.png" "$shots/index.html" || fail "contact sheet misses $u-failed.png"
    grep -qE "^  $u +wait_timeout +[0-9]{2}:[0-9]{2}:[0-9]{2} UTC  screen: $u-failed.png" "$WORK/run.log" \
        || fail "score does not list $u's failure with its screen"
    grep -q "<td>$u-failed.png</td>" "$WORK/report.html" || fail "report does not list $u's screen"
done
grep -q "^screenshots: [0-9]* in $shots/index.html" "$WORK/run.log" || fail "no contact sheet announced"
grep -q 'first try 2, after repaint requests 0, after logon retries 0' "$WORK/run.log" || fail "logon counts"
"$B/sessmax" export "$WORK/r.db" --run 1 --format json -o "$WORK/x.json"
python3 - "$WORK/x.json" <<'PY' || fail "json export of the failures"
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["user"]: x for x in d["failures"]}
assert set(f) == {"simuser001", "simuser002"}, f
for u, x in f.items():
    assert x["reason"] == "wait_timeout" and x["screen"] == u + "-failed.png" and x["t_us"] > 0, x
assert d["logon_first_try"] == 2, d["logon_first_try"]
PY
"$B/sessmax" export "$WORK/r.db" --run 1 --format junit -o "$WORK/x.xml"
grep -q 'classname="sessmax.session" name="simuser002"><failure message="wait_timeout at [0-9]* us; screen simuser002-failed.png' \
    "$WORK/x.xml" || fail "junit export of the failures"
"$B/sessmax" export "$WORK/r.db" --run 1 --format openmetrics -o "$WORK/x.om"
grep -qE '^sessmax_failed_session_time_seconds\{.*user="simuser001",reason="wait_timeout",screen="simuser001-failed.png"\} [0-9.]+$' \
    "$WORK/x.om" || fail "openmetrics export of the failures"
echo PASS
