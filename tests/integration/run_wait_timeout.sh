#!/bin/bash
# run_wait_timeout.sh -- under `sessmax run`, a wait that times out is a failed sample (ok = 0) in
# the store, the session goes on with its next loop, and a PNG of that session's screen lands
# beside the results (<db>.shots/run-<id>/<user>-loop<k>-<timer>.png).
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"

start_simhost 2
# after the timed `cpu`, the "never" timer watches a region nothing ever paints (the desktop
# background): it times out
cat "$S/tests/integration/lib/cpu-loop.yaml" - >"$WORK/never.yaml" <<'YAML'
  - timer: never
    steps: [{key: esc}]
    until: {change: corner, timeout: 1s}
  - think: 300ms
measures:
  vsi: {cpu: 1.0}
YAML
write_plan 2 1 2 2s 8s
sed -i "s|^workload: .*|workload: $WORK/never.yaml|" "$WORK/plan.yaml"
set +e
"$B/sessmax" run "$WORK/plan.yaml" --plain >"$WORK/run.log" 2>&1
rc=$?
set -e
[ $rc -le 2 ] || { cat "$WORK/run.log"; fail "sessmax run exited $rc"; }
failed=$(q "select count(*) from samples s join timer_names n on n.id = s.name_id where n.name = 'never' and s.ok = 0")
okcpu=$(q "select count(*) from samples s join timer_names n on n.id = s.name_id where n.name = 'cpu' and s.ok = 1")
[ "$failed" -ge 2 ] || fail "timed-out waits not recorded as failed samples ($failed)"
[ "$okcpu" -ge 2 ] || fail "the sessions did not go on after the timeout ($okcpu ok cpu samples)"
shots=$(ls "$WORK"/r.db.shots/run-1/*never*.png 2>/dev/null | wc -l)
[ "$shots" -ge 2 ] || fail "no PNG of the timed-out wait beside the results ($(ls -R "$WORK"/r.db.shots 2>&1))"
python3 - "$(ls "$WORK"/r.db.shots/run-1/*never*.png | head -1)" <<'PY' || fail "the screenshot is not a 1024x768 PNG"
import struct, sys
d = open(sys.argv[1], "rb").read(32)
assert d[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", d[16:24])
assert (w, h) == (1024, 768), (w, h)
PY
echo "run_wait_timeout: ok ($failed failed samples, $shots screenshots)"
