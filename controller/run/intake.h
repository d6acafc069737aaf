/* intake.h -- what the agents send during a run: an agent ready, batches of records (samples,
 * session events, traffic, health), an agent done or lost. Each record goes to the store (and
 * the session ledger and live score); an agent may only report sessions it was given. */
#ifndef SESSMAX_INTAKE_H
#define SESSMAX_INTAKE_H

#include "controller/run/agentpool.h"

struct runner;

/* The pool's callbacks, bound to `r`. */
struct agentpool_events intake_events(struct runner *r);

#endif
