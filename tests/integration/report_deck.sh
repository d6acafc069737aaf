#!/usr/bin/env bash
# report_deck.sh -- the report as a capacity deck: the one-line summary at the top, active sessions
# over time, percentile bars with a legend, the capacity chart's x axis to the planned sessions,
# "how to read this" folded, print CSS (Chromium prints it to a PDF), and `report --run A --run B
# --run C` overlaying three runs on one capacity chart with a side-by-side table; six runs are
# refused. Screenshots and PDFs are kept under build/tests/artifacts/.
set -euo pipefail
B=${SESSMAX_BUILD_DIR:?}
. "$(dirname "$0")/lib/harness.sh"
scratch_dir TMP sessmax-report-deck
command -v chromium >/dev/null || fail "chromium not installed (Debian package chromium)"
( cd "$TMP" && SESSMAX_FIXTURE_DB="$TMP/fixture.db" "$B/tests/test_report" >/dev/null ) || fail "test_report fixture"
S="$B/sessmax"

"$S" report "$TMP/fixture.db" --run 1 -o "$TMP/one.html" || fail "report of run 1"
deck=$(grep -o '<p class="deck" id="deck">[^<]*' "$TMP/one.html" | sed 's/.*">//')
echo "report_deck: $deck"
case "$deck" in
    "smax 38 on ws2022, verdict pass, baseline 821 ms, threshold 1821 ms, knee at 39 active sessions"*) ;;
    *) fail "the one-line summary reads: $deck" ;;
esac
grep -q 'data-series="active"' "$TMP/one.html" || fail "no active-sessions-over-time chart"
grep -q 'data-series="timers-legend"' "$TMP/one.html" || fail "percentile bars without a legend"
grep -q '<details open>' "$TMP/one.html" && fail "\"how to read this\" is not folded"
grep -q '@media print' "$TMP/one.html" || fail "no print CSS"
# the capacity chart's x axis ends at the planned 60 sessions (its last tick)
python3 - "$TMP/one.html" <<'PY' || fail "capacity chart x axis"
import re, sys
html = open(sys.argv[1]).read()
chart = html[html.index("Response time and index vs active sessions"):]
chart = chart[:chart.index("</svg>")]
ticks = [int(t) for t in re.findall(r'text-anchor="middle"[^>]*>(\d+)</text>', chart)]
assert ticks and max(ticks) == 60, f"x ticks {ticks}"
PY

"$S" report "$TMP/fixture.db" --run 1 --run 2 --run 3 -o "$TMP/overlay.html" || fail "overlay of 3 runs"
for k in 1 2 3; do
    grep -q "data-series=\"index-$k\"" "$TMP/overlay.html" || fail "overlay: no index line of run $k"
done
[ "$(grep -c '<li style="border-left' "$TMP/overlay.html")" = 3 ] || fail "overlay: not 3 summary lines"
python3 - "$TMP/overlay.html" <<'PY' || fail "overlay table"
import re, sys
html = open(sys.argv[1]).read()
table = html[html.index('id="overlay"'):]
table = table[:table.index("</table>")]
assert table.count("<tr>") == 4, "header + 3 runs"
assert "not reached at 40" in table and ">38<" in table and ">44<" in table, table
PY
set +e
"$S" report "$TMP/fixture.db" --run 1 --run 2 --run 3 --run 1 --run 2 --run 3 -o "$TMP/six.html" 2>"$TMP/six.err"
rc=$?
set -e
[ "$rc" -eq 64 ] || fail "six runs: exit $rc, want 64"
grep -q "at most 5 runs" "$TMP/six.err" || fail "six runs: no reason given"

chrome() {
    HOME="$TMP" timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$TMP")" "$@" >/dev/null 2>>"$TMP/chrome.log"
}
A="$B/tests/artifacts"
mkdir -p "$A"
for page in one overlay; do
    rm -f "$A/report-$page.pdf"
    chrome --print-to-pdf="$A/report-$page.pdf" --no-pdf-header-footer "file://$TMP/$page.html" || fail "print $page"
    head -c 5 "$A/report-$page.pdf" | grep -q '%PDF-' || fail "$page: not a PDF"
    chrome --screenshot="$A/report-$page.png" --window-size=1100,1400 --hide-scrollbars "file://$TMP/$page.html" \
        || fail "screenshot $page"
done
echo "report_deck: ok (report PDF $(stat -c %s "$A/report-one.pdf") bytes, overlay PDF $(stat -c %s "$A/report-overlay.pdf") bytes)"
