# cpuload.sh -- company for a local target (sourced, not run): a busy loop pinned to one CPU, how
# busy a CPU was over a second, and the check that `score` and the report flag the target as
# SHARED. Used by run_target_shared.sh (simhost) and xrdp_run_checks.sh (xrdp).
# The caller kills BUSY_PID on exit (busy_stop does, and leaves it empty).
BUSY_PID=""

busy_start() { # busy_start CPU: a shell loop that keeps CPU busy
    taskset -c "$1" sh -c 'while :; do :; done' &
    BUSY_PID=$!
}

busy_stop() {
    if [ -n "$BUSY_PID" ]; then
        kill "$BUSY_PID" 2>/dev/null || true
        wait "$BUSY_PID" 2>/dev/null || true
    fi
    BUSY_PID=""
}

cpu_busy_pct() { # cpu_busy_pct CPU: its busy share over one second, in %
    local a b
    a=($(grep "^cpu$1 " /proc/stat)); sleep 1; b=($(grep "^cpu$1 " /proc/stat))
    local busy=$(( (b[1]+b[2]+b[3]+b[6]+b[7]+b[8]) - (a[1]+a[2]+a[3]+a[6]+a[7]+a[8]) ))
    local all=$(( busy + (b[4]+b[5]) - (a[4]+a[5]) ))
    echo $(( all ? busy * 100 / all : 0 ))
}

# target_flagged SCORE_TEXT REPORT_HTML: 0 when both flag the target as SHARED
target_flagged() {
    grep -q '^target     .*other processes on its CPUs .*: SHARED' "$1" &&
        grep -q 'id="target-cpus">.*SHARED' "$2"
}

# target_alone SCORE_TEXT: 0 when score says the target had its CPUs to itself
target_alone() { grep -q '^target     .*: not shared' "$1"; }
