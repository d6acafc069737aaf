/* dialwait.c -- the backoff schedule of an agent waiting for its controller (dialwait.h). */
#include "agent/link/dialwait.h"

void dialwait_init(struct dialwait *d, uint64_t now_us, uint64_t wait_us)
{
    d->deadline_us = now_us + wait_us;
    d->last_log_us = 0;
    d->logged = 0;
    d->step_ms = DIALWAIT_FIRST_MS;
    d->failures = 0;
}

int64_t dialwait_next_ms(struct dialwait *d, uint64_t now_us, uint32_t rnd)
{
    d->failures++;
    if (now_us + 1000 > d->deadline_us)
        return -1;                                          /* under a millisecond left: over */
    uint64_t step = d->step_ms, spread = step / 5;          /* +-10 %: agents started together spread out */
    uint64_t ms = step - spread / 2 + (spread ? rnd % (spread + 1) : 0);
    uint64_t left_ms = (d->deadline_us - now_us) / 1000;
    if (ms > left_ms)
        ms = left_ms;                                       /* one last attempt at the deadline */
    d->step_ms = d->step_ms * 2 > DIALWAIT_MAX_MS ? DIALWAIT_MAX_MS : d->step_ms * 2;
    return (int64_t)ms;
}

int dialwait_should_log(struct dialwait *d, uint64_t now_us)
{
    if (d->logged && now_us - d->last_log_us < DIALWAIT_LOG_EVERY_US)
        return 0;
    d->last_log_us = now_us;
    d->logged = 1;
    return 1;
}
