"""studio_drive.py URL PROFILE SCREENSHOT SPEC.json -- drives `sessmax-agent studio`'s page in
headless Chromium (cdp.py) the way a user does: drags the regions of SPEC on the live screen
(real mouse events on the canvas), takes a pixel with a click, builds conditions with the page's
controls, sends and records keys, text, thinks and timers, waits for each try and checks what it
says, saves, and keeps a screenshot. Prints one line per try. Exits non-zero naming what failed.

SPEC: {"regions": {NAME: [x, y, w, h]}, "pixel": [x, y],
       "actions": [{"key"|"type"|"think": TEXT, "until": [COND...], "send": true, "expect": TEXT},
                   {"timer": NAME, "on": KEY, "until": [COND...], "expect_sample": "ok"},
                   {"part": "loop"|"logoff"}, {"logon": [COND...]}]}
COND is the page's short form: "change,REGION[,EXCEPT]" or "stable,REGION,MS"."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError  # noqa: E402

url, profile, shot, spec_path = sys.argv[1:5]
spec = json.load(open(spec_path))


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def js(v):
    return json.dumps(v)


with Browser(profile) as b:
    page = b.open(url)
    page.wait_for("st && st.frame > 0 && +document.getElementById('screen').dataset.frame > 0", 60,
                  "the live screen")
    left, top = page.eval("(() => { const r = document.getElementById('screen').getBoundingClientRect();"
                          " return [r.left, r.top]; })()")

    def state():
        return page.eval("st")

    def settle(tries_before):
        page.wait_for(f"document.getElementById('msg').className === 'bad' || (st && !st.busy && "
                      f"st.tries.length > {tries_before} && document.getElementById('msg').className !== '')",
                      60, "the try's end")
        if page.eval("document.getElementById('msg').className") == "bad":
            fail(page.eval("document.getElementById('msg').textContent"))
        return state()["tries"][0]

    # regions: drag on the canvas, then the snapped rectangle is in the state
    page.eval("document.getElementById('mode-region').click()")
    for name, (x, y, w, h) in spec["regions"].items():
        page.eval(f"document.getElementById('region-name').value = {js(name)}")
        page.drag(left + x + 1.5, top + y + 1.5, left + x + w - 1.5, top + y + h - 1.5)
        page.wait_for(f"st && st.regions.some(r => r.name === {js(name)})", 10, f"region {name}")
        r = [g for g in state()["regions"] if g["name"] == name][0]
        if [r["x"], r["y"], r["w"], r["h"]] != [x, y, w, h]:
            fail(f"region {name} snapped to {r}, want {[x, y, w, h]}")
    # a pixel: click in pixel mode, the condition appears with the framebuffer's colour
    if spec.get("pixel"):
        px, py = spec["pixel"]
        page.eval("document.getElementById('mode-pixel').click()")
        page.click(left + px + 0.5, top + py + 0.5)
        page.wait_for("conds.some(c => c.startsWith('pixel,'))", 10, "the pixel condition")
        cond = page.eval("conds.find(c => c.startsWith('pixel,'))")
        print(f"studio_drive: pixel {cond}")
        page.eval("document.getElementById('cond-clear').click()")
    page.eval("document.getElementById('mode-region').click()")

    def set_conds(conds):
        page.eval("document.getElementById('cond-clear').click()")
        for c in conds:
            f = c.split(",")
            page.eval(f"document.getElementById('cond-kind').value = {js(f[0])}")
            page.eval(f"document.getElementById('cond-region').value = {js(f[1])}")
            if f[0] == "change":
                page.eval(f"document.getElementById('cond-except').value = {js(f[2] if len(f) > 2 else '')}")
            else:
                page.eval(f"document.getElementById('cond-for').value = {js(f[2] if len(f) > 2 else '300')}")
            page.eval("document.getElementById('cond-add').click()")
        got = page.eval("conds")
        if got != conds:
            fail(f"conditions built {got}, want {conds}")

    def press(button, send):
        n = len(state()["tries"])
        page.eval(f"document.getElementById('send').checked = {js(send)}")
        page.eval("document.getElementById('msg').className = ''")
        page.eval(f"document.getElementById({js(button)}).click()")
        if not send:
            page.wait_for("document.getElementById('msg').className !== ''", 10, f"{button}'s answer")
            if page.eval("document.getElementById('msg').className") == "bad":
                fail(button + ": " + page.eval("document.getElementById('msg').textContent"))
            return None
        t = settle(n)
        print(f"studio_drive: try {t['seq']}: {t['what']} -> {t['took_ms']:.1f} ms, {t['ended_by']}"
              f"{' -- ' + t['floor'] if t['floor'] else ''}")
        return t

    for a in spec["actions"]:
        send = a.get("send", True)
        page.eval(f"document.getElementById('timeout').value = {js(str(a.get('timeout_ms', '')))}")
        if "part" in a:
            page.eval(f"document.getElementById('part').value = {js(a['part'])}")
            continue
        set_conds(a.get("until", []) + a.get("logon", []))
        if "logon" in a:
            page.eval("document.getElementById('logon-set').click()")
            page.wait_for("document.getElementById('msg').textContent === 'logon set'", 10, "the logon")
            continue
        if "key" in a:
            page.eval(f"document.getElementById('key-text').value = {js(a['key'])}")
            t = press("key-wait" if a.get("until") else "key-send", send)
        elif "type" in a:
            page.eval(f"document.getElementById('type-text').value = {js(a['type'])}")
            t = press("type-send", send)
        elif "think" in a:
            page.eval(f"document.getElementById('think-text').value = {js(a['think'])}")
            t = press("think-add", send)
        elif "timer" in a:
            page.eval(f"document.getElementById('timer-name').value = {js(a['timer'])}")
            page.eval(f"document.getElementById('timer-input').value = {js(a['on'])}")
            t = press("timer-add", send)
            if t and a.get("expect_sample"):
                s = t.get("sample") or {}
                if s.get("status") != a["expect_sample"]:
                    fail(f"timer {a['timer']}: sample {s}, want {a['expect_sample']}: {t['ended_by']}")
        else:
            fail(f"unknown action {a}")
        if t and t["failed"]:
            fail(f"try failed: {t['what']}: {t['ended_by']}")
        if t and a.get("expect") and a["expect"] not in t["ended_by"]:
            fail(f"{t['what']}: ended by '{t['ended_by']}', want '{a['expect']}'")
    # save, then the page says the file is written
    page.eval("document.getElementById('save').click()")
    page.wait_for("st && !st.unsaved && st.valid && document.getElementById('msg').textContent.startsWith('saved')",
                  10, "the save")
    rows = page.eval("document.querySelectorAll('#tries tr').length")
    print(f"studio_drive: saved {state()['out']}, {len(state()['loop'])} loop steps, "
          f"{len(state()['logoff'])} logoff steps, {rows} tries listed")
    page.screenshot(shot)
    errs = page.errors()
    if errs:
        fail(f"console errors on the studio page: {errs}")
