#!/bin/bash
# xrdp_drive.sh -- client drive redirection against xrdp 0.9 with the agent (FreeRDP 2.11): xrdp
# sends the rdpdr User Logged On before its capabilities, which FreeRDP 2.11 drops, so without the
# agent's fix (compat/rdpdr_logon_order.h) no drive ever appears. Checks that the drive shows up in the
# user's ~/thinclient_drives (xrdp-chansrv's FUSE mount), that a file read through it inside the
# session equals the agent's generated file, that a file written into it lands in the session's
# private drive directory, and that the agent removes that directory at the end.
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock
command -v fusermount3 >/dev/null || { note "fuse3 missing: xrdp-chansrv cannot mount drives; skipped"; exit 0; }
PORT=$(free_port)
CFG=$WORK/agentcfg
xrdp_start --users 1 --port "$PORT"
"$BUILD/sessmax-agent" run --target "127.0.0.1:$PORT" --users 'rdpuser{n}' --sessions 1 \
    --workload "$SRC/tests/integration/xrdp-drive.yaml" --duration 40s --no-verify --log-level info \
    --config-dir "$CFG" > "$WORK/a.jsonl" 2> "$WORK/a.err" &
AGENT_PID=$!
PIDS+=($AGENT_PID)
H=$(getent passwd rdpuser1 | cut -d: -f6)
as_user() { runuser -u rdpuser1 -- "$@"; }
wait_for 60 as_user test -f "$H/thinclient_drives/share/file1m" \
    || { cat "$WORK/a.err" >&2; fail "drive 'share' never appeared in $H/thinclient_drives"; }
grep -q "repeating it so FreeRDP announces the drives" "$WORK/a.err" || fail "the rdpdr fix did not act"
want=$(sha256sum < "$CFG/drives/shared/share/file1m")
got=$(as_user cat "$H/thinclient_drives/share/file1m" | sha256sum)
[ "$got" = "$want" ] || fail "file1m read through xrdp differs from the agent's file"
as_user sh -c "head -c 100000 /dev/zero > '$H/thinclient_drives/share/written.bin'"
wait_for 10 test -f "$CFG/drives/s0/share/written.bin" || fail "a file written in the session did not reach the client drive"
[ "$(stat -c %s "$CFG/drives/s0/share/written.bin")" = 100000 ] || fail "written file size"
wait "$AGENT_PID"
[ ! -e "$CFG/drives/s0" ] || fail "the session's drive directory was not removed"
echo "xrdp_drive: ok"
