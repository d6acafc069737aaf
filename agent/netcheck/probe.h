/* probe.h -- the namespace-side clients of `sessmax-agent netcheck`: echo sessions that
 * time 64-byte pings, and bulk readers. Each probe runs on its own thread, which enters the
 * emulator's namespace first, so its sockets take the emulated link. */
#ifndef SESSMAX_NETCHECK_PROBE_H
#define SESSMAX_NETCHECK_PROBE_H

#include <stddef.h>
#include <stdint.h>

struct netem;

struct netcheck_echo_result {
    uint64_t *rtt_us;            /* one per answered ping (malloc'd, caller frees) */
    size_t count;
    uint32_t sessions_connected;
    double tcp_srtt_ms;          /* mean kernel smoothed RTT of the sessions at the end */
};

/* `sessions` connections to host:port, each sending a ping every interval_ms for seconds.
 * 0, or -1 with err. */
int netcheck_echo(const struct netem *n, const char *host, uint16_t port, unsigned sessions, unsigned interval_ms,
                  double seconds, struct netcheck_echo_result *out, char *err, size_t errlen);

struct netcheck_bulk_result {
    uint64_t bytes;
    double seconds;              /* first connect to last EOF */
    unsigned conns_ok;
};

/* `conns` connections, each asking the server for `seconds` of bulk data and reading it all. */
int netcheck_bulk(const struct netem *n, const char *host, uint16_t port, unsigned conns, double seconds,
                  struct netcheck_bulk_result *out, char *err, size_t errlen);

#endif
