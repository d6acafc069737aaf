#!/bin/bash
# agent_security.sh -- the security layer a plan or --security asks for is the one the agent
# offers: against a TLS-only simhost, `tls` and `negotiate` log on while `nla` is refused with a
# reason (never silently downgraded); against an NLA simhost (SAM file), `nla` logs on.
. "$(dirname "$0")/lib/agent_env.sh"
W="$S/workloads/single-user.yaml"

shot() { # shot SECURITY USER FILE -> exit code of sessmax-agent shot
  set +e
  "$AGENT" shot --target "127.0.0.1:$SIM_PORT" --user "$2" --fingerprint "$SIM_FP" --security "$1" \
    --wait 5s -o "$3" 2> "$3.err"
  local rc=$?
  set -e
  return $rc
}

start_simhost 4 --work-scale 0.2
shot tls simuser001 "$T/tls.png" || { cat "$T/tls.png.err" >&2; fail "tls logon failed"; }
shot negotiate simuser002 "$T/neg.png" || { cat "$T/neg.png.err" >&2; fail "negotiate logon failed"; }
if shot nla simuser003 "$T/nla.png"; then fail "nla offered to a TLS-only server logged on"; fi
[ ! -s "$T/nla.png" ] || fail "nla against a TLS-only server produced a screen"
grep -qiE 'connect|negotiat|security|tls' "$T/nla.png.err" || { cat "$T/nla.png.err" >&2; fail "no reason for the refused nla logon"; }
"$AGENT" shot --help >/dev/null 2>&1 || true
set +e; "$AGENT" run --target 127.0.0.1:1 --users u --workload "$W" --duration 1s --security udp >/dev/null 2>"$T/bad.err"; rc=$?; set -e
[ $rc = 64 ] || fail "--security udp: exit $rc (want 64)"

# NLA server: SAM file made with winpr-hash, as docs/simhost.md says
kill "${PIDS[@]}" 2>/dev/null || true
for u in simuser001 simuser002; do winpr-hash -u "$u" -p "$SESSMAX_PASSWORD" -f sam >> "$T/sam"; done
start_simhost 2 --work-scale 0.2 --nla --sam-file "$T/sam"
shot nla simuser001 "$T/nla2.png" || { cat "$T/nla2.png.err" >&2; fail "nla logon to an NLA server failed"; }
[ -s "$T/nla2.png" ] || fail "no screen from the nla logon"
echo "agent_security: ok"
