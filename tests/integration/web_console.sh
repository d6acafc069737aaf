#!/usr/bin/env bash
# web_console.sh -- the live view's verdict while the run goes on, against simhost: one of four
# users does not exist on the target, so its session fails authentication. While the run goes on
# /api/live carries the banner's alarm (key auth, the verdict's own words naming the user), the
# failures by reason (auth 1) and the smax tile; /metrics has sessmax_live_valid{reason="auth"} 0
# and sessmax_live_session_failures_total{reason="auth"} 1; headless Chromium shows the banner and
# the failure in the ramp chart's failed-per-10-s bars
# (screenshot in build/tests/artifacts/console.png). The stop POST is refused without the CSRF
# header (403), then stops the run as an early stop: scored, its samples kept, exit 77 with the
# banner's words.
# A second run whose sessions fail a wait (each after its own think) lists the latest failures
# with the PNG of the screen at that moment, served under shots/ behind the same token (403
# without it, 404 for a file no failure names or a path that climbs out).
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK sessmax-web-console
export SESSMAX_PASSWORD=web-secret
PY=/usr/bin/python3   # Debian's, with python3-prometheus-client
$PY -c 'import prometheus_client' 2>/dev/null || fail "python3-prometheus-client not installed (make deps)"
command -v chromium >/dev/null || fail "chromium not installed (make deps)"
command -v promtool >/dev/null || fail "promtool not installed (make deps: Debian's prometheus)"

start_simhost 3 --work-scale 0.2   # simuser001..003: simuser004 is refused
cat >"$WORK/worker.yaml" <<'YAML'
version: 1
name: console-worker
desktop: {width: 1024, height: 768, bpp: 16}
regions: {taskbar: [0, 740, 1024, 28], runbox: [8, 600, 420, 132], appwin: [112, 60, 800, 600]}
logon: {change: taskbar, stable: {region: taskbar, for: 300ms}, timeout: 60s}
loop:
  - key: win+r
  - wait: {change: runbox, timeout: 5s}
  - type: "edit doc1.txt"
  - timer: app_start
    steps: [{key: enter}]
    until: {change: {region: appwin, except: runbox}, stable: {region: appwin, for: 200ms}}
  - key: esc
  - think: 1s..2s
logoff: [{key: win+r}, {type: "logoff\n"}]
measures: {vsi: {app_start: 1}}
YAML
cat >"$WORK/plan.yaml" <<YAML
version: 1
name: web-console.test
target: {host: 127.0.0.1, port: $SIM_PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
workload: worker.yaml
sessions: 4
launch_window: 6s
steady_state: 30s
agents: {local: 1}
results: results.db
YAML
cd "$WORK"
printf 'c0ffee0123456789abcdef\n' >token
chmod 600 token
TOKEN=c0ffee0123456789abcdef
"$B/sessmax" run plan.yaml --web 127.0.0.1:0 --web-token-file token --plain >run.log 2>&1 &
RUN_PID=$!
PIDS+=("$RUN_PID")
wait_for 20 grep -q "live view: http://" run.log || { cat run.log; fail "no live view URL printed"; }
URL=$(grep -o 'http://[^ ]*' run.log | head -1)
BASE=${URL%%/\?*}

# the alarm while the run goes on, in the verdict's words
$PY - "$BASE" "$TOKEN" >live.txt <<'PY' || { cat live.txt; fail "live alarm"; }
import json, sys, time, urllib.request
base, tok = sys.argv[1], sys.argv[2]
t0 = time.time()
while True:
    d = json.load(urllib.request.urlopen(f"{base}/api/live?token={tok}", timeout=5))
    if any(a["key"] == "auth" for a in d["valid"]["alarms"]):
        break
    assert time.time() - t0 < 60, f"no auth alarm: {d['valid']} failures {d['failures']} phase {d['phase']}"
    time.sleep(0.5)
a = [a for a in d["valid"]["alarms"] if a["key"] == "auth"][0]
assert d["valid"]["ok"] is False, d["valid"]
assert a["rule"] == "no authentication failure", a
assert "authentication failed for simuser004 (wrong password, locked or expired account)" in a["reason"], a
assert "sessions failed authentication (exit 77)" in a["reason"], a
assert {"reason": "auth", "count": 1} in d["failures"], d["failures"]
assert "text" in d["smax"], d["smax"]
print(a["reason"])
PY
echo "web_console: banner: $(cat live.txt)"
curl -s "$BASE/metrics?token=$TOKEN" >metrics.txt
$PY - metrics.txt <<'PY' || fail "/metrics"
import sys
from prometheus_client.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
valid = {s.labels["reason"]: s.value for s in fams["sessmax_live_valid"].samples}
assert valid.get("auth") == 0 and "none" not in valid, valid
fails = {s.labels["reason"]: s.value for s in fams["sessmax_live_session_failures"].samples}
assert fails.get("auth") == 1, fails
print(f"web_console: sessmax_live_valid {valid}, failures {fails}")
PY
# what Prometheus itself says of it: no lint
lint=$(promtool check metrics <metrics.txt 2>&1) || { echo "$lint" >&2; fail "promtool check metrics"; }

chrome() {
    HOME="$WORK" timeout 90 chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$WORK")" --enable-logging=stderr --v=0 "$@"
}
chrome --virtual-time-budget=6000 --dump-dom "$URL" >dom.html 2>chrome.log || fail "chromium --dump-dom"
grep -q 'This run can no longer pass' dom.html || fail "no banner on the live page"
grep -q 'data-key="auth"' dom.html || fail "the banner does not give the auth reason"
grep -q 'authentication failed for simuser004' dom.html || fail "the banner does not name the user"
grep -q 'id="smax"' dom.html || fail "no smax tile"
grep -q '<g id="ramp-failwin"><rect' dom.html || fail "no bar of sessions failed per 10 s on the ramp chart"
mkdir -p "$B/tests/artifacts"
chrome --virtual-time-budget=6000 --screenshot="$B/tests/artifacts/console.png" --window-size=1200,1000 \
    --hide-scrollbars "$URL" >/dev/null 2>shot.log || fail "chromium --screenshot"

# the stop button's POST: refused without the CSRF header (even with the token or its cookie),
# then the run ends as an early stop, its results kept and scored
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code -X POST "$BASE/api/stop?token=$TOKEN")" = 403 ] || fail "stop without the CSRF header: not 403"
[ "$(code -X POST -H "Cookie: sessmax_token=$TOKEN" -H "X-Sessmax-Token: wrong" "$BASE/api/stop")" = 403 ] ||
    fail "stop with a wrong CSRF header: not 403"
