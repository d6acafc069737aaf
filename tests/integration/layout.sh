#!/usr/bin/env bash
# layout.sh -- the build lists every source by name: each .c of common/, db/, compat/, agent/, simhost/,
# controller/ and bench/ appears in its folder's CMakeLists.txt, each unit test and integration script
# in tests/CMakeLists.txt, and none of those CMakeLists.txt uses file(GLOB). Every module .c of the
# parts (main.c aside) has a header named after it that it includes, and every .c and .h opens with
# a comment naming it ("/* name.c -- what it is for"; a part's main header may name its folder).
# No source file (.c, .h, .sh, .py anywhere in the tree but build folders) is over 600 lines; that
# check is first shown to catch a planted 601-line file. Fails naming the file.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# listed FILE NAME -- NAME (a word) appears in FILE outside comments.
listed() { sed 's/#.*//' "$1" | grep -qw -- "$2"; }

for dir in common db compat agent simhost bench controller tests; do
    cml="$SRC/$dir/CMakeLists.txt"
    if sed 's/#.*//' "$cml" | grep -qi 'file *( *GLOB'; then
        fail "$dir/CMakeLists.txt uses file(GLOB); list the sources by name"
    fi
done
for dir in common db compat agent simhost bench; do
    for f in $(find "$SRC/$dir" $([ "$dir" = bench ] && echo -maxdepth 1) -name '*.c' | sort); do
        base=${f#"$SRC/$dir/"}
        case $dir in bench) word=${base%.c} ;; *) word=$base ;; esac
        listed "$SRC/$dir/CMakeLists.txt" "$word" || fail "$dir/$base is not listed in $dir/CMakeLists.txt"
    done
done
for f in "$SRC"/controller/*/*.c; do
    rel=${f#"$SRC/controller/"}
    listed "$SRC/controller/CMakeLists.txt" "$rel" || fail "controller/$rel is not listed in controller/CMakeLists.txt"
done
for f in "$SRC"/tests/unit/test_*.c; do
    name=$(basename "$f" .c)
    listed "$SRC/tests/CMakeLists.txt" "$name" || fail "tests/unit/$name.c is not listed in tests/CMakeLists.txt"
done
for f in "$SRC"/tests/integration/*.sh; do
    name=$(basename "$f" .sh)
    listed "$SRC/tests/CMakeLists.txt" "$name" || fail "tests/integration/$name.sh is not listed in tests/CMakeLists.txt"
done
for f in $(find "$SRC"/common "$SRC"/db "$SRC"/compat "$SRC"/agent "$SRC"/simhost "$SRC"/controller -name '*.c' | sort); do
    rel=${f#"$SRC/"}
    base=$(basename "$f" .c)
    [ "$base" = main ] && continue
    [ -f "${f%.c}.h" ] || { fail "$rel has no header $base.h beside it"; continue; }
    grep -q "^#include \"${rel%.c}.h\"" "$f" || fail "$rel does not include its header ${rel%.c}.h"
done
for f in $(find "$SRC"/common "$SRC"/db "$SRC"/compat "$SRC"/agent "$SRC"/simhost "$SRC"/controller -name '*.[ch]' | sort) \
         "$SRC"/bench/*.c "$SRC"/tests/unit/*.[ch]; do
    rel=${f#"$SRC/"}
    dir=${rel%/*}
    head -n 1 "$f" | grep -qE "^/\* ($(basename "$f")|$dir/) -- " || fail "$rel does not open with '/* $(basename "$f") -- what it is for'"
done

# too_long DIR -- the sources under DIR over MAX_LINES lines, "N path" each (build folders, .git
# and node_modules skipped).
MAX_LINES=600
too_long() {
    find "$1" -mindepth 1 \( -type d \( -name 'build*' -o -name .git -o -name node_modules \) -prune \) -o \
         -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' \) -print0 |
        xargs -0 -r wc -l | awk -v max="$MAX_LINES" '$2 != "total" && $1 > max { print $1, $2 }'
}
plant=$(mktemp -d)
trap 'rm -rf "$plant"' EXIT
mkdir -p "$plant/simhost" "$plant/build/gen"
seq 1 601 | sed 's|^|/* line |; s|$| */|' >"$plant/simhost/planted.c"
seq 1 600 >"$plant/simhost/at_limit.sh"
seq 1 900 >"$plant/build/gen/generated.c"
planted=$(too_long "$plant")
[ "$planted" = "601 $plant/simhost/planted.c" ] ||
    fail "the line-count check did not catch exactly the planted 601-line file (got: ${planted:-nothing})"
while read -r n path; do
    [ -n "$path" ] && fail "${path#"$SRC/"} has $n lines (over $MAX_LINES): split it along a seam"
done < <(too_long "$SRC")

if [ "$failures" -ne 0 ]; then
    echo "$failures problem(s)"
    exit 1
fi
echo "ok: every source and test is listed by name, every module has its header and its opening comment, none over $MAX_LINES lines"
