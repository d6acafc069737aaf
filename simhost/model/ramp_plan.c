/* ramp_plan.c -- from a plan file to the ramp simulation's predicted smax (ramp_plan.h).
 *
 * The loop becomes one segment per timer occurrence, in the loop's order: the user's own time
 * (think + typing + settle) split evenly before each, then that timer's CPU; the CPU the loop
 * spends outside timers (echoes of untimed typing) is a last, untimed segment. Think times vary
 * by ± half their mean, as the workload's ranges (1s..3s) do. Logon takes LOGON_S of own time. */
#include "simhost/model/ramp_plan.h"
#include "simhost/model/mva.h"
#include "simhost/server/opts.h"
#include "simhost/model/predict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "common/log.h"
#include "common/score_rule_plan.h"
#include "common/ydoc.h"

#define LOGON_S 0.5   /* connect + the logon condition's 300 ms stable window, at low load */

static int get_duration_s(const struct ydoc *doc, const struct ydoc_node *map, const char *key, double *out,
                          char *err, size_t errlen)
{
    const struct ydoc_node *n = ydoc_get(map, key);
    uint64_t us = 0;
    if (n && ydoc_duration_us(doc, n, &us, err, errlen) < 0)
        return -1;
    *out = (double)us / 1e6;
    return 0;
}

/* The plan's score: over the defaults; *measure: its measure group, NULL when it names none (the
 * workload's vsi or only group then, as the controller picks). */
static int get_score(const struct ydoc *doc, const struct ydoc_node *sc, struct sim_ramp_plan *p,
                     const char **measure, char *err, size_t errlen)
{
    score_params_default(&p->score);
    if (sc && score_rule_plan_read(doc, sc, &p->score, err, errlen) < 0)
        return -1;
    *measure = ydoc_get(sc, "measure") ? p->score.measure : NULL;
    return 0;
}

/* The workload path as the controller resolves it: relative to the plan's directory. */
static char *workload_path(const char *plan, const char *wl)
{
    const char *slash = strrchr(plan, '/');
    size_t dl = wl[0] == '/' || !slash ? 0 : (size_t)(slash - plan) + 1, n = dl + strlen(wl) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%.*s%s", (int)dl, plan, wl);
    return s;
}

/* The path of the open plan's workload (malloc'd), or NULL with err. */
static char *plan_workload(const struct ydoc *doc, const char *plan, char *err, size_t errlen)
{
    const struct ydoc_node *wl = ydoc_get(doc->root, "workload");
    const char *wname = NULL;
    char *path = NULL;
    if (!wl)
        ydoc_error(doc, doc->root, err, errlen, "a plan needs workload:");
    else if (ydoc_str(doc, wl, &wname, err, errlen) == 0 && !(path = workload_path(plan, wname)))
        snprintf(err, errlen, "out of memory");
    return path;
}

char *sim_ramp_plan_workload(const char *plan, char *err, size_t errlen)
{
    struct ydoc *doc = ydoc_load_file(plan, err, errlen);
    char *path = doc ? plan_workload(doc, plan, err, errlen) : NULL;
    ydoc_free(doc);
    return path;
}

int sim_ramp_plan_work_scale(const char *plan, double *scale, char *err, size_t errlen)
{
    struct ydoc *doc = ydoc_load_file(plan, err, errlen);
    if (!doc)
        return -1;
    const struct ydoc_node *local = ydoc_get(ydoc_get(doc->root, "target"), "local");
    const struct ydoc_node *ws = ydoc_get(local, "simhost_work_scale");
    int rc = ws ? ydoc_double(doc, ws, SIM_WORK_SCALE_MIN, SIM_WORK_SCALE_MAX, scale, err, errlen) : 0;
    ydoc_free(doc);
    return rc;
}

static int segments(const struct sim_costs *c, const struct sim_loop *l, struct sim_ramp_plan *p, char *err,
                    size_t errlen)
{
    unsigned occ = 0;
    double timed = 0;
    for (size_t k = 0; k < l->ntimers; k++) {
        occ += l->timers[k].count;
        timed += l->timers[k].count * sim_cost_timer_cpu_s(c, &l->timers[k]);
        p->weight[k] = l->timers[k].weight;
    }
    double rest = sim_cost_loop_cpu_s(c, l) - timed, own = sim_cost_loop_user_s(l);
    if (occ == 0 || occ + 1 > SIM_RAMP_SEGMENTS_MAX) {
        snprintf(err, errlen, "the loop has %u timer runs: the ramp simulation needs 1 to %d", occ,
                 SIM_RAMP_SEGMENTS_MAX - 1);
        return -1;
    }
    p->nseg = 0;
    for (size_t k = 0; k < l->ntimers; k++)
        for (unsigned j = 0; j < l->timers[k].count; j++)
            p->seg[p->nseg++] = (struct sim_ramp_segment){ own / occ, sim_cost_timer_cpu_s(c, &l->timers[k]),
                                                           l->think_s / occ / 2, (int)k };
    if (rest > 0)
        p->seg[p->nseg++] = (struct sim_ramp_segment){ 0, rest, 0, -1 };
    return 0;
}

