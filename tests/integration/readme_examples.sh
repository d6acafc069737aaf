#!/usr/bin/env bash
# readme_examples.sh -- the README's plan and workload are real: both YAML blocks are taken from
# README.md as they stand (each names its file in its first comment line), `sessmax validate`
# passes on the plan, and the plan runs against simhost (on a free port, with a 10 s steady state
# instead of the README's minute) with every session ending cleanly and a pass verdict, then
# `sessmax report` writes its page. A README edit that breaks the example fails here.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
SRC=${SESSMAX_SOURCE_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK sessmax-readme
export SESSMAX_PASSWORD=readme-secret

python3 - "$SRC/README.md" "$WORK" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
names = []
for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
    first = block.split("\n", 1)[0]
    m = re.match(r"# ([\w.-]+\.yaml)$", first)
    if m:
        open(f"{sys.argv[2]}/{m.group(1)}", "w").write(block)
        names.append(m.group(1))
if sorted(names) != ["minimal-plan.yaml", "minimal-worker.yaml"]:
    sys.exit(f"README yaml blocks: {names}, want minimal-plan.yaml and minimal-worker.yaml")
PY

cd "$WORK"
"$B/sessmax" validate minimal-plan.yaml >validate.log 2>&1 || { cat validate.log; fail "validate failed"; }
grep -q "valid plan 'minimal'" validate.log || fail "validate did not name the plan"

start_simhost 4 --work-scale 0.2
sed -e "s/port: 3390/port: $SIM_PORT/" -e 's/^steady_state: .*/steady_state: 10s/' \
    minimal-plan.yaml >run-plan.yaml
grep -q "port: $SIM_PORT" run-plan.yaml || fail "the README plan has no 'port: 3390' to replace"
set +e
"$B/sessmax" run run-plan.yaml >run.log 2>&1
rc=$?
set -e
grep -q "4 sessions: 4 ended cleanly, 0 failed" run.log || fail "not every session ended cleanly"
# pass; on a loaded machine the agent's loop lag alone may make it inconclusive (exit 2), nothing else
if [ "$rc" -eq 2 ]; then
    grep -q "^verdict    inconclusive" run.log || { tail -20 run.log; fail "exit 2 without an inconclusive verdict"; }
    ! grep "^  \[inconclusive\]" run.log | grep -v "agent loop lag" || fail "inconclusive for more than the loop lag"
else
    [ "$rc" -eq 0 ] || { tail -20 run.log; fail "run exited $rc"; }
    grep -q "^verdict    pass" run.log || fail "no pass verdict"
fi
"$B/sessmax" report results.db --run 1 -o report.html >report.log 2>&1 || fail "report failed"
grep -q "app_start" report.html || fail "report does not show the timer"
echo "readme_examples: ok"
