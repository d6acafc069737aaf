/* netprofile_json.c -- a network profile as a JSON object: what the controller sends agents in
 * CONFIG and stores with the run, and what `sessmax-agent run --network` accepts. Decoding applies
 * the same limits as the plan's YAML form, since the text may come from a peer. */
#include "common/netprofile_json.h"
#include "common/netprofile_builtin.h"
#include "common/log.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

char *netprofile_to_json(const struct netprofile *p)
{
    json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:I, s:s}", "name", p->name, "rtt_ms", p->rtt_us / 1e3,
                          "jitter_ms", p->jitter_us / 1e3, "loss_pct", p->loss * 100,
                          "rate_down_kbit", (double)p->rate_down_bps / 1e3, "rate_up_kbit",
                          (double)p->rate_up_bps / 1e3, "queue", (json_int_t)p->queue_pkts, "connection",
                          netprofile_conn_name(p->conn));
    if (!o)
        return NULL;
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    return s;
}

static int num(json_t *o, const char *key, double min, double max, double *out, char *err, size_t errlen)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        snprintf(err, errlen, "network profile: '%s' is missing", key);
        return -1;
    }
    if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < min ||
        json_number_value(v) > max) {
        snprintf(err, errlen, "network profile: '%s' must be a number in [%g, %g]", key, min, max);
        return -1;
    }
    *out = json_number_value(v);
    return 0;
}

static int fill(json_t *o, struct netprofile *p, char *err, size_t errlen)
{
    static const char *const keys[] = { "name", "rtt_ms", "jitter_ms", "loss_pct", "rate_down_kbit",
                                        "rate_up_kbit", "queue", "connection" };
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        size_t i = 0;
        while (i < sizeof keys / sizeof keys[0] && strcmp(keys[i], k))
            i++;
        if (i == sizeof keys / sizeof keys[0])   /* a key may hold any character: one line, whatever it says */
            return log_escapef(err, errlen, "network profile: unknown key '%.40s'", k);
    }
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *conn = json_string_value(json_object_get(o, "connection"));
    if (!name || !*name || strlen(name) >= sizeof p->name || !conn || netprofile_conn_parse(conn, &p->conn)) {
        snprintf(err, errlen, "network profile: 'name' and 'connection' must be short known strings");
        return -1;
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    double rtt, jit, loss, down, up, queue;
    if (num(o, "rtt_ms", 0, 10000, &rtt, err, errlen) || num(o, "jitter_ms", 0, 10000, &jit, err, errlen) ||
        num(o, "loss_pct", 0, 49.999999, &loss, err, errlen) || num(o, "rate_down_kbit", 0, 1e9, &down, err, errlen) ||
        num(o, "rate_up_kbit", 0, 1e9, &up, err, errlen) || num(o, "queue", 1, NETPROFILE_QUEUE_MAX, &queue, err, errlen))
        return -1;
    p->rtt_us = (uint32_t)llround(rtt * 1e3);
    p->jitter_us = (uint32_t)llround(jit * 1e3);
    p->loss = loss / 100;
    p->rate_down_bps = (uint64_t)llround(down * 1e3);
    p->rate_up_bps = (uint64_t)llround(up * 1e3);
    p->queue_pkts = (uint32_t)queue;
    return 0;
}

int netprofile_from_json(const char *text, struct netprofile *out, char *err, size_t errlen)
{
    json_error_t je;
    json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        return log_escapef(err, errlen, "network profile: %s", o ? "expected a JSON object" : je.text);
    }
    struct netprofile p;
    memset(&p, 0, sizeof p);
    int rc = fill(o, &p, err, errlen);
    json_decref(o);
    if (rc == 0)
        *out = p;
    return rc;
}

int netprofile_parse_arg(const char *text, struct netprofile *out, char *err, size_t errlen)
{
    if (text[0] == '{')
        return netprofile_from_json(text, out, err, errlen);
    if (netprofile_builtin(text, out) == 0)
        return 0;
    return log_escapef(err, errlen, "unknown network profile '%.63s' (built-in: %s; or a JSON object)", text,
                       netprofile_builtin_list());
}
