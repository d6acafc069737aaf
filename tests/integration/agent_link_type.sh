#!/bin/bash
# agent_link_type.sh -- the agent tells the server what link it is on: one agent per profile
# (lan, wan-50ms, broadband-20mbit, mobile-3g, satellite-600ms, and a mapping that asks for
# autodetect) logs a session on to simhost through its emulated link; simhost logs the client core
# data's connectionType (and the network auto-detect flag) at logon, and each must be the one
# docs/network.md gives for the profile. Needs root (CAP_NET_ADMIN) for the shaped profiles.
. "$(dirname "$0")/lib/agent_env.sh"
[ "$(id -u)" = 0 ] || fail "needs root (CAP_NET_ADMIN) for the network emulator"
start_simhost 6
cat > "$T/w.yaml" <<'YAML'
version: 1
name: link-type
desktop: {width: 1024, height: 768, bpp: 16}
regions: {taskbar: [0, 740, 1024, 28]}
logon: {change: taskbar, stable: {region: taskbar, for: 300ms}, timeout: 60s}
loop:
  - {think: 1s}
YAML
# profile, then what the client must announce
CASES=("lan|lan" "wan-50ms|wan" "broadband-20mbit|broadband-high" "mobile-3g|broadband-low"
       "satellite-600ms|satellite"
       '{"name":"auto-link","rtt_ms":0,"jitter_ms":0,"loss_pct":0,"rate_down_kbit":0,"rate_up_kbit":0,"queue":1000,"connection":"autodetect"}|autodetect +autodetect')
i=0
APIDS=""
for c in "${CASES[@]}"; do
    i=$((i + 1))
    "$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --first $i --sessions 1 \
        --workload "$T/w.yaml" --loops 1 --duration 90s --fingerprint "$SIM_FP" --config-dir "$T/agent$i" \
        --network "${c%%|*}" > "$T/out$i.jsonl" 2> "$T/err$i.txt" &
    APIDS="$APIDS $!"
    PIDS+=("$!")
done
rc=0
for p in $APIDS; do wait "$p" || rc=$((rc | $?)); done
i=0
for c in "${CASES[@]}"; do
    i=$((i + 1))
    want=${c#*|}
    user=$(printf 'simuser%03d' $i)
    got=$(grep -ao "$user logged on (.*)" "$T/simhost.log" | sed -n 's/.*link \([^)]*\)).*/\1/p' | head -1 || true)
    echo "${c%%|*}: the client announced '$got'"
    [ "$got" = "$want" ] || { tail -n 3 "$T/err$i.txt" >&2; fail "${c%%|*}: simhost saw link '$got', want '$want'"; }
    [ "$(jl "$T/out$i.jsonl" 'sum(r["type"]=="session" and r["event"]=="ended" for r in recs)')" = 1 ] \
        || fail "${c%%|*}: the session did not end cleanly"
done
[ $rc -le 1 ] || fail "an agent exited $rc"
echo "agent_link_type: ok"
