#!/bin/bash
# simhost-bandwidth.sh -- kbit/s per session of the shipped task worker
# (workloads/simhost-task-worker.yaml, the agent's default 16 bpp) against sessmax-simhost with its
# default codec beside the uncompressed figure (--codec none). Each run: SESSIONS agent sessions
# for SECONDS; kbit/s per session as `sessmax score` computes it (RDP payload bytes both ways
# between consecutive traffic records, over their time). Also prints simhost's own pixel/bitmap
# byte ratio per codec.
#   bench/simhost-bandwidth.sh [SESSIONS=4] [SECONDS=90] [CODECS="none auto"]
set -euo pipefail
N=${1:-4}
SECS=${2:-90}
CODECS=${3:-none auto}
S=$(cd "$(dirname "$0")/.." && pwd)
B=${SESSMAX_BUILD_DIR:-$S/build}
. "$S/bench/lib.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-bw-bench.XXXXXX")
bench_cleanup_on_exit "$T"
export SESSMAX_PASSWORD=bench-bw-pw
declare -A KBPS
for codec in $CODECS; do
    PORT=$(free_port)
    "$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users "$N" --state-dir "$T/sim-$codec" --codec "$codec" \
        > "$T/sim-$codec.log" 2>&1 &
    SIM=$!; PIDS=$SIM
    for _ in $(seq 100); do grep -q 'listening on' "$T/sim-$codec.log" && break; sleep 0.1; done
    FP=$(grep -ao 'sha256:[0-9A-F:]*' "$T/sim-$codec.log" | head -1)
    [ -n "$FP" ] || { cat "$T/sim-$codec.log"; echo "simhost did not start" >&2; exit 1; }
    "$B/sessmax-agent" run --target "127.0.0.1:$PORT" --users 'simuser{n:03}' --sessions "$N" \
        --workload "$S/workloads/simhost-task-worker.yaml" --duration "${SECS}s" --ramp 4s \
        --fingerprint "$FP" --config-dir "$T/agent" > "$T/$codec.jsonl" 2> "$T/$codec.err" || true
    kill "$SIM"; wait "$SIM" 2>/dev/null || true; PIDS=
    KBPS[$codec]=$(python3 - "$T/$codec.jsonl" <<'PY'
import json, sys
last, b, s = {}, 0.0, 0.0
for l in open(sys.argv[1]):
    if not l.startswith("{"):
        continue
    r = json.loads(l)
    if r["type"] != "traffic":
        continue
    x = (r["t_us"], r["bytes_in"] + r["bytes_out"])
    p = last.get(r["session"])
    last[r["session"]] = x
    if p and x[0] > p[0]:
        b += max(0, x[1] - p[1]); s += (x[0] - p[0]) / 1e6
print(f"{b * 8 / 1000 / s:.1f}" if s > 0 else "nan")
PY
)
    loops=$(python3 -c "import json,sys; print(sum(1 for l in open(sys.argv[1]) if l.startswith('{') and json.loads(l).get('type')=='sample' and json.loads(l).get('name')=='app_start'))" "$T/$codec.jsonl")
    ratio=$(grep -ao '[0-9]* KiB of pixels sent as [0-9]* KiB' "$T/sim-$codec.log" | awk '{p+=$1; s+=$7} END {if (s) printf "%.1fx", p/s; else printf "-"}' || true)
    platform=$(grep -ao 'platform [^,]*' "$T/sim-$codec.log" | head -1 | cut -d' ' -f2)
    printf 'codec %-12s %-22s kbit/s per session %8s   (%d sessions, %d s, %s app_start loops, simhost pixels/bitmap %s)\n' \
        "$codec" "$platform" "${KBPS[$codec]}" "$N" "$SECS" "$loops" "$ratio"
done
if [ -n "${KBPS[none]:-}" ] && [ -n "${KBPS[auto]:-}" ]; then
    python3 -c "import sys; a, n = float(sys.argv[1]), float(sys.argv[2]); print(f'task worker: {a:.1f} kbit/s per session with the default codec, {n:.1f} uncompressed ({n / a:.1f}x)   target <= 200')" \
        "${KBPS[auto]}" "${KBPS[none]}"
fi
