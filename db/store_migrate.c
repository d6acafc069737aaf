/* store_migrate.c -- schema versions: creates the current schema (schema.sql) on an empty file
 * and walks an older file up one version at a time, each step in the same transaction as its
 * user_version bump, so a crash mid-migration leaves the file at the old version, intact.
 *
 * Adding version N+1: append its step to `migrations` (never edit an earlier step), update
 * schema.sql to the resulting schema and bump STORE_SCHEMA_VERSION in store.h. */
#include "db/store_migrate.h"
#include "db/store_int.h"
#include "schema_sql.h"

#include <stdio.h>

struct migration {
    int from;                /* applies to a file at this version, leaves it at from + 1 */
    const char *sql;
};

/* 1 -> 2: the loop index of each sample, and the agents' health records. */
static const char MIGRATE_1_TO_2[] =
    "ALTER TABLE samples ADD COLUMN loop INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE health ("
    " run_id INTEGER NOT NULL, agent_id INTEGER NOT NULL, t_us INTEGER NOT NULL,"
    " sessions_active INTEGER NOT NULL, sessions_connecting INTEGER NOT NULL,"
    " lag_p50_us INTEGER NOT NULL, lag_p99_us INTEGER NOT NULL, lag_max_us INTEGER NOT NULL,"
    " cpu_permille INTEGER NOT NULL, rss_kb INTEGER NOT NULL);"
    "CREATE INDEX health_run_t ON health (run_id, t_us);";

/* 2 -> 3: the network profile of each run (JSON) and TCP segment counters per traffic record. */
static const char MIGRATE_2_TO_3[] =
    "ALTER TABLE runs ADD COLUMN network_profile TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE traffic ADD COLUMN data_segs_out INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE traffic ADD COLUMN retrans INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE traffic ADD COLUMN data_segs_in INTEGER NOT NULL DEFAULT 0;";

/* 3 -> 4: the copy timers of each run (bytes and direction, for throughput). */
static const char MIGRATE_3_TO_4[] =
    "CREATE TABLE copy_timers (run_id INTEGER NOT NULL, name TEXT NOT NULL, to_client INTEGER NOT NULL,"
    " bytes INTEGER NOT NULL, PRIMARY KEY (run_id, name)) WITHOUT ROWID;";

/* 4 -> 5: the client program of each run, `sessmax matrix` cells and the matrices table. */
static const char MIGRATE_4_TO_5[] =
    "ALTER TABLE runs ADD COLUMN client TEXT NOT NULL DEFAULT 'builtin';"
    "ALTER TABLE runs ADD COLUMN matrix_id INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE runs ADD COLUMN cell TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX runs_matrix ON runs (matrix_id, cell);"
    "CREATE TABLE matrices (id INTEGER PRIMARY KEY, name TEXT NOT NULL, spec TEXT NOT NULL,"
    " started_us INTEGER NOT NULL);";

/* 5 -> 6: each agent's clock offset and round trip, measured in the handshake. */
static const char MIGRATE_5_TO_6[] =
    "ALTER TABLE agents ADD COLUMN clock_offset_us INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE agents ADD COLUMN rtt_us INTEGER NOT NULL DEFAULT 0;";

/* 6 -> 7: CPU use of a local target and of the other processes on its CPUs. */
static const char MIGRATE_6_TO_7[] =
    "CREATE TABLE target_load (run_id INTEGER NOT NULL, t_us INTEGER NOT NULL, cpus INTEGER NOT NULL,"
    " target_permille INTEGER NOT NULL, others_permille INTEGER NOT NULL);"
    "CREATE INDEX target_load_run_t ON target_load (run_id, t_us);";

static const struct migration migrations[] = {
    { 1, MIGRATE_1_TO_2 },
    { 2, MIGRATE_2_TO_3 },
    { 3, MIGRATE_3_TO_4 },
    { 4, MIGRATE_4_TO_5 },
    { 5, MIGRATE_5_TO_6 },
    { 6, MIGRATE_6_TO_7 },
};

static int exec(sqlite3 *db, const char *path, const char *sql, const char *what, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    snprintf(err, errlen, "%s: %s: %s", path, what, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

static int set_version(sqlite3 *db, const char *path, int version, char *err, size_t errlen)
{
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
             version, STORE_APPLICATION_ID);
    return exec(db, path, sql, "cannot set the schema version", err, errlen);
}

static int apply(sqlite3 *db, const char *path, int kind, int version, char *err, size_t errlen)
{
    if (kind == 0) {
        if (exec(db, path, SESSMAX_SCHEMA_SQL, "cannot create the schema", err, errlen) != 0)
            return -1;
        return set_version(db, path, STORE_SCHEMA_VERSION, err, errlen);
    }
    for (size_t i = 0; i < sizeof migrations / sizeof migrations[0]; i++) {
        if (migrations[i].from != version)
            continue;
        char what[64];
        snprintf(what, sizeof what, "migration from schema version %d failed", version);
        if (exec(db, path, migrations[i].sql, what, err, errlen) != 0)
            return -1;
        version++;
    }
    if (version != STORE_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: no migration from schema version %d", path, version);
        return -1;
    }
    return set_version(db, path, version, err, errlen);
}

int store_migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    int kind = 0, version = 0;
    /* IMMEDIATE: two writers opening the same new file must not both create the schema. */
    if (exec(db, path, "BEGIN IMMEDIATE", "cannot lock for migration", err, errlen) != 0)
        return -1;
    if (store_identify(db, path, &kind, &version, err, errlen) != 0)
        goto fail;
    if (kind == 1 && version == STORE_SCHEMA_VERSION) {
        exec(db, path, "COMMIT", "commit", err, errlen);
        return 0;
    }
    if (apply(db, path, kind, version, err, errlen) != 0)
        goto fail;
    return exec(db, path, "COMMIT", "cannot commit the migration", err, errlen);
fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}
