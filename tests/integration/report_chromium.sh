#!/usr/bin/env bash
# report_chromium.sh -- the run report rendered by headless Chromium: no console errors, the SVG
# holds the expected data points (counted in the dumped DOM against `sessmax export --points`),
# and a screenshot is kept under build/tests/artifacts/ for people to look at.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir TMP sessmax-report-chromium

command -v chromium >/dev/null || fail "chromium not installed (Debian package chromium)"
# 1. a store written through db/store.h by the report unit test, left at $TMP/fixture.db
( cd "$TMP" && SESSMAX_FIXTURE_DB="$TMP/fixture.db" "$B/tests/test_report" >/dev/null ) || fail "test_report fixture"
"$B/sessmax" report "$TMP/fixture.db" --run 1 -o "$TMP/report.html" --verdict "$TMP/verdict.json" || fail "sessmax report"
[ -s "$TMP/verdict.json" ] || fail "no verdict.json at --verdict"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"]=="pass", d' "$TMP/verdict.json" \
    || fail "verdict.json"
expected=$(( $("$B/sessmax" export "$TMP/fixture.db" --run 1 --format csv --points | wc -l) - 1 ))
[ "$expected" -gt 100 ] || fail "too few points exported ($expected)"

chrome() {
    HOME="$TMP" timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$TMP")" --enable-logging=stderr --v=0 "$@"
}
# 2. the DOM as Chromium built it, and its console
chrome --dump-dom "file://$TMP/report.html" >"$TMP/dom.html" 2>"$TMP/chrome.log" || fail "chromium --dump-dom"
if grep -E 'CONSOLE|Uncaught|Failed to load|ERR_' "$TMP/chrome.log" | grep -v -E 'dbus|Fontconfig' >"$TMP/console.txt"; then
    cat "$TMP/console.txt" >&2
    fail "console errors while rendering the report"
fi
python3 - "$TMP/dom.html" "$expected" <<'PY' || fail "SVG data points"
import re, sys
dom = open(sys.argv[1]).read()
want = int(sys.argv[2])
m = re.search(r'<polyline data-series="index" data-n="(\d+)"[^>]*points="([^"]*)"', dom)
assert m, "no index polyline in the DOM"
pairs = m.group(2).split()
assert int(m.group(1)) == want == len(pairs), f"index points: data-n {m.group(1)}, drawn {len(pairs)}, exported {want}"
logon = re.search(r'<g data-series="logon" data-n="(\d+)"[^>]*>(.*?)</g>', dom, re.S)
assert logon and logon.group(2).count("<circle") == 60, "logon dots"
assert dom.count("<svg") >= 6, "charts missing"
assert 'data-series="threshold"' in dom and 'data-series="smax"' in dom, "threshold line or smax marker"
print(f"report_chromium: {len(pairs)} index points, 60 logon dots, {dom.count('<svg')} charts")
PY
# 3. a screenshot kept as a test artifact
mkdir -p "$B/tests/artifacts"
shot="$B/tests/artifacts/report.png"
rm -f "$shot"
chrome --screenshot="$shot" --window-size=1000,2400 --hide-scrollbars "file://$TMP/report.html" \
    >/dev/null 2>"$TMP/shot.log" || fail "chromium --screenshot"
python3 - "$shot" <<'PY' || fail "screenshot"
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", d[16:24])
assert (w, h) == (1000, 2400) and len(d) > 20000, (w, h, len(d))
PY
cp "$TMP/report.html" "$B/tests/artifacts/report.html"
echo "report_chromium: ok (screenshot: $shot)"
