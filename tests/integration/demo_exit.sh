#!/bin/bash
# demo_exit.sh -- `sessmax demo` exits with its verdict's code, as `sessmax run` does: a short demo
# plan (one session for a few seconds: too few samples for a baseline) ends inconclusive, and the
# demo's exit status is 2, the exit_code in its verdict.json (it used to exit 0 whatever the
# verdict). Also `make demo`'s recipe passes the code on and names it. A demo plan whose
# credentials the demo's simhost refuses exits 77 (authentication failed), named by make demo too.
set -euo pipefail
. "$(dirname "$0")/lib/harness.sh"
B=${SESSMAX_BUILD_DIR:?} S=${SESSMAX_SOURCE_DIR:?}
scratch_dir WORK demo_exit
export SESSMAX_AGENT_BIN=$B/sessmax-agent

cat > "$WORK/plan.yaml" <<YAML
version: 1
name: demo-exit
target: {host: 127.0.0.1, port: 3390, verify: false, security: tls, local: {simhost_work_scale: 0.05}}
credentials: {user: "simuser{n:03}", password_env: SESSMAX_PASSWORD}
platform: simhost-e2e
workload: $S/tests/integration/short-worker.yaml
sessions: 1
launch_window: 1s
steady_state: 6s
logoff_deadline: 20s
agents: {local: 1}
YAML

set +e
"$B/sessmax" demo --as-planned --plan "$WORK/plan.yaml" --out "$WORK/out" > "$WORK/demo.log" 2>&1
rc=$?
set -e
cat "$WORK/demo.log"
[ -f "$WORK/out/verdict.json" ] || fail "the demo wrote no verdict.json (exit $rc)"
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit_code"])' "$WORK/out/verdict.json")
verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$WORK/out/verdict.json")
[ "$rc" = "$want" ] || fail "sessmax demo exited $rc, its verdict ($verdict) is exit code $want"
[ "$verdict" = inconclusive ] && [ "$rc" = 2 ] || fail "expected an inconclusive verdict (too few samples), got $verdict, exit $rc"
grep -q "^verdict    inconclusive" "$WORK/demo.log" || fail "the demo did not print its verdict"

# make demo's recipe: the same code out of the recipe, with its meaning
cat > "$WORK/Makefile" <<MK
BUILD := $B
$(sed -n '/^demo: deps/,/^$/p' "$S/Makefile" | sed -e 's/^demo: deps/demo:/' -e '/MAKE.*build/d' \
    -e "s|sessmax demo;|sessmax demo --as-planned --plan $WORK/plan.yaml --out $WORK/out2;|")
MK
set +e
make -s -C "$WORK" demo > "$WORK/make.log" 2>&1
mrc=$?
set -e
cat "$WORK/make.log"
[ "$mrc" != 0 ] || fail "make demo succeeded on an inconclusive demo"
grep -q "make demo: sessmax demo exited 2: inconclusive" "$WORK/make.log" || fail "make demo did not name the demo's exit code"
grep -q "Error 2" "$WORK/make.log" || fail "make did not fail with the recipe's code"
# a refused logon: the plan reads its password from another variable than the demo's accounts
sed 's/password_env: SESSMAX_PASSWORD/password_env: DEMO_WRONG_PASSWORD/' "$WORK/plan.yaml" > "$WORK/auth.yaml"
sed -i "s|--plan $WORK/plan.yaml --out $WORK/out2|--plan $WORK/auth.yaml --out $WORK/out3|" "$WORK/Makefile"
set +e
DEMO_WRONG_PASSWORD=not-the-password make -s -C "$WORK" demo > "$WORK/make-auth.log" 2>&1
arc=$?
set -e
cat "$WORK/make-auth.log"
[ "$arc" = 2 ] || fail "make demo exited $arc on a refused logon (make's own code for a failed recipe is 2)"
grep -q "make demo: sessmax demo exited 77: authentication failed" "$WORK/make-auth.log" ||
    fail "make demo did not name 77 as authentication failed"
grep -q "Error 77" "$WORK/make-auth.log" || fail "make did not fail with the recipe's code 77"
grep -qF "authentication failed for simuser001 (wrong password, locked or expired account)" "$WORK/make-auth.log" ||
    fail "the demo did not say whose logon was refused"
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit_code"])' "$WORK/out3/verdict.json")" = 77 ] ||
    fail "the refused demo's verdict.json does not say 77"
echo "demo_exit: ok (verdict $verdict, exit $rc; make demo exit $mrc; refused logon: make demo exit $arc)"
