#!/bin/bash
# studio_xrdp.sh -- `sessmax-agent studio` on the xrdp office desktop (scripts/xrdp-target start
# --desktop office; docs/xrdp.md), driven by headless Chromium as studio_simhost.sh does
# (lib/studio_drive.py): the regions of workloads/xrdp-office-worker.yaml's Writer timer are
# dragged on the live screen, a pixel of the root window is taken, the timer writer_open
# (ctrl+alt+w until the launchers' mark changed and Writer's status bar was still) is recorded and
# tried (an ok sample), ctrl+q closes Writer (tried with a wait on the window's top row), a think
# ends the loop, the logoff (esc, ctrl+alt+delete, a think) is recorded without being sent, and the
# file is saved. Then the file validates and `sessmax-agent run --loops 1` of it as a second user
# gives an ok writer_open sample and ends cleanly. Needs root (the xrdp tests' lock and accounts).
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock
# jl FILE EXPR: a python expression over the JSON lines of FILE (as lib/agent_env.sh's)
jl() {
    python3 - "$1" "$2" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print(eval(sys.argv[2]))
PY
}
command -v chromium >/dev/null || fail "chromium not installed (make deps)"
PORT=$(free_port)
xrdp_start --users 2 --port "$PORT" --desktop office

"$BUILD/sessmax-agent" studio "127.0.0.1:$PORT" --user rdpuser1 --no-verify -o "$WORK/office.yaml" \
    --name office-writer >"$WORK/studio.out" 2>"$WORK/studio.err" &
STUDIO_PID=$!
PIDS+=("$STUDIO_PID")
wait_for 120 grep -q "logged on" "$WORK/studio.err" || { cat "$WORK/studio.out" "$WORK/studio.err"; fail "the studio did not log on"; }
URL=$(grep -o 'http://[^ ]*' "$WORK/studio.out" | head -1)
[ "$(curl -s -o /dev/null -w '%{http_code}' "${URL%%/\?*}/api/state")" = 403 ] || fail "no token: not 403"
sleep 5   # openbox paints the root colour once the session is up

cat >"$WORK/spec.json" <<'JSON'
{"regions": {"status": [0, 720, 1024, 48], "app_top": [0, 0, 1024, 24], "lo_status": [0, 700, 1024, 20]},
 "pixel": [1000, 744],
 "actions": [
   {"timer": "writer_open", "on": "ctrl+alt+w", "until": ["change,status", "stable,lo_status,500"],
    "timeout_ms": 90000, "expect_sample": "ok", "expect": "stable lo_status for 500 ms held"},
   {"think": "2s"},
   {"key": "ctrl+q", "until": ["change,app_top", "stable,app_top,300"], "timeout_ms": 30000},
   {"think": "2s"},
   {"part": "logoff"},
   {"key": "esc", "send": false},
   {"key": "ctrl+alt+delete", "send": false},
   {"think": "3s", "send": false}]}
JSON
mkdir -p "$BUILD/tests/artifacts"
python3 "$SRC/tests/integration/lib/studio_drive.py" "$URL" "$(mktemp -d -p "$WORK")" \
    "$BUILD/tests/artifacts/studio-xrdp.png" "$WORK/spec.json" || { tail -20 "$WORK/studio.err"; fail "driving the studio page"; }
cat "$WORK/office.yaml"
kill -INT "$STUDIO_PID"
rc=0; wait "$STUDIO_PID" || rc=$?
[ "$rc" -eq 0 ] || note "the studio exited $rc after SIGINT (xrdp may drop the connection first)"

"$BUILD/sessmax" validate "$WORK/office.yaml" || fail "the saved workload does not validate"
timeout -k 5 400 "$BUILD/sessmax-agent" run --target "127.0.0.1:$PORT" --users rdpuser2 --no-verify \
    --workload "$WORK/office.yaml" --duration 300s --loops 1 >"$WORK/run.jsonl" 2>"$WORK/run.err" ||
    { tail -20 "$WORK/run.err"; fail "sessmax-agent run of the saved workload failed"; }
ok=$(jl "$WORK/run.jsonl" 'sum(1 for r in recs if r["type"] == "sample" and r["name"] == "writer_open" and r["ok"])')
[ "$ok" -ge 1 ] || { cat "$WORK/run.err"; fail "no ok writer_open sample from the saved workload"; }
[ "$(jl "$WORK/run.jsonl" 'sum(1 for r in recs if r["type"] == "session" and r["event"] == "ended")')" = 1 ] ||
    { cat "$WORK/run.err"; fail "the run's session did not log off cleanly with the recorded logoff"; }
echo "studio_xrdp: ok ($ok ok writer_open sample from the saved workload)"
