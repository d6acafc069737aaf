#!/usr/bin/env bash
# arrows.sh -- the allowed dependencies between sessmax's parts (docs/architecture.md), checked
# over every `#include "part/..."` line of every .c and .h. A part may include only itself and the
# parts listed for it below; anything else is a forbidden arrow and fails the test, naming the
# file and line. A quoted include must name its part ("agent/x.h", never "x.h" or "../agent/x.h"). SQLite's header may appear only in db/ (the only code that speaks SQL).
# tests/ and bench/ may include any part.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
cd "$SRC" || exit 1

# part of a path: controller/<role>/x.c -> controller/<role>; <dir>/x.c -> <dir>
part_of() {
    case $1 in
    controller/*/* | agent/*/* | simhost/*/*) echo "${1%/*}" | cut -d/ -f1-2 ;;
    */*) echo "${1%%/*}" ;;
    esac
}

# allowed PART -> the parts it may include besides itself
allowed() {
    case $1 in
    common) echo "" ;;
    db) echo "common" ;;
    compat) echo "common" ;;
    agent/driver) echo "common" ;;
    agent/interp) echo "common agent/driver" ;;          # and only agent/driver/driver.h (below)
    agent/engine) echo "common agent/driver agent/interp" ;;   # no session kind: struct session_ops
    agent/rdp) echo "common compat agent/driver agent/engine agent/interp agent/netem" ;;
    agent/x11) echo "common agent/driver agent/engine agent/interp agent/netem" ;;
    agent/netem) echo "common agent/engine" ;;
    agent/netcheck) echo "common agent/netem" ;;
    agent/pin) echo "common" ;;
    agent/link) echo "common agent/engine agent/netem agent/rdp agent/x11" ;;   # pick the kind
    agent/front) echo "common agent/engine agent/interp agent/link agent/netcheck agent/netem agent/pin agent/rdp agent/x11" ;;
    simhost/desktop) echo "common" ;;
    simhost/server) echo "common compat simhost/desktop" ;;
    simhost/model) echo "common simhost/desktop simhost/server" ;;
    simhost) echo "common simhost/model simhost/server" ;;
    controller/score) echo "common db" ;;
    controller/report) echo "common db controller/score" ;;
    controller/web) echo "common db controller/score controller/report" ;;
    controller/run) echo "common db controller/score controller/report controller/web" ;;
    controller/cli) echo "common db controller/score controller/report controller/run controller/web" ;;
    *) echo "UNKNOWN" ;;
    esac
}

failures=0
checked=0
while IFS= read -r file; do
    from=$(part_of "$file")
    ok=$(allowed "$from")
    if [ "$ok" = UNKNOWN ]; then
        echo "FAIL: $file: part '$from' has no entry in tests/integration/arrows.sh (and docs/architecture.md)"
        failures=$((failures + 1))
        continue
    fi
    while IFS=: read -r line inc; do
        checked=$((checked + 1))
        to=$(part_of "$inc")
        [ "$to" = "$from" ] && continue
        case " $ok " in *" $to "*) continue ;; esac
        echo "FAIL: $file:$line: forbidden arrow $from -> $to (#include \"$inc\")"
        failures=$((failures + 1))
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$file" |
             sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
    # every project include names its part ("part/file.h"): a bare or "../" path would hide an arrow
    while IFS=: read -r line inc; do
        [ "$file:$inc" = "db/store_migrate.c:schema_sql.h" ] && continue   # generated into the build tree
        echo "FAIL: $file:$line: #include \"$inc\" does not name its part (write \"part/file.h\")"
        failures=$((failures + 1))
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | grep -vE ':[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/' |
             sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
    # the interpreter sees a session only through the driver's header
    if [ "$from" = agent/interp ]; then
        while IFS=: read -r line inc; do
            echo "FAIL: $file:$line: agent/interp may include only agent/driver/driver.h (#include \"$inc\")"
            failures=$((failures + 1))
        done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"agent/' "$file" |
                 grep -v '"agent/interp/' | grep -v '"agent/driver/driver\.h"' |
                 sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
    fi
    if [ "$from" != db ] && grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<sqlite3\.h>' "$file"; then
        echo "FAIL: $file: includes <sqlite3.h>; only db/ speaks SQL"
        failures=$((failures + 1))
    fi
done < <(find common db compat agent simhost controller -name '*.[ch]' | sort)

if [ "$failures" -ne 0 ]; then
    echo "$failures forbidden arrow(s); the allowed ones are in docs/architecture.md"
    exit 1
fi
echo "ok: $checked project includes, no forbidden arrow"
