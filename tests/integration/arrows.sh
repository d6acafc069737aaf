#!/usr/bin/env bash
# arrows.sh -- the allowed dependencies between sessmax's parts (docs/architecture.md), checked
# over every `#include "part/..."` line of every .c and .h. A part may include only itself and the
# parts listed for it below; anything else is a forbidden arrow and fails the test, naming the
# file and line. A quoted include must name its part ("agent/x.h", never "x.h" or "../agent/x.h"). SQLite's header may appear only in db/ (the only code that speaks SQL).
# tests/ and bench/ may include any part.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
cd "$SRC" || exit 1

# part of a path, into PART (no subshell: this runs once per include line):
# controller/<role>/x.c -> controller/<role>; <dir>/x.c -> <dir>
part_of() {
    local dir=${1%/*} rest
    case $1 in
    controller/*/* | agent/*/* | simhost/*/*) rest=${dir#*/}; PART=${dir%%/*}/${rest%%/*} ;;
    */*) PART=${1%%/*} ;;
    *) PART= ;;
    esac
}

# allowed PART -> the parts it may include besides itself, into OK
allowed() {
    case $1 in
    common) OK="" ;;
    db) OK="common" ;;
    compat) OK="common" ;;
    agent/driver) OK="common" ;;
    agent/interp) OK="common agent/driver" ;;          # and only agent/driver/driver.h (below)
    agent/engine) OK="common agent/driver agent/interp" ;;   # no session kind: struct session_ops
    agent/rdp) OK="common compat agent/driver agent/engine agent/interp agent/netem" ;;
    agent/x11) OK="common agent/driver agent/engine agent/interp agent/netem" ;;
    agent/netem) OK="common agent/engine" ;;
    agent/netcheck) OK="common agent/netem" ;;
    agent/pin) OK="common" ;;
    agent/link) OK="common agent/engine agent/netem agent/rdp agent/x11" ;;   # pick the kind
    agent/studio) OK="common agent/driver agent/engine agent/interp" ;;   # no session kind: struct studio_live
    agent/front) OK="common agent/engine agent/interp agent/link agent/netcheck agent/netem agent/pin agent/rdp agent/studio agent/x11" ;;
    simhost/desktop) OK="common" ;;
    simhost/server) OK="common compat simhost/desktop" ;;
    simhost/model) OK="common simhost/desktop simhost/server" ;;
    simhost) OK="common simhost/model simhost/server" ;;
    controller/score) OK="common db" ;;
    controller/report) OK="common db controller/score" ;;
    controller/web) OK="common db controller/score controller/report" ;;
    controller/run) OK="common db controller/score controller/report controller/web" ;;
    controller/cli) OK="common db controller/score controller/report controller/run controller/web" ;;
    *) OK="UNKNOWN" ;;
    esac
}

failures=0
checked=0
FILES=$(find common db compat agent simhost controller -name '*.[ch]' | sort)
for file in $FILES; do
    part_of "$file"
    allowed "$PART"
    [ "$OK" = UNKNOWN ] || continue
    echo "FAIL: $file: part '$PART' has no entry in tests/integration/arrows.sh (and docs/architecture.md)"
    failures=$((failures + 1))
done
# one grep over every file, FILE:LINE:INCLUDE per quoted include, then no process per line
while IFS=: read -r file line inc; do
    part_of "$file"
    from=$PART
    allowed "$from"
    [ "$OK" = UNKNOWN ] && continue
    # every project include names its part ("part/file.h"): a bare or "../" path would hide an arrow
    if ! [[ $inc =~ ^[a-z_]+/ ]]; then
        [ "$file:$inc" = "db/store_migrate.c:schema_sql.h" ] && continue   # generated into the build tree
        echo "FAIL: $file:$line: #include \"$inc\" does not name its part (write \"part/file.h\")"
        failures=$((failures + 1))
        continue
    fi
    checked=$((checked + 1))
    # the interpreter sees a session only through the driver's header
    if [ "$from" = agent/interp ] && [[ $inc == agent/* && $inc != agent/interp/* && $inc != agent/driver/driver.h ]]; then
        echo "FAIL: $file:$line: agent/interp may include only agent/driver/driver.h (#include \"$inc\")"
        failures=$((failures + 1))
    fi
    part_of "$inc"
    to=$PART
    [ "$to" = "$from" ] && continue
    case " $OK " in *" $to "*) continue ;; esac
    echo "FAIL: $file:$line: forbidden arrow $from -> $to (#include \"$inc\")"
    failures=$((failures + 1))
done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $FILES |
         sed 's/^\([^:]*\):\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2:\3/')
# SQLite's header only in db/ (the only code that speaks SQL)
for file in $(grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<sqlite3\.h>' $FILES); do
    part_of "$file"
    [ "$PART" = db ] && continue
    echo "FAIL: $file: includes <sqlite3.h>; only db/ speaks SQL"
    failures=$((failures + 1))
done

if [ "$failures" -ne 0 ]; then
    echo "$failures forbidden arrow(s); the allowed ones are in docs/architecture.md"
    exit 1
fi
echo "ok: $checked project includes, no forbidden arrow"
