#!/usr/bin/env bash
# simhost_logoff_busy.sh -- the shipped simhost workloads' logoff steps end the session even when
# the logoff begins with the run box already open and empty (the loop's own win+r) and the host is
# too busy to read the session's input as it comes, so that it reads the logoff's esc and win+r in
# one go (what `make demo`'s final logoff wave does to a saturated simhost). Those two keys then
# paint no change: a `wait: {change: runbox}` after win+r never ends and the logoff is recorded as
# logoff_incomplete. Here the busy host is simhost stopped (SIGSTOP) across the start of the
# logoff; the loop of the test workload opens the run box and thinks; its logoff steps are those
# of each shipped workload. Every session must end cleanly ("ended", reason none), and the agent
# print no [ERROR] line for it (FreeRDP's logoff errors are demoted: compat/wlog_logoff.h).
. "$(dirname "$0")/lib/agent_env.sh"
export SESSMAX_PASSWORD=logoff-busy-pw

start_simhost 4 --work-scale 0.05
sim_pid=$SIM_PID    # SIGKILL in the cleanup also ends it if a failure leaves it stopped

now_ms() { date +%s%3N; }
sleep_until_ms() { local d=$(( $1 - $(now_ms) )); [ "$d" -le 0 ] || sleep "$(printf '%d.%03d' $((d / 1000)) $((d % 1000)))"; }

# check WORKLOAD USER: one session whose loop leaves the run box open, logged off by WORKLOAD's
# logoff steps while simhost reads nothing from 2 s before the logoff to 2 s after it.
check() {
    local shipped=$1 user=$2 name wl out
    name=$(basename "$shipped" .yaml)
    wl=$T/$name-busy.yaml
    out=$T/$name
    {
        printf 'version: 1\nname: logoff-busy\ndesktop: {width: 1024, height: 768, bpp: 16}\n'
        printf 'regions:\n  taskbar: [0, 740, 1024, 28]\n  runbox: [8, 600, 420, 132]\n'
        printf '  appwin: [112, 60, 800, 600]\n  dialog: [262, 160, 500, 420]\n'
        printf 'defaults: {type_rate: 160ms, timeout: 15s, on_timeout: continue}\n'
        printf 'logon: {change: taskbar, stable: {region: taskbar, for: 300ms}, timeout: 60s}\n'
        printf 'loop:\n  - key: win+r\n  - wait: {change: runbox, timeout: 5s}\n  - think: 60s\n'
        awk '/^logoff:/ { on = 1; print; next } on && /^[^ #]/ { exit } on' "$shipped"
    } >"$wl"
    grep -q '^  - ' <(awk '/^logoff:/ { on = 1; next } on && /^[^ #]/ { exit } on' "$shipped") \
        || fail "$name: no logoff steps found"
    local t0 logoff_ms
    t0=$(now_ms)
    logoff_ms=$(( t0 + 8000 ))
    "$AGENT" run --target "127.0.0.1:$SIM_PORT" --users "$user" --sessions 1 --workload "$wl" \
        --duration 8s --logoff-timeout 25s --no-verify >"$out.jsonl" 2>"$out.err" &
    local agent=$!
    for _ in $(seq 50); do grep -q "$user logged on" "$T/simhost.log" && break; sleep 0.1; done
    grep -q "$user logged on" "$T/simhost.log" || { kill "$agent" 2>/dev/null; fail "simhost_logoff_busy: $name: no logon"; }
    sleep_until_ms $(( logoff_ms - 2000 ))
    kill -STOP "$sim_pid"
    sleep_until_ms $(( logoff_ms + 2000 ))
    kill -CONT "$sim_pid"
    wait "$agent" || true
    python3 - "$out.jsonl" "$name" <<'EOF' || { tail -5 "$out.err" >&2; exit 1; }
import json, sys
path, name = sys.argv[1], sys.argv[2]
ends = []
for line in open(path):
    o = json.loads(line)
    if o.get("type") == "session" and o.get("event") in ("ended", "failed"):
        ends.append((o.get("event"), o.get("reason", "none"), o.get("detail", "")))
if len(ends) != 1 or ends[0][:2] != ("ended", "none"):
    sys.exit("simhost_logoff_busy: %s: the logoff was not confirmed: %s" % (name, ends or "no end recorded"))
EOF
    # a clean logoff is not an error: FreeRDP's logoff lines are not printed as [ERROR]
    ! grep -n '\[ERROR\]' "$out.err" || fail "simhost_logoff_busy: $name: [ERROR] lines for a clean logoff"
    echo "simhost_logoff_busy: $name: logoff confirmed"
}

n=0
for shipped in "$S"/workloads/*.yaml; do
    case $(basename "$shipped") in windows-* | xrdp-*) continue ;; esac   # other hosts' desktops
    grep -q '^logoff:' "$shipped" && grep -q 'type: "logoff' "$shipped" || continue
    n=$((n + 1))
    check "$shipped" "$(printf 'simuser%03d' "$n")"
done
[ "$n" -ge 1 ] || fail "simhost_logoff_busy: no shipped simhost workload with logoff steps"
echo PASS
