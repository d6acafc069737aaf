/* store_samples.c -- reading a run's samples (store_read.h): its sample_chunks rows in id order
 * (the order they were stored), decoded a chunk at a time and handed to a callback, or gathered
 * into one array and put in (t_us, insertion) order by a stable merge of the already ordered
 * stretches (samples arrive nearly in time order; common/runmerge.h). */
#include "db/store_samples.h"
#include "db/store_chunk.h"
#include "db/store_handle.h"
#include "db/store_write_int.h"
#include "common/prefault.h"
#include "common/runmerge.h"

#include <stdlib.h>
#include <string.h>

/* Maps the file's timer-name ids to dense indexes into out->names, loading each name once. */
struct name_map {
    int *local;                /* indexed by the file's id; -1 = not seen yet */
    size_t cap;
    sqlite3_stmt *find;
};

static int name_local(struct store *st, struct name_map *m, struct store_samples *out, int64_t id)
{
    if (id < 0 || id > 1000000)
        return store_fail(st, "corrupt sample: timer name id %lld", (long long)id);
    if ((size_t)id >= m->cap) {
        size_t ncap = (size_t)id * 2 + 16;
        int *p = realloc(m->local, ncap * sizeof *p);
        if (!p)
            return store_fail(st, "out of memory");
        for (size_t i = m->cap; i < ncap; i++)
            p[i] = -1;
        m->local = p;
        m->cap = ncap;
    }
    if (m->local[id] >= 0)
        return m->local[id];
    char **names = realloc(out->names, (out->name_count + 1) * sizeof *names);
    if (!names)
        return store_fail(st, "out of memory");
    out->names = names;
    sqlite3_bind_int64(m->find, 1, id);
    const unsigned char *t = sqlite3_step(m->find) == SQLITE_ROW ? sqlite3_column_text(m->find, 0) : NULL;
    char *name = t ? strdup((const char *)t) : NULL;
    sqlite3_reset(m->find);
    if (!name)
        return t ? store_fail(st, "out of memory")
                 : store_fail(st, "corrupt sample: no timer name with id %lld", (long long)id);
    out->names[out->name_count] = name;
    return m->local[id] = (int)out->name_count++;
}

/* Room for the run's samples, counted first; a writer committing meanwhile only makes it grow. */
static int room(struct store *st, struct store_samples *out, size_t need, size_t *cap)
{
    if (need <= *cap)
        return 0;
    size_t ncap = need > *cap * 2 ? need : *cap * 2;
    struct store_sample_row *p = realloc(out->rows, ncap * sizeof *p);
    if (!p)
        return store_fail(st, "out of memory");
    out->rows = p;
    *cap = ncap;
    prefault(p, ncap * sizeof *p);
    return 0;
}

static int64_t count_samples(struct store *st, int64_t run)
{
    int64_t n = -1;
    sqlite3_stmt *s = store_reader(st, "SELECT coalesce(sum(CASE WHEN n BETWEEN 1 AND 1024 THEN n ELSE 0 END), 0)"
                                       " FROM sample_chunks WHERE run_id = ?1");
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    store_reader_done(st, s);
    return n < 0 ? store_fail_db(st, "cannot count samples") : n;
}

/* Decodes the chunk row `s` is on into rows[] (room for STORE_CHUNK_MAX); its count, or -1. */
static int decode_chunk(struct store *st, sqlite3_stmt *s, struct name_map *m, struct store_samples *names,
                        struct store_sample_row *rows)
{
    struct store_chunk_view v;
    store_chunk_view_read(&v, s, 1);
    const char *why;
    long long id = sqlite3_column_int64(s, 0);
    if (store_chunk_check(&v, &why) != 0)
        return store_fail(st, "corrupt sample chunk %lld: %s", id, why);
    for (size_t k = 0; k < (size_t)v.n; k++) {
        struct store_chunk_rec r;
        if (store_chunk_decode(&v, k, &r) != 0)
            return store_fail(st, "corrupt sample chunk %lld: record %zu is not decimal", id, k + 1);
        struct store_sample_row *row = &rows[k];
        row->session = (uint32_t)r.f[CHUNK_SESSION];
        row->loop = (uint32_t)r.f[CHUNK_LOOP];
        row->active = (uint32_t)r.f[CHUNK_ACTIVE];
        row->ok = (uint8_t)r.f[CHUNK_OK];
        row->is_measure = (uint8_t)r.f[CHUNK_MEASURE];
        row->t_us = (uint64_t)r.f[CHUNK_T];
        row->value_us = r.f[CHUNK_VALUE];
        row->agent_us = r.f[CHUNK_AGENT];
        int64_t name = r.f[CHUNK_NAME];   /* a name already met: no call */
        row->name_id = name >= 0 && (uint64_t)name < m->cap && m->local[name] >= 0 ? m->local[name]
                                                                                    : name_local(st, m, names, name);
        if (row->name_id < 0)
            return -1;
    }
    return (int)v.n;
}

