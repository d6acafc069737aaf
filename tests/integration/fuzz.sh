#!/usr/bin/env bash
# fuzz.sh -- every libFuzzer harness (tests/fuzz: agent link decoder, workloads, plans, the YAML
# layer, network profiles, simhost's users file, score and report/dashboard on a tampered results
# database, the matrix --vary/--cell parsers, a CONFIG's client and drives, simhost's run-box
# lines and --predict inputs, a client drive's FileStandardInformation reply, the small argument
# parsers) runs for FUZZ_SECONDS each (default 10:
# every harness and its seeds run in `make test`; `make fuzz` runs them for 60 s). Builds them with
# clang into a fuzz build beside the normal one (SESSMAX_BUILD_DIR/fuzz-build, -DSESSMAX_FUZZ=ON). Fails on any crash,
# sanitizer report, leak, timeout or broken oracle, naming the harness and the saved input.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
BUILD=${SESSMAX_BUILD_DIR:?SESSMAX_BUILD_DIR not set}
FB="$BUILD/fuzz-build"
command -v clang >/dev/null || { echo "FAIL: clang is needed for the fuzz harnesses"; exit 1; }
if ! cmake -S "$SRC" -B "$FB" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSESSMAX_FUZZ=ON >"$BUILD/fuzz-build.log" 2>&1 ||
   ! cmake --build "$FB" -j2 --target sessmax_fuzzers >>"$BUILD/fuzz-build.log" 2>&1; then
    tail -n 30 "$BUILD/fuzz-build.log"
    echo "FAIL: building the fuzz harnesses"
    exit 1
fi
FUZZ_SECONDS=${FUZZ_SECONDS:-10} bash "$SRC/tests/fuzz/run.sh" "$FB" || { echo FAIL; exit 1; }
echo PASS
