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

#endif