/* t_us as SQLite orders integers (runmerge_sort keeps insertion order on ties). */
static int before(const void *a, const void *b)
{
    return (int64_t)((const struct store_sample_row *)a)->t_us < (int64_t)((const struct store_sample_row *)b)->t_us;
}

int store_scan_samples(struct store *st, int64_t run, store_sample_fn fn, void *ctx, struct store_samples *names)
{
    sqlite3_stmt *s = NULL;
    struct name_map m = { 0 };
    struct store_sample_row *rows = malloc(STORE_CHUNK_MAX * sizeof *rows);
    int rc = -1, step = SQLITE_DONE;
    memset(names, 0, sizeof *names);
    int64_t total = st->mode == STORE_WRITE && store_chunk_flush(st) != 0 ? -1 : count_samples(st, run);
    if (!rows) {
        store_fail(st, "out of memory");
        goto done;
    }
    if (total < 0 ||
        !(s = store_reader(st, "SELECT id, n, t_min, w_session, w_loop, w_t, w_name, w_value, w_ok, w_measure,"
                               " w_active, w_agent, data FROM sample_chunks WHERE run_id = ?1 ORDER BY id")) ||
        !(m.find = store_reader(st, "SELECT name FROM timer_names WHERE id = ?1")))
        goto done;
    sqlite3_bind_int64(s, 1, run);
    while ((step = sqlite3_step(s)) == SQLITE_ROW) {
        int n = decode_chunk(st, s, &m, names, rows);
        if (n < 0 || (rc = fn(ctx, rows, (size_t)n, (size_t)total, names)) != 0)
            goto done;
        rc = -1;
    }
    if (step != SQLITE_DONE)
        store_fail_db(st, "cannot read samples");
    else
        rc = 0;
done:
    store_reader_done(st, s);
    store_reader_done(st, m.find);
    free(m.local);
    free(rows);
    if (rc != 0)
        store_free_samples(names);
    return rc;
}

struct load { struct store *st; struct store_samples *out; size_t cap; };

static int append(void *ctx, const struct store_sample_row *rows, size_t n, size_t expect,
                  const struct store_samples *names)
{
    struct load *l = ctx;
    (void)names;
    if (room(l->st, l->out, l->out->count + n > expect ? l->out->count + n : expect, &l->cap) != 0)
        return -1;
    memcpy(l->out->rows + l->out->count, rows, n * sizeof *rows);
    l->out->count += n;
    return 0;
}

int store_load_samples(struct store *st, int64_t run, struct store_samples *out)
{
    struct store_samples names;
    struct load l = { st, out, 0 };
    memset(out, 0, sizeof *out);
    int rc = store_scan_samples(st, run, append, &l, &names);
    out->names = names.names;
    out->name_count = names.name_count;
    if (rc == 0 && runmerge_sort((void **)&out->rows, out->count, sizeof *out->rows, before) < 0)
        rc = store_fail(st, "out of memory");
    if (rc != 0) {
        store_free_samples(out);
        return -1;
    }
    return 0;
}

void store_free_samples(struct store_samples *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->name_count; i++)
        free(s->names[i]);
    free(s->names);
    free(s->rows);
    memset(s, 0, sizeof *s);
}
