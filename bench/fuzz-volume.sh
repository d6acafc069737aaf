#!/usr/bin/env bash
# fuzz-volume.sh -- the fuzzing volume bench: every libFuzzer harness (tests/fuzz) runs to RUNS
# executions (default 10,000,000) in the configuration CI fuzzes with (clang, libFuzzer,
# ASan+UBSan+LSan; the build of `make fuzz`), one harness at a time, the slowest first.
#   bench/fuzz-volume.sh [FUZZ_BUILD_DIR [NAME...]]      (default build-fuzz, every harness)
# CAP (seconds per harness, default none) stops a harness early; it then prints its rate and the
# time RUNS would take. Corpora are kept in FUZZ_BUILD_DIR/fuzz/corpus, so a second run goes on
# from the first. Prints one line per harness from tests/fuzz/run.sh:
#   NAME: N executions in S s (R exec/s), findings 0, corpus C inputs
# and a FAIL line with the saved input for a finding. Run it under `nice -n 19` on a shared machine.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$SRC/build-fuzz}
[ $# -gt 0 ] && shift
NAMES=${*:-fuzz_report fuzz_score fuzz_sim_users fuzz_drives fuzz_workload fuzz_plan fuzz_ydoc fuzz_client fuzz_netprofile fuzz_proto fuzz_matrix}
if ! cmake -S "$SRC" -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSESSMAX_FUZZ=ON >/dev/null ||
   ! cmake --build "$B" -j2 --target sessmax_fuzzers >/dev/null; then
    echo "fuzz-volume: FAIL: cannot build the harnesses in $B"
    exit 1
fi
echo "fuzz-volume: $(date -u '+%F %H:%M') UTC, $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null), RUNS=${RUNS:-10000000} CAP=${CAP:-none}, load $(cut -d' ' -f1-3 /proc/loadavg)"
unset FUZZ_SECONDS
[ -n "${CAP:-}" ] && export FUZZ_SECONDS=$CAP
# No malloc/free stacks (ASan's malloc_context_size=0; run.sh's default is 8): saving up to 8
# frames on every malloc and free of SQLite and the code under test was a large share of each
# input. A finding is still caught and its input saved; rerun that input (tests/fuzz/run.sh, or
# the harness with the input as argument) for the report with the allocation and free stacks.
FUZZ_MALLOC_CONTEXT=${FUZZ_MALLOC_CONTEXT:-0} FUZZ_RUNS=${RUNS:-10000000} FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-30} bash "$SRC/tests/fuzz/run.sh" "$B" $NAMES
