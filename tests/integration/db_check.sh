#!/usr/bin/env bash
# db_check.sh -- `sessmax db check FILE` from the outside: exit codes (0 healthy, 65 foreign /
# newer / not SQLite / corrupt, 66 missing, 64 usage) and the one-line message naming the file.
set -u
BUILD=${SESSMAX_BUILD_DIR:?SESSMAX_BUILD_DIR not set}
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
SESSMAX="$BUILD/sessmax"
. "$(dirname "$0")/lib/harness.sh"
scratch_dir TMP sessmax-dbcheck
failures=0

# expect CODE PATTERN -- args: runs sessmax, checks the exit code and that PATTERN (grep -E) is
# in its combined output.
expect() {
    local want=$1 pattern=$2
    shift 2
    local out rc
    out=$("$SESSMAX" "$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL: sessmax $* -> exit $rc (want $want), output:"
        sed 's/^/    /' <<<"$out"
        failures=$((failures + 1))
    else
        echo "ok: sessmax $* -> $rc"
    fi
}

# A healthy file, built the way the store builds one: schema.sql, then the version marks.
good="$TMP/good.db"
sqlite3 "$good" < "$SRC/db/schema.sql"
sqlite3 "$good" "PRAGMA user_version = 9; PRAGMA application_id = 1397968216;
  INSERT INTO runs (name, started_us) VALUES ('r1', 1);
  INSERT INTO timer_names (name) VALUES ('open');
  INSERT INTO samples (run_id, session, t_us, name_id, value_us, ok) VALUES (1, 0, 5, 1, 100, 1), (1, 0, 6, 1, 90, 1);"
expect 0 'integrity: ok' db check "$good"
expect 0 'schema version 9' db check "$good"
expect 0 'samples: 2' db check "$good"

foreign="$TMP/foreign.db"
sqlite3 "$foreign" "CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB);"
expect 65 "^sessmax db: $foreign: not a sessmax database \(an SQLite file of another application\)$" db check "$foreign"

newer="$TMP/newer.db"
cp "$good" "$newer"
sqlite3 "$newer" "PRAGMA user_version = 1000;"
expect 65 "^sessmax db: $newer: schema version 1000 is newer than this sessmax supports \([0-9]+\); use a newer sessmax$" db check "$newer"

text="$TMP/notes.db"
yes 'just some text' | head -n 500 > "$text"
expect 65 "$text: not a sessmax database \(not an SQLite file at all\)" db check "$text"

empty="$TMP/empty.db"
: > "$empty"
expect 65 "$empty: not a sessmax database \(an empty file\)" db check "$empty"

corrupt="$TMP/corrupt.db"
cp "$good" "$corrupt"
sqlite3 "$corrupt" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  INSERT INTO samples (run_id, session, t_us, name_id, value_us, ok) SELECT 1, i % 9, i, 1, i, 1 FROM n;"
size=$(stat -c %s "$corrupt")
for off in $(seq 8192 16384 $((size - 4096))); do
    printf 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ' |
        dd of="$corrupt" bs=1 seek=$((off + 200)) conv=notrunc status=none
done
expect 65 "^sessmax db: $corrupt: corrupt database: " db check "$corrupt"

expect 66 "$TMP/missing.db: No such file or directory" db check "$TMP/missing.db"
expect 66 "not a regular file" db check "$TMP"
expect 64 'missing subcommand' db
expect 64 "unknown subcommand 'repair'" db repair "$good"
expect 64 'exactly one FILE' db check
expect 64 'exactly one FILE' db check "$good" "$good"
expect 0 'usage: sessmax db check FILE' help db

# db check never changes what it checks
sum_before=$(md5sum < "$good")
"$SESSMAX" db check "$good" >/dev/null 2>&1
[ "$(md5sum < "$good")" = "$sum_before" ] || { echo "FAIL: db check modified $good"; failures=$((failures + 1)); }

if [ "$failures" -ne 0 ]; then
    echo "db_check: $failures failure(s)"
    exit 1
fi
echo "db_check: all passed"
