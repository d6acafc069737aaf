/* serve.c -- the pages of `sessmax serve DB` (serve.h). */
#include "controller/web/serve.h"

#include <errno.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "common/file_read.h"
#include "controller/report/compare.h"
#include "controller/report/dashboard.h"
#include "controller/report/svg.h"
#include "controller/score/runsel.h"
#include "db/store.h"

#define PAGE_MAX_BYTES (256u << 20)
#define REFRESH_MIN_S 2

struct web_serve {
    char db[4096];
    char dir[64];                /* the private folder the pages are written to */
    struct timespec db_mtime, wal_mtime;
    time_t made;                 /* 0: never */
    char made_err[512];          /* why the dashboard skipped a run or failed, "" none */
};

static struct timespec mtime_of(const char *path)
{
    struct stat st;
    struct timespec zero = { 0, 0 };
    return stat(path, &st) == 0 ? st.st_mtim : zero;
}

static int same_time(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

struct web_serve *web_serve_open(const char *db, int *code)
{
    struct store *st = runsel_open("serve", db, code);   /* it exists and is ours, or it says why */
    if (!st)
        return NULL;
    store_close(st);
    struct web_serve *w = calloc(1, sizeof *w);
    if (!w) {
        fprintf(stderr, "sessmax serve: out of memory\n");
        *code = EX_OSERR;
        return NULL;
    }
    snprintf(w->db, sizeof w->db, "%s", db);
    const char *tmp = getenv("TMPDIR");
    snprintf(w->dir, sizeof w->dir, "%s/sessmax-serve.XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(w->dir)) {
        fprintf(stderr, "sessmax serve: cannot make a folder for the pages in %s: %s\n", w->dir, strerror(errno));
        *code = EX_CANTCREAT;
        free(w);
        return NULL;
    }
    return w;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void web_serve_close(struct web_serve *w)
{
    if (!w)
        return;
    nftw(w->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    free(w);
}

/* Writes the dashboard again when the database (or its WAL) changed since, at most every
 * REFRESH_MIN_S seconds. A run the dashboard could not read is skipped by it (its row says why). */
static int refresh(struct web_serve *w)
{
    char wal[4200];
    snprintf(wal, sizeof wal, "%s-wal", w->db);
    struct timespec m = mtime_of(w->db), mw = mtime_of(wal);
    time_t now = time(NULL);
    if (w->made && ((same_time(m, w->db_mtime) && same_time(mw, w->wal_mtime)) || now - w->made < REFRESH_MIN_S))
        return 0;
    int code = 0;
    struct store *st = runsel_open("serve", w->db, &code);
    if (!st)
        return -1;
    int rc = dashboard_write(st, w->dir, w->made_err, sizeof w->made_err);
    store_close(st);
    if (rc < 0)
        return -1;
    if (rc == 0)
        w->made_err[0] = 0;
    w->db_mtime = m;
    w->wal_mtime = mw;
    w->made = now;
    return 0;
}

/* "/" and "/index.html" -> index.html; "/run-<digits>.html" -> itself; anything else NULL. */
static const char *page_file(const char *path)
{
    if (!strcmp(path, "/") || !strcmp(path, "/index.html"))
        return "index.html";
    const char *p = path + 1;
    size_t digits = strncmp(path, "/run-", 5) == 0 ? strspn(path + 5, "0123456789") : 0;
    if (digits && digits <= 18 && strcmp(path + 5 + digits, ".html") == 0)
        return p;
    return NULL;
}

static int serve_file(struct web_serve *w, const char *name, char **body, size_t *len, const char **type)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s", w->dir, name);
    *body = file_read_all(path, PAGE_MAX_BYTES, len, err, sizeof err);
    *type = "text/html; charset=utf-8";
    return *body ? 200 : 404;
}

/* The run ids of ?run=A&run=B... (each a decimal id); their count, or -1 when one is not. */
static int compare_ids(const struct evkeyvalq *q, int64_t *ids)
{
    int n = 0;
    for (const struct evkeyval *kv = q ? q->tqh_first : NULL; kv; kv = kv->next.tqe_next) {
        if (strcmp(kv->key, "run"))
            continue;
        char *end;
        errno = 0;
        long long v = strtoll(kv->value, &end, 10);
        if (n == WEB_SERVE_MAX_COMPARE || !*kv->value || *end || errno || v <= 0)
            return -1;
        ids[n++] = v;
    }
    return n;
}

static void compare_table(FILE *o, struct store *st, const int64_t *ids, int n)
{
    struct summary s[WEB_SERVE_MAX_COMPARE];
    int loaded = 0, code = 0;
    for (int i = 0; i < n; i++) {
        struct verdict v;
        if (runsel_load("serve", st, ids[i], NULL, 0, &s[loaded], &v, &code) == 0)
            loaded++;
        else
            fprintf(o, "<p>run %" PRId64 ": its data cannot be read (see `sessmax db check`)</p>\n", ids[i]);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *t = open_memstream(&text, &len);
    if (t && loaded)
        compare_write(s, (size_t)loaded, 0, COMPARE_TEXT, t);
    if (t)
        fclose(t);
    fprintf(o, "<pre>");
    svg_escape(o, text ? text : "");
    fprintf(o, "</pre>\n");
    free(text);
    for (int i = 0; i < loaded; i++)
        summary_free(&s[i]);
}

static int serve_compare(struct web_serve *w, const struct evkeyvalq *q, char **body, size_t *len, const char **type)
{
    int64_t ids[WEB_SERVE_MAX_COMPARE];
    int n = compare_ids(q, ids);
    *type = "text/html; charset=utf-8";
    FILE *o = open_memstream(body, len);
    if (!o)
        return 500;
    fprintf(o, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>sessmax compare</title>"
               "<style>body{font:14px system-ui,sans-serif;margin:16px}pre{font:13px monospace}</style></head><body>"
               "<h1>Compare runs</h1><p><a href=\"index.html\">all runs</a></p>\n");
    int code = 200;
    if (n <= 0) {
        fprintf(o, "<p>Name 1 to %d runs: compare?run=3&amp;run=4</p>\n", WEB_SERVE_MAX_COMPARE);
        code = 400;
    } else {
        int c = 0;
        struct store *st = runsel_open("serve", w->db, &c);
        if (st) {
            compare_table(o, st, ids, n);
            store_close(st);
        } else {
            code = 500;
        }
    }
    fprintf(o, "</body></html>\n");
    fclose(o);
    return code;
}

int web_serve_page(void *arg, const char *path, const struct evkeyvalq *query, char **body, size_t *len,
                   const char **content_type)
{
    struct web_serve *w = arg;
    if (!strcmp(path, "/compare"))
        return serve_compare(w, query, body, len, content_type);
    const char *file = page_file(path);
    if (!file)
        return 404;
    if (refresh(w) < 0)
        return 500;
    return serve_file(w, file, body, len, content_type);
}
