/* netprofile_builtin.c -- the built-in network profiles and the RDP connection types (see
 * netprofile_builtin.h). docs/network.md says where each built-in number comes from: keep the two
 * in step. */
#include "common/netprofile_builtin.h"

#include <stdio.h>
#include <string.h>

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
