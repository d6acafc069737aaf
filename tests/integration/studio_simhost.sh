#!/usr/bin/env bash
# studio_simhost.sh -- `sessmax-agent studio` against simhost, driven by headless Chromium as a
# user would (lib/studio_drive.py over lib/cdp.py): the token is required on every path (403
# without it, a token file must be 0600, only GET is served, the listener is on loopback); the
# page shows the live screen; regions are dragged on it (snapped), a pixel is taken with a click;
# win+r is sent with a wait for the run box, "edit doc1.txt" typed, and a timer on Enter until the
# editor's window changed and was still is recorded and tried (its sample is ok, ended by the
# `stable`); esc and a think close the loop, win+r and "logoff\n" are recorded into the logoff
# without being sent; the file is saved. Then that file validates and yields ok app_start samples,
# unchanged, in a short `sessmax-agent run` (as a second user), and the studio logs off on SIGINT.
. "$(dirname "$0")/lib/agent_env.sh"
command -v chromium >/dev/null || fail "chromium not installed (make deps)"

start_simhost 3
printf 'abcdef0123456789abcdef\n' >"$T/token"
chmod 644 "$T/token"
rc=0
"$AGENT" studio "127.0.0.1:$SIM_PORT" --user simuser001 --fingerprint "$SIM_FP" -o "$T/desk.yaml" \
    --web-token-file "$T/token" >"$T/bad.out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || { cat "$T/bad.out"; fail "world-readable token file: exit $rc, want 78"; }
chmod 600 "$T/token"

"$AGENT" studio "127.0.0.1:$SIM_PORT" --user simuser001 --fingerprint "$SIM_FP" -o "$T/desk.yaml" \
    --web-token-file "$T/token" --name simhost-desk >"$T/studio.out" 2>"$T/studio.err" &
STUDIO_PID=$!
PIDS+=("$STUDIO_PID")
wait_for 30 grep -q "logged on" "$T/studio.err" || { cat "$T/studio.out" "$T/studio.err"; fail "the studio did not log on"; }
URL=$(grep -o 'http://[^ ]*' "$T/studio.out" | head -1)
BASE=${URL%%/\?*}
TOKEN=abcdef0123456789abcdef
[ "${URL##*token=}" = "$TOKEN" ] || fail "the URL does not carry the token file's token: $URL"
case $BASE in http://127.0.0.1:*) ;; *) fail "the studio does not listen on loopback: $BASE" ;; esac
grep -q "$TOKEN" "$T/studio.err" && fail "the token reached the log"
grep -q "$SESSMAX_PASSWORD" "$T/studio.out" "$T/studio.err" && fail "the password reached the output"
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
for p in / /api/state /api/screen.png "/api/step?kind=key&text=esc&run=1" /api/save; do
    [ "$(code "$BASE$p")" = 403 ] || fail "$p without the token: not 403"
done
[ "$(code "$BASE/api/state?token=abcdef0123456789abcdee")" = 403 ] || fail "a wrong token: not 403"
[ "$(code -X POST "$BASE/api/save?token=$TOKEN")" = 405 ] || fail "POST: not 405 (the studio sets no POST handler: GET and HEAD only)"
[ "$(code "$BASE/api/screen.png?token=$TOKEN")" = 200 ] || fail "no screen with the token"

cat >"$T/spec.json" <<'JSON'
{"regions": {"runbox": [8, 600, 420, 132], "appwin": [112, 60, 800, 500]},
 "pixel": [10, 750],
 "actions": [
   {"key": "win+r", "until": ["change,runbox"], "timeout_ms": 5000, "expect": "change runbox held"},
   {"type": "edit doc1.txt"},
   {"timer": "app_start", "on": "enter", "until": ["change,appwin,runbox", "stable,appwin,300"],
    "expect_sample": "ok", "expect": "stable appwin for 300 ms held"},
   {"key": "esc"},
   {"think": "1s"},
   {"part": "logoff"},
   {"key": "win+r", "send": false},
   {"type": "logoff\\n", "send": false}]}
JSON
mkdir -p "$B/tests/artifacts"
python3 "$S/tests/integration/lib/studio_drive.py" "$URL" "$(mktemp -d -p "$T")" "$B/tests/artifacts/studio.png" \
    "$T/spec.json" || { tail -20 "$T/studio.err"; fail "driving the studio page"; }
[ -s "$T/desk.yaml" ] || fail "no workload saved"
cat "$T/desk.yaml"
grep -q '^name: simhost-desk$' "$T/desk.yaml" || fail "the --name is not the workload's name"
grep -q 'type: "logoff\\n"' "$T/desk.yaml" || fail "the logoff steps were not recorded"

kill -INT "$STUDIO_PID"
rc=0; wait "$STUDIO_PID" || rc=$?
[ "$rc" -eq 0 ] || { tail -20 "$T/studio.err"; fail "the studio exited $rc after SIGINT, want 0 (a clean logoff)"; }

"$B/sessmax" validate "$T/desk.yaml" || fail "the saved workload does not validate"
timeout -k 5 120 "$AGENT" run --target "127.0.0.1:$SIM_PORT" --users simuser002 --fingerprint "$SIM_FP" \
    --workload "$T/desk.yaml" --duration 20s --loops 2 >"$T/run.jsonl" 2>"$T/run.err" ||
    { tail -20 "$T/run.err"; fail "sessmax-agent run of the saved workload failed"; }
ok=$(jl "$T/run.jsonl" 'sum(1 for r in recs if r["type"] == "sample" and r["name"] == "app_start" and r["ok"])')
bad=$(jl "$T/run.jsonl" 'sum(1 for r in recs if r["type"] == "sample" and not r["ok"])')
[ "$ok" -ge 1 ] || { cat "$T/run.err"; fail "no ok app_start sample from the saved workload"; }
[ "$bad" -eq 0 ] || { cat "$T/run.err"; fail "$bad failed or suspect samples from the saved workload"; }
[ "$(jl "$T/run.jsonl" 'sum(1 for r in recs if r["type"] == "session" and r["event"] == "ended")')" = 1 ] ||
    { cat "$T/run.err"; fail "the run's session did not log off cleanly with the recorded logoff"; }
echo "studio_simhost: ok ($ok ok app_start samples from the saved workload; screenshot $B/tests/artifacts/studio.png)"
