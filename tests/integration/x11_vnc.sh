#!/bin/bash
# x11_vnc.sh -- the vncviewer preset (TigerVNC's viewer, a second protocol through the same
# connector) against a VNC target of its own: one TigerVNC Xvnc desktop per connection with an
# xterm, listening on loopback only, VNC password from a 0600 file (lib/vnc_desktops.py). Two
# sessions of tests/integration/vnc-xterm.yaml at the desktop's size log on, record every timer
# of three loops and end cleanly; the password never shows on a command line.
. "$(dirname "$0")/lib/agent_env.sh"
for t in vncviewer vncpasswd Xvnc Xvfb xterm; do
  command -v $t >/dev/null || { echo "SKIP: $t missing (scripts/install-deps)"; exit 77; }
done
N=2
(umask 077; printf '%s\n' "$SESSMAX_PASSWORD" | vncpasswd -f > "$T/vncpasswd")
[ "$(stat -c %a "$T/vncpasswd")" = 600 ] || fail "VNC password file not 0600"
python3 "$S/tests/integration/lib/vnc_desktops.py" "$T/vnc.port" "$T/vncpasswd" 800x600 &
PIDS+=("$!")
for _ in $(seq 100); do [ -s "$T/vnc.port" ] && break; sleep 0.1; done
PORT=$(cat "$T/vnc.port")
"$AGENT" run --target "127.0.0.1:$PORT" --users 'vnc{n}' --sessions $N --ramp 1s \
  --workload "$S/tests/integration/vnc-xterm.yaml" --loops 3 --duration 120s --no-verify \
  --client '{"x11":"vncviewer","resolution":"800x600"}' --log-level info \
  > "$T/out.jsonl" 2> "$T/err.txt" &
AG=$!; PIDS+=("$AG")
while kill -0 $AG 2>/dev/null; do
  for c in $(ps -o pid= --ppid $AG 2>/dev/null || true); do
    { tr '\0' ' ' < /proc/$c/cmdline; } 2>/dev/null | grep -q -- "$SESSMAX_PASSWORD" && fail "password on argv of $c"
  done
  sleep 0.5
done
set +e; wait $AG; rc=$?; set -e
cat "$T/err.txt" >&2
J="$T/out.jsonl"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="active" for r in recs)')" = $N ] || fail "not all $N sessions logged on"
[ "$(jl "$J" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = $N ] || fail "not all $N sessions ended cleanly"
python3 - "$J" $N <<'PY' || fail "missing samples"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
n = int(sys.argv[2])
got = {}
for r in recs:
    if r["type"] == "sample" and not r["measure"] and (r["ok"] or r["suspect"]):
        got.setdefault((r["session"], r["name"]), 0)
        got[(r["session"], r["name"])] += 1
want = {(s, t) for s in range(n) for t in ("echo", "command")}
short = {k: got.get(k, 0) for k in want if got.get(k, 0) < 3}
print("timer samples through vncviewer:", sorted(got.items()), file=sys.stderr)
sys.exit(1 if short else 0)
PY
[ $rc -le 1 ] || fail "agent exit code $rc"
echo "x11_vnc: ok"
