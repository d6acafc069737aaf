#!/bin/bash
# agent_shot_busy.sh -- a fresh session's first frame is never lost on a busy machine: with a busy
# loop on every core, 10 `sessmax-agent shot`s against simhost's default codec all show the desktop
# (exit 0, no one-colour warning), and simhost never had to paint before the client spoke (the
# agent sends its input Synchronize once it reads the session). Before the fix: 10 of 10 black.
. "$(dirname "$0")/lib/agent_env.sh"
start_simhost 1 --work-scale 0.2 --log-level debug
for _ in $(seq "$(nproc)"); do
  sh -c 'while :; do :; done' &
  PIDS+=("$!")
done
for i in $(seq 10); do
  set +e
  "$AGENT" shot --target "127.0.0.1:$SIM_PORT" --user simuser001 --fingerprint "$SIM_FP" --wait 1s \
    -o "$T/s$i.png" 2> "$T/s$i.err"
  rc=$?
  set -e
  [ $rc = 0 ] || { cat "$T/s$i.err" >&2; fail "shot $i of 10 under load exited $rc"; }
  ! grep -q 'one colour' "$T/s$i.err" || fail "shot $i of 10 under load is one colour"
done
[ "$(grep -c 'logged on' "$T/simhost.log")" = 10 ] || fail "simhost did not see 10 logons"
! grep -q 'said nothing after activation' "$T/simhost.log" || fail "the agent never spoke after activation"
echo "agent_shot_busy: ok (10 of 10 shots painted under load)"
