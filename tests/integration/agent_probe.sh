#!/bin/bash
# agent_probe.sh -- `sessmax-agent probe HOST:PORT` end to end. Against simhost it prints the
# certificate fingerprint openssl computes from simhost's cert.pem, in the form --fingerprint and
# a plan's `fingerprint:` take (the line validates in a plan as it is), the subject and dates
# openssl reads, and the security layers simhost accepts (TLS only; NLA too with --nla). The
# printed fingerprint pins: `shot` with it logs on; with a wrong one (or none) shot fails with
# reason tls and its hint shows the real fingerprint. A closed port exits 69 with "connection
# refused" (and shot exits 69 too); a listener that never answers ends in a timeout error (exit 69), not a hang.
. "$(dirname "$0")/lib/agent_env.sh"
start_simhost 1 --work-scale 0.2
TARGET=127.0.0.1:$SIM_PORT
CERT=$WORK/sim/cert.pem
[ -s "$CERT" ] || fail "no simhost certificate at $CERT"

# field FILE KEY: the value of the report line "KEY: value"
field() { sed -n "s/^$2: *//p" "$1"; }

timeout 60 "$AGENT" probe "$TARGET" > "$T/probe.out" 2> "$T/probe.err" || { cat "$T/probe.err" >&2; fail "probe of simhost failed"; }
cat "$T/probe.out"
want=$(openssl x509 -in "$CERT" -noout -fingerprint -sha256 | sed 's/^[^=]*=/sha256:/')
got=$(field "$T/probe.out" fingerprint)
[ "$got" = "$want" ] || fail "probe printed fingerprint '$got', openssl says '$want'"
[ "$got" = "$SIM_FP" ] || fail "probe printed '$got', simhost printed '$SIM_FP'"
grep -qx "fingerprint: $want" "$T/probe.out" || fail "no line a plan's target can take as it is"
subject=$(openssl x509 -in "$CERT" -noout -subject -nameopt RFC2253 | sed 's/^subject=//')
[ "$(field "$T/probe.out" subject)" = "$subject" ] || fail "subject is not '$subject'"
end=$(openssl x509 -in "$CERT" -noout -enddate -dateopt iso_8601 | sed 's/^notAfter=//; s/Z$/ UTC/')
field "$T/probe.out" "not after" | grep -qF "$end (valid now)" || fail "not after is not '$end (valid now)'"
start=$(openssl x509 -in "$CERT" -noout -startdate -dateopt iso_8601 | sed 's/^notBefore=//; s/Z$/ UTC/')
[ "$(field "$T/probe.out" "not before")" = "$start" ] || fail "not before is not '$start'"
[ "$(field "$T/probe.out" tls)" = accepted ] || fail "simhost accepts TLS"
field "$T/probe.out" nla | grep -q '^not offered: the server chose TLS without NLA$' || fail "simhost without --nla offers no NLA"
field "$T/probe.out" rdp | grep -q '^refused: .*SSL_REQUIRED_BY_SERVER' || fail "simhost refuses standard RDP security"
[ "$(field "$T/probe.out" accepts)" = tls ] || fail "accepts: should list tls only"

echo "-- the printed fingerprint pins: shot logs on with it"
"$AGENT" shot --target "$TARGET" --user simuser001 --fingerprint "$got" --wait 1s -o "$T/ok.png" \
    > /dev/null 2> "$T/shot-ok.log" || { cat "$T/shot-ok.log" >&2; fail "shot with the probed fingerprint failed"; }
[ -s "$T/ok.png" ] || fail "no PNG from the pinned shot"

echo "-- the fingerprint line goes into a plan's target as it is"
line=$(grep '^fingerprint: ' "$T/probe.out")
sed -e "s|^  fingerprint: .*|  $line|" -e "s|^workload: .*|workload: $S/workloads/windows-task-worker.yaml|" \
    "$S/workloads/windows-plan.yaml" > "$T/plan.yaml"
grep -qx "  $line" "$T/plan.yaml" || fail "could not put the line into the plan copy"
"$B/sessmax" validate "$T/plan.yaml" > "$T/validate.out" 2>&1 || { cat "$T/validate.out" >&2; fail "the plan with the probed line does not validate"; }
grep -qF "pinned $want)" "$T/validate.out" || { cat "$T/validate.out" >&2; fail "validate does not show the probed pin"; }

echo "-- a wrong fingerprint fails with reason tls, and the hint shows the real one"
WRONG=sha256:$(printf '00:%.0s' $(seq 31))00
set +e
"$AGENT" shot --target "$TARGET" --user simuser001 --fingerprint "$WRONG" --wait 1s -o "$T/bad.png" \
    > /dev/null 2> "$T/shot-bad.log"