[ "$(code -X POST -H "X-Sessmax-Token: $TOKEN" "$BASE/api/stop")" = 403 ] || fail "stop without the token: not 403"
[ "$(code -X POST -H "X-Sessmax-Token: $TOKEN" "$BASE/api/nothing?token=$TOKEN")" = 404 ] || fail "unknown action: not 404"
grep -q "early stop" run.log && fail "stopped before the stop"
[ "$(code -X POST -H "X-Sessmax-Token: $TOKEN" "$BASE/api/stop?token=$TOKEN")" = 200 ] || fail "stop: not 200"
set +e
wait "$RUN_PID"
rc=$?
set -e
grep -q "early stop: stopped from the live view" run.log || { tail -30 run.log; fail "the run does not say it was stopped"; }
[ "$(sqlite3 results.db 'SELECT count(*) FROM runs')" = 1 ] || fail "the stopped run is not stored"
[ "$(sqlite3 results.db 'SELECT count(*) FROM sample_chunks')" -gt 0 ] || fail "the stopped run kept no samples"
grep -q "^verdict " run.log || { tail -30 run.log; fail "the stopped run was not scored"; }
echo "web_console: stopped from the page: $(grep -c . run.log) lines, $(sqlite3 results.db 'SELECT count(*) FROM sample_chunks') sample chunks kept"
[ "$rc" -eq 77 ] || { tail -30 run.log; fail "run exited $rc, want 77 (a session failed authentication)"; }
grep -qF "authentication failed for simuser004 (wrong password, locked or expired account)" run.log ||
    { tail -30 run.log; fail "the verdict does not give the banner's words"; }

# the latest failures with their screens: every session fails its wait, each after its own think
cat >"$WORK/fail.yaml" <<'YAML'
version: 1
name: console-fail
desktop: {width: 1024, height: 768, bpp: 16}
regions: {taskbar: [0, 740, 1024, 28], corner: [0, 0, 4, 4]}
logon: {change: taskbar, stable: {region: taskbar, for: 300ms}, timeout: 60s}
loop:
  - think: 1s..12s
  - wait: {change: corner, timeout: 1s, on_timeout: fail}
YAML
sed -e 's/^name: .*/name: web-console-fail.test/' -e 's/^workload: .*/workload: fail.yaml/' -e 's/^sessions: .*/sessions: 3/' \
    -e 's/^results: .*/results: fail.db/' plan.yaml >fail-plan.yaml
"$B/sessmax" run fail-plan.yaml --web 127.0.0.1:0 --web-token-file token --plain >fail.log 2>&1 &
RUN_PID=$!
PIDS+=("$RUN_PID")
wait_for 20 grep -q "live view: http://" fail.log || { cat fail.log; fail "no live view URL printed (second run)"; }
URL=$(grep -o 'http://[^ ]*' fail.log | head -1)
BASE=${URL%%/\?*}
$PY - "$BASE" "$TOKEN" <<'PY' || { tail -20 fail.log; fail "latest failures"; }
import json, sys, time, urllib.request, urllib.error
base, tok = sys.argv[1], sys.argv[2]
t0 = time.time()
while True:
    d = json.load(urllib.request.urlopen(f"{base}/api/live?token={tok}", timeout=5))
    shots = [f for f in d["recent_failures"] if f["screen"]]
    if shots:
        break
    assert time.time() - t0 < 60, f"no failure with a screen: {d['recent_failures']}"
    time.sleep(0.2)
f = shots[0]
assert f["reason"] == "wait_timeout" and f["screen"] == f"{f['user']}-failed.png", f
png = urllib.request.urlopen(f"{base}/shots/{f['screen']}?token={tok}", timeout=5)
assert png.headers["Content-Type"] == "image/png" and png.read(8) == b"\x89PNG\r\n\x1a\n", png.headers
def code(url):
    try:
        return urllib.request.urlopen(url, timeout=5).status
    except urllib.error.HTTPError as e:
        return e.code
assert "img-src 'self'" in png.headers["Content-Security-Policy"], "the page may not show the thumbnails"
assert code(f"{base}/shots/{f['screen']}") == 403, "a screen without the token"
assert code(f"{base}/shots/simuser009-failed.png?token={tok}") == 404, "a screen no failure names"
assert code(f"{base}/shots/..%2Ffail.db?token={tok}") == 404, "a path out of the shots directory"
assert any(x["reason"] == "wait_timeout" for x in d["failures"]), d["failures"]
print(f"web_console: latest failure {f['user']} {f['reason']}, screen {f['screen']} served")
PY
set +e
wait "$RUN_PID"
set -e
echo "web_console: ok"
