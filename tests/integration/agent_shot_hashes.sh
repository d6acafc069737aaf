#!/bin/bash
# agent_shot_hashes.sh -- `sessmax-agent shot --workload` prints a `match` condition for each
# region of the workload; pasted into a workload as its logon condition, the match holds on a real
# simhost session (the agent and the tool agree on the region hash).
. "$(dirname "$0")/lib/agent_env.sh"
start_simhost 2 --work-scale 0.2
W="$S/workloads/single-user.yaml"
"$AGENT" shot --target "127.0.0.1:$SIM_PORT" --user simuser001 --fingerprint "$SIM_FP" --wait 1s \
  -o "$T/desk.png" --workload "$W" > "$T/hashes.txt" 2> "$T/shot.err" || { cat "$T/shot.err" >&2; fail "shot failed"; }
grep -q '^taskbar: {match: {region: taskbar, hash: "[0-9a-f]\{16\}", tolerance: 0}}$' "$T/hashes.txt" \
  || { cat "$T/hashes.txt" >&2; fail "no taskbar match line"; }
cond=$(sed -n 's/^taskbar: //p' "$T/hashes.txt")
cond=${cond#\{match: }
cond=${cond%\}}
cat > "$T/match.yaml" <<YAML
version: 1
name: match-logon
regions:
  taskbar: [0, 740, 1024, 28]
  runbox: [8, 600, 420, 132]
logon: {match: $cond, timeout: 20s}
loop:
  - timer: runbox
    steps: [{key: win+r}]
    until: {change: runbox, timeout: 5s}
  - key: esc
  - think: 300ms
YAML
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users simuser001 --sessions 1 --workload "$T/match.yaml" \
  --loops 1 --duration 60s --fingerprint "$SIM_FP" > "$T/out.jsonl" 2> "$T/run.err" || { cat "$T/run.err" >&2; fail "run failed"; }
[ "$(jl "$T/out.jsonl" 'sum(r["type"]=="session" and r["event"]=="active" for r in recs)')" = 1 ] \
  || { cat "$T/run.err" >&2; fail "the match logon condition never held"; }
[ "$(jl "$T/out.jsonl" 'sum(r["type"]=="sample" and r["name"]=="runbox" and r["ok"] for r in recs)')" -ge 1 ] \
  || fail "no runbox sample after a match logon"
echo "agent_shot_hashes: ok ($cond)"
