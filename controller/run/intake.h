/* intake.h -- what the agents send during a run: an agent ready, batches of records (samples,
 * session events, traffic, health), an agent done or lost. Each record goes to the store (and
 * the session ledger and live score); an agent may only report sessions it was given. */
#ifndef SESSMAX_INTAKE_H
#define SESSMAX_INTAKE_H

#include "controller/run/agentpool.h"

struct runner;
struct ledger;

/* Why a record from agent `slot` is refused, or NULL when it is accepted: a session the agent
 * was not given, or a sample whose name is not a safe name (common/names.h). */
const char *intake_refusal(const struct ledger *l, int slot, const struct proto_record *rec);

/* The pool's callbacks, bound to `r`. */
struct agentpool_events intake_events(struct runner *r);

#endif