int sim_ramp_plan_load(const char *plan, const struct sim_costs *c, struct sim_ramp_plan *p, struct sim_loop *l,
                       char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->logon_s = LOGON_S;
    struct ydoc *doc = ydoc_load_file(plan, err, errlen);
    if (!doc)
        return -1;
    const struct ydoc_node *root = doc->root, *ss = ydoc_get(root, "sessions");
    const char *measure = NULL;
    long long sessions = 0;
    char *wpath = NULL;
    int rc = -1;
    if (!ydoc_get(root, "workload") || !ss)
        ydoc_error(doc, root, err, errlen, "a plan needs workload: and sessions:");
    else if (ydoc_int(doc, ss, 1, 100000, &sessions, err, errlen) == 0 &&
             get_duration_s(doc, root, "launch_window", &p->launch_window_s, err, errlen) == 0 &&
             get_duration_s(doc, root, "steady_state", &p->steady_state_s, err, errlen) == 0 &&
             get_score(doc, ydoc_get(root, "score"), p, &measure, err, errlen) == 0 &&
             (wpath = plan_workload(doc, plan, err, errlen)) != NULL &&
             sim_predict_load(wpath, measure, l, err, errlen) == 0 && segments(c, l, p, err, errlen) == 0)
        rc = 0;
    p->sessions = (unsigned)sessions;
    free(wpath);
    ydoc_free(doc);
    return rc;
}

/* The standard deviation of n values in % of their mean (0 for a mean of 0). */
static double sd_percent(const unsigned *v, size_t n)
{
    double mean = 0, var = 0;
    for (size_t i = 0; i < n; i++)
        mean += (double)v[i] / (double)n;
    for (size_t i = 0; i < n; i++)
        var += ((double)v[i] - mean) * ((double)v[i] - mean) / (double)n;
    return mean > 0 ? 100 * sqrt(var) / mean : 0;
}

static int ucmp(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

void sim_ramp_plan_ramp_to(struct sim_ramp_plan *p, unsigned sessions)
{
    if (!sessions || !p->sessions)
        return;
    p->launch_window_s *= (double)sessions / p->sessions;
    p->sessions = sessions;
}

int sim_ramp_plan_main(const char *plan, double cpus, unsigned ramp_to, const struct sim_costs *c, FILE *out)
{
    struct sim_ramp_plan p;
    struct sim_loop l;
    char err[1024];
    if (sim_ramp_plan_load(plan, c, &p, &l, err, sizeof err) < 0) {
        log_error("%s", err);
        return EX_DATAERR;
    }
    p.cpus = cpus;
    if (ramp_to) {
        fprintf(out, "sessmax-simhost: --ramp-to %u: the plan's %u sessions over %.0f s carried on at the same "
                "rate\n", ramp_to, p.sessions, p.launch_window_s);
        sim_ramp_plan_ramp_to(&p, ramp_to);
    }
    fprintf(out, "sessmax-simhost: plan %s: %u sessions launched over %.0f s, then %.0f s steady, on %g CPU at "
            "work-scale %g; measure %s, threshold +%.0f ms, window %u + %g x active\n", plan, p.sessions,
            p.launch_window_s, p.steady_state_s, cpus, c->scale, l.measure[0] ? l.measure : "(none)",
            p.score.threshold_offset_ms, p.score.window_base, p.score.window_frac);
    fprintf(out, "sessmax-simhost: cost model: %.3f s of CPU per loop\n", sim_cost_loop_cpu_s(c, &l));
    struct sim_mva_timer t[SIM_LOOP_TIMERS_MAX];
    struct sim_mva_smax m;
    for (size_t k = 0; k < l.ntimers; k++)
        t[k] = (struct sim_mva_timer){ sim_cost_timer_cpu_s(c, &l.timers[k]), l.timers[k].weight };
    if (sim_mva_smax(cpus, sim_cost_loop_cpu_s(c, &l), sim_cost_loop_user_s(&l), t, l.ntimers,
                     p.score.threshold_offset_ms / 1e3, &m) == 0)
        fprintf(out, "sessmax-simhost: steady state (closed-queue MVA, as --predict WORKLOAD): smax %u\n", m.smax);
    unsigned smax[SIM_RAMP_SEEDS], reached = 0;
    struct sim_ramp_result r = { 0 };
    double base = 0;
    fprintf(out, "sessmax-simhost: ramp simulation, %d seeds: smax", SIM_RAMP_SEEDS);
    for (unsigned s = 0; s < SIM_RAMP_SEEDS; s++) {
        p.seed = s + 1;
        if (sim_ramp_run(&p, &r) < 0) {
            fprintf(out, "\n");
            log_error("%s: the simulated run has %zu measure samples, too few to score", plan, r.samples);
            return EX_DATAERR;
        }
        smax[s] = r.smax;
        reached += (unsigned)r.reached;
        base += r.baseline_s / SIM_RAMP_SEEDS;
        fprintf(out, " %s%u", r.reached ? "" : ">", r.smax);
    }
    fprintf(out, "\n");
    qsort(smax, SIM_RAMP_SEEDS, sizeof *smax, ucmp);
    if (reached < SIM_RAMP_SEEDS / 2 + 1)
        fprintf(out, "predicted smax for the plan: not reached (> %u)", p.sessions);
    else
        fprintf(out, "predicted smax for the plan: %u", smax[SIM_RAMP_SEEDS / 2]);
    fprintf(out, " (median of %d seeds, range %u..%u, sd %.1f %%; baseline %.0f ms)\n", SIM_RAMP_SEEDS, smax[0],
            smax[SIM_RAMP_SEEDS - 1], sd_percent(smax, SIM_RAMP_SEEDS), base * 1e3);
    fflush(out);
    return 0;
}
