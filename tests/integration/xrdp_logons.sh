#!/usr/bin/env bash
# xrdp_logons.sh -- 40 fresh xrdp logons (5 rounds of 8 users, each session logged off and gone
# before its user logs on again) with the agent's logon repaint and one logon retry allowed:
# every logon must reach the desktop (none stuck); prints how many needed a repaint request or a
# retry. xrdp sometimes sends a new desktop's first frames and then nothing (issue 17).
set -u
. "$(dirname "$0")/xrdp_common.inc"
xrdp_lock

AGENT=$BUILD/sessmax-agent
[ -x "$AGENT" ] || fail "$AGENT is not built"
PORT=$(free_port)
USERS=8 ROUNDS=${SESSMAX_XRDP_LOGON_ROUNDS:-5}
xrdp_start --users "$USERS" --port "$PORT"

for r in $(seq "$ROUNDS"); do
    timeout -k 5 120 "$AGENT" run --target 127.0.0.1:"$PORT" --users 'rdpuser{n}' --sessions "$USERS" \
        --ramp 4s --workload "$SRC/tests/integration/xrdp-logon.yaml" --loops 1 --duration 100s --logon-retries 1 --no-verify \
        --shots "$WORK/shots" > "$WORK/round$r.jsonl" 2> "$WORK/round$r.err" || true
    # the next round must be fresh logons: no process of any account may be left
    for n in $(seq "$USERS"); do
        wait_for 20 eval "! pgrep -u rdpuser$n >/dev/null" || fail "round $r: rdpuser$n still has processes"
    done
done
python3 - "$WORK" "$ROUNDS" "$USERS" <<'EOF' || { tail -5 "$WORK"/round*.err >&2; exit 1; }
import json, re, sys, glob
work, rounds, users = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
active = failed = repainted = retried = 0
bad = []
for path in sorted(glob.glob(work + "/round*.jsonl")):
    for line in open(path):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("type") != "session":
            continue
        if o["event"] == "active":
            active += 1
            m = re.match(r"repaint requests: (\d+), logon retries: (\d+)", o.get("detail", ""))
            repainted += bool(m and int(m.group(1)))
            retried += bool(m and int(m.group(2)))
        elif o["event"] == "failed":
            failed += 1
            bad.append(f"{path}: {o['user']}: {o.get('reason')} {o.get('detail', '')}")
print(f"FIGURES xrdp fresh logons: {rounds * users} launched, {active} reached the desktop, "
      f"{repainted} needed a repaint request, {retried} a logon retry, {failed} failed")
if active != rounds * users or failed:
    print("xrdp_logons: " + "\n  ".join(["stuck or failed logons:"] + bad), file=sys.stderr)
    sys.exit(1)
EOF
echo "xrdp_logons: ok"
