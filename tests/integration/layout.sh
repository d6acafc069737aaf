#!/usr/bin/env bash
# layout.sh -- the build lists every source by name: each .c of common/, db/, compat/, agent/, simhost/,
# controller/ and bench/ appears in its folder's CMakeLists.txt, each unit test and integration script
# in tests/CMakeLists.txt, and none of those CMakeLists.txt uses file(GLOB). Every module .c of the
# parts (main.c aside) has a header named after it that it includes, and every .c and .h opens with
# a comment naming it ("/* name.c -- what it is for"; a part's main header may name its folder).
# A source file (.c, .h, .sh, .py anywhere in the tree but build folders) over 700 lines is named
# in a WARN line (time to look for a seam), over 1000 lines it fails; that check is first shown to
# fail a planted 1001-line file and only warn of a planted 800-line one. Fails naming the file.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
. "$(dirname "$0")/lib/harness.sh"
failures=0

# problem MESSAGE: one failure, reported now; the test fails at the end, after every check ran
problem() { echo "FAIL: $*"; failures=$((failures + 1)); }

# listed FILE NAME -- NAME (a word) appears in FILE outside comments. Each CMakeLists.txt is
# stripped of its comments once (into $stripped/): one grep per name, no pipeline per name.
scratch_dir stripped sessmax-layout-cml
listed() {
    local copy=$stripped/${1//\//_}
    [ -f "$copy" ] || sed 's/#.*//' "$1" > "$copy"
    grep -qw -- "$2" "$copy"
}

for dir in common db compat agent simhost bench controller tests; do
    cml="$SRC/$dir/CMakeLists.txt"
    if sed 's/#.*//' "$cml" | grep -qi 'file *( *GLOB'; then
        problem "$dir/CMakeLists.txt uses file(GLOB); list the sources by name"
    fi
done
for dir in common db compat agent simhost bench; do
    for f in $(find "$SRC/$dir" $([ "$dir" = bench ] && echo -maxdepth 1) -name '*.c' | sort); do
        base=${f#"$SRC/$dir/"}
        case $dir in bench) word=${base%.c} ;; *) word=$base ;; esac
        listed "$SRC/$dir/CMakeLists.txt" "$word" || problem "$dir/$base is not listed in $dir/CMakeLists.txt"
    done
done
for f in "$SRC"/controller/*/*.c; do
    rel=${f#"$SRC/controller/"}
    listed "$SRC/controller/CMakeLists.txt" "$rel" || problem "controller/$rel is not listed in controller/CMakeLists.txt"
done
for f in "$SRC"/tests/unit/test_*.c; do
    name=$(basename "$f" .c)
    listed "$SRC/tests/CMakeLists.txt" "$name" || problem "tests/unit/$name.c is not listed in tests/CMakeLists.txt"
done
for f in "$SRC"/tests/integration/*.sh; do
    name=$(basename "$f" .sh)
    listed "$SRC/tests/CMakeLists.txt" "$name" || problem "tests/integration/$name.sh is not listed in tests/CMakeLists.txt"
done
# the modules and their own headers, and every file's opening comment: one awk over all of them
# (a process per file made this the slowest lint check)
modules=$(find "$SRC"/common "$SRC"/db "$SRC"/compat "$SRC"/agent "$SRC"/simhost "$SRC"/controller -name '*.c' | sort)
for f in $modules; do
    base=${f##*/}
    [ "$base" = main.c ] || [ -f "${f%.c}.h" ] || problem "${f#"$SRC/"} has no header ${base%.c}.h beside it"
done
while IFS= read -r line; do problem "$line"; done < <(
    awk -v src="$SRC/" '
        FNR == 1 {
            rel = substr(FILENAME, length(src) + 1); n = split(FILENAME, parts, "/"); base = parts[n]
            dir = rel; sub(/\/[^\/]*$/, "", dir)
            if (index($0, "/* " base " -- ") != 1 && index($0, "/* " dir "/ -- ") != 1)
                print rel " does not open with \x27/* " base " -- what it is for\x27"
        }
        FNR == 1 && own != "" && !seen { print own_rel " does not include its header " own }
        FNR == 1 { own = ""; seen = 0
                   if (base ~ /\.c$/ && base != "main.c" && rel !~ /^(bench|tests)\//) {
                       h = rel; sub(/\.c$/, ".h", h)
                       ch = FILENAME; sub(/\.c$/, ".h", ch)
                       if ((getline tmp < ch) > 0) { own = h; own_rel = rel } ; close(ch) } }
        own != "" && index($0, "#include \"" own "\"") == 1 { seen = 1 }
        END { if (own != "" && !seen) print own_rel " does not include its header " own }
    ' $(find "$SRC"/common "$SRC"/db "$SRC"/compat "$SRC"/agent "$SRC"/simhost "$SRC"/controller -name '*.[ch]' | sort) \
        "$SRC"/bench/*.c "$SRC"/tests/unit/*.[ch])

# too_long DIR MAX -- the sources under DIR over MAX lines, "N path" each (build folders, .git
# and node_modules skipped).
WARN_LINES=700
MAX_LINES=1000
too_long() {
    find "$1" -mindepth 1 \( -type d \( -name 'build*' -o -name .git -o -name node_modules \) -prune \) -o \
         -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' \) -print0 |
        xargs -0 -r wc -l | awk -v max="$2" '$2 != "total" && $1 > max { print $1, $2 }' | sort -k2
}
# line_caps DIR -- WARN for each source over WARN_LINES, a problem for each over MAX_LINES
line_caps() {
    local n path
    while read -r n path; do
        [ -z "$path" ] && continue
        if [ "$n" -gt "$MAX_LINES" ]; then
            problem "${path#"$SRC/"} has $n lines (over $MAX_LINES): split it along a seam"
        else
            echo "WARN: ${path#"$SRC/"} has $n lines (over $WARN_LINES): look for a seam before it reaches $MAX_LINES"
        fi
    done < <(too_long "$1" "$WARN_LINES")
}
scratch_dir plant sessmax-layout
mkdir -p "$plant/simhost" "$plant/build/gen"
seq 1 1001 | sed 's|^|/* line |; s|$| */|' >"$plant/simhost/planted.c"
seq 1 800 >"$plant/simhost/warned.sh"
seq 1 700 >"$plant/simhost/at_warn.sh"
seq 1 2000 >"$plant/build/gen/generated.c"
planted=$(SRC=$plant; failures=0; line_caps "$plant"; echo "failures $failures")
want="WARN: simhost/warned.sh has 800 lines (over $WARN_LINES): look for a seam before it reaches $MAX_LINES
FAIL: simhost/planted.c has 1001 lines (over $MAX_LINES): split it along a seam
failures 1"
[ "$(sort <<<"$planted")" = "$(sort <<<"$want")" ] ||
    problem "the line-count check did not fail exactly the planted 1001-line file and warn of the 800-line one (got: $planted)"
rm -rf "$plant"
line_caps "$SRC"

if [ "$failures" -ne 0 ]; then
    echo "$failures problem(s)"
    exit 1
fi
echo "ok: every source and test is listed by name, every module has its header and its opening comment, none over $MAX_LINES lines"
