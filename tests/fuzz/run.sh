#!/usr/bin/env bash
# run.sh -- runs sessmax's libFuzzer harnesses one after another from a fuzz build directory.
#   tests/fuzz/run.sh FUZZ_BUILD_DIR [NAME...]        (default: every harness)
# Budget per harness: FUZZ_SECONDS (default 60) and/or FUZZ_RUNS executions (whichever ends first;
# with only FUZZ_RUNS set there is no time limit). One input
# may take FUZZ_TIMEOUT seconds (default 10; raise it on a loaded machine). FUZZ_MALLOC_CONTEXT:
# frames of stack ASan keeps per malloc and free (default 8).
# Corpora grow in FUZZ_BUILD_DIR/fuzz/corpus/NAME, seeded from the shipped YAML files and, for the
# link decoder, from the real encoder (seed_proto). A crash, leak, sanitizer report or timeout
# fails the run and leaves the input in FUZZ_BUILD_DIR/fuzz/artifacts/. Prints per harness
# "NAME: N executions in S s (R exec/s; C s of CPU, P per CPU-second), findings 0, corpus K inputs"
# (CPU: user + system time of the harness, what counts on a shared machine); when FUZZ_RUNS was
# not reached within FUZZ_SECONDS, also the time FUZZ_RUNS would take at each rate.
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:?usage: run.sh FUZZ_BUILD_DIR [NAME...]}
shift
NAMES=${*:-fuzz_proto fuzz_workload fuzz_ydoc fuzz_plan fuzz_score fuzz_report fuzz_netprofile fuzz_sim_users fuzz_matrix fuzz_client fuzz_drives fuzz_simhost fuzz_args fuzz_x224 fuzz_rdpdr_info fuzz_promtext}
D="$B/fuzz"
mkdir -p "$D/artifacts" "$D/logs"

