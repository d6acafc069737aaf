/* agentgate.h -- the agent listener's connections that have not authenticated yet, and which of
 * them gives way when another arrives, so that a flood of connections that never authenticate
 * cannot lock a real agent out.
 *
 * At most AGENTGATE_MAX_PENDING such connections are open, at most `per_address` of them from one
 * address (0: no such cap). A newcomer is always let in: when its address or the whole table is at
 * its cap, the oldest connection of that address (or of all) is closed for it, as simhost does
 * with pending handshakes. A connection that is `kept` (it proved the token, or its HELLO showed
 * the resume ticket of an agent of this run) never gives way; at most AGENTGATE_MAX_KEPT are kept.
 * Pure bookkeeping: the caller closes the connection it is told to. */
#ifndef SESSMAX_AGENTGATE_H
#define SESSMAX_AGENTGATE_H

#include <stddef.h>
#include <stdint.h>

#include "controller/run/run_limits.h"

#define AGENTGATE_MAX_PENDING 256
#define AGENTGATE_PER_ADDRESS 64
#define AGENTGATE_MAX_KEPT RUN_MAX_AGENTS
#define AGENTGATE_ADDR_LEN 64

struct agentgate_entry {
    void *conn;
    uint64_t born_us;
    char addr[AGENTGATE_ADDR_LEN];   /* the source address without its port */
    int kept;
};

struct agentgate {
    struct agentgate_entry e[AGENTGATE_MAX_PENDING + AGENTGATE_MAX_KEPT];
    size_t n, nkept;
    size_t per_address;
};

/* An empty gate; per_address 0: no cap by address. */
void agentgate_init(struct agentgate *g, size_t per_address);
/* The connection that must be closed before a newcomer from `addr` is added, or NULL. Call
 * agentgate_remove on it (closing it) and ask again until NULL; then agentgate_add. */
void *agentgate_victim(const struct agentgate *g, const char *addr);
/* Adds conn (not kept). 0, or -1 if the table is full (cannot happen after agentgate_victim
 * returned NULL). */
int agentgate_add(struct agentgate *g, void *conn, const char *addr, uint64_t born_us);
/* Removes conn if it is there. */
void agentgate_remove(struct agentgate *g, void *conn);
/* conn never gives way from now on. 0, or -1 (not there, or AGENTGATE_MAX_KEPT are kept already:
 * it stays as it was). Idempotent. */
int agentgate_keep(struct agentgate *g, void *conn);
/* Connections in the table; of them, not kept. */
size_t agentgate_count(const struct agentgate *g);
size_t agentgate_unkept(const struct agentgate *g);
/* The connection at index i (0..count-1), for closing them all. */
void *agentgate_at(const struct agentgate *g, size_t i);

#endif
