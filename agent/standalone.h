/* standalone.h -- `sessmax-agent run` and `sessmax-agent shot`: the engine without a controller,
 * for diagnosis and for writing workloads. Each returns the process exit code:
 * 0 all went well, 1 some session or sample failed, 64 usage error, 65 bad input (workload,
 * missing SESSMAX_PASSWORD), 70 internal error. argv[0] is the command name. */
#ifndef SESSMAX_STANDALONE_H
#define SESSMAX_STANDALONE_H

#include <stdint.h>
#include <stddef.h>

int standalone_run(int argc, char **argv);
int standalone_shot(int argc, char **argv);

/* "60s", "500ms", "2m", "1h", or plain seconds -> ms. -1 on bad text. */
int64_t standalone_parse_duration_ms(const char *text);
/* Expands "{n}" / "{n:03}" in pattern with n (1-based) into out. -1 on a bad pattern. */
int standalone_expand_user(const char *pattern, unsigned n, char *out, size_t outlen);

#endif
