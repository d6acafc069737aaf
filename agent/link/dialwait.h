/* dialwait.h -- how long and how often a starting agent tries to reach a controller that is not
 * listening yet (`sessmax-agent connect --controller-wait D`): exponential backoff from 0.5 s,
 * doubling up to 5 s, until a deadline; at most one log line every few seconds.
 *
 * Pure arithmetic on monotonic microseconds (the caller passes the clock and a random number), so
 * the schedule is tested without sleeping. Only the first link is covered: once a controller has
 * welcomed the agent, a broken link is the controller's grace period's business (link.c). */
#ifndef SESSMAX_DIALWAIT_H
#define SESSMAX_DIALWAIT_H

#include <stdint.h>

#define DIALWAIT_FIRST_MS 500
#define DIALWAIT_MAX_MS 5000
#define DIALWAIT_LOG_EVERY_US 5000000ull

struct dialwait {
    uint64_t deadline_us;          /* no attempt starts after this */
    uint64_t last_log_us;          /* when dialwait_should_log last said yes */
    int logged;                    /* it said yes before */
    uint32_t step_ms;              /* the next delay before jitter */
    unsigned failures;             /* attempts that failed so far */
};

/* Starts the schedule at now_us for a wait of wait_us (0: a single attempt, no retry). */
void dialwait_init(struct dialwait *d, uint64_t now_us, uint64_t wait_us);
/* After a failed attempt: the delay in ms before the next one (the step, -10 %..+10 % by `rnd`,
 * cut to end at the deadline), or -1 when the deadline has passed and the agent should give up. */
int64_t dialwait_next_ms(struct dialwait *d, uint64_t now_us, uint32_t rnd);
/* 1 when a failed attempt should be logged now (the first, then at most every
 * DIALWAIT_LOG_EVERY_US), else 0. */
int dialwait_should_log(struct dialwait *d, uint64_t now_us);

#endif
