/* mva.c -- exact MVA of the closed system users ⇄ C-CPU station (mva.h); no I/O. */
#include "simhost/model/mva.h"

#include <string.h>

static double delay_s(double cpus, double d_s)
{
    return cpus > 1 ? d_s * (cpus - 1) / cpus : 0;
}

void sim_mva_init(struct sim_mva *m, double cpus, double demand_s, double think_s)
{
    memset(m, 0, sizeof *m);
    m->cpus = cpus;
    m->demand_s = demand_s;
    m->think_s = think_s;
}

void sim_mva_step(struct sim_mva *m)
{
    double queued = m->demand_s / m->cpus * (1 + m->q);
    m->n++;
    m->q_seen = m->q;
    m->r_s = queued + delay_s(m->cpus, m->demand_s);
    m->x = m->n / (m->think_s + m->r_s);
    m->q = m->x * queued;
}

double sim_mva_stretch(const struct sim_mva *m, double d_s)
{
    return d_s / m->cpus * (1 + m->q_seen) + delay_s(m->cpus, d_s);
}

double sim_mva_measure(const struct sim_mva *m, const struct sim_mva_timer *t, size_t nt)
{
    double s = 0;
    for (size_t i = 0; i < nt; i++)
        s += t[i].weight * sim_mva_stretch(m, t[i].demand_s);
    return s;
}

int sim_mva_smax(double cpus, double demand_s, double think_s, const struct sim_mva_timer *t, size_t nt,
                 double offset_s, struct sim_mva_smax *out)
{
    struct sim_mva m;
    memset(out, 0, sizeof *out);
    if (!(cpus > 0) || !(demand_s > 0) || !(think_s >= 0))
        return -1;
    sim_mva_init(&m, cpus, demand_s, think_s);
    sim_mva_step(&m);
    out->baseline_s = out->last_s = sim_mva_measure(&m, t, nt);
    while (m.n < SIM_MVA_MAX_USERS) {
        sim_mva_step(&m);
        out->last_s = sim_mva_measure(&m, t, nt);
        if (out->last_s - out->baseline_s > offset_s) {
            out->reached = 1;
            out->smax = m.n - 1;
            break;
        }
    }
    return 0;
}
