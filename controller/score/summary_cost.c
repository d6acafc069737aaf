/* summary_cost.c -- per-session costs of the agent process and of external clients, from the
 * health records (every 2 s per agent). */
#include "controller/score/summary_cost.h"

#include <math.h>

/* External clients: the sums over the sessions measured in each record, divided by their count,
 * averaged over the records that measured any. */
static void ext_costs(const struct summary_input *in, struct summary *out)
{
    double sum[5] = { 0 };
    size_t m = 0;
    for (size_t i = 0; i < in->health_count; i++) {
        const struct rec_health *h = &in->health[i].h;
        if (!h->ext.sessions)
            continue;
        double k = h->ext.sessions * 1024.0;
        sum[0] += h->ext.client_rss_kb / k;
        sum[1] += h->ext.client_pss_kb / k;
        sum[2] += h->ext.xserver_rss_kb / k;
        sum[3] += h->ext.xserver_pss_kb / k;
        sum[4] += h->ext.cpu_permille / 10.0 / h->ext.sessions;
        m++;
        if (h->ext.sessions > out->ext_sessions_max)
            out->ext_sessions_max = h->ext.sessions;
    }
    out->ext_client_rss_mib = m ? sum[0] / (double)m : NAN;
    out->ext_client_pss_mib = m ? sum[1] / (double)m : NAN;
    out->ext_xserver_rss_mib = m ? sum[2] / (double)m : NAN;
    out->ext_xserver_pss_mib = m ? sum[3] / (double)m : NAN;
    out->ext_cpu_pct = m ? sum[4] / (double)m : NAN;
}

/* The agent process: CPU per session averaged over the records with sessions; RSS per session
 * over the records at the most sessions an agent held, where its fixed part (code, buffers) is
 * spread the thinnest. */
static void agent_costs(const struct summary_input *in, struct summary *out)
{
    double cpu = 0, rss = 0;
    size_t m = 0, top = 0;
    for (size_t i = 0; i < in->health_count; i++) {
        const struct rec_health *h = &in->health[i].h;
        uint32_t n = h->sessions_active + h->sessions_connecting;
        if (!n)
            continue;
        cpu += h->cpu_permille / 10.0 / n;
        m++;
        if (n > out->agent_sessions_max) {
            out->agent_sessions_max = n;
            rss = 0;
            top = 0;
        }
        if (n == out->agent_sessions_max) {
            rss += h->rss_kb / 1024.0 / n;
            top++;
        }
    }
    out->agent_cpu_pct = m ? cpu / (double)m : NAN;
    out->agent_rss_mib = top ? rss / (double)top : NAN;
}

void summary_cost(const struct summary_input *in, struct summary *out)
{
    out->ext_sessions_max = out->agent_sessions_max = 0;
    ext_costs(in, out);
    agent_costs(in, out);
}
