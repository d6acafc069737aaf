/* netprofile.h -- network profiles: what link the RDP traffic of a run is shaped to (RTT, jitter,
 * loss, rates, queue), the built-in profiles, and their two encodings: the plan's YAML (a name or
 * a mapping, errors at file:line:col) and a JSON object (the CONFIG message and the results store).
 * Pure data and parsing; the agent's packet shaper (agent/netem*.c) applies a profile. */
#ifndef SESSMAX_NETPROFILE_H
#define SESSMAX_NETPROFILE_H

#include <stddef.h>
#include <stdint.h>

struct ydoc;
struct ydoc_node;

/* struct netprofile, the built-ins and the connection types (netprofile_builtin.h). */
#include "common/netprofile_builtin.h"

/* The plan's `network:` value: a built-in name or a mapping {name, rtt, jitter, loss, rate_down,
 * rate_up, queue, connection}. 0, or -1 with "file:line:col: ..." in err (the message lists the
 * built-ins for an unknown name). */
int netprofile_from_node(const struct ydoc *doc, const struct ydoc_node *n, struct netprofile *out,
                         char *err, size_t errlen);

/* One line for people: "wan-250ms-1pct (rtt 250 ms, jitter 0 ms, loss 1%/dir, down 0 kbit/s ...)". */
void netprofile_describe(const struct netprofile *p, char *buf, size_t len);

/* "20Mbit", "512kbit", "1.5mbit/s", "64000bit" -> bits per second; -1 on bad text. */
int netprofile_parse_rate(const char *text, uint64_t *bps);
/* "1%", "0.5%", "0" -> fraction; -1 on bad text. */
int netprofile_parse_loss(const char *text, double *fraction);

/* The JSON form (CONFIG, the results store, --network) is declared beside it. */
#include "common/netprofile_json.h"

#endif
