/* netprofile.c -- the plan's YAML form of a network profile, unit parsing and the one-line
 * description (see netprofile.h; the built-ins live in netprofile_builtin.c, JSON in
 * netprofile_json.c). */
#include "common/netprofile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/ydoc.h"

int netprofile_parse_rate(const char *text, uint64_t *bps)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || !isfinite(v) || v < 0 || isspace((unsigned char)*text))
        return -1;
    while (*end == ' ')
        end++;
    double mult;
    if (!strncasecmp(end, "gbit", 4))
        mult = 1e9, end += 4;
    else if (!strncasecmp(end, "mbit", 4))
        mult = 1e6, end += 4;
    else if (!strncasecmp(end, "kbit", 4))
        mult = 1e3, end += 4;
    else if (!strncasecmp(end, "bit", 3))
        mult = 1, end += 3;
    else
        return -1;
    if (!strcmp(end, "/s") || !strcmp(end, "ps"))
        end += 2;
    if (*end || v * mult > 1e12)
        return -1;
    *bps = (uint64_t)llround(v * mult);
    return 0;
}

int netprofile_parse_loss(const char *text, double *fraction)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || !isfinite(v) || isspace((unsigned char)*text))
        return -1;
    if (*end == '%')
        end++;
    else if (v != 0)
        return -1;   /* a bare number is ambiguous (0.01 or 1 %?): only 0 goes without '%' */
    if (*end)
        return -1;
    *fraction = v / 100.0;
    return 0;
}

void netprofile_describe(const struct netprofile *p, char *buf, size_t len)
{
    char down[32] = "unlimited", up[32] = "unlimited";
    if (p->rate_down_bps)
        snprintf(down, sizeof down, "%.0f kbit/s", (double)p->rate_down_bps / 1e3);
    if (p->rate_up_bps)
        snprintf(up, sizeof up, "%.0f kbit/s", (double)p->rate_up_bps / 1e3);
    snprintf(buf, len, "%s (rtt %.1f ms, jitter %.1f ms, loss %g%%/direction, down %s, up %s, queue %u, %s)",
             p->name, p->rtt_us / 1e3, p->jitter_us / 1e3, p->loss * 100, down, up, p->queue_pkts,
             netprofile_conn_name(p->conn));
}

/* ---------------------------------------------------------------- YAML */

struct yctx {
    const struct ydoc *doc;
    char *err;
    size_t errlen;
};

static int bad(struct yctx *c, const struct ydoc_node *at, const char *what, const char *hint)
{
    return ydoc_error(c->doc, at, c->err, c->errlen, "network %s: %s (built-in profiles: %s)", what, hint,
                      netprofile_builtin_list());
}

static int scalar(struct yctx *c, const struct ydoc_node *n, const char *key)
{
    if (n->kind != YDOC_SCALAR)
        return bad(c, n, key, "expected a single value");
    if (n->value[0] == '-')
        return bad(c, n, key, "must not be negative");
    return 0;
}

static int get_duration(struct yctx *c, const struct ydoc_node *map, const char *key, uint32_t *out)
{
    const struct ydoc_node *n = ydoc_get(map, key);
    uint64_t us;
    if (!n)
        return 0;
    if (scalar(c, n, key) < 0)
        return -1;
    if (ydoc_parse_duration_us(n->value, &us) != 0)
        return bad(c, n, key, "expected a duration with a unit (250ms, 1s)");
    if (us > 10000000)
        return bad(c, n, key, "at most 10s");
    *out = (uint32_t)us;
    return 0;
}

static int get_rate(struct yctx *c, const struct ydoc_node *map, const char *key, uint64_t *out)
{
    const struct ydoc_node *n = ydoc_get(map, key);
    if (!n)
        return 0;
    if (scalar(c, n, key) < 0)
        return -1;
    if (netprofile_parse_rate(n->value, out) != 0)
        return bad(c, n, key, "expected a rate with a unit (512kbit, 20Mbit), 0 for unlimited");
    if (*out && *out < 8000)
        return bad(c, n, key, "at least 8kbit (or 0 for unlimited)");
    return 0;
}

