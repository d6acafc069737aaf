/* plan_metrics.c -- parses a plan's target.metrics (plan_metrics.h). URLs are split by
 * libevent's URI parser, the one the scraper uses, so what validates is what the run requests. */
#include "controller/run/plan_metrics.h"

#include "common/ydoc.h"
#include "controller/run/plan_pin.h"
#include "controller/run/targetload.h"

#include <event2/http.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_loopback(const char *host)
{
    return !strcmp(host, "localhost") || !strncmp(host, "127.", 4) || !strcmp(host, "::1") || !strcmp(host, "[::1]");
}

/* http(s)://HOST[:PORT][/PATH]; *https set. */
static int check_url(const struct ydoc *doc, const struct ydoc_node *n, const char *url, int *https, int *loopback,
                     char *err, size_t errlen)
{
    struct evhttp_uri *u = evhttp_uri_parse(url);
    const char *scheme = u ? evhttp_uri_get_scheme(u) : NULL, *host = u ? evhttp_uri_get_host(u) : NULL;
    int ok = scheme && host && host[0] && (!strcmp(scheme, "http") || !strcmp(scheme, "https")) &&
             !evhttp_uri_get_userinfo(u) && !evhttp_uri_get_fragment(u);
    if (ok) {
        *https = !strcmp(scheme, "https");
        *loopback = is_loopback(host);
    }
    if (u)
        evhttp_uri_free(u);
    return ok ? 0 : ydoc_error(doc, n, err, errlen, "metrics: '%s' is not an http:// or https:// URL with a host "
                               "(e.g. http://10.0.0.5:9100/metrics)", url);
}

static int str_key(const struct ydoc *doc, const struct ydoc_node *m, const char *key, char **out, char *err,
                   size_t errlen)
{
    const struct ydoc_node *n = ydoc_get(m, key);
    const char *v;
    if (!n)
        return 0;
    if (ydoc_str(doc, n, &v, err, errlen) < 0)
        return -1;
    if (!v[0])
        return ydoc_error(doc, n, err, errlen, "metrics: '%s' must not be empty", key);
    *out = strdup(v);
    return *out ? 0 : ydoc_error(doc, n, err, errlen, "out of memory");
}

static int entry_map(const struct ydoc *doc, const struct ydoc_node *m, const char *dir,
                     struct plan_metrics_endpoint *e, int *verify, char *err, size_t errlen)
{
    static const char *const keys[] = { "url", "prometheus", "instance", "token_file", "fingerprint", "verify",
                                        "interval", "cpus", NULL };
    char *token = NULL;
    const struct ydoc_node *url = ydoc_get(m, "url"), *prom = ydoc_get(m, "prometheus");
    if (ydoc_check_keys(doc, m, keys, "target.metrics", err, errlen) < 0)
        return -1;
    if (!url == !prom)
        return ydoc_error(doc, m, err, errlen, "metrics: give either 'url: EXPORTER-URL' or 'prometheus: "
                          "SERVER-URL' with 'instance: LABEL'");
    if (str_key(doc, m, url ? "url" : "prometheus", &e->url, err, errlen) < 0 ||
        str_key(doc, m, "instance", &e->instance, err, errlen) < 0 ||
        str_key(doc, m, "fingerprint", &e->fingerprint, err, errlen) < 0 ||
        str_key(doc, m, "token_file", &token, err, errlen) < 0 || str_key(doc, m, "cpus", &e->cpus, err, errlen) < 0)
        return -1;
    cpu_set_t set;
    if (e->cpus && targetload_parse_cpus(e->cpus, &set) <= 0)
        return ydoc_error(doc, ydoc_get(m, "cpus"), err, errlen, "metrics: cpus: a CPU list like \"1\" or \"0-2,5\"");
    if (prom && !e->instance)
        return ydoc_error(doc, m, err, errlen, "metrics: a Prometheus server needs 'instance: LABEL', the host's "
                          "instance label there (e.g. \"rds01:9182\")");
    if (url && e->instance)
        return ydoc_error(doc, ydoc_get(m, "instance"), err, errlen,
                          "metrics: 'instance' goes with 'prometheus:', not with an exporter's 'url:'");
    if (token) {
        e->token_file = plan_path_resolve(dir, token);
        free(token);
    }
    const struct ydoc_node *n;
    if ((n = ydoc_get(m, "interval"))) {
        if (ydoc_duration_us(doc, n, &e->interval_us, err, errlen) < 0)
            return -1;
        if (e->interval_us < 1000000 || e->interval_us > 300000000)
            return ydoc_error(doc, n, err, errlen, "metrics: interval must be between 1s and 5m");
    }
    if ((n = ydoc_get(m, "verify")) && ydoc_bool(doc, n, verify, err, errlen) < 0)
        return -1;
    if (e->fingerprint && !*verify)
        return ydoc_error(doc, n, err, errlen, "metrics: give either 'fingerprint' or 'verify: false', not both");
    if (e->fingerprint && plan_fingerprint_check(doc, ydoc_get(m, "fingerprint"), e->fingerprint, err, errlen) < 0)
        return -1;
    return 0;
}

