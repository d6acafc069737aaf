/* plan_metrics.h -- a plan's `target.metrics:` (docs/plan-reference.md): where the controller
 * scrapes the target's resources during the run (controller/run/scrape.h). Each endpoint is an
 * exporter's URL (node_exporter, windows_exporter) or a Prometheus server's with the host's
 * `instance` label; https endpoints are pinned by certificate fingerprint (or `verify: false`), a
 * bearer token is read at run time from an owner-only file. A bare string is an exporter URL. */
#ifndef SESSMAX_PLAN_METRICS_H
#define SESSMAX_PLAN_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct ydoc;
struct ydoc_node;

#define PLAN_METRICS_MAX 8
#define PLAN_METRICS_INTERVAL_US 5000000ull   /* default scrape interval */

struct plan_metrics_endpoint {
    char *url;                     /* http(s)://HOST[:PORT][/PATH]: the exporter, or the Prometheus server */
    char *instance;                /* Prometheus: the host's instance label; NULL: url is an exporter */
    char *token_file;              /* bearer token file (resolved relative to the plan); NULL: none */
    char *fingerprint;             /* https: the pinned certificate ("sha256:..."); NULL: verify false or http */
    uint64_t interval_us;          /* scrape every; default PLAN_METRICS_INTERVAL_US */
    char *cpus;                    /* CPU busy over these CPUs only ("1", "0-3"): a target pinned to
                                    * part of the host; NULL: every CPU */
    int line, col;                 /* of the entry, for run-time messages */
};

struct plan_metrics {
    struct plan_metrics_endpoint ep[PLAN_METRICS_MAX];
    size_t n;
};

/* Parses `n` (a URL, a map, or a list of either) into *out; `dir` anchors a relative token_file.
 * 0, or -1 with err "file:line:col: ...". */
int plan_metrics_parse(const struct ydoc *doc, const struct ydoc_node *n, const char *dir, struct plan_metrics *out,
                       char *err, size_t errlen);
void plan_metrics_free(struct plan_metrics *m);

/* The endpoint's short name in messages and the stored rows: the instance label, else
 * "HOST:PORT" of its URL. */
void plan_metrics_source(const struct plan_metrics_endpoint *e, char *out, size_t outlen);

#endif
