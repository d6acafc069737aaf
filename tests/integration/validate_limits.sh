#!/usr/bin/env bash
# validate_limits.sh -- `sessmax validate` at its limits (issue 11, finding 9): a workload read
# from a pipe is checked like a file (it printed an empty message before), and a workload that
# passes its own checks but would not fit the agent link's CONFIG frame is refused by validate
# with a positioned message (the run failed later with an unrelated one before). Its summary of a
# workload prints no colon before an empty list ("measures   0").
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
SRC=${SESSMAX_SOURCE_DIR:?}
S=$B/sessmax
. "$(dirname "$0")/lib/harness.sh"
scratch_dir TMP sessmax-validate-limits

plan() {   # plan WORKLOAD_PATH
    sed -e "s#^workload: .*#workload: $1#" -e 's#^  password_file: .*#  password_env: SESSMAX_PASSWORD#' \
        "$SRC/workloads/example-plan.yaml" >"$TMP/plan.yaml"
}

# a workload through a pipe
plan /dev/stdin
set +e
"$S" validate -q "$TMP/plan.yaml" <"$SRC/workloads/simhost-task-worker.yaml" >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$TMP/err"; fail "workload from a pipe: exit $rc"; }
set +e
printf 'version: 1\nname: [' | "$S" validate -q "$TMP/plan.yaml" >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
[ "$rc" -eq 65 ] || fail "bad workload from a pipe: exit $rc, want 65"
[ -s "$TMP/err" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat -A "$TMP/err"; fail "bad workload from a pipe: one line expected"; }

# a workload just under the 1 MiB file limit: valid by itself, too large for the CONFIG frame
cp "$SRC/workloads/simhost-task-worker.yaml" "$TMP/big.yaml"
python3 - "$TMP/big.yaml" <<'PY'
import sys
p = sys.argv[1]
text = open(p).read()
pad = (1 << 20) - 64 - len(text)
line = "#" + "x" * 99 + "\n"
text += line * (pad // len(line)) + "#" * (pad % len(line) - 1) + "\n"
open(p, "w").write(text)
PY
plan "$TMP/big.yaml"
set +e
"$S" validate -q "$TMP/plan.yaml" >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
[ "$rc" -eq 65 ] || { cat "$TMP/err"; fail "oversized workload: exit $rc, want 65"; }
grep -q "plan.yaml:[0-9]*:[0-9]*: .*do not fit the agent link's CONFIG frame" "$TMP/err" \
    || { cat "$TMP/err"; fail "oversized workload message"; }

# a workload's summary: counts with their lists, no colon before an empty one
"$S" validate "$SRC/tests/integration/xrdp-logon.yaml" >"$TMP/out"
grep -qx '  timers     0' "$TMP/out" && grep -qx '  measures   0' "$TMP/out" || { cat "$TMP/out"; fail "empty lists"; }
"$S" validate "$SRC/workloads/simhost-task-worker.yaml" >"$TMP/out"
grep -qx '  measures   1: vsi' "$TMP/out" || { cat "$TMP/out"; fail "measures list"; }
echo "validate_limits: ok"
