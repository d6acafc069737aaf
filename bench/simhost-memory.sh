#!/bin/bash
# simhost-memory.sh -- does simhost keep memory per logon? Runs CYCLES agent runs of SESSIONS
# sessions against one simhost (each session logs on, runs one loop of the workload, logs off)
# and prints simhost's RSS after each cycle, when every session has gone.
#   bench/simhost-memory.sh [CYCLES=6] [SESSIONS=20]
#   env: WORK_SCALE (0.02), WORKLOAD (workloads/simhost-task-worker.yaml),
#        MALLOC=lsan: simhost on LeakSanitizer's allocator (gcc's liblsan preloaded; no rebuild):
#        its RSS shows what glibc's per-thread arenas keep, and at exit it reports every block
#        nobody points to (FreeRDP 2's tls_accept keeps a certificate and key per TLS logon:
#        tests/lsan.supp; full stacks, so that the suppression can see it).
# RSS that rises for a few cycles and then stays is the allocator keeping freed memory (one
# thread per peer, so one glibc arena per thread); RSS that rises by the same step every cycle,
# or a leak report naming sessmax code, is a leak.
set -euo pipefail
CYCLES=${1:-6}
N=${2:-20}
S=${SESSMAX_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SESSMAX_BUILD_DIR:-$S/build}
WORKLOAD=${WORKLOAD:-$S/workloads/simhost-task-worker.yaml}
T=$(mktemp -d "${TMPDIR:-/tmp}/sessmax-simmem.XXXXXX")
export SESSMAX_PASSWORD=${SESSMAX_PASSWORD:-simmem-bench-pass-$$}
. "$S/bench/lib.sh"
bench_cleanup_on_exit "$T"
PRELOAD=""
if [ "${MALLOC:-glibc}" = lsan ]; then
    PRELOAD=$(gcc -print-file-name=liblsan.so)
    [ -e "$PRELOAD" ] || { echo "simhost-memory: liblsan.so not found (apt-get install liblsan0)" >&2; exit 69; }
fi
PORT=$(free_port)
LD_PRELOAD=$PRELOAD LSAN_OPTIONS=suppressions=$S/tests/lsan.supp:print_suppressions=1:fast_unwind_on_malloc=0:malloc_context_size=30 \
    "$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users $((N + 2)) --work-scale "${WORK_SCALE:-0.02}" \
    --state-dir "$T/sim" --log-level warn >"$T/simhost.log" 2>&1 &
SIM=$!; PIDS=$SIM
for _ in $(seq 600); do grep -q "listening on" "$T/simhost.log" && break; sleep 0.2; done
grep -q "listening on" "$T/simhost.log" || { cat "$T/simhost.log" >&2; exit 1; }
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SIM/status"; }
echo "simhost-memory: ${MALLOC:-glibc} allocator, $CYCLES cycles of $N sessions (one loop each)"
echo "simhost-memory: cycle 0 rss $(rss) MiB"
for c in $(seq "$CYCLES"); do
    arc=0   # 0, or 2 when a timer failed on the loaded machine: the logons still happened
    "$B/sessmax-agent" run --target "127.0.0.1:$PORT" --users 'simuser{n:03}' --sessions "$N" \
        --workload "$WORKLOAD" --duration 600s --loops 1 --no-verify >"$T/agent.jsonl" 2>"$T/agent.err" || arc=$?
    sleep 2
    echo "simhost-memory: cycle $c rss $(rss) MiB threads $(ls "/proc/$SIM/task" | wc -l)" \
         "sessions ended $(grep -c '"event":"ended"' "$T/agent.jsonl" || true) agent exit $arc"
done
kill -TERM "$SIM"
rc=0
wait "$SIM" || rc=$?
PIDS=""
echo "simhost-memory: simhost exit $rc"
if [ -n "$PRELOAD" ]; then
    # the summary of what was not suppressed, and what the suppressions held
    grep -E "^(Direct|Indirect) leak|SUMMARY: LeakSanitizer|^ *[0-9]+ +[0-9]+ " "$T/simhost.log" |
        sed 's/^ */simhost-memory: lsan: /' || echo "simhost-memory: lsan: no leak at all"
fi