static int entry(const struct ydoc *doc, const struct ydoc_node *n, const char *dir, struct plan_metrics_endpoint *e,
                 char *err, size_t errlen)
{
    const char *v;
    int https = 0, loopback = 0, verify = 1;
    e->interval_us = PLAN_METRICS_INTERVAL_US;
    if (n->kind == YDOC_MAP) {
        if (entry_map(doc, n, dir, e, &verify, err, errlen) < 0)
            return -1;
    } else {
        if (ydoc_str(doc, n, &v, err, errlen) < 0)
            return -1;
        if (!(e->url = strdup(v)))
            return ydoc_error(doc, n, err, errlen, "out of memory");
    }
    e->line = n->line;
    e->col = n->col;
    if (check_url(doc, n, e->url, &https, &loopback, err, errlen) < 0)
        return -1;
    if (!https && e->fingerprint)
        return ydoc_error(doc, n, err, errlen, "metrics: a fingerprint pins an https:// endpoint; '%s' is http", e->url);
    if (https && !e->fingerprint && verify)
        return ydoc_error(doc, n, err, errlen, "metrics: pin the endpoint's certificate with 'fingerprint: "
                          "sha256:...' or say 'verify: false' (%s)", e->url);
    if (!https && e->token_file && !loopback)
        return ydoc_error(doc, n, err, errlen, "metrics: a bearer token goes over https only (plain http to '%s' "
                          "would show it to the network)", e->url);
    return 0;
}

int plan_metrics_parse(const struct ydoc *doc, const struct ydoc_node *n, const char *dir, struct plan_metrics *out,
                       char *err, size_t errlen)
{
    plan_metrics_free(out);
    if (!n)
        return 0;
    if (n->kind != YDOC_SEQ)
        return entry(doc, n, dir, &out->ep[out->n++], err, errlen);
    if (n->n == 0)
        return ydoc_error(doc, n, err, errlen, "metrics: the list is empty (leave the key out for none)");
    if (n->n > PLAN_METRICS_MAX)
        return ydoc_error(doc, n, err, errlen, "metrics: at most %d endpoints", PLAN_METRICS_MAX);
    for (size_t i = 0; i < n->n; i++)
        if (entry(doc, n->items[i], dir, &out->ep[out->n++], err, errlen) < 0)
            return -1;
    return 0;
}

void plan_metrics_free(struct plan_metrics *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->ep[i].url);
        free(m->ep[i].instance);
        free(m->ep[i].token_file);
        free(m->ep[i].fingerprint);
        free(m->ep[i].cpus);
    }
    memset(m, 0, sizeof *m);
}

void plan_metrics_source(const struct plan_metrics_endpoint *e, char *out, size_t outlen)
{
    if (e->instance) {
        snprintf(out, outlen, "%s", e->instance);
        return;
    }
    struct evhttp_uri *u = evhttp_uri_parse(e->url);
    const char *host = u ? evhttp_uri_get_host(u) : NULL;
    int port = u ? evhttp_uri_get_port(u) : -1;
    if (host && port > 0)
        snprintf(out, outlen, "%s:%d", host, port);
    else
        snprintf(out, outlen, "%s", host ? host : e->url);
    if (u)
        evhttp_uri_free(u);
}