rc=$?
set -e
[ $rc != 0 ] || fail "shot with a wrong fingerprint succeeded"
grep -q '^sessmax-agent shot: simuser001: tls: ' "$T/shot-bad.log" || { cat "$T/shot-bad.log" >&2; fail "no reason tls"; }
grep -qx "  fingerprint: $want" "$T/shot-bad.log" || { cat "$T/shot-bad.log" >&2; fail "the hint does not show the fingerprint"; }
grep -q 'not the pinned fingerprint' "$T/shot-bad.log" || fail "the hint does not say the pin differs"
set +e
"$AGENT" shot --target "$TARGET" --user simuser001 --wait 1s -o "$T/none.png" > /dev/null 2> "$T/shot-none.log"
rc=$?
set -e
[ $rc != 0 ] || fail "shot without a fingerprint succeeded"
grep -qx "  fingerprint: $want" "$T/shot-none.log" || { cat "$T/shot-none.log" >&2; fail "no fingerprint in the hint without --fingerprint"; }

echo "-- simhost with --nla: NLA accepted, the same certificate"
for u in simuser001; do winpr-hash -u "$u" -p "$SESSMAX_PASSWORD" -f sam >> "$T/sam"; done
stop_simhost
start_simhost 1 --work-scale 0.2 --nla --sam-file "$T/sam"
timeout 60 "$AGENT" probe "127.0.0.1:$SIM_PORT" > "$T/nla.out" 2> "$T/nla.err" || { cat "$T/nla.err" >&2; fail "probe of simhost --nla failed"; }
[ "$(field "$T/nla.out" nla)" = accepted ] || { cat "$T/nla.out" >&2; fail "simhost --nla: nla not accepted"; }
[ "$(field "$T/nla.out" fingerprint)" = "$want" ] || fail "simhost --nla (same state dir) shows another certificate"
[ "$(field "$T/nla.out" accepts)" = "tls nla" ] || fail "accepts: should be 'tls nla'"

echo "-- a closed port: exit 69, connection refused, one line"
CLOSED=$(free_port)
set +e
timeout 60 "$AGENT" probe "127.0.0.1:$CLOSED" > "$T/closed.out" 2> "$T/closed.err"
rc=$?
set -e
[ $rc = 69 ] || fail "closed port: exit $rc (want 69)"
[ "$(cat "$T/closed.err")" = "sessmax-agent probe: 127.0.0.1:$CLOSED: connection refused" ] \
    || { cat "$T/closed.err" >&2; fail "closed port: not the one-line connection refused"; }
[ ! -s "$T/closed.out" ] || fail "closed port: a report was printed"
set +e
timeout 60 "$AGENT" shot --target "127.0.0.1:$CLOSED" --user simuser001 --no-verify --max-attempts 1 \
    -o "$T/closed.png" > /dev/null 2> "$T/closed-shot.err"
rc=$?
set -e
[ $rc = 69 ] || { cat "$T/closed-shot.err" >&2; fail "shot of a closed port: exit $rc (want 69, as probe)"; }
grep -q '^sessmax-agent shot: simuser001: connect: ' "$T/closed-shot.err" ||
    { cat "$T/closed-shot.err" >&2; fail "shot of a closed port: no reason connect"; }

echo "-- a listener that never answers: a timeout error, not a hang"
python3 -u - "$T/silent.port" <<'PY' &
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
while True:
    c, _ = s.accept()
    held.append(c)          # accepted, never answered
PY
PIDS+=("$!")
wait_for 10 test -s "$T/silent.port" || fail "the silent listener did not start"
SILENT=$(cat "$T/silent.port")
set +e
timeout 60 "$AGENT" probe --timeout 1s "127.0.0.1:$SILENT" > /dev/null 2> "$T/silent.err"
rc=$?
set -e
[ $rc != 124 ] || fail "probe of a silent listener hung (killed by timeout(1))"
[ $rc = 69 ] || { cat "$T/silent.err" >&2; fail "silent listener: exit $rc (want 69)"; }
grep -qx "sessmax-agent probe: 127.0.0.1:$SILENT: timed out waiting for the X.224 Connection Confirm (--timeout 1s)" \
    "$T/silent.err" || { cat "$T/silent.err" >&2; fail "silent listener: not the timeout error"; }

echo "-- usage errors exit 64"
set +e
"$AGENT" probe > /dev/null 2>&1; r1=$?
"$AGENT" probe --timeout never "$TARGET" > /dev/null 2>&1; r2=$?
"$AGENT" probe "127.0.0.1:99999" > /dev/null 2>&1; r3=$?
set -e
[ "$r1 $r2 $r3" = "64 64 64" ] || fail "usage errors exited $r1 $r2 $r3 (want 64 64 64)"
echo "agent_probe: ok ($got)"
