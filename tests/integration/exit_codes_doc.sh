#!/bin/bash
# exit_codes_doc.sh -- the exit codes are one list: README.md's "Exit codes" table, the list
# `sessmax help` prints, and the list in `sessmax help VERB` and `sessmax VERB --help` of every
# verb are the same codes with the same words (controller/cli/exit_codes.c), 69 and 77 included.
set -euo pipefail
. "$(dirname "$0")/lib/harness.sh"
B=${SESSMAX_BUILD_DIR:?} S=${SESSMAX_SOURCE_DIR:?}
scratch_dir WORK exit-codes

# README: "| code | meaning |" rows of the table under "## Exit codes", as "CODE MEANING"
awk '/^## Exit codes/ { on = 1; next } /^## / { on = 0 } on && /^\| [0-9]+ \|/' "$S/README.md" |
    sed -E 's/^\| ([0-9]+) \| (.*) \|$/\1 \2/' > "$WORK/readme.txt"
[ "$(wc -l < "$WORK/readme.txt")" -ge 10 ] || { cat "$WORK/readme.txt"; fail "README's exit-code table not found"; }

# a help text's list: the lines after "Exit codes (every verb):", continuation lines joined
help_list() {
    awk '/^Exit codes \(every verb\):$/ { on = 1; next }
         on && /^  [0-9]+ / { if (line != "") print line; sub(/^  /, ""); gsub(/  +/, " "); line = $0; next }
         on && /^      [^ ]/ { sub(/^ +/, ""); line = line " " $0; next }
         on { on = 0 }
         END { if (line != "") print line }'
}

"$B/sessmax" help > "$WORK/help.out"
help_list < "$WORK/help.out" > "$WORK/help.txt"
diff -u "$WORK/readme.txt" "$WORK/help.txt" || fail "sessmax help's exit codes differ from README.md's"
for code in 0 1 2 64 65 66 69 70 74 77 78; do
    grep -q "^$code " "$WORK/help.txt" || fail "exit code $code missing from the list"
done

verbs=$(awk '/Verbs:$/ { on = 1; next } on && /^  [a-z]+ / { print $1; next } on { on = 0 }' "$WORK/help.out" | grep -v '^help$')
[ "$(echo "$verbs" | wc -w)" -ge 12 ] || fail "verbs not found in sessmax help: $verbs"
for v in $verbs; do
    "$B/sessmax" help "$v" > "$WORK/$v.help"
    help_list < "$WORK/$v.help" > "$WORK/$v.txt"
    diff -u "$WORK/readme.txt" "$WORK/$v.txt" || fail "sessmax help $v: its exit codes differ from README.md's"
    "$B/sessmax" "$v" --help | cmp -s - "$WORK/$v.help" || fail "sessmax $v --help differs from sessmax help $v"
    # no second list in the verb's own text: the usage above the list names no exit codes
    sed '/^Exit codes (every verb):$/,$d' "$WORK/$v.help" | grep -inE '\bexit(s|:| codes?)? [0-9]' &&
        fail "sessmax help $v lists exit codes of its own"
done
echo "exit_codes_doc: ok ($(wc -l < "$WORK/readme.txt") codes; README, help and $(echo "$verbs" | wc -w) verbs agree)"
