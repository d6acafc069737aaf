#!/bin/bash
# freerdp_behaviour.sh -- the installed FreeRDP package behaves as compat/freerdp-behaviour.txt
# says it does. Debian patches FreeRDP without changing its version number (2.11.7 on both
# ~deb12u1 and ~deb12u2), so the check goes by the package's own version: a package not in the
# table fails loudly, and one that behaves otherwise than its line says fails too.
# Probed: the answer of the client's drive channel (the agent's FreeRDP) to a read that starts past
# the end of a file, asked by simhost's --drive-redirection probe-eof after a verified copy in.
. "$(dirname "$0")/lib/agent_env.sh"
TABLE=$S/compat/freerdp-behaviour.txt
PKG=libfreerdp-client2-2
VER=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) || fail "cannot read the version of $PKG (dpkg-query)"
[ -n "$VER" ] || fail "$PKG is not installed"
want=$(awk -v v="$VER" '$1 == v { for (i = 2; i <= NF; i++) if ($i ~ /^drive_read_past_end=/) print substr($i, 21) }' "$TABLE")
start_simhost 1 --drive-redirection probe-eof
sed -n '/^loop:/q;p' "$S/tests/integration/drive-test.yaml" > "$T/probe.yaml"
cat >> "$T/probe.yaml" <<'YAML'
loop:
  - key: win+r
  - wait: {change: runbox, timeout: 5s}
  - type: "copyin share file1m"
  - timer: copyin_1m
    steps: [{key: enter}]
    until: {change: appwin, pixel: {x: 880, y: 66, rgb: "#00838F", tolerance: 8}, timeout: 60s,
            fail: {change: appwin, pixel: {x: 880, y: 66, rgb: "#6D4C41", tolerance: 8}}}
  - key: esc
logoff: [{key: win+r}, {type: "logoff\n"}]
YAML
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users 'simuser{n:03}' --sessions 1 --workload "$T/probe.yaml" \
  --loops 1 --duration 120s --fingerprint "$SIM_FP" --config-dir "$T/agentcfg" > "$T/a.jsonl" 2> "$T/a.err" || true
line=$(grep -o 'a read past the end of share:\\file1m (byte 1052640 of 1048576) answered .*' "$T/simhost.log" | head -1)
[ -n "$line" ] || { tail -20 "$T/simhost.log" >&2; fail "simhost's read past the end of the copied file got no answer"; }
case "$line" in
  *"answered success (NTSTATUS 0x00000000, 0 bytes)"*) seen=empty ;;
  *"(NTSTATUS 0xC0000001, 0 bytes)"*) seen=error ;;
  *) fail "the client answered a read past the end in a way compat/ has not seen: $line" ;;
esac
[ -n "$want" ] || fail "FreeRDP package $PKG $VER is not in compat/freerdp-behaviour.txt: sessmax has not" \
  "been tested on it. Its drive channel answers a read past the end with '$seen'. Run the whole suite on" \
  "it, then add the line '$VER drive_read_past_end=$seen'"
[ "$seen" = "$want" ] || fail "$PKG $VER answers a read past the end with '$seen', but" \
  "compat/freerdp-behaviour.txt says '$want' for it"
echo "freerdp_behaviour: $PKG $VER: drive_read_past_end=$seen, as recorded: ok"
