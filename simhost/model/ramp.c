/* ramp.c -- an event-driven simulation of one ramped run on C processor-sharing CPUs, and
 * the score's rule over its measure samples (see sim_ramp.h). */
#include "simhost/model/ramp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_ramp_score_defaults(struct sim_ramp_plan *p)
{
    p->baseline_count = 15;
    p->baseline_drop = 2;
    p->window_base = 5;
    p->window_frac = 0.4;
    p->trim_frac = 0.05;
    p->trim_min = 1;
    p->offset_s = 1.0;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Trimmed mean of the w samples ending at i (tmp: room for w values). */
static double index_at(const struct sim_ramp_plan *p, const double *v, size_t i, size_t w, double *tmp)
{
    memcpy(tmp, v + i + 1 - w, w * sizeof *tmp);
    qsort(tmp, w, sizeof *tmp, dcmp);
    size_t t = (size_t)floor(p->trim_frac * (double)w + 0.5 + 1e-9);
    t = t < p->trim_min ? p->trim_min : t;
    if (2 * t >= w)
        t = (w - 1) / 2;
    double sum = 0;
    for (size_t k = t; k < w - t; k++)
        sum += tmp[k];
    return sum / (double)(w - 2 * t);
}

int sim_ramp_score(const struct sim_ramp_plan *p, const double *value_s, const unsigned *active, size_t n,
                   struct sim_ramp_result *out)
{
    memset(out, 0, sizeof *out);
    out->samples = n;
    if (n < p->baseline_count || p->baseline_drop >= p->baseline_count)
        return -1;
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return -1;
    memcpy(tmp, value_s, n * sizeof *tmp);
    qsort(tmp, n, sizeof *tmp, dcmp);
    double sum = 0;
    for (size_t k = p->baseline_drop; k < p->baseline_count; k++)
        sum += tmp[k];
    out->baseline_s = sum / (double)(p->baseline_count - p->baseline_drop);
    for (size_t i = 0; i < n; i++) {
        out->smax = active[i] > out->smax ? active[i] : out->smax;
        size_t w = p->window_base + (size_t)ceil(p->window_frac * active[i] - 1e-9);
        w = w > i + 1 ? i + 1 : w < 1 ? 1 : w;
        if (i + 1 >= p->window_base && index_at(p, value_s, i, w, tmp) > out->baseline_s + p->offset_s) {
            out->reached = 1;
            out->smax = active[i] ? active[i] - 1 : 0;
            break;
        }
    }
    free(tmp);
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
