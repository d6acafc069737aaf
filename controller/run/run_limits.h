/* run_limits.h -- the limits of one run that several parts of run/ must agree on (the plan checks
 * them, the agent pool and the session ledger size their tables by them). */
#ifndef SESSMAX_RUN_LIMITS_H
#define SESSMAX_RUN_LIMITS_H

#include "common/proto.h"

#define RUN_MAX_AGENTS 256          /* agents in one run (agents.local / agents.expect) */
#define RUN_MAX_AGENT_CAPACITY 100000   /* agents.capacity: sessions one agent may host */
#define RUN_TOKEN_MIN_LEN PROTO_TOKEN_MIN_LEN       /* shared token for remote agents (SESSMAX_TOKEN) */
#define RUN_TOKEN_MAX_LEN PROTO_TOKEN_MAX_LEN

#endif
