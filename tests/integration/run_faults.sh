#!/bin/bash
# run_faults.sh -- faults mid-run end with a clear reason, an inconclusive verdict, no hang and an
# intact database: (1) an agent stopped with SIGSTOP for longer than the heartbeat timeout is
# declared lost; (2) the disk under the results database fills up (a small tmpfs, when this
# machine lets us mount one).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

# --- 1. SIGSTOP: silent past the heartbeat timeout (5 s in write_plan) ---
start_simhost 20
write_plan 8 2 4 4s 15s
timeout 120 "$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/run.log" 2>&1 &
CTL=$!
PIDS+=("$CTL")
active() { [ -f "$WORK/r.db" ] && [ "$(q "select count(*) from sessions where state = 'active'" 2>/dev/null)" -ge 6 ]; }
wait_for 90 active || fail "sessions did not become active"
SMX=$(pgrep -P "$CTL" -x sessmax) || fail "sessmax not found under timeout"
VICTIM=$(pgrep -P "$SMX" -f -- "--name local-1") || fail "agent local-1 not found"
kill -STOP "$VICTIM"
set +e
wait "$CTL"
rc=$?
set -e
kill -CONT "$VICTIM" 2>/dev/null || true
cat "$WORK/run.log"
[ $rc = 2 ] || fail "SIGSTOP: expected exit 2 (inconclusive), got $rc (124 = hang)"
grep -q "agent local-1 lost: .*heartbeat timeout" "$WORK/run.log" || fail "SIGSTOP: no clear reason"
[ "$(q "select status from agents where name = 'local-1'")" = lost ] || fail "SIGSTOP: agent not marked lost"
[ "$(q "select verdict from runs")" = inconclusive ] || fail "SIGSTOP: verdict not inconclusive"
[ "$(q "pragma integrity_check")" = ok ] || fail "SIGSTOP: database damaged"

# --- 2. the disk under the database fills up ---
mkdir -p "$WORK/disk"
if ! mount -t tmpfs -o size=4m tmpfs "$WORK/disk" 2>/dev/null; then
    echo "SKIP part 2: cannot mount a tmpfs here (needs root)"
    echo PASS
    exit 0
fi
unmount() { umount "$WORK/disk" 2>/dev/null || true; }
at_exit unmount
sed -i "s|^results: .*|results: $WORK/disk/r.db|" "$WORK/plan.yaml"
timeout 120 "$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/full.log" 2>&1 &
CTL=$!
PIDS+=("$CTL")
dq() { sqlite3 "$WORK/disk/r.db" "$1"; }
active2() { [ -f "$WORK/disk/r.db" ] && [ "$(dq "select count(*) from sessions where state = 'active'" 2>/dev/null)" -ge 4 ]; }
wait_for 90 active2 || fail "disk: sessions did not become active"
dd if=/dev/zero of="$WORK/disk/filler" bs=64k 2>/dev/null || true   # until the disk is full
set +e
wait "$CTL"
rc=$?
set -e
cat "$WORK/full.log"
[ $rc != 124 ] || fail "disk full: the run hung"
[ $rc != 0 ] || fail "disk full: the run claimed success"
[ $rc = 2 ] || fail "disk full: expected exit 2 (inconclusive), got $rc"
grep -q "run 1 failed: results store: .*full.*the run stopped" "$WORK/full.log" || fail "disk full: no clear reason"
rm -f "$WORK/filler" "$WORK/disk/filler"
[ "$(dq "pragma integrity_check")" = ok ] || fail "disk full: database damaged"
echo PASS
