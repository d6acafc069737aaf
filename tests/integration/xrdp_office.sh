#!/bin/bash
# xrdp_office.sh -- the office task worker on a real desktop over xrdp: scripts/xrdp-target with
# `--desktop office` (LibreOffice Writer and Calc, chromium, mupdf, pcmanfm, mousepad), then
# (1) `sessmax run` of workloads/xrdp-office-worker.yaml for 2 users, one loop each (loops: 1):
#     both sessions reach the desktop and log off cleanly, every timer of the workload and the vsi
#     measure has a successful sample, no process of the users is left;
# (2) at the same time, a third user whose text editor launcher is broken (it exits at once, so
#     no window ever shows): the agent gives a failed editor_open sample with a screenshot of
#     the desktop, goes on, logs off cleanly and ends: no hang;
# (3) a launcher whose X server is gone ends at once (a logoff during a start leaves nothing).
# Prints the server memory per session while the two office desktops run (FIGURES line).
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock

WL=$SRC/workloads/xrdp-office-worker.yaml
xrdp_plan 2 office-plan.yaml -e "s|^workload: .*|workload: $WL|" \
    -e "s|^launch_window: .*|launch_window: 10s|" -e "s|^steady_state: .*|steady_state: 12m|" \
    -e "s|^name: .*|name: xrdp-office-2|"
echo "loops: 1" >> "$PLAN"
# valid; 2 users and one loop cannot collect the samples a score needs, so validate says so (exit 2)
rc=0; "$BUILD/sessmax" validate -q "$PLAN" 2>"$WORK/validate.err" || rc=$?
[ "$rc" = 0 ] || { [ "$rc" = 2 ] && grep -q "cannot collect the samples a score needs" "$WORK/validate.err"; } ||
    fail "the office plan copy does not validate (exit $rc): $(cat "$WORK/validate.err")"
timers=$("$BUILD/sessmax" validate "$WL" | awk '$1 == "timers" { for (i = 3; i <= NF; i++) print $i }')
[ "$(echo "$timers" | wc -l)" -ge 10 ] || fail "could not read the workload's timers: $timers"

xrdp_start --users 3 --port "$PORT" --desktop office

# (2) the broken launcher of user 3: the editor never starts
H3=$(getent passwd rdpuser3 | cut -d: -f6)
# a launcher whose session has gone (its X server's socket is gone) stops looking for the window
# at once instead of polling for 180 s: a logoff during an application's start leaves nothing
mkdir -p "$WORK/gone/.sessmax"
rc=0; HOME=$WORK/gone DISPLAY=:987 timeout 20 sh "$H3/.sessmax/launch" '^never$' true || rc=$?
[ "$rc" != 124 ] || fail "a launcher outlives its X server (still polling after 20 s)"
printf '#!/bin/sh\n# broken on purpose by xrdp_office.sh: no window ever shows\nexit 1\n' > "$H3/.sessmax/apps/editor"
# the loop from the text editor on (the part that meets the broken launcher) and the logoff,
# without the measures (their timers are cut)
python3 - "$WL" "$WORK/editor-only.yaml" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
start = lines.index("loop:")
cut = next(i for i, l in enumerate(lines) if "# --- the text editor" in l)
end = lines.index("measures:")
open(sys.argv[2], "w").write("\n".join(lines[:start + 1] + lines[cut:end]) + "\n")
EOF
"$BUILD/sessmax" validate -q "$WORK/editor-only.yaml" || fail "the editor-only workload does not validate"
mkdir -p "$WORK/shots"
timeout -k 5 300 "$BUILD/sessmax-agent" run --target 127.0.0.1:"$PORT" --users 'rdpuser{n}' --first 3 \
    --sessions 1 --workload "$WORK/editor-only.yaml" --no-verify --loops 1 --duration 250s \
    --shots "$WORK/shots" > "$WORK/broken.jsonl" 2> "$WORK/broken.log" &
BROKEN_PID=$!
PIDS+=($BROKEN_PID)

# server memory per session, sampled once while both office desktops run
(
    for ((i = 0; i < 300; i++)); do
        if pgrep -u rdpuser1 -x openbox >/dev/null && pgrep -u rdpuser2 -x openbox >/dev/null; then
            sleep 20; "$TARGET" status --mem > "$WORK/mem.txt"; exit 0
        fi
        sleep 1
    done
) &
PIDS+=($!)

note "sessmax run (2 office workers, one loop each)"
xrdp_run 14

q() { sqlite3 -batch -noheader "$DB" "$1"; }
run=$(q "SELECT max(id) FROM runs")
[ -n "$run" ] || fail "no run in $DB"
status=$(q "SELECT status FROM runs WHERE id=$run")
[ "$status" = completed ] || fail "run status is '$status', want completed ($(q "SELECT message FROM runs WHERE id=$run"))"
active=$(q "SELECT count(*) FROM sessions WHERE run_id=$run AND active_us > 0 AND logon_us >= 0")
[ "$active" = 2 ] || fail "$active of 2 sessions reached the desktop"
ended=$(q "SELECT count(*) FROM sessions WHERE run_id=$run AND state='ended' AND reason='none'")
[ "$ended" = 2 ] || fail "$ended of 2 sessions logged off cleanly; $(q "SELECT user||':'||state||':'||reason||':'||detail FROM sessions WHERE run_id=$run" | tr '\n' ' ')"
for t in $timers vsi; do
    n=$(q "SELECT count(*) FROM samples s JOIN timer_names t ON t.id = s.name_id
           WHERE s.run_id = $run AND t.name = '$t' AND s.ok = 1")
    [ "$n" -gt 0 ] || fail "no successful sample for timer $t; failed or suspect: $(q "SELECT count(*) FROM samples s JOIN timer_names t ON t.id = s.name_id WHERE s.run_id = $run AND t.name = '$t'")"
done
bad=$(q "SELECT group_concat(t.name) FROM samples s JOIN timer_names t ON t.id = s.name_id WHERE s.run_id = $run AND s.ok <> 1")
[ -z "$bad" ] && note "every sample of the two office workers succeeded" || note "failed or suspect samples: $bad"

note "the broken editor launcher: a failed sample with a screenshot, then a clean logoff"
wait_for 200 test -z "$(ps -o pid= -p "$BROKEN_PID")" || fail "the agent of the broken-launcher session did not end"
python3 - "$WORK/broken.jsonl" <<'EOF' || fail "broken launcher: $(tail -n 3 "$WORK/broken.log")"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
opens = [r for r in recs if r.get("type") == "sample" and r.get("name") == "editor_open"]
assert opens, "no editor_open sample"
assert all(not r["ok"] for r in opens), "editor_open succeeded although the launcher is broken: %r" % opens
ends = [r["event"] for r in recs if r.get("type") == "session" and r["event"] in ("ended", "failed")]
assert ends == ["ended"], "the session did not end cleanly: %r" % ends
EOF
shot=$WORK/shots/rdpuser3-loop0-editor_open.png
[ -s "$shot" ] || fail "no screenshot of the failed editor_open ($(ls "$WORK/shots" | tr '\n' ' '))"
[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$shot is not a PNG"

note "logoff ended every process of every user on the server"
for k in 1 2 3; do
    wait_for 20 no_user_procs rdpuser$k || fail "rdpuser$k still has processes: $(pgrep -u rdpuser$k -l | tr '\n' ' ')"
done
[ -s "$WORK/mem.txt" ] && echo "FIGURES office desktop (2 sessions + 1): $(tail -n 1 "$WORK/mem.txt")"
echo "PASS xrdp_office"
