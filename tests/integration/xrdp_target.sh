#!/bin/bash
# xrdp_target.sh -- scripts/xrdp-target against the real xrdp, driven by Debian's xfreerdp (a
# client nobody here wrote): start (idempotent, cgroup cap), a user reaches the openbox desktop,
# the workload's commands work on it, openbox's exit logs off and ends every process of the user,
# and how xrdp treats a wrong password and the same user twice; stop ends everything.
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock

PORT=$(free_port)
READY='#2d5a87'
xrdp_start --users 2 --cpus 1 --port "$PORT"
"$TARGET" status >/dev/null || fail "status after start should exit 0"
xp=$(cat "$SESSMAX_XRDP_STATE/xrdp.pid") sp=$(cat "$SESSMAX_XRDP_STATE/sesman.pid")
CG=/sys/fs/cgroup/cpu/sessmax-xrdp
[ "$(cat $CG/cpu.cfs_quota_us)" = 100000 ] || fail "cpu quota is $(cat $CG/cpu.cfs_quota_us), want 100000"
grep -qx "$xp" $CG/cgroup.procs || fail "xrdp (pid $xp) is not in $CG"
grep -qx "$sp" $CG/cgroup.procs || fail "sesman (pid $sp) is not in $CG"

note "start again: idempotent, same daemons"
xrdp_start --users 2 --cpus 1 --port "$PORT"
[ "$(cat "$SESSMAX_XRDP_STATE/xrdp.pid")" = "$xp" ] || fail "second start replaced xrdp"
"$TARGET" start --users 2 --port $(( PORT == 65535 ? PORT - 1 : PORT + 1 )) 2>/dev/null &&
    fail "start on another port while running should fail"
"$TARGET" status --users x >/dev/null 2>&1; [ $? = 64 ] || fail "bad option should exit 64"

note "rdpuser1 logs on and reaches the desktop"
client_start a rdpuser1 "$SESSMAX_PASSWORD" "$PORT"
wait_for 60 user_runs rdpuser1 openbox || fail "no openbox for rdpuser1; $(tail -3 "$WORK/a.log")"
ready() { pixel_near "$(client_pixel a 1000 744)" "$READY" 12; }
wait_for 30 ready || fail "desktop-ready colour not seen (pixel $(client_pixel a 1000 744))"
xorg=$(pgrep -u rdpuser1 -x Xorg)
grep -qx "$xorg" $CG/cgroup.procs || fail "the session's Xorg (pid $xorg) is not in the cpu cgroup"

note "terminal, a command, its marker"
client_keys a ctrl+alt+t
wait_for 20 user_runs rdpuser1 xterm || fail "ctrl+alt+t did not start xterm"
sleep 1
before=$(client_pixel a 500 740)
client_type a "z9"; client_keys a Return
marked() { [ "$(cat /home/rdpuser1/.sessmax/mark 2>/dev/null)" = 1 ]; }
wait_for 30 marked || fail "z9 did not finish (mark file)"
[ -s /home/rdpuser1/work/data.txt.gz ] || fail "z9 wrote no data.txt.gz"
changed() { ! pixel_near "$(client_pixel a 500 740)" "$before" 4; }
wait_for 10 changed || fail "the status strip did not change colour after z9"

note "openbox exit = logoff: the client is dropped and the user's processes end"
client_keys a ctrl+alt+Delete
wait_for 20 client_gone a || fail "xfreerdp still connected after openbox exit"
grep -q ERRINFO_LOGOFF_BY_USER "$WORK/a.log" || fail "no ERRINFO_LOGOFF_BY_USER in the client log"
wait_for 20 no_user_procs rdpuser1 || fail "rdpuser1 processes left: $(pgrep -u rdpuser1 -l | tr '\n' ' ')"

note "wrong password: sesman refuses, xrdp drops the client (require_credentials), nothing starts"
log_off=$(stat -c %s /var/log/xrdp-sesman.log 2>/dev/null || echo 0)
client_start bad rdpuser2 "wrong-$SESSMAX_PASSWORD" "$PORT"
authfail() { tail -c +$((log_off + 1)) /var/log/xrdp-sesman.log | grep -q "AUTHFAIL: user=rdpuser2"; }
wait_for 30 authfail || fail "sesman did not log AUTHFAIL for rdpuser2"
wait_for 20 client_gone bad || fail "xrdp kept the connection after a failed login"
grep -q ERRINFO_LOGOFF_BY_USER "$WORK/bad.log" || fail "wrong password: no ERRINFO_LOGOFF_BY_USER in the client log"
no_user_procs rdpuser2 || fail "a failed login started processes for rdpuser2"

note "same user twice: the second logon takes the session over, the first client is dropped"
client_start b1 rdpuser2 "$SESSMAX_PASSWORD" "$PORT"
wait_for 60 user_runs rdpuser2 openbox || fail "no openbox for rdpuser2"
client_start b2 rdpuser2 "$SESSMAX_PASSWORD" "$PORT"
wait_for 30 client_gone b1 || fail "the first client of rdpuser2 was not dropped"
grep -q ERRINFO_LOGOFF_BY_USER "$WORK/b1.log" || fail "first client: no ERRINFO_LOGOFF_BY_USER"
client_alive b2 || fail "the second client of rdpuser2 should stay connected"
[ "$(pgrep -c -u rdpuser2 -x Xorg)" = 1 ] || fail "rdpuser2 should have exactly one X server"

note "stop ends sessions, daemons and the cgroup"
"$TARGET" stop || fail "stop failed"
XRDP_STARTED=0
for u in rdpuser1 rdpuser2; do no_user_procs $u || fail "$u processes survived stop"; done
proc_alive "$xp" && fail "xrdp survived stop"
proc_alive "$sp" && fail "sesman survived stop"
[ -d $CG ] && fail "$CG left behind"
ss -Hltn "sport = :$PORT" | grep -q . && fail "port $PORT still listening"
"$TARGET" status >/dev/null; [ $? = 3 ] || fail "status after stop should exit 3"
"$TARGET" stop >/dev/null 2>&1 || fail "a second stop should succeed"
echo "PASS xrdp_target"
