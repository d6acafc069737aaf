#!/bin/bash
# simhost_eventlog.sh -- simhost's event log against a real agent session (one loop of the task
# worker): every action the agent timed has its line, with the time its triggering input was read
# (input_us), and for every action input_us <= work_start_us <= work_end_us <= frame_sent_us, with
# the paint's wait for the client (write_wait_us) no longer than work_end_us -> frame_sent_us.
# The agent's timer samples of the same actions are ok. Order only: no timing thresholds.
. "$(dirname "$0")/lib/agent_env.sh"
start_simhost 2 --work-scale 0.05 --event-log "$T/events.log"
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --sessions 1 \
  --workload "$S/workloads/simhost-task-worker.yaml" --loops 1 --duration 200s \
  --fingerprint "$SIM_FP" > "$T/a.jsonl" 2> "$T/a.err" || true
[ -s "$T/events.log" ] || { cat "$T/a.err" >&2; fail "no event log lines"; }
python3 - "$T/events.log" "$T/a.jsonl" <<'PY' || { cat "$T/events.log" >&2; fail "event log check"; }
import json, re, sys
ev = []
for n, line in enumerate(open(sys.argv[1]), 1):
    f = dict(kv.split("=", 1) for kv in line.split())
    for k in ("input_us", "work_start_us", "work_end_us", "frame_sent_us"):
        if not re.fullmatch(r"[0-9]+", f.get(k, "")):
            sys.exit("events.log:%d: no %s: %s" % (n, k, line.strip()))
    t = [int(f[k]) for k in ("input_us", "work_start_us", "work_end_us", "frame_sent_us")]
    if not 0 < t[0] <= t[1] <= t[2] <= t[3]:
        sys.exit("events.log:%d: times out of order: %s" % (n, line.strip()))
    if not re.fullmatch(r"[0-9]+", f.get("write_wait_us", "")) or int(f["write_wait_us"]) > t[3] - t[2]:
        sys.exit("events.log:%d: write_wait_us missing or longer than the paint: %s" % (n, line.strip()))
    ev.append(f)
got = {(f["user"], f["action"]) for f in ev if f["ok"] == "1"}
recs = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
user = {r["session"]: r["user"] for r in recs if r["type"] == "session" and r.get("user")}
timed = {"app_start": "edit", "file_open": "open", "zip_high": "zip9", "zip_low": "zip1", "cpu": "cpu"}
samples = [r for r in recs if r["type"] == "sample" and r["name"] in timed and r["loop"] == 0]
if len(samples) != len(timed):
    sys.exit("agent: %d timed actions in loop 0, want %d" % (len(samples), len(timed)))
for r in samples:
    if not r["ok"]:
        sys.exit("agent: %s not ok" % r["name"])
    if (user.get(r["session"]), timed[r["name"]]) not in got:
        sys.exit("no ok event line for %s of %s" % (timed[r["name"]], user.get(r["session"])))
print("event log: %d lines, every timed action found, times in order" % len(ev))
PY
