/* agentgate.c -- who gives way among connections still authenticating (agentgate.h). */
#include "controller/run/agentgate.h"

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

void agentgate_init(struct agentgate *g, size_t per_address)
{
    memset(g, 0, sizeof *g);
    g->per_address = per_address;
}

static ssize_t find(const struct agentgate *g, const void *conn)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->e[i].conn == conn)
            return (ssize_t)i;
    return -1;
}

/* The oldest connection not kept, from addr (NULL: from anywhere); its index or -1. */
static ssize_t oldest(const struct agentgate *g, const char *addr)
{
    ssize_t best = -1;
    for (size_t i = 0; i < g->n; i++) {
        const struct agentgate_entry *e = &g->e[i];
        if (e->kept || (addr && strcmp(e->addr, addr) != 0))
            continue;
        if (best < 0 || e->born_us < g->e[best].born_us)
            best = (ssize_t)i;
    }
    return best;
}

void *agentgate_victim(const struct agentgate *g, const char *addr)
{
    if (g->per_address) {
        size_t same = 0;
        for (size_t i = 0; i < g->n; i++)
            same += !g->e[i].kept && strcmp(g->e[i].addr, addr) == 0;
        if (same >= g->per_address)
            return g->e[oldest(g, addr)].conn;
    }
    if (agentgate_unkept(g) >= AGENTGATE_MAX_PENDING)
        return g->e[oldest(g, NULL)].conn;
    return NULL;
}

int agentgate_add(struct agentgate *g, void *conn, const char *addr, uint64_t born_us)
{
    if (agentgate_unkept(g) >= AGENTGATE_MAX_PENDING || g->n >= sizeof g->e / sizeof g->e[0])
        return -1;
    struct agentgate_entry *e = &g->e[g->n++];
    e->conn = conn;
    e->born_us = born_us;
    e->kept = 0;
    snprintf(e->addr, sizeof e->addr, "%s", addr);
    return 0;
}

void agentgate_remove(struct agentgate *g, void *conn)
{
    ssize_t i = find(g, conn);
    if (i < 0)
        return;
    g->nkept -= g->e[i].kept;
    g->e[i] = g->e[--g->n];
}

int agentgate_keep(struct agentgate *g, void *conn)
{
    ssize_t i = find(g, conn);
    if (i < 0)
        return -1;
    if (g->e[i].kept)
        return 0;
    if (g->nkept >= AGENTGATE_MAX_KEPT)
        return -1;
    g->e[i].kept = 1;
    g->nkept++;
    return 0;
}

size_t agentgate_count(const struct agentgate *g) { return g->n; }
size_t agentgate_unkept(const struct agentgate *g) { return g->n - g->nkept; }
void *agentgate_at(const struct agentgate *g, size_t i) { return i < g->n ? g->e[i].conn : NULL; }