static int get_loss(struct yctx *c, const struct ydoc_node *map, double *out)
{
    const struct ydoc_node *n = ydoc_get(map, "loss");
    if (!n)
        return 0;
    if (scalar(c, n, "loss") < 0)
        return -1;
    if (netprofile_parse_loss(n->value, out) != 0)
        return bad(c, n, "loss", "expected a percentage per direction (1%, 0.5%)");
    if (*out >= 0.5)
        return bad(c, n, "loss", "must be below 50%");
    return 0;
}

static int get_queue(struct yctx *c, const struct ydoc_node *map, uint32_t *out)
{
    const struct ydoc_node *n = ydoc_get(map, "queue");
    long long v;
    if (!n)
        return 0;
    if (ydoc_int(c->doc, n, 1, NETPROFILE_QUEUE_MAX, &v, c->err, c->errlen) < 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int from_map(struct yctx *c, const struct ydoc_node *n, struct netprofile *p)
{
    static const char *const keys[] = { "name", "rtt", "jitter", "loss", "rate_down", "rate_up", "queue",
                                        "connection", NULL };
    if (ydoc_check_keys(c->doc, n, keys, "network", c->err, c->errlen) < 0) {
        size_t used = strlen(c->err);
        snprintf(c->err + used, c->errlen - used, " (built-in profiles: %s)", netprofile_builtin_list());
        return -1;
    }
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "custom");
    p->queue_pkts = NETPROFILE_QUEUE_DEFAULT;
    const struct ydoc_node *v = ydoc_get(n, "name");
    const char *s;
    if (v) {
        if (ydoc_str(c->doc, v, &s, c->err, c->errlen) < 0)
            return -1;
        if (!*s || strlen(s) >= sizeof p->name || strpbrk(s, " \t\n\"\\"))
            return bad(c, v, "name", "1 to 47 characters, no spaces or quotes");
        snprintf(p->name, sizeof p->name, "%s", s);
    }
    if (get_duration(c, n, "rtt", &p->rtt_us) < 0 || get_duration(c, n, "jitter", &p->jitter_us) < 0 ||
        get_loss(c, n, &p->loss) < 0 || get_rate(c, n, "rate_down", &p->rate_down_bps) < 0 ||
        get_rate(c, n, "rate_up", &p->rate_up_bps) < 0 || get_queue(c, n, &p->queue_pkts) < 0)
        return -1;
    p->conn = netprofile_conn_derive(p);
    if ((v = ydoc_get(n, "connection"))) {
        if (ydoc_str(c->doc, v, &s, c->err, c->errlen) < 0)
            return -1;
        if (netprofile_conn_parse(s, &p->conn) != 0)
            return bad(c, v, "connection", "one of modem, broadband-low, satellite, broadband-high, wan, lan, "
                                           "autodetect");
    }
    return 0;
}

int netprofile_from_node(const struct ydoc *doc, const struct ydoc_node *n, struct netprofile *out,
                         char *err, size_t errlen)
{
    struct yctx c = { doc, err, errlen };
    if (n && n->kind == YDOC_MAP)
        return from_map(&c, n, out);
    if (!n || n->kind != YDOC_SCALAR)
        return ydoc_error(doc, n, err, errlen, "network: expected a profile name (%s) or a mapping "
                          "{name, rtt, jitter, loss, rate_down, rate_up, queue}", netprofile_builtin_list());
    if (netprofile_builtin(n->value, out) != 0)
        return ydoc_error(doc, n, err, errlen, "unknown network profile '%s' (built-in: %s; or a mapping "
                          "{name, rtt, jitter, loss, rate_down, rate_up, queue})", n->value, netprofile_builtin_list());
    return 0;
}