# seeds NAME DIR -- fills DIR with the seed inputs of harness NAME.
seeds() {
    local name=$1 dir=$2
    mkdir -p "$dir"
    case $name in
    fuzz_proto) "$D/seed_proto" "$dir" || return 1 ;;
    fuzz_workload) cp "$SRC"/workloads/*-worker.yaml "$SRC"/workloads/single-user.yaml \
                      "$SRC"/tests/integration/short-worker.yaml "$dir"/ ;;
    fuzz_plan) cp "$SRC"/workloads/*-plan.yaml "$dir"/
               printf 'target: {host: h, verify: false}\ncredentials: {user: "u{n}", password_env: P}\nworkload: w\nsessions: 1\nlaunch_window: 1s\nagents: {local: 1}\nclient: vnc\nclients:\n  vnc: {x11: vncviewer, target: {host: v, port: 5901}}\n  builtin: {target: {port: 3390}}\n' >"$dir/clients" ;;
    fuzz_ydoc) cp "$SRC"/workloads/*.yaml "$dir"/ ;;
    fuzz_netprofile) printf '\001{"name":"wan","rtt_ms":50,"jitter_ms":2,"loss_pct":0.5,"rate_down_kbit":20000,"rate_up_kbit":5000,"queue":100,"connection":"wan"}' >"$dir/json"
                     printf '\000wan-50ms' >"$dir/builtin"
                     printf '\000{name: x, rtt: 80ms, jitter: 5ms, loss: 1%%, rate_down: 20mbit, rate_up: 2mbit, queue: 50, connection: wan}' >"$dir/yaml" ;;
    fuzz_sim_users) printf 'alice:a1\n# c\nbob:b2\n' >"$dir/list"; printf 'shared-pw\n' >"$dir/one" ;;
    fuzz_matrix) printf 'platform=ws2022,ws2019@10.0.0.5:3390,lab@[::1]:3389\nsessions=1,50,100\nnetwork=lan,wan-100ms\n' >"$dir/vary"
                 printf '#platform=ws2022,network=wan-100ms' >"$dir/cell" ;;
    fuzz_client) printf 'xfreerdp' >"$dir/bare"
                 printf '{"x11":"xfreerdp","transport":"udp","resolution":"1280x800","args":"/gfx","window_timeout":"20s"}' >"$dir/xfreerdp"
                 printf '{"x11":"vncviewer"}' >"$dir/vnc"; printf '{"x11":"citrix"}' >"$dir/citrix"
                 printf '{"x11":"mycli --host {host}:{port} -u {user} /d:{domain}","password":"stdin"}' >"$dir/command" ;;
    fuzz_drives) printf '{share: {files: {f: 10485760, big: 314572800}}, other: {files: {x: 1}}}' >"$dir/two"
                 printf '{share: {files: {f: 10MB}}}' >"$dir/units" ;;
    fuzz_simhost) printf '\000edit doc1.txt' >"$dir/edit"; printf '\000copyout c big.bin 10MB' >"$dir/copyout"
                  printf '\001version: 1\nname: p\nworkload: w.yaml\nsessions: 20\nlaunch_window: 200s\nsteady_state: 300s\nscore: {measure: vsi}\n' >"$dir/plan"
                  { printf '\002'; cat "$SRC"/workloads/simhost-task-worker.yaml; } >"$dir/workload" ;;
    fuzz_args) printf '\000[::1]:3389' >"$dir/hostport"; printf '\0021280x800' >"$dir/size"
               printf '\001sha256:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF' >"$dir/pin"
               printf '\00310MB' >"$dir/drive-size"; printf '\00410%%' >"$dir/tolerance" ;;
    fuzz_score|fuzz_report) printf '\000\000\000\000\001\004{"x"' >"$dir/empty-edit" ;;
    fuzz_x224) printf '\003\000\000\023\016\320\000\000\000\000\000\002\037\010\000\001\000\000\000' >"$dir/tls"
               printf '\003\000\000\023\016\320\000\000\000\000\000\003\000\010\000\005\000\000\000' >"$dir/failure"
               printf '\003\000\000\013\006\320\000\000\000\000\000' >"$dir/legacy" ;;
    fuzz_promtext) printf '# TYPE node_cpu_seconds_total counter\nnode_cpu_seconds_total{cpu="0",mode="idle"} 329.43\nnode_memory_MemAvailable_bytes 1e9 1700000000000\n' >"$dir/node"
                   printf 'windows_logical_disk_idle_seconds_total{volume="C:"} 5000\nwindows_terminal_services_sessions{session_state="active"} 84\nx{a="\\"q\\n"} +Inf\n' >"$dir/windows" ;;
    fuzz_rdpdr_info) printf '\026\000\000\000\000\020\000\000\000\000\000\000\000\000\020\000\000\000\000\000\001\000\000\000\000\000' >"$dir/file1m" ;;
    esac
    # inputs that once found something (tests/fuzz/seeds/NAME/crash-*), kept as regression seeds
    if ls "$SRC"/tests/fuzz/seeds/"$name"/* >/dev/null 2>&1; then
        cp "$SRC"/tests/fuzz/seeds/"$name"/* "$dir"/ || return 1
    fi
    return 0
}

# max_len NAME -- the largest input of harness NAME: room for every shipped seed (the largest
# workload is 4.2 KB, a CONFIG frame seed 1 KB) and well past what each parser's limits and
# nesting need; larger inputs only cost time (8192 for all made the small parsers' inputs grow
# to kilobytes of noise).
max_len() {
    case $1 in
    fuzz_workload|fuzz_plan|fuzz_ydoc|fuzz_simhost) echo 4608 ;;
    fuzz_proto|fuzz_sim_users) echo 2048 ;;
    fuzz_score|fuzz_report) echo 512 ;;       # up to 8 edits of a column to bytes or text
    fuzz_args) echo 256 ;;                    # one argument
    fuzz_x224) echo 64 ;;                     # a Connection Confirm is 11 or 19 bytes
    fuzz_rdpdr_info) echo 64 ;;               # a FileStandardInformation reply is 26 bytes
    *) echo 1024 ;;                           # netprofile, client, drives, matrix: one value
    esac
}

failures=0
for name in $NAMES; do
    bin="$D/$name"
    [ -x "$bin" ] || { echo "FAIL: $bin is not built (cmake --build $B --target sessmax_fuzzers)"; failures=$((failures + 1)); continue; }
    corpus="$D/corpus/$name"
    seeddir="$D/seeds/$name"
    rm -rf "$seeddir"
    mkdir -p "$corpus"
    seeds "$name" "$seeddir" || { echo "FAIL: $name: cannot make seeds"; failures=$((failures + 1)); continue; }
    args=(-max_len="$(max_len "$name")" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1
          -artifact_prefix="$D/artifacts/$name-")
    case $name in fuzz_proto|fuzz_score|fuzz_report|fuzz_sim_users|fuzz_matrix|fuzz_client|fuzz_args) ;; *) args+=(-dict="$SRC/tests/fuzz/yaml.dict") ;; esac
    [ -n "${FUZZ_RUNS:-}" ] && args+=(-runs="$FUZZ_RUNS")
    if [ -n "${FUZZ_SECONDS:-}" ] || [ -z "${FUZZ_RUNS:-}" ]; then
        args+=(-max_total_time="${FUZZ_SECONDS:-60}")
    fi
    log="$D/logs/$name.log"
    start=$(date +%s)
    # Short malloc stacks and a 16 MB quarantine (default 256 MB): cycling through the large one
    # faulted fresh pages in on every input and took most of the time of the harnesses that load
    # YAML or SQLite (2-3x fewer executions); a use after free is still caught within 16 MB of
    # later frees, many inputs' worth. FUZZ_MALLOC_CONTEXT (default 8) is the depth of the stack
    # kept per malloc and free (0: none; the error is still caught, its report lacks where the
    # memory was allocated and freed: rerun the saved input for that).
    TIMEFORMAT='%U %S'
    { time ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:malloc_context_size=${FUZZ_MALLOC_CONTEXT:-8}:quarantine_size_mb=16 \
      UBSAN_OPTIONS=print_stacktrace=1 \
        "$bin" "${args[@]}" "$corpus" "$seeddir" >"$log" 2>&1; } 2>"$log.cpu"
    rc=$?
    secs=$(( $(date +%s) - start ))
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$log.cpu")
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -ne 0 ]; then
        echo "FAIL: $name: findings 1 (exit $rc after ${execs:-?} executions in ${secs} s); log $log:"
        grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20
        failures=$((failures + 1))
    else
        rate=$(( ${execs:-0} / (secs > 0 ? secs : 1) ))
        crate=$(awk -v n="${execs:-0}" -v c="$cpu" 'BEGIN { printf "%d", (c > 0 ? n / c : 0) }')
        echo "$name: ${execs:-?} executions in ${secs} s ($rate exec/s; ${cpu} s of CPU, $crate per CPU-second), findings 0, corpus $(ls "$corpus" | wc -l) inputs"
        if [ -n "${FUZZ_RUNS:-}" ] && [ "${execs:-0}" -lt "$FUZZ_RUNS" ] && [ "$crate" -gt 0 ]; then
            echo "$name: stopped by the time limit short of $FUZZ_RUNS executions; they take $(( FUZZ_RUNS / (rate > 0 ? rate : 1) )) s at this rate, $(( FUZZ_RUNS / crate )) s of one idle core"
        fi
    fi
done
[ $failures -eq 0 ] || { echo "$failures harness(es) failed"; exit 1; }
