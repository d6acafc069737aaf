/* fuzz_score.c -- libFuzzer harness for score and report on a tampered results database: the
 * input is a list of edits (any column of any row of any table set to bytes, text, an integer
 * or a real) applied to an in-memory copy of a small valid store; then every run is loaded, scored, judged,
 * printed, exported in every format, compared and written as an HTML report and dashboard.
 * Bad data may give errors; nothing may crash, leak, hang or read out of bounds.
 * Input: repeated [table u8][column u8][row u16][kind u8][len u8][len bytes]. */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/report/compare.h"
#include "controller/report/dashboard.h"
#include "controller/report/export.h"
#include "controller/report/report.h"
#include "controller/score/score_text.h"
#include "controller/score/summary_load.h"
#include "controller/score/verdict.h"
#include "db/store.h"
#include "fixture_store.h"

#define MAX_EDITS 8
#define MAX_COLS 256
#define MAX_RUNS 3

static char tmpl[256], work[256], html[256], dash[256];
static char *cols[MAX_COLS][2];          /* table, column */
static size_t ncols;

static void cleanup(void)
{
    char cmd[600];
    unlink(tmpl);
    unlink(work);
    unlink(html);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dash);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz_score: could not remove %s\n", dash);
}

static void make_template(void)
{
    char err[256];
    snprintf(tmpl, sizeof tmpl, "/tmp/fuzz_score-%d.db", (int)getpid());
    snprintf(work, sizeof work, "/tmp/fuzz_score-%d-work.db", (int)getpid());
    snprintf(html, sizeof html, "/tmp/fuzz_score-%d.html", (int)getpid());
    snprintf(dash, sizeof dash, "/tmp/fuzz_score-%d-dash", (int)getpid());
    unlink(tmpl);
    atexit(cleanup);
    struct store *st = store_open(tmpl, STORE_WRITE, err, sizeof err);
    struct fixture_run f[2] = {
        { "a", "tcp", "ws", "lan", 12, 6, 1, 0, 3000, { "smax >= 5", "p95(app_start) < 9000", NULL }, 0, 0 },
        { "b", "tcp", "ws", "wan", 8, 100, 0, 1, 3000, { "smax >= 20", NULL }, 1, 0 },
    };
    if (!st || fixture_write_run(st, &f[0], NULL) < 0 || fixture_write_run(st, &f[1], NULL) < 0)
        abort();
    store_close(st);
    sqlite3 *db;
    sqlite3_stmt *q;
    if (sqlite3_open(tmpl, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
                               "WHERE m.type = 'table' ORDER BY 1, 2", -1, &q, NULL) != SQLITE_OK)
        abort();
    while (sqlite3_step(q) == SQLITE_ROW && ncols < MAX_COLS) {
        cols[ncols][0] = strdup((const char *)sqlite3_column_text(q, 0));
        cols[ncols][1] = strdup((const char *)sqlite3_column_text(q, 1));
        ncols++;
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
}

/* The template's bytes, read once: each input edits a copy in memory (sqlite3_deserialize), and
 * the result is written back with one write() and no fsync (copying the file and editing it on
 * disk with a journal ran at ~27 inputs/s). */
static unsigned char *tmpl_bytes;
static sqlite3_int64 tmpl_len;

static void load_template(void)
{
    sqlite3 *db;
    if (sqlite3_open_v2(tmpl, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        !(tmpl_bytes = sqlite3_serialize(db, "main", &tmpl_len, 0)))
        abort();
    sqlite3_close(db);
}

static sqlite3 *open_copy(void)
{
    sqlite3 *db;
    unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)tmpl_len);
    if (!copy || sqlite3_open(":memory:", &db) != SQLITE_OK)
        abort();
    memcpy(copy, tmpl_bytes, (size_t)tmpl_len);
    if (sqlite3_deserialize(db, "main", copy, tmpl_len, tmpl_len,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
        abort();
    return db;
}

static void write_work(sqlite3 *db)
{
    sqlite3_int64 n;
    unsigned char *bytes = sqlite3_serialize(db, "main", &n, 0);
    int out = open(work, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (!bytes || out < 0 || write(out, bytes, (size_t)n) != (ssize_t)n)
        abort();
    close(out);
    sqlite3_free(bytes);
}

static void apply_edits(const uint8_t *data, size_t size)
{
    sqlite3 *db = open_copy();
    for (int e = 0; e < MAX_EDITS && size >= 6; e++) {
        const char *const *c = (const char *const *)cols[data[0] % ncols];
        (void)data[1];
        unsigned row = (unsigned)data[2] << 8 | data[3], kind = data[4] % 4;
        size_t len = data[5] < size - 6 ? data[5] : size - 6;
        const uint8_t *v = data + 6;
        char sql[512];
        snprintf(sql, sizeof sql, "UPDATE \"%s\" SET \"%s\" = ?1 WHERE rowid = (SELECT rowid FROM \"%s\" "
                 "ORDER BY rowid LIMIT 1 OFFSET ?2)", c[0], c[1], c[0]);
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK) {
            int64_t x = 0;
            memcpy(&x, v, len < sizeof x ? len : sizeof x);
            double d;
            memcpy(&d, &x, sizeof d);
            if (kind == 0) sqlite3_bind_blob(q, 1, v, (int)len, SQLITE_TRANSIENT);
            else if (kind == 1) sqlite3_bind_text(q, 1, (const char *)v, (int)len, SQLITE_TRANSIENT);
            else if (kind == 2) sqlite3_bind_int64(q, 1, x);
            else sqlite3_bind_double(q, 1, d);
            sqlite3_bind_int(q, 2, (int)(row % 4096));
            sqlite3_step(q);
            sqlite3_finalize(q);
        }
        data += 6 + len;
        size -= 6 + len;
    }
    write_work(db);
    sqlite3_close(db);
}

static void score_and_report(void)
{
    char err[1024];
    struct store *st = store_open(work, STORE_READ, err, sizeof err);
    if (!st)
        return;
    FILE *null = fopen("/dev/null", "w");
    struct summary s[MAX_RUNS];
    struct verdict v;
    size_t ok = 0;
    for (int64_t run = 1; run <= MAX_RUNS; run++) {
        if (summary_load(st, run, NULL, &s[ok], err, sizeof err) < 0)
            continue;
        if (verdict_evaluate(&s[ok], &v, err, sizeof err) == 0) {
            score_text_print(null, &s[ok], &v);
            for (int f = 0; f < 4; f++)
                export_write(&s[ok], &v, (enum export_format)f, null);
            export_points_csv(&s[ok], null);
            report_write_summary(&s[ok], &v, html, err, sizeof err);
        }
        ok++;
    }
    if (ok)
        compare_write(s, ok, 0, COMPARE_TEXT, null);
    dashboard_write(st, dash, err, sizeof err);
    for (size_t i = 0; i < ok; i++)
        summary_free(&s[i]);
    fclose(null);
    store_close(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ncols) {
        make_template();
        load_template();
    }
    apply_edits(data, size);
    score_and_report();
    return 0;
}
