#!/bin/bash
# simhost_xfreerdp.sh -- Debian's xfreerdp (a client nobody here wrote) logs on to sessmax-simhost
# under Xvfb; xdotool types win+r, "cpu", Return; screenshots (ImageMagick `import`) must show the
# run box, then the CPU window. Also: --max-sessions refusal (exit 7), logoff, a 16 bpp session,
# a wrong password (exit 9), and the event log line of the action.
set -u
B=${SESSMAX_BUILD_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK simhost_xfreerdp

for t in xfreerdp Xvfb xdotool import convert; do
  command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done

export SESSMAX_PASSWORD="throwaway-$RANDOM$RANDOM"   # a test-only password; xfreerdp reads it from stdin
start_simhost 3 --max-sessions 1 --event-log "$WORK/events.log" --log-level debug
SIM=$SIM_PID PORT=$SIM_PORT
grep -q "listening on 127.0.0.1:$PORT fingerprint sha256:" "$SIM_LOG" || fail "no ready line"

# Xvfb picks a free display itself
exec 3>"$WORK/display"
Xvfb -displayfd 3 -screen 0 1100x800x24 -nolisten tcp >/dev/null 2>&1 &
PIDS+=($!)
for i in $(seq 1 100); do [ -s "$WORK/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -1 "$WORK/display")"
[ "$DISPLAY" != ":" ] || fail "Xvfb did not start"

# pixel X Y -> RRGGBB of the root window
pixel() { import -window root "$WORK/shot.png" 2>/dev/null &&
          convert "$WORK/shot.png" -crop "1x1+$1+$2" -depth 8 txt:- 2>/dev/null | grep -o '#[0-9A-F]\{6\}' | head -1 | tr -d '#'; }
near() {  # near RRGGBB RRGGBB tolerance
  python3 -c 'import sys;a,b,t=sys.argv[1],sys.argv[2],int(sys.argv[3]);print(int(all(abs(int(a[i:i+2],16)-int(b[i:i+2],16))<=t for i in (0,2,4))))' "$1" "$2" "$3"
}
wait_pixel() {  # wait_pixel X Y RRGGBB TOL WHAT
  for i in $(seq 1 150); do
    p=$(pixel "$1" "$2"); [ -n "$p" ] && [ "$(near "$p" "$3" "$4")" = 1 ] && return 0; sleep 0.2
  done
  fail "$5: pixel ($1,$2) is ${p:-none}, expected $3"
}
crop() { import -window root "$WORK/$1.png" 2>/dev/null && convert "$WORK/$1.png" -crop 800x600+112+60 "$WORK/$1.crop.png"; }

xf() {  # xf USER [extra args]: xfreerdp in the background, password on stdin
  local u=$1; shift
  printf '%s\n' "$SESSMAX_PASSWORD" | xfreerdp /v:127.0.0.1:$PORT /u:$u /d:x /from-stdin:force /cert:ignore \
    /size:1024x768 -grab-keyboard /log-level:ERROR "$@" >"$WORK/xf.$u.log" 2>&1 &
}

# 1. logon, desktop ready: taskbar colour and the background
xf simuser001; XF1=$!; PIDS+=($XF1)
wait_pixel 500 755 202830 4 "taskbar after logon"
wait_pixel 500 300 2D6A8E 4 "background after logon"
crop before
W=$(xdotool search --sync --class xfreerdp | head -1)
xdotool windowfocus --sync "$W" 2>/dev/null || xdotool windowfocus "$W"

# 2. win+r opens the run box (title bar colour), typing cpu + Return shows the CPU window
xdotool key super+r
wait_pixel 300 605 3465A4 4 "run box title after win+r"
xdotool type --delay 80 cpu
xdotool key Return
wait_pixel 700 65 6A1B9A 4 "CPU window title after 'cpu'"
p=$(pixel 300 605); [ "$(near "$p" 3465A4 4)" = 0 ] || fail "run box still open after Return"
crop after
diff=$(compare -metric AE "$WORK/before.crop.png" "$WORK/after.crop.png" null: 2>&1 | cut -d' ' -f1)
[ "${diff%.*}" -gt 10000 ] || fail "app area changed by only $diff pixels"
grep -q "action=cpu seq=1 .* ok=1" "$WORK/events.log" || fail "no event log line for cpu"
echo "ok: run box and CPU window drawn ($diff pixels changed)"

# 2b. hiding the window makes xfreerdp send SuppressOutput(allow=0), showing it allow=1, after
#     which the whole desktop is sent again: the CPU window is still there
xdotool windowunmap "$W"
for i in $(seq 1 50); do grep -q "suppress output: allow=0" "$SIM_LOG" && break; sleep 0.2; done
grep -q "suppress output: allow=0" "$SIM_LOG" || fail "no SuppressOutput(allow=0) on unmap"
xdotool windowmap "$W"
for i in $(seq 1 50); do grep -q "suppress output: allow=1" "$SIM_LOG" && break; sleep 0.2; done
grep -q "suppress output: allow=1" "$SIM_LOG" || fail "no SuppressOutput(allow=1) on map"
wait_pixel 700 65 6A1B9A 4 "CPU window after the window was shown again"
xdotool windowfocus --sync "$W" 2>/dev/null || xdotool windowfocus "$W"
echo "ok: suppress output"

# 3. --max-sessions 1: a second logon is refused with ERRINFO_SERVER_DENIED_CONNECTION (xfreerdp exit 7)
printf '%s\n' "$SESSMAX_PASSWORD" | timeout 60 xfreerdp /v:127.0.0.1:$PORT /u:simuser002 /d:x /from-stdin:force \
  /cert:ignore /log-level:OFF >/dev/null 2>&1
rc=$?; [ $rc = 7 ] || fail "second session: xfreerdp exit $rc, expected 7 (denied)"
echo "ok: --max-sessions refusal (exit 7)"

# 4. logoff ends the session and xfreerdp exits
xdotool key super+r
wait_pixel 300 605 3465A4 4 "run box before logoff"
xdotool type --delay 80 logoff
xdotool key Return
for i in $(seq 1 100); do kill -0 $XF1 2>/dev/null || break; sleep 0.2; done
kill -0 $XF1 2>/dev/null && fail "xfreerdp still running after logoff"
grep -q "simuser001 logged off" "$SIM_LOG" || fail "no logoff in simhost log"
echo "ok: logoff"

# 5. a 16 bpp session: colours within RGB565 precision
xf simuser003 /bpp:16; XF3=$!; PIDS+=($XF3)
wait_pixel 500 755 202830 8 "16 bpp taskbar"
grep -q "simuser003 logged on (16 bpp" "$SIM_LOG" || fail "session 3 not at 16 bpp"
W=$(xdotool search --sync --class xfreerdp | head -1)
xdotool windowfocus --sync "$W" 2>/dev/null || xdotool windowfocus "$W"
xdotool key super+r
wait_pixel 300 605 3465A4 8 "16 bpp run box"
xdotool key Escape
wait_pixel 300 605 2D6A8E 8 "16 bpp run box closed by Esc"
kill $XF3; wait $XF3 2>/dev/null
echo "ok: 16 bpp session"

# 6. wrong password: logon error, ERRINFO_SERVER_INSUFFICIENT_PRIVILEGES (xfreerdp exit 9)
for i in $(seq 1 50); do grep -q "session .*simuser003" "$SIM_LOG" && break; sleep 0.1; done
sleep 1   # let the server notice session 3 went away (max-sessions 1)
printf 'wrong\n' | timeout 60 xfreerdp /v:127.0.0.1:$PORT /u:simuser002 /d:x /from-stdin:force \
  /cert:ignore /log-level:OFF >/dev/null 2>&1
rc=$?; [ $rc = 9 ] || fail "wrong password: xfreerdp exit $rc, expected 9 (insufficient privileges)"
grep -qF "$SESSMAX_PASSWORD" "$SIM_LOG" && fail "password in simhost output"
echo "ok: wrong password refused (exit 9)"

kill -0 $SIM || fail "simhost died"
kill -TERM $SIM; wait $SIM; rc=$?
[ $rc = 0 ] || fail "simhost exit $rc after SIGTERM"

# 7. NLA with a SAM file made by winpr-hash: xfreerdp /sec:nla logs on and sees the desktop
if command -v winpr-hash >/dev/null; then
  winpr-hash -u simuser001 -p "$SESSMAX_PASSWORD" -f sam > "$WORK/sam"
  start_simhost 1 --nla --sam-file "$WORK/sam"   # its output replaces the first one's in $SIM_LOG
  PORT2=$SIM_PORT
  printf '%s\n' "$SESSMAX_PASSWORD" | xfreerdp /v:127.0.0.1:$PORT2 /u:simuser001 /d:x /from-stdin:force \
    /cert:ignore /sec:nla /size:1024x768 /log-level:ERROR >"$WORK/xf.nla.log" 2>&1 &
  PIDS+=($!)
  wait_pixel 500 755 202830 4 "taskbar after an NLA logon"
  grep -q "simuser001 logged on (32 bpp, NLA" "$SIM_LOG" || fail "NLA logon not reported"
  echo "ok: NLA logon"
fi
echo "PASS simhost_xfreerdp"
