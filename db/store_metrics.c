/* store_metrics.c -- the target_metrics table (store_metrics.h): its insert, batched with the
 * writer's other rows, and its reader. */
#include "db/store_metrics.h"
#include "db/store_handle.h"
#include "db/store_write_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define METRIC_COLUMNS "cpu_pct, mem_used_bytes, mem_avail_bytes, disk_read_bps, disk_write_bps, disk_busy_pct," \
                       " net_rx_bps, net_tx_bps, net_pct, sessions"
#define METRIC_COUNT 10

static double *figure(struct store_target_metrics *m, int k)
{
    double *f[METRIC_COUNT] = { &m->cpu_pct, &m->mem_used_bytes, &m->mem_avail_bytes, &m->disk_read_bps,
                                &m->disk_write_bps, &m->disk_busy_pct, &m->net_rx_bps, &m->net_tx_bps,
                                &m->net_pct, &m->sessions };
    return f[k];
}

void store_target_metrics_clear(struct store_target_metrics *m)
{
    memset(m, 0, sizeof *m);
    for (int k = 0; k < METRIC_COUNT; k++)
        *figure(m, k) = NAN;
}

int store_add_target_metrics(struct store *st, int64_t run, const struct store_target_metrics *m)
{
    static const char sql[] = "INSERT INTO target_metrics (run_id, t_us, source, active, " METRIC_COLUMNS ")"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";
    struct store_target_metrics row = *m;
    if (store_batch_begin(st) != 0)
        return -1;
    sqlite3_stmt *s = store_reader(st, sql);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, (int64_t)m->t_us);
    sqlite3_bind_text(s, 3, m->source, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, m->active);
    for (int k = 0; k < METRIC_COUNT; k++) {
        double v = *figure(&row, k);
        if (isfinite(v))
            sqlite3_bind_double(s, 5 + k, v);
        else
            sqlite3_bind_null(s, 5 + k);
    }
    int rc = sqlite3_step(s);
    int ok = rc == SQLITE_DONE ? 0 : store_fail_db(st, "cannot insert a target metrics record");
    store_reader_done(st, s);
    return ok == 0 ? store_batch_add(st) : -1;
}

int store_load_target_metrics(struct store *st, int64_t run, struct store_target_metrics **out, size_t *count)
{
    static const char sql[] = "SELECT t_us, source, active, " METRIC_COLUMNS
                              " FROM target_metrics WHERE run_id = ?1 ORDER BY t_us, rowid";
    size_t n = 0, cap = 0;
    struct store_target_metrics *rows = NULL;
    *out = NULL;
    *count = 0;
    sqlite3_stmt *s = store_reader(st, sql);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            struct store_target_metrics *p = realloc(rows, ncap * sizeof *p);
            if (!p) {
                store_reader_done(st, s);
                free(rows);
                return store_fail(st, "out of memory");
            }
            rows = p;
            cap = ncap;
        }
        struct store_target_metrics *r = &rows[n++];
        store_target_metrics_clear(r);
        int64_t t = sqlite3_column_int64(s, 0);
        r->t_us = t > 0 ? (uint64_t)t : 0;
        const unsigned char *src = sqlite3_column_text(s, 1);
        snprintf(r->source, sizeof r->source, "%s", src ? (const char *)src : "");
        int64_t a = sqlite3_column_int64(s, 2);
        r->active = a > 0 && a < UINT32_MAX ? (uint32_t)a : 0;
        for (int k = 0; k < METRIC_COUNT; k++)
            if (sqlite3_column_type(s, 3 + k) != SQLITE_NULL)
                *figure(r, k) = sqlite3_column_double(s, 3 + k);
    }
    store_reader_done(st, s);
    if (rc != SQLITE_DONE) {
        free(rows);
        return store_fail_db(st, "cannot read target metrics");
    }
    *out = rows;
    *count = n;
    return 0;
}
