/* netstats.c -- a session's TCP counters from the kernel (TCP_INFO), for every driver whose
 * connection is a TCP socket it can read (loop thread). */
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
    t->min_rtt_us = ti.tcpi_min_rtt == ~0u ? 0 : ti.tcpi_min_rtt;   /* ~0: no sample yet */
    t->data_segs_out = ti.tcpi_data_segs_out;
    t->retrans = ti.tcpi_total_retrans;
    t->data_segs_in = ti.tcpi_data_segs_in;
    return 0;
}
