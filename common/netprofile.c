/* netprofile.c -- built-in network profiles, the plan's YAML form and unit parsing (see
 * netprofile.h; JSON lives in netprofile_json.c). docs/network.md says where each built-in
 * number comes from: keep the two in step. */
#include "common/netprofile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/ydoc.h"

#define MS 1000u
#define KBIT 1000ull
#define MBIT 1000000ull

static const struct netprofile BUILTINS[] = {
    { "lan", 0, 0, 0.0, 0, 0, NETPROFILE_QUEUE_DEFAULT, NETPROFILE_CONN_LAN },
    { "wan-50ms", 50 * MS, 0, 0.0, 0, 0, NETPROFILE_QUEUE_DEFAULT, NETPROFILE_CONN_WAN },
    { "wan-100ms", 100 * MS, 0, 0.0, 0, 0, NETPROFILE_QUEUE_DEFAULT, NETPROFILE_CONN_WAN },
    { "wan-250ms-1pct", 250 * MS, 0, 0.01, 0, 0, NETPROFILE_QUEUE_DEFAULT, NETPROFILE_CONN_WAN },
    { "broadband-20mbit", 20 * MS, 2 * MS, 0.0, 20 * MBIT, 5 * MBIT, 100, NETPROFILE_CONN_BROADBAND_HIGH },
    { "mobile-3g", 150 * MS, 10 * MS, 0.0, 1600 * KBIT, 750 * KBIT, 100, NETPROFILE_CONN_BROADBAND_LOW },
    { "satellite-600ms", 600 * MS, 10 * MS, 0.0, 25 * MBIT, 3 * MBIT, 1000, NETPROFILE_CONN_SATELLITE },
};
#define NBUILTIN (sizeof BUILTINS / sizeof BUILTINS[0])

static const char *const CONN_NAMES[] = { "?", "modem", "broadband-low", "satellite", "broadband-high",
                                          "wan", "lan", "autodetect" };

void netprofile_lan(struct netprofile *p)
{
    *p = BUILTINS[0];
}

int netprofile_builtin(const char *name, struct netprofile *out)
{
    for (size_t i = 0; i < NBUILTIN; i++)
        if (!strcmp(BUILTINS[i].name, name)) {
            *out = BUILTINS[i];
            return 0;
        }
    return -1;
}

const struct netprofile *netprofile_builtin_at(size_t i)
{
    return i < NBUILTIN ? &BUILTINS[i] : NULL;
}

const char *netprofile_builtin_list(void)
{
    static char list[256];
    if (!list[0]) {
        size_t off = 0;
        for (size_t i = 0; i < NBUILTIN && off < sizeof list; i++)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", i ? ", " : "", BUILTINS[i].name);
    }
    return list;
}

int netprofile_is_shaped(const struct netprofile *p)
{
    return p->rtt_us || p->jitter_us || p->loss > 0 || p->rate_down_bps || p->rate_up_bps;
}

const char *netprofile_conn_name(enum netprofile_conn c)
{
    return c >= NETPROFILE_CONN_MODEM && c <= NETPROFILE_CONN_AUTODETECT ? CONN_NAMES[c] : "?";
}

int netprofile_conn_parse(const char *name, enum netprofile_conn *out)
{
    for (int i = NETPROFILE_CONN_MODEM; i <= NETPROFILE_CONN_AUTODETECT; i++)
        if (!strcmp(CONN_NAMES[i], name)) {
            *out = (enum netprofile_conn)i;
            return 0;
        }
    return -1;
}

enum netprofile_conn netprofile_conn_derive(const struct netprofile *p)
{
    uint64_t r = p->rate_down_bps;
    if (r && r <= 256 * KBIT)
        return NETPROFILE_CONN_MODEM;
    if (r && r < 2 * MBIT)
        return NETPROFILE_CONN_BROADBAND_LOW;
    if (p->rtt_us >= 500 * MS)
        return NETPROFILE_CONN_SATELLITE;
    if (r && r < 10 * MBIT)
        return NETPROFILE_CONN_BROADBAND_HIGH;
    return p->rtt_us >= 20 * MS ? NETPROFILE_CONN_WAN : NETPROFILE_CONN_LAN;
}

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
