/* serve.h -- `sessmax serve DB`: the finished runs of a results database in the browser, through
 * the same bounded server as the live view (server.h). "/" is the dashboard (every run, smax and
 * baseline over dates per cell, regressions marked), "/run-ID.html" a run's report, and
 * "/compare?run=A&run=B..." (up to 5) the side-by-side table. Pages are the files `sessmax
 * dashboard` writes, made again in a private folder when the database changed, so what the
 * browser shows is what the static dashboard would. */
#ifndef SESSMAX_WEB_SERVE_H
#define SESSMAX_WEB_SERVE_H

#include <stddef.h>

#define WEB_SERVE_MAX_COMPARE 5

struct web_serve;
struct evkeyvalq;

/* Checks `db` is a readable results database and makes a private folder for the pages; NULL
 * after one line on stderr, with *code the exit code (65 not a database, 66 missing, 73 no
 * folder). */
struct web_serve *web_serve_open(const char *db, int *code);
void web_serve_close(struct web_serve *w);
/* A web_page_fn (server.h) whose arg is the struct web_serve. */
int web_serve_page(void *arg, const char *path, const struct evkeyvalq *query, char **body, size_t *len,
                   const char **content_type);

#endif
