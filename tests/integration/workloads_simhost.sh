#!/usr/bin/env bash
# workloads_simhost.sh -- the shipped simhost workloads really work against simhost: every timer
# and the vsi measure of single-user.yaml (2 sessions, 2+ loops each) and simhost-task-worker.yaml
# (1 session, one full loop) are recorded ok (none suspect), nothing times out, every session ends
# cleanly; --shot-timers leaves one PNG per timer of loop 0 and a contact sheet.
set -euo pipefail
build=${SESSMAX_BUILD_DIR:?}
src=${SESSMAX_SOURCE_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir WORK sessmax-workloads
tmp=$WORK
export SESSMAX_PASSWORD=wl-test-pw
start_simhost 3
port=$SIM_PORT

# run WORKLOAD SESSIONS LOOPS: runs the agent for LOOPS loops per session, then checks its JSON lines.
run() {
    local wl=$1 n=$2 min_loops=$3 out="$tmp/$(basename "$1" .yaml)"
    "$build/sessmax-agent" run --target "127.0.0.1:$port" --users 'simuser{n:03}' --sessions "$n" \
        --workload "$src/workloads/$wl" --loops "$min_loops" --duration 180s --no-verify --shots "$out.shots" --shot-timers \
        >"$out.jsonl" 2>"$out.err" || { tail -20 "$out.err" >&2; fail "$wl: agent exited with $?"; }
    python3 - "$out.jsonl" "$n" "$min_loops" "$wl" <<'EOF' || { tail -20 "$out.err" >&2; exit 1; }
import json, sys
path, n, min_loops, wl = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
timers = ["app_start", "file_open", "echo", "zip_high", "zip_low", "cpu", "vsi"]
ok = {}        # (session, name) -> set of loops with an ok sample
ended, bad = set(), []
for line in open(path):
    o = json.loads(line)
    if o["type"] == "sample":
        if not o["ok"]:
            bad.append(f"failed sample {o['name']} session {o['session']} loop {o['loop']}")
        ok.setdefault((o["session"], o["name"]), set()).add(o["loop"])
        if (o["name"] == "vsi") != o["measure"]:
            bad.append(f"sample {o['name']} has measure={o['measure']}")
    elif o["type"] == "session":
        if o["event"] == "failed":
            bad.append(f"session {o['session']} failed: {o.get('reason')} {o.get('detail')}")
        if o["event"] == "ended":
            ended.add(o["session"])
for s in range(n):
    if s not in ended:
        bad.append(f"session {s} did not end cleanly")
    for t in timers:
        loops = ok.get((s, t), set())
        if len(loops) < min_loops:
            bad.append(f"session {s}: timer {t} ok in {len(loops)} loops, want {min_loops}")
if bad:
    print(f"workloads_simhost: {wl}:\n  " + "\n  ".join(bad), file=sys.stderr)
    sys.exit(1)
print(f"workloads_simhost: {wl}: {n} sessions, every timer ok in >= {min_loops} loops")
EOF
    # --shot-timers: one PNG per timer of loop 0 per session (and none of a timeout), a contact sheet
    local pngs want=$(( n * 6 ))
    pngs=$(ls "$out.shots" | grep -c -- '-loop0-.*\.png$' || true)
    [ "$pngs" -eq "$want" ] || fail "$wl: $pngs loop-0 timer screenshots, want $want: $(ls "$out.shots")"
    ! ls "$out.shots" | grep -v -- '-loop0-' | grep -q '\.png$' || fail "$wl: screenshots of other loops or timeouts: $(ls "$out.shots")"
    grep -q 'simuser001-loop0-app_start.png' "$out.shots/index.html" || fail "$wl: no contact sheet"
}

run single-user.yaml 2 2
run simhost-task-worker.yaml 1 1
