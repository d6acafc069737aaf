#!/usr/bin/env bash
# include_cycles.sh -- dependencies between modules run one way: no include circle among the
# modules of common/, db/, compat/, agent/, simhost/ and controller/ (lib/include_cycles.py: x.c,
# x.h and x_int.h are one module; a circle is a strongly connected set of two or more). First
# shown to catch a planted circle (a -> b -> c -> a, one edge through a private header) in a
# scratch tree and to pass a planted one-way chain. Fails listing each circle's modules and the
# includes that tie it (file:line -> header), so a reader knows where to cut.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
. "$(dirname "$0")/lib/harness.sh"
CHECK=$SRC/tests/integration/lib/include_cycles.py
PARTS="common db compat agent simhost controller"

# plant ROOT: common/a.c -> common/b.h, common/b.c -> common/c.h, common/c.h -> common/a_int.h
# (module a), and common/d.c -> common/a.h outside the circle
plant() {
    mkdir -p "$1/common" "$1/db"
    printf '#include "common/a.h"\n#include "common/b.h"\n' >"$1/common/a.c"
    printf '#include "common/c.h"\n' >"$1/common/b.c"
    printf '#include "common/a_int.h"\n' >"$1/common/c.h"
    printf '#include "common/a.h"\n' >"$1/common/d.c"
    touch "$1/common/a.h" "$1/common/a_int.h" "$1/common/b.h"
}
scratch_dir tree sessmax-include-cycles
plant "$tree"
want="circle 1 (3 modules): common/a common/b common/c
  common/a.c:2 -> common/b.h
  common/b.c:1 -> common/c.h
  common/c.h:1 -> common/a_int.h
1 circle(s) among 7 files"
got=$(python3 "$CHECK" "$tree" common db) && fail "the planted circle passed"
[ "$got" = "$want" ] || fail "the planted circle was not reported as expected (got: $got)"
printf '' >"$tree/common/c.h"   # the chain cut: a -> b -> c only
got=$(python3 "$CHECK" "$tree" common db) || fail "a one-way chain was taken for a circle ($got)"
rm -rf "$tree"

# shellcheck disable=SC2086
if ! out=$(python3 "$CHECK" "$SRC" $PARTS); then
    echo "$out" | sed '/^circle /s/^/FAIL: /'
    echo "cut each circle at one of its includes (move what the header needs down a level)"
    exit 1
fi
echo "ok: ${out##*$'\n'}, dependencies between modules run one way"
