#!/usr/bin/env bash
# valgrind.sh -- memcheck over both session engines: simhost and the agent each run under
# valgrind while N built-in sessions (default 3) log on, run one loop of the task worker at a
# small work scale and log off; then simhost is stopped. Prints each program's error summary and
# leak summary and fails on any memcheck error (invalid access, uninitialised value, bad free)
# or a definite leak outside FreeRDP/WinPR.
#   bench/valgrind.sh [BUILD_DIR [SESSIONS]]
# Debian's libhwy cannot load under valgrind 3.19 here (see bench/valgrind/hwy_stand_in.c): the
# script builds a stand-in and puts it first on LD_LIBRARY_PATH for the two programs only.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-$SRC/build}" && pwd)
N=${2:-3}
export SESSMAX_PASSWORD=valgrind-pass
T=$(mktemp -d /tmp/sessmax-valgrind.XXXXXX)
. "$SRC/bench/lib.sh"
bench_cleanup_on_exit "$T"
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed (apt-get install valgrind)"; exit 1; }

echo 'HWY_0 { global: *; };' > "$T/hwy.map"
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -Wl,--version-script="$T/hwy.map" -Wl,-soname,libhwy.so.1 \
   -o "$T/libhwy.so.1" "$SRC/bench/valgrind/hwy_stand_in.c"
VG=(env LD_LIBRARY_PATH="$T" valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite
    --errors-for-leak-kinds=none --num-callers=30 --track-origins=yes --fullpath-after="$SRC/")

PORT=$(free_port)
"${VG[@]}" --log-file="$T/simhost.vg" "$B/sessmax-simhost" --listen "127.0.0.1:$PORT" --users $((N + 2)) \
    --work-scale 0.05 --state-dir "$T/sim" > "$T/simhost.log" 2>&1 &
SIM_PID=$!; PIDS=$SIM_PID
for _ in $(seq 600); do
    grep -q 'listening on' "$T/simhost.log" 2>/dev/null && break
    kill -0 "$SIM_PID" 2>/dev/null || break
    sleep 0.2
done
FP=$(grep -ao 'sha256:[0-9A-Fa-f:]*' "$T/simhost.log" | head -1)
[ -n "$FP" ] || { cat "$T/simhost.log"; echo "valgrind.sh: FAIL: simhost did not start under valgrind"; exit 1; }

set +e
"${VG[@]}" --log-file="$T/agent.vg" "$B/sessmax-agent" run \
    --target "127.0.0.1:$PORT" --users 'simuser{n:03}' --sessions "$N" \
    --workload "$SRC/workloads/simhost-task-worker.yaml" --loops 1 --duration 900s --ramp 5s \
    --fingerprint "$FP" --connect-timeout 120s --logoff-timeout 120s > "$T/agent.jsonl" 2> "$T/agent.err"
AGENT_RC=$?
kill -TERM "$SIM_PID"; wait "$SIM_PID"; SIM_RC=$?; PIDS=""
set -e

fail=0
ended=$(grep -c '"event":"ended"' "$T/agent.jsonl" || true)
samples=$(grep -c '"type":"sample"' "$T/agent.jsonl" || true)
echo "valgrind.sh: $N sessions, $ended ended cleanly, $samples samples; agent exit $AGENT_RC, simhost exit $SIM_RC"
[ "$ended" = "$N" ] || { echo "valgrind.sh: FAIL: not every session ended cleanly"; tail -5 "$T/agent.err"; fail=1; }
for p in simhost agent; do
    errs=$(grep -o 'ERROR SUMMARY: [0-9]*' "$T/$p.vg" | tail -1 | grep -o '[0-9]*$')
    lost=$(grep -o 'definitely lost: [0-9,]* bytes in [0-9,]* blocks' "$T/$p.vg" | tail -1)
    # a definite leak is sessmax's when the first frame above the allocator that is not in the C
    # library is sessmax code; one allocated inside FreeRDP, WinPR or OpenSSL (called from sessmax
    # or not) is the library's, as tests/lsan.supp lists them (tls_accept's key and certificate)
    ours=$(awk '/definitely lost in loss record/{blk=1; own=0; lib=0; next}
                blk && /(by|at) 0x/ && /lib(freerdp|winpr|crypto|ssl)/ && !own {lib=1}
                blk && /(by|at) 0x/ && /(agent|simhost|common|db|controller)\// && !lib {own=1}
                blk && /^==[0-9]+== $/{if (own) n++; blk=0} END{print n+0}' "$T/$p.vg")
    echo "valgrind.sh: $p: memcheck errors ${errs:-?}; ${lost:-definitely lost: 0 bytes}; leaks through sessmax code: $ours"
    if [ "${errs:-1}" != 0 ] || [ "$ours" != 0 ]; then
        fail=1
        grep -E -A25 'Invalid|uninitialised|Mismatched|definitely lost in loss' "$T/$p.vg" | head -80
    elif [ -n "$lost" ] && [ "${lost#definitely lost: 0 }" = "$lost" ]; then
        grep -E -A14 'definitely lost in loss' "$T/$p.vg" | grep -E 'lost in loss|: (tls_|freerdp_|winpr_|Reg)' | head -8
    fi
done
[ $fail = 0 ] && echo "valgrind.sh: ok" || { echo "valgrind.sh: FAILED"; exit 1; }
