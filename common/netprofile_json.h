/* netprofile_json.h -- a network profile as a JSON object: what the controller sends agents in
 * CONFIG and stores with the run, and what `sessmax-agent run --network` accepts. Decoding
 * applies the same limits as the plan's YAML form (netprofile.h), since the text may come from a
 * peer. */
#ifndef SESSMAX_NETPROFILE_JSON_H
#define SESSMAX_NETPROFILE_JSON_H

#include <stddef.h>

struct netprofile;

/* JSON object with every field (name, rtt_ms, jitter_ms, loss_pct, rate_down_kbit, rate_up_kbit,
 * queue, connection). Returns a malloc'd string the caller frees; NULL on out of memory. */
char *netprofile_to_json(const struct netprofile *p);
/* Inverse of netprofile_to_json, with the same checks as the YAML form. 0, or -1 with err. */
int netprofile_from_json(const char *text, struct netprofile *out, char *err, size_t errlen);
/* Command-line form: a built-in name or a JSON object. 0, or -1 with err. */
int netprofile_parse_arg(const char *text, struct netprofile *out, char *err, size_t errlen);

#endif
