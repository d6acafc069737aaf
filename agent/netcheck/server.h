/* server.h -- the host-side end of `sessmax-agent netcheck`: a loopback TCP server with a
 * thread per connection that echoes ('P' first byte) or sends bulk data ('B', then a big-endian
 * u32 of milliseconds) for that long, then records the sender's TCP_INFO counters and closes. */
#ifndef SESSMAX_NETCHECK_SERVER_H
#define SESSMAX_NETCHECK_SERVER_H

#include <stdint.h>

struct netcheck_server;

/* Sender-side totals over the bulk connections that ended. */
struct netcheck_bulk_totals {
    uint64_t segs_out, retrans, bytes_acked;
    uint32_t conns;
};

/* Listens on 127.0.0.1 (ephemeral port, *port set). NULL on failure (logged). */
struct netcheck_server *netcheck_server_start(uint16_t *port);
void netcheck_server_totals(struct netcheck_server *s, struct netcheck_bulk_totals *out);
/* Stops accepting, waits for the connection threads (the clients must have closed). */
void netcheck_server_stop(struct netcheck_server *s);

#endif
