/* ramp.c -- an event-driven simulation of one ramped run on C processor-sharing CPUs, and
 * the score's rule (common/score_rule.h) over its measure samples (see ramp.h). */
#include "simhost/model/ramp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sim_ramp_score(const struct sim_ramp_plan *p, const double *value_s, const unsigned *active, size_t n,
                   struct sim_ramp_result *out)
{
    memset(out, 0, sizeof *out);
    out->samples = n;
    struct score_sample *s = malloc((n ? n : 1) * sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++)
        s[i] = (struct score_sample){ .t_us = i, .value_us = llround(value_s[i] * 1e6), .active = active[i],
                                      .ok = 1 };
    struct score_result r;
    char err[256];
    int rc = score_compute(&p->score, s, n, &r, NULL, err, sizeof err);
    free(s);
    if (rc < 0 || r.status != SCORE_OK)
        return -1;
    out->reached = r.reached;
    out->smax = r.reached ? (unsigned)r.smax : r.max_active;
    out->baseline_s = r.baseline_ms / 1e3;
    return 0;
}

/* --- the simulation ---------------------------------------------------------------------- */

enum user_state { U_WAITING, U_LOGON, U_DELAY, U_CPU };

struct user {
    enum user_state st;
    double wake;        /* end of the current wait (U_WAITING: launch; U_LOGON, U_DELAY) */
    double left;        /* CPU seconds left (U_CPU) */
    double started;     /* when the current CPU segment arrived */
    size_t seg;
    double measure;     /* Σ weight × response of this loop so far */
};

struct sim {
    const struct sim_ramp_plan *p;
    struct user *u;
    unsigned active, running;
    uint64_t rng;
    double *val;
    unsigned *act;
    size_t n, cap;
};

static double uniform(struct sim *s)
{
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return (double)(s->rng >> 11) / 9007199254740992.0;
}

static void start_delay(struct sim *s, struct user *u, double now)
{
    const struct sim_ramp_segment *g = &s->p->seg[u->seg];
    double d = g->delay_s + g->jitter_s * (2 * uniform(s) - 1);
    u->st = U_DELAY;
    u->wake = now + (d > 0 ? d : 0);
}

static int add_sample(struct sim *s, double v)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 1024;
        double *nv = realloc(s->val, nc * sizeof *nv);
        if (nv)
            s->val = nv;
        unsigned *na = nv ? realloc(s->act, nc * sizeof *na) : NULL;
        if (!na)
            return -1;
        s->act = na;
        s->cap = nc;
    }
    s->val[s->n] = v;
    s->act[s->n++] = s->active;
    return 0;
}

/* The CPU segment of u ended at `now`: record its time, move to the next segment. */
static int finish_cpu(struct sim *s, struct user *u, double now)
{
    const struct sim_ramp_plan *p = s->p;
    const struct sim_ramp_segment *g = &p->seg[u->seg];
    s->running--;
    if (g->timer >= 0)
        u->measure += p->weight[g->timer] * (now - u->started);
    int last_timed = 1;
    for (size_t k = u->seg + 1; k < p->nseg; k++)
        last_timed &= p->seg[k].timer < 0 || p->weight[p->seg[k].timer] <= 0;
    if (g->timer >= 0 && p->weight[g->timer] > 0 && last_timed) {
        if (add_sample(s, u->measure) < 0)
            return -1;
        u->measure = 0;
    }
    u->seg = (u->seg + 1) % p->nseg;
    start_delay(s, u, now);
    return 0;
}

static void wake(struct sim *s, struct user *u, double now)
{
    if (u->st == U_WAITING) {
        u->st = U_LOGON;
        u->wake = now + s->p->logon_s;
    } else if (u->st == U_LOGON) {
        s->active++;
        u->seg = 0;
        start_delay(s, u, now);
    } else {
        u->st = U_CPU;
        u->left = s->p->seg[u->seg].cpu_s;
        u->started = now;
        s->running++;
    }
}

/* Advances to the next event (a wake-up or the first CPU segment to finish); 0 when past `end`. */
static int step(struct sim *s, double *now, double end)
{
    const struct sim_ramp_plan *p = s->p;
    double rate = s->running ? fmin(1.0, p->cpus / s->running) : 0, next = INFINITY;
    for (unsigned i = 0; i < p->sessions; i++) {
        const struct user *u = &s->u[i];
        double t = u->st == U_CPU ? *now + u->left / rate : u->wake;
        next = t < next ? t : next;
    }
    if (!(next <= end))
        return 0;
    for (unsigned i = 0; i < p->sessions; i++)
        if (s->u[i].st == U_CPU)
            s->u[i].left -= rate * (next - *now);
    *now = next;
    for (unsigned i = 0; i < p->sessions; i++) {
        struct user *u = &s->u[i];
        if (u->st == U_CPU ? u->left <= 1e-12 : u->wake <= next) {
            if (u->st != U_CPU)
                wake(s, u, next);
            else if (finish_cpu(s, u, next) < 0)
                return -1;
        }
    }
    return 1;
}

int sim_ramp_run(const struct sim_ramp_plan *p, struct sim_ramp_result *out)
{
    memset(out, 0, sizeof *out);
    if (!p->sessions || !(p->cpus > 0) || !p->nseg)
        return -1;
    struct sim s = { .p = p, .rng = p->seed * 2654435761u + 88172645463325252ull };
    s.u = calloc(p->sessions, sizeof *s.u);
    if (!s.u)
        return -1;
    for (unsigned i = 0; i < p->sessions; i++)
        s.u[i].wake = p->launch_window_s * i / p->sessions;   /* as the controller's ramp */
    double now = 0, end = p->launch_window_s + p->steady_state_s;
    int rc;
    while ((rc = step(&s, &now, end)) > 0)
        ;
    if (rc == 0 && sim_ramp_score(p, s.val, s.act, s.n, out) < 0) {
        out->samples = s.n;
        rc = -1;
    }
    free(s.u);
    free(s.val);
    free(s.act);
    return rc;
}
