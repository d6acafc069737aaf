/* cmd_demo.h -- the `sessmax demo` verb (cmd_demo.c). */
#ifndef SESSMAX_CMD_DEMO_H
#define SESSMAX_CMD_DEMO_H

#include "controller/cli/cmd.h"

extern const struct cmd cmd_demo;

/* cpu.shares of the group the demo runs simhost in, for a caller of scheduling policy
 * caller_policy (sched_getscheduler): the maximum when the caller is real-time (a quiet-machine
 * measurement: simhost's CPU is kept from other jobs; simhost itself runs as SCHED_OTHER inside
 * the plan's cfs quota), the default otherwise. */
#define DEMO_SHARES_MEASURE 262144u
#define DEMO_SHARES_PLAIN 1024u
unsigned cmd_demo_shares(int caller_policy);

#endif
