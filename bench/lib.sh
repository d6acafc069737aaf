# lib.sh -- helpers the bench scripts share. Source it after setting S (the source tree):
#   . "$S/bench/lib.sh"
#   bench_cleanup_on_exit "$T"    # at exit: end the processes in $PIDS, then remove $T
# PIDS: the processes a script started (space-separated); bench_cleanup sends each TERM, waits
# BENCH_GRACE_S (0.3 s), then KILL. Before removing the directory it calls bench_keep, which a
# script may define to copy logs out; BENCH_KEEP_DIR=1 keeps the directory instead.

PIDS=${PIDS:-}
BENCH_DIR=""

bench_keep() { :; }

bench_cleanup() {
  local p
  for p in $PIDS; do kill "$p" 2>/dev/null || true; done
  if [ -n "$PIDS" ]; then sleep "${BENCH_GRACE_S:-0.3}"; fi
  for p in $PIDS; do kill -9 "$p" 2>/dev/null || true; done
  for p in $PIDS; do wait "$p" 2>/dev/null || true; done
  bench_keep || true
  if [ -n "$BENCH_DIR" ] && [ "${BENCH_KEEP_DIR:-0}" != 1 ]; then rm -rf "$BENCH_DIR"; fi
}

bench_cleanup_on_exit() {   # bench_cleanup_on_exit DIR
  BENCH_DIR=$1
  trap bench_cleanup EXIT
}

# a free TCP port on the loopback
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

# user + system CPU of process PID in clock ticks (getconf CLK_TCK); 0 once it has exited
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
