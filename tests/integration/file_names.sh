#!/usr/bin/env bash
# file_names.sh -- every file name a comment, doc or script mentions is a file of the tree: the
# opening comments that still said "sim_loop.h" after the restructuring pointed newcomers at files
# that were gone. Looks at C comments (not code or strings), and at the whole text of scripts,
# CMake files, YAML and markdown, for names ending in .c .h .sh .cmake .sql .py .inc .md; a bare
# name must be some file's name, a path the path of one (relative to the tree or to the file).
# Names of other projects' files that comments cite are listed in lib/foreign-names.txt. First
# shown to catch planted stale names in a scratch tree. Fails naming file:line and the name.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
. "$(dirname "$0")/lib/harness.sh"
CHECK=$SRC/tests/integration/lib/file_names.py

scratch_dir plant sessmax-file-names
git -C "$plant" init -q
mkdir -p "$plant/common" "$plant/docs" "$plant/tests/integration/lib"
cat >"$plant/common/log.c" <<'C'
/* log.c -- the log (log.h; the old sim_log.h is gone). See docs/guide.md and common/clock.h. */
#include <stdio.h>
static const char *s = "old_name.h in a string is not a comment";
int log_x(void) { return s->l.h ? 0 : 1; }   // code that looks like a name: struct->l.h
C
touch "$plant/common/log.h" "$plant/docs/guide.md"
printf '# see common/log.c and tests/integration/gone.sh\n' >"$plant/tests/integration/t.sh"
printf 'rfx.c  # foreign\n' >"$plant/tests/integration/lib/foreign-names.txt"
printf 'FreeRDP'"'"'s rfx.c and [x](common/log.h)\n' >"$plant/docs/guide.md"
git -C "$plant" add -A
got=$(python3 "$CHECK" "$plant")
want="common/log.c:1: sim_log.h
common/log.c:1: common/clock.h
tests/integration/t.sh:1: tests/integration/gone.sh"
[ "$got" = "$want" ] || fail "the check did not report exactly the three planted stale names (got: ${got:-nothing})"
rm -rf "$plant"

bad=$(python3 "$CHECK" "$SRC") || fail "the check could not read the tree"
if [ -n "$bad" ]; then
    echo "$bad" | sed 's/^/FAIL: /; s/$/: no such file in the tree (tests\/integration\/lib\/foreign-names.txt lists other projects'"'"')/'
    echo "$(echo "$bad" | wc -l) stale file name(s)"
    exit 1
fi
echo "ok: every file name in the tree's comments, docs and scripts names a file of the tree"
