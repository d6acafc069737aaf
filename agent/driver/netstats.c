/* netstats.c -- traffic counters of one session (loop thread). */
#include "agent/driver/netstats.h"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

int netstats_tcp(int fd, struct rec_traffic *t)
{
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
        return -1;
    t->wire_in = ti.tcpi_bytes_received;
    t->wire_out = ti.tcpi_bytes_acked;
    t->rtt_us = ti.tcpi_rtt;
    t->data_segs_out = ti.tcpi_data_segs_out;
    t->retrans = ti.tcpi_total_retrans;
    t->data_segs_in = ti.tcpi_data_segs_in;
    return 0;
}

void netstats_sample(rdpContext *ctx, int sock_fd, struct rec_traffic *t)
{
    UINT64 in = 0, out = 0, pin = 0, pout = 0;
    if (ctx && ctx->rdp && freerdp_get_stats(ctx->rdp, &in, &out, &pin, &pout)) {
        t->bytes_in = in;
        t->bytes_out = out;
    }
    if (sock_fd >= 0)
        netstats_tcp(sock_fd, t);
}
