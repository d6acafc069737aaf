#!/usr/bin/env bash
# web_live.sh -- `sessmax run --web` against simhost: the live page and /metrics while the run
# goes on. Checks: the token is required (403 without or with a wrong one; --web-token-file must
# be 0600), a POST without the CSRF header is refused, /api/live shows active sessions rising,
# the index chart, the ramp and the agent's loop lag over time drawn, the live smax tile's words
# agreeing with its figures (and sessmax_live_smax / _reached in /metrics),
# /metrics parses with the Prometheus client library's text parser (histograms, labels) and
# `promtool check metrics` finds no lint,
# headless Chromium renders the page (the index line and the tiles, no console error; a
# screenshot is kept in build/tests/artifacts/live.png), and 40 idle connections plus a client
# sending its headers a byte at a time neither stop the run nor keep the page away once they go.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
SRC=${SESSMAX_SOURCE_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK sessmax-web-live
export SESSMAX_PASSWORD=web-secret
PY=/usr/bin/python3   # Debian's, with python3-prometheus-client
$PY -c 'import prometheus_client' 2>/dev/null || fail "python3-prometheus-client not installed (make deps)"
command -v chromium >/dev/null || fail "chromium not installed (make deps)"
command -v promtool >/dev/null || fail "promtool not installed (make deps: Debian's prometheus)"

start_simhost 6 --work-scale 0.2
cat >"$WORK/worker.yaml" <<'YAML'
version: 1
name: web-worker
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
name: web-live.test
target: {host: 127.0.0.1, port: $SIM_PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
workload: worker.yaml
sessions: 6
launch_window: 24s
steady_state: 40s
agents: {local: 1}
results: results.db
YAML
cd "$WORK"

# a token file others can read is refused before anything starts
printf 'abcdef0123456789abcdef\n' >token
chmod 644 token
set +e
"$B/sessmax" run plan.yaml --web 127.0.0.1:0 --web-token-file token >bad.log 2>&1
rc=$?
set -e
[ "$rc" -eq 78 ] || { cat bad.log; fail "world-readable token file: exit $rc, want 78"; }
grep -q "token: .*mode 0644.*chmod 600" bad.log || grep -q "token.*mode 0644" bad.log || { cat bad.log; fail "no mode message"; }
chmod 600 token

"$B/sessmax" run plan.yaml --web 127.0.0.1:0 --web-token-file token --plain >run.log 2>&1 &
RUN_PID=$!
PIDS+=("$RUN_PID")
wait_for 20 grep -q "live view: http://" run.log || { cat run.log; fail "no live view URL printed"; }
URL=$(grep -o 'http://[^ ]*' run.log | head -1)
BASE=${URL%%/\?*}
[ "${URL##*token=}" = abcdef0123456789abcdef ] || fail "URL does not carry the token file's token: $URL"
TOKEN=abcdef0123456789abcdef

code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "$BASE/api/live")" = 403 ] || fail "no token: not 403"
[ "$(code "$BASE/api/live?token=abcdef0123456789abcdee")" = 403 ] || fail "wrong token: not 403"
[ "$(code -X POST "$BASE/api/live?token=$TOKEN")" = 403 ] || fail "POST without the CSRF header: not 403"
[ "$(code -X PUT "$BASE/api/live?token=$TOKEN")" = 501 ] || fail "PUT: not 501 (GET, HEAD and POST only)"
[ "$(code "$BASE/nothing?token=$TOKEN")" = 404 ] || fail "unknown page: not 404"
[ "$(code -H "Authorization: Bearer $TOKEN" "$BASE/metrics")" = 200 ] || fail "Bearer token refused"

# the live state while the ramp goes on: active sessions rise, the index is charted
$PY - "$BASE" "$TOKEN" <<'PY' || fail "live state"
import json, sys, time, urllib.request
base, tok = sys.argv[1], sys.argv[2]
seen, t0 = [], time.time()
while time.time() - t0 < 60:
    d = json.load(urllib.request.urlopen(f"{base}/api/live?token={tok}", timeout=5))
    seen.append(d["sessions"]["active"])
    if d["sessions"]["active"] >= 4 and d["threshold_ms"] is not None and any(p[2] is not None for p in d["points"]):
        break
    time.sleep(1)
assert d["run"]["name"] == "web-live.test", d["run"]
assert min(seen) < max(seen) and max(seen) >= 4, f"active sessions did not rise: {seen}"
assert any(p[2] is not None for p in d["points"]), "no index point"
assert d["timers"] and d["timers"][0]["count"] > 0 and d["timers"][0]["p95_ms"] > 0, d["timers"]
assert d["agents"]["connected"] == 1 and d["agents"]["list"][0]["lost"] is False, d["agents"]
m = d["smax"]   # the live score: the tile's words agree with its figures
if not m["scored"]:
    assert m["smax"] is None and m["text"].startswith("not scored yet ("), m
elif m["reached"]:
    assert m["smax"] == m["cross_active"] - 1 and m["text"] == f"smax {m['smax']} (crossed at {m['cross_active']} active)", m
else:
    assert m["smax"] == max(m["max_active"] - 1, 0) and m["text"] == f"not reached yet (>= {m['smax']})", m
print(f"web_live: smax tile '{m['text']}'")
print(f"web_live: active {seen[0]} -> {seen[-1]}, index {d['index_ms']:.0f} ms, threshold {d['threshold_ms']:.0f} ms")
PY

# /metrics through the Prometheus client's own parser
curl -s "$BASE/metrics?token=$TOKEN" >metrics.txt
$PY - metrics.txt <<'PY' || fail "/metrics"
import sys
from prometheus_client.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
for name in ("sessmax_live_sessions", "sessmax_live_response_seconds", "sessmax_live_index_seconds",
             "sessmax_live_threshold_seconds", "sessmax_live_agent_loop_lag_p99_seconds", "sessmax_live_rtt_seconds",
             "sessmax_live_smax", "sessmax_live_smax_reached"):
    assert name in fams, f"{name} missing: {sorted(fams)}"
h = fams["sessmax_live_response_seconds"]
assert h.type == "histogram", h.type
inf = [s for s in h.samples if s.name.endswith("_bucket") and s.labels["le"] == "+Inf" and s.labels["timer"] == "app_start"]
count = [s for s in h.samples if s.name.endswith("_count") and s.labels["timer"] == "app_start"]
assert inf and count and inf[0].value == count[0].value > 0, (inf, count)
active = [s for s in fams["sessmax_live_sessions"].samples if s.labels["state"] == "active"]
assert active and active[0].labels["name"] == "web-live.test", active
reached = fams["sessmax_live_smax_reached"].samples
assert len(reached) == 1 and reached[0].value in (0, 1), reached
smax = fams["sessmax_live_smax"].samples   # a figure once the baseline is known
assert len(smax) <= 1 and all(x.value >= 0 for x in smax), smax
print(f"web_live: /metrics {len(fams)} families, app_start count {int(count[0].value)}")
PY
# what Prometheus itself says of it: no lint
lint=$(promtool check metrics <metrics.txt 2>&1) || { echo "$lint" >&2; fail "promtool check metrics"; }

# the page in headless Chromium: the index line and tiles drawn from /api/live
chrome() {
    HOME="$WORK" timeout 90 chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$WORK")" --enable-logging=stderr --v=0 "$@"
}
chrome --virtual-time-budget=6000 --dump-dom "$URL" >dom.html 2>chrome.log || fail "chromium --dump-dom"
if grep -E 'CONSOLE|Uncaught|Refused' chrome.log | grep -v -E 'dbus|Fontconfig' >console.txt; then
    cat console.txt >&2
    fail "console errors on the live page"
fi
grep -q 'id="indexline"' dom.html || fail "no index line on the live page"
grep -q '<span>active</span>' dom.html || fail "no active tile on the live page"
grep -q 'id="smax"' dom.html || fail "no smax tile on the live page"
grep -q 'id="ramp-active"' dom.html || fail "no active-sessions line on the ramp chart"
grep -q 'id="ramp-failed"' dom.html || fail "no failed-sessions line on the ramp chart"
grep -q 'id="health-lag"' dom.html || fail "no agent loop lag line over time"
mkdir -p "$B/tests/artifacts"
chrome --virtual-time-budget=6000 --screenshot="$B/tests/artifacts/live.png" --window-size=1200,1000 \
    --hide-scrollbars "$URL" >/dev/null 2>shot.log || fail "chromium --screenshot"
[ -s "$B/tests/artifacts/live.png" ] || fail "no screenshot"

# hostile clients: 40 idle connections and one sending its headers a byte a second, while the run goes on
$PY - "$BASE" "$TOKEN" <<'PY' || fail "hostile clients"
import socket, sys, time, json, urllib.request
base, tok = sys.argv[1], sys.argv[2]
host, port = base[7:].split(":"); port = int(port)
idle = [socket.create_connection((host, port)) for _ in range(40)]
slow = socket.create_connection((host, port))
req = f"GET /api/live?token={tok} HTTP/1.1\r\nHost: x\r\n".encode()
for b in req[:12]:
    slow.send(bytes([b])); time.sleep(1)
for s in idle: s.close()
slow.close()
t = time.time()
while True:
    try:
        d = json.load(urllib.request.urlopen(f"{base}/api/live?token={tok}", timeout=5)); break
    except Exception as e:
        assert time.time() - t < 15, f"page still unavailable after the clients left: {e}"
        time.sleep(0.5)
print(f"web_live: page back {time.time() - t:.1f} s after the hostile clients left, phase {d['phase']}")
PY

set +e
wait "$RUN_PID"
rc=$?
set -e
# a verdict, not an error (on a loaded machine the agent's loop lag may make it inconclusive)
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { tail -30 run.log; fail "run exited $rc"; }
grep -q "6 sessions: 6 ended cleanly, 0 failed" run.log || { tail -30 run.log; fail "not every session ended cleanly"; }
grep -q "$TOKEN" results.db 2>/dev/null && fail "the web token reached the database"

RUN_ID=$(sed -n 's/^run \([0-9]*\) of plan.*/\1/p' run.log | head -1)
[ -n "$RUN_ID" ] || fail "no run id in the run's output"
[ "$(sqlite3 results.db 'SELECT count(*) FROM runs')" = 1 ] || fail "the refused token file left a run behind"

# sessmax serve: the finished run's dashboard, report and compare pages, token required
"$B/sessmax" serve results.db --listen 127.0.0.1:0 >serve.log 2>&1 &
SERVE_PID=$!
PIDS+=("$SERVE_PID")
wait_for 10 grep -q "serving http://" serve.log || { cat serve.log; fail "serve printed no URL"; }
SURL=$(grep -o 'http://[^ ]*' serve.log | head -1)
SBASE=${SURL%%/\?*}
STOKEN=${SURL##*token=}
[ "$(code "$SBASE/")" = 403 ] || fail "serve: no token, not 403"
[ "$(code -c cookies "$SURL")" = 200 ] || fail "serve: index not 200"
[ "$(code -b cookies "$SBASE/run-$RUN_ID.html")" = 200 ] || fail "serve: run page not 200 with the cookie"
[ "$(code --path-as-is -b cookies "$SBASE/../../etc/passwd")" = 404 ] || fail "serve: a path outside the pages was served"
curl -s -b cookies "$SBASE/compare?run=$RUN_ID&run=$RUN_ID" >compare.html
grep -q "web-live.test" compare.html || fail "serve: compare does not show the run"
[ "$(code -b cookies "$SBASE/compare?run=x")" = 400 ] || fail "serve: bad compare ids not 400"
chrome --screenshot="$B/tests/artifacts/serve-report.png" --window-size=1000,1600 --hide-scrollbars \
    "$SBASE/run-$RUN_ID.html?token=$STOKEN" >/dev/null 2>serve-shot.log || fail "chromium: serve's report page"
chrome --dump-dom "$SURL" >serve-dom.html 2>/dev/null || fail "chromium: serve's index"
grep -q "run-$RUN_ID.html" serve-dom.html || fail "serve: the dashboard does not link run $RUN_ID"
kill "$SERVE_PID"
wait "$SERVE_PID" || fail "serve did not exit 0 on TERM"

# the Grafana dashboard uses only metric names sessmax exports (live /metrics and the OpenMetrics export)
"$B/sessmax" export results.db --run "$RUN_ID" --format openmetrics >export.om || fail "export openmetrics"
$PY - "$SRC/deploy/grafana/sessmax-nightly.json" metrics.txt export.om <<'PY' || fail "Grafana dashboard"
import json, re, sys
dash = json.load(open(sys.argv[1]))
exprs = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
exprs += [v["query"] for v in dash["templating"]["list"] if v.get("type") == "query"]
used = {m for e in exprs for m in re.findall(r"\bsessmax_[a-z0-9_]+", e)}
exported = set()
for f in sys.argv[2:]:
    for line in open(f):
        m = re.match(r"(?:# TYPE )?(sessmax_[a-z0-9_]+)", line)
        if m:
            exported.add(m.group(1))
strip = lambda n: re.sub(r"_(bucket|sum|count)$", "", n)
missing = sorted(n for n in used if n not in exported and strip(n) not in exported)
assert used and not missing, f"metrics the dashboard uses but sessmax does not export: {missing}"
print(f"web_live: Grafana dashboard uses {len(used)} metric names, all exported")
PY
echo "web_live: ok"
