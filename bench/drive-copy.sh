#!/bin/bash
# drive-copy.sh -- client drive redirection throughput against a plain local copy on the same
# machine: one agent session copies SIZE_MB in each direction through FreeRDP's rdpdr channel
# (simhost copyin / copyout, every byte checked), then the same file is copied locally (cp, then
# cat through a pipe, page cache warm as for the drive copy). Prints MB/s and the ratio
# drive/local per direction. No target: it documents what the embedded channel costs.
#   bench/drive-copy.sh [SIZE_MB=100]
set -euo pipefail
SIZE_MB=${1:-100}
S=$(cd "$(dirname "$0")/.." && pwd)
B=${SESSMAX_BUILD_DIR:-$S/build}
. "$S/bench/lib.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-drive-bench.XXXXXX")
bench_cleanup_on_exit "$T"
export SESSMAX_PASSWORD=bench-drive-pw
PORT=$(free_port)
"$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users 1 --state-dir "$T/sim" > "$T/sim.log" 2>&1 &
PIDS=$!
for _ in $(seq 100); do grep -q 'listening on' "$T/sim.log" && break; sleep 0.1; done
FP=$(grep -o 'sha256:[0-9A-F:]*' "$T/sim.log" | head -1)
cat > "$T/w.yaml" <<YAML
version: 1
name: drive-bench
desktop: {width: 1024, height: 768, bpp: 16}
regions: {taskbar: [0, 740, 1024, 28], runbox: [8, 600, 420, 132], appwin: [112, 60, 800, 500]}
drives: {share: {files: {big: ${SIZE_MB}MB}}}
defaults: {type_rate: 10ms, timeout: 10s}
logon: {change: taskbar, stable: {region: taskbar, for: 300ms}, timeout: 60s}
loop:
  - {key: win+r}
  - wait: {change: runbox}
  - {type: "copyin share big"}
  - timer: copyin
    steps: [{key: enter}]
    until: {change: appwin, pixel: {x: 880, y: 66, rgb: "#00838F", tolerance: 8}, timeout: 600s,
            fail: {change: appwin, pixel: {x: 880, y: 66, rgb: "#6D4C41", tolerance: 8}}}
  - {key: win+r}
  - wait: {change: runbox}
  - {type: "copyout share out ${SIZE_MB}MB"}
  - timer: copyout
    steps: [{key: enter}]
    until: {change: appwin, pixel: {x: 880, y: 66, rgb: "#283593", tolerance: 8}, timeout: 600s,
            fail: {change: appwin, pixel: {x: 880, y: 66, rgb: "#6D4C41", tolerance: 8}}}
  - {think: 60s}
YAML
"$B/sessmax-agent" run --target "127.0.0.1:$PORT" --users 'simuser{n:03}' --sessions 1 --workload "$T/w.yaml" \
    --loops 1 --duration 900s --fingerprint "$FP" --config-dir "$T/agent" > "$T/a.jsonl" 2> "$T/a.err" || true
IN=$(grep -o 'copyin #[0-9]*: share:\\big [0-9]* bytes in [0-9.]* s, [0-9.]* MB/s' "$T/sim.log" | grep -o '[0-9.]* MB/s' | cut -d' ' -f1)
OUT=$(grep -o 'copyout #[0-9]*: share:\\out [0-9]* bytes in [0-9.]* s, [0-9.]* MB/s' "$T/sim.log" | grep -o '[0-9.]* MB/s' | cut -d' ' -f1)
[ -n "$IN" ] && [ -n "$OUT" ] || { tail -5 "$T/sim.log" "$T/a.err"; echo "drive-copy: the copies did not complete" >&2; exit 1; }
F=$T/agent/drives/shared/share/big
cat "$F" > /dev/null                                    # warm, like the drive copy's second read
t0=$(date +%s.%N); cp "$F" "$T/local.copy"; sync -f "$T/local.copy" 2>/dev/null || true; t1=$(date +%s.%N)
t2=$(date +%s.%N); cat "$F" | cat > "$T/local.pipe"; t3=$(date +%s.%N)
python3 - "$SIZE_MB" "$IN" "$OUT" "$t0" "$t1" "$t2" "$t3" <<'PY'
import sys
mb, din, dout = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
t0, t1, t2, t3 = map(float, sys.argv[4:8])
cp, pipe = mb / (t1 - t0), mb / (t3 - t2)
print(f"drive-copy: {mb:.0f} MB client->server (copyin)  {din:8.1f} MB/s   local cp {cp:8.1f} MB/s   ratio {din / cp:.3f}")
print(f"drive-copy: {mb:.0f} MB server->client (copyout) {dout:8.1f} MB/s   local cp {cp:8.1f} MB/s   ratio {dout / cp:.3f}")
print(f"drive-copy: local copy through a pipe {pipe:.1f} MB/s (copyin/pipe {din / pipe:.3f}, copyout/pipe {dout / pipe:.3f})")
PY
