# gate_item.sh -- the launcher-health gate's item of a verdict.json (sourced, not run; lib/gate.sh
# and run_gate_idle.sh).
# gate_item VERDICT_JSON: "VERDICT|RESULT|REASON" of the run and of its agent gate item (check
# agent_share* or lag_p99_ms*)
gate_item() {
    python3 - "$1" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
it = [i for i in v["items"] if i["check"].startswith(("agent_share", "lag_p99_ms"))]
assert len(it) == 1, v["items"]
print(f'{v["verdict"]}|{it[0]["result"]}|{it[0]["reason"]}')
PY
}
