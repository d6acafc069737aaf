#!/bin/bash
# simhost_keys.sh -- every key the workload language can name and every US-layout character it can
# type, sent by the real agent over a real RDP connection, as simhost decoded them (--input-log).
# The expected names below are the US keyboard written out here, from neither the agent's
# encoder (common/keymap.h) nor simhost's decoder (simhost/desktop/kbd.c): a wrong scancode on either
# side fails. Non-US characters arrive as Unicode events (UTF-16 units).
. "$(dirname "$0")/lib/agent_env.sh"
start_simhost 2 --input-log "$T/input.log"
KEYS="a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 f1 f2 f3 f4 f5 f6 f7 f8 f9 f10
f11 f12 enter return esc escape tab space backspace delete del insert home end pageup pgup pagedown pgdn
up down left right ctrl control alt shift win super meta - = [ ] ; ' \` \\ , . /"
TEXT=$(python3 -c 'print("".join(chr(c) for c in range(32, 127)))')
python3 - "$T/keys.yaml" "$TEXT" $KEYS <<'PY'
import sys, json
out, text, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = ["version: 1", "name: every-key", "desktop: {width: 1024, height: 768, bpp: 16}",
         "regions: {taskbar: [0, 740, 1024, 28]}",
         "defaults: {type_rate: 2ms, timeout: 10s}",
         "logon: {change: taskbar, stable: {region: taskbar, for: 200ms}, timeout: 60s}", "loop:"]
lines += ["  - key: " + json.dumps(k) for k in keys]
lines += ["  - key: ctrl+shift+a", "  - type: " + json.dumps(text), "  - type: " + json.dumps("\té€😀", ensure_ascii=False),
          "  - think: 100ms"]
open(out, "w").write("\n".join(lines) + "\n")
PY
set +e
"$AGENT" run --target "127.0.0.1:$SIM_PORT" --users simuser001 --sessions 1 --workload "$T/keys.yaml" \
  --loops 1 --duration 120s --fingerprint "$SIM_FP" > "$T/out.jsonl" 2> "$T/err.txt"
rc=$?
set -e
[ $rc -le 1 ] || { cat "$T/err.txt" >&2; fail "agent exit code $rc"; }
python3 - "$T/input.log" "$TEXT" $KEYS <<'PY' || fail "simhost decoded keys differently"
import sys
log, text, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
alias = {"return": "enter", "escape": "esc", "del": "delete", "pgup": "pageup", "pgdn": "pagedown",
         "ctrl": "lctrl", "control": "lctrl", "alt": "lalt", "shift": "lshift", "win": "lwin",
         "super": "lwin", "meta": "lwin"}
modname = {"lctrl": "ctrl", "lalt": "alt", "lshift": "shift", "lwin": "win"}
typed = {"\n": 0x0A, "\t": 0x09, "\b": 0x08, " ": 0x20}
def press(name, mods="-"):
    ch = "-"
    if mods in ("-", "shift"):
        if len(name) == 1:
            ch = "0x%02X" % ord(name if mods == "-" else SHIFTED[name])
        elif name in ("enter", "tab", "backspace", "space"):
            ch = "0x%02X" % {"enter": 10, "tab": 9, "backspace": 8, "space": 32}[name]
    if name in modname:
        ch = "-"
    return f"key={name} mods={mods} char={ch}"
# the US layout: the key under each shifted character
SHIFTED = dict(zip("abcdefghijklmnopqrstuvwxyz1234567890-=[];'`\\,./",
                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()_+{}:\"~|<>?"))
UNSHIFT = {v: k for k, v in SHIFTED.items()}
want = []
for k in keys:
    n = alias.get(k, k)
    want.append(press(n, modname.get(n, "-")))
want += ["key=lctrl mods=ctrl char=-", "key=lshift mods=shift+ctrl char=-", "key=a mods=shift+ctrl char=-"]
for c in text:
    if c == " ":
        want.append(press("space"))
    elif c in UNSHIFT:
        want += ["key=lshift mods=shift char=-", press(UNSHIFT[c], "shift")]
    else:
        want.append(press(c))
want += [press("tab"), "unicode=U+00E9", "unicode=U+20AC", "unicode=U+D83D", "unicode=U+DE00"]
got = [l.split(" ", 1)[1].strip() for l in open(log) if l.startswith("session=")]
# one whole loop, then maybe part of a second (the agent may start one before it logs off)
if len(got) < len(want) or any(g != want[i % len(want)] for i, g in enumerate(got)):
    for i, (g, w) in enumerate(zip(got, want * (len(got) // len(want) + 1))):
        if g != w:
            print(f"input {i}: simhost decoded '{g}', expected '{w}'", file=sys.stderr)
            break
    print(f"{len(got)} inputs decoded, {len(want)} expected", file=sys.stderr)
    sys.exit(1)
print(f"simhost_keys: {len(got)} key and Unicode presses decoded as expected", file=sys.stderr)
PY
echo "simhost_keys: ok"
