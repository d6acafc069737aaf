/* traffic.c -- the RDP session's traffic record (traffic.h): FreeRDP's payload counters (above
 * TLS and compression) beside the TCP socket's own (agent/driver/netstats.h). Loop thread. */
#include "agent/rdp/traffic.h"

#include <freerdp/freerdp.h>

#include "agent/driver/netstats.h"
#include "agent/engine/loopwatch.h"
#include "agent/rdp/state.h"
#include "common/clock.h"

void rdp_traffic_sample(rdpContext *ctx, int sock_fd, struct rec_traffic *t)
{
    UINT64 in = 0, out = 0, pin = 0, pout = 0;
    if (ctx && ctx->rdp && freerdp_get_stats(ctx->rdp, &in, &out, &pin, &pout)) {
        t->bytes_in = in;
        t->bytes_out = out;
    }
    if (sock_fd >= 0)
        netstats_tcp(sock_fd, t);
}

void rdp_traffic_report(struct rdp_session *s)
{
    struct loopwatch_mark m;
    if (!s->inst || !s->l.h->sink->traffic)
        return;
    loopwatch_begin(&m);
    struct rec_traffic t = { .session = s->l.index, .t_us = clock_wall_us(), .frames = s->frames };
    rdp_traffic_sample(s->inst->context, s->sock_fd, &t);
    s->l.h->sink->traffic(s->l.h->sink->ctx, &t);
    loopwatch_end(&m, "traffic record", s->l.index);
}
