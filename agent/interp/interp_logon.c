/* interp_logon.c -- the interpreter's logon phase (contract: interp_logon.h): the wait for the
 * workload's logon condition from the connect's start t0, its deadline, and the repaint requests.
 * ev_quiet asks the driver for a repaint when the watched region saw no paint for the logon's
 * `repaint_after` (at most LOGON_REPAINTS_MAX times), as a real client does when its window
 * shows again; a `stable` condition being watched wants the quiet, so it is left alone. */
#include "agent/interp/interp_logon.h"

#include <event2/event.h>

#include "agent/interp/cond.h"
#include "agent/interp/state.h"
#include "common/clock.h"
#include "common/workload.h"

/* Logon: no paint touched the watched region for `repaint_after`: ask for a repaint (bounded). */
static void quiet_cb(evutil_socket_t fd, short what, void *arg)
{
    struct interp *in = arg;
    (void)fd;
    (void)what;
    uint64_t now = clock_now_us(), after = in->wl->logon.repaint_after_us;
    if (in->phase != PH_LOGON || in->logon_met || !in->cs_active[CS_WAIT])
        return;
    const struct cond_state *c = &in->cs[CS_WAIT];
    int quiet = now - in->logon_paint_us >= after && c->wait->conds[c->idx].kind != WORKLOAD_COND_STABLE;
    if (quiet && in->repaints < LOGON_REPAINTS_MAX) {
        if (in->host.ops->refresh(in->host.sess) == 0)
            in->repaints++;
        in->logon_paint_us = now;
    }
    if (in->repaints < LOGON_REPAINTS_MAX)
        interp_arm(in->ev_quiet, in->logon_paint_us + after > now ? in->logon_paint_us + after - now : after);
}

struct event *interp_logon_new_quiet(struct interp *in)
{
    return evtimer_new(in->host.base, quiet_cb, in);
}

int interp_logon_begin(struct interp *in, uint64_t t0_us)
{
    struct screen_view buf;
    uint64_t now = clock_now_us();
    in->t0_us = t0_us;
    in->phase = PH_LOGON;
    if (cond_begin(&in->cs[CS_WAIT], &in->wl->logon, interp_view(in, &buf), now))
        return 1;
    in->cs_active[CS_WAIT] = 1;
    uint64_t deadline = t0_us + in->wl->logon.timeout_us;
    interp_arm(in->ev_timeout, deadline > now ? deadline - now : 0);
    in->logon_paint_us = now;
    if (in->wl->logon.repaint_after_us && in->host.ops->refresh)
        interp_arm(in->ev_quiet, in->wl->logon.repaint_after_us);
    return 0;
}

void interp_logon_met(struct interp *in)
{
    in->cs_active[CS_WAIT] = 0;
    in->logon_met = 1;
    evtimer_del(in->ev_timeout);
    evtimer_del(in->ev_quiet);
    interp_arm_step(in, 0);
}
