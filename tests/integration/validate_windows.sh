#!/bin/bash
# validate_windows.sh -- the Windows RDS workload and plan, which no test here can run against a
# real host (no network): `sessmax validate` accepts both; every region of the workload, and
# every click or move point, lies inside its desktop (checked here from the YAML itself, apart
# from the validator); a copy of the workload with one region moved past the desktop's edge is
# refused by `sessmax validate` with the file and the region named; the plan asks for NLA and pins
# a certificate instead of `verify: false`.
set -u
SRC=${SESSMAX_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/integration/lib/harness.sh"
BUILD=${SESSMAX_BUILD_DIR:-$SRC/build}
WL=$SRC/workloads/windows-task-worker.yaml
PLAN=$SRC/workloads/windows-plan.yaml
[ -x "$BUILD/sessmax" ] || fail "$BUILD/sessmax is not built"
scratch_dir WORK validate-windows

"$BUILD/sessmax" validate "$WL" > "$WORK/wl.out" 2>&1 || { cat "$WORK/wl.out" >&2; fail "validate refused $WL"; }
"$BUILD/sessmax" validate "$PLAN" > "$WORK/plan.out" 2>&1 || { cat "$WORK/plan.out" >&2; fail "validate refused $PLAN"; }
grep -q 'nla, pinned sha256:' "$WORK/plan.out" || fail "the plan does not use NLA with a pinned certificate: $(grep target "$WORK/plan.out")"

# the regions and points, read from the YAML (python3-yaml), against the desktop size
python3 - "$WL" <<'EOF' || fail "a region or point of $WL lies outside its desktop"
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
dw, dh = w["desktop"]["width"], w["desktop"]["height"]
regions = w.get("regions") or {}
assert len(regions) >= 3, "too few regions: %r" % regions
bad = [f"{n} {r}" for n, r in regions.items()
       if len(r) != 4 or r[0] < 0 or r[1] < 0 or r[2] <= 0 or r[3] <= 0 or r[0] + r[2] > dw or r[1] + r[3] > dh]
def steps(seq):
    for s in seq or []:
        yield s
        for key in ("steps",):
            yield from steps(s.get(key))
        if "repeat" in s:
            yield from steps(s["repeat"].get("steps"))
for s in list(steps(w.get("loop"))) + list(steps(w.get("logoff"))):
    for k in ("click", "move"):
        p = s.get(k)
        if isinstance(p, dict) and "x" in p and not (0 <= p["x"] < dw and 0 <= p["y"] < dh):
            bad.append(f"{k} at ({p['x']}, {p['y']})")
for n in bad:
    print(f"outside the {dw}x{dh} desktop: {n}", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# the validator refuses a region past the edge, naming it
sed -e 's|^  centre: \[112, 100, 800, 500\]|  centre: [300, 100, 800, 500]|' "$WL" > "$WORK/wide.yaml"
grep -q 'centre: \[300, 100' "$WORK/wide.yaml" || fail "could not move the centre region in the copy"
if "$BUILD/sessmax" validate "$WORK/wide.yaml" > "$WORK/wide.out" 2>&1; then
    fail "validate accepted a region past the desktop's right edge"
fi
grep -q 'wide.yaml:[0-9]*:[0-9]*:.*centre' "$WORK/wide.out" || fail "the error does not name the file and the region: $(cat "$WORK/wide.out")"
echo "PASS validate_windows"
