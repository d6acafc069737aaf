/* summary_net.c -- measured network figures of a run (see summary_net.h). Traffic rows are
 * cumulative per session, so the retransmission rate takes each session's last row; each RTT is a
 * sample per row (the kernel's smoothed RTT and its minimum RTT when the row was taken). */
#include "controller/score/summary_net.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/netprofile.h"
#include "controller/score/traffic_order.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* p50 and p95 (ms; NaN without samples) of one RTT field over the traffic rows that have it. */
static void rtt_percentiles(const struct summary_input *in, int minimum, double *p50, double *p95)
{
    *p50 = *p95 = NAN;
    uint32_t *v = malloc((in->traffic_count ? in->traffic_count : 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        return;
    for (size_t i = 0; i < in->traffic_count; i++) {
        uint32_t x = minimum ? in->traffic[i].t.min_rtt_us : in->traffic[i].t.rtt_us;
        if (x)
            v[n++] = x;
    }
    if (n) {
        qsort(v, n, sizeof *v, cmp_u32);
        *p50 = v[(size_t)(0.50 * (double)(n - 1))] / 1e3;
        *p95 = v[(size_t)(0.95 * (double)(n - 1))] / 1e3;
    }
    free(v);
}

/* Each session's counters are cumulative: its row with the most data segments is its total. */
static void retransmissions(const struct summary_input *in, struct summary *out)
{
    out->retrans_pct = NAN;
    out->data_segs_out = 0;
    size_t n = in->traffic_count, *order = traffic_by_session(in->traffic, n);
    if (!order)
        return;
    double segs = 0, re = 0;
    const struct rec_traffic *last = NULL;
    for (size_t k = 0; k < n; k++) {
        const struct store_traffic_row *r = &in->traffic[order[k]];
        if (k && r->session != in->traffic[order[k - 1]].session) {
            segs += last->data_segs_out;
            re += last->retrans;
            last = NULL;
        }
        if (!last || r->t.data_segs_out >= last->data_segs_out)
            last = &r->t;
    }
    if (last) {
        segs += last->data_segs_out;
        re += last->retrans;
    }
    free(order);
    out->data_segs_out = (uint64_t)segs;
    if (segs > 0)
        out->retrans_pct = 100.0 * re / segs;
}

void summary_net(const struct summary_input *in, struct summary *out)
{
    rtt_percentiles(in, 0, &out->rtt_p50_ms, &out->rtt_p95_ms);
    rtt_percentiles(in, 1, &out->min_rtt_p50_ms, &out->min_rtt_p95_ms);
    retransmissions(in, out);
}

/* A millisecond figure with the digits it needs: "0.004" on loopback, "0.35" on a LAN, "251.8" on
 * a WAN. */
static const char *ms_text(double ms, char out[32])
{
    snprintf(out, 32, ms < 0.1 ? "%.3f" : ms < 1 ? "%.2f" : "%.1f", ms);
    return out;
}

void summary_net_line(const struct summary *s, char *buf, size_t len)
{
    char a[32], b[32];
    struct netprofile p;
    char conf[256], err[128];
    if (s->run.network_profile[0] && netprofile_from_json(s->run.network_profile, &p, err, sizeof err) == 0)
        netprofile_describe(&p, conf, sizeof conf);
    else
        snprintf(conf, sizeof conf, "%s (profile not stored)", s->run.network);
    size_t off = (size_t)snprintf(buf, len, "configured %s; measured ", conf);
    if (off >= len)
        return;
    if (isfinite(s->min_rtt_p50_ms))
        off += (size_t)snprintf(buf + off, len - off, "min RTT p50 %s ms, p95 %s ms; ", ms_text(s->min_rtt_p50_ms, a),
                                ms_text(s->min_rtt_p95_ms, b));
    if (off >= len)
        return;
    if (isfinite(s->rtt_p50_ms))
        off += (size_t)snprintf(buf + off, len - off, "kernel smoothed TCP RTT (includes delayed ACKs) p50 %.1f ms, "
                                "p95 %.1f ms", s->rtt_p50_ms, s->rtt_p95_ms);
    else
        off += (size_t)snprintf(buf + off, len - off, "RTT -");
    if (off >= len)
        return;
    if (isfinite(s->retrans_pct))
        snprintf(buf + off, len - off, ", %.2f %% of %llu data segments retransmitted (client side)", s->retrans_pct,
                 (unsigned long long)s->data_segs_out);
    else
        snprintf(buf + off, len - off, ", retransmissions -");
}
