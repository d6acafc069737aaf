/* predict.c -- capacity prediction: walks one pass of a workload's loop (common/workload.h),
 * replays its keys and typing against the run-box rules (win+r opens, enter runs the typed line,
 * esc closes, ctrl+o opens the dialog), sums settle times, attributes what each timer's steps
 * trigger to that timer, and prices the result with the measured cost table (simhost/desktop/cost.h) and the
 * closed-queue model (mva.h). */
#include "simhost/model/predict.h"
#include "simhost/desktop/kbd.h"

#include "common/log.h"
#include "common/workload.h"
#include "simhost/model/mva.h"

#include <string.h>
#include <sysexits.h>

struct walk {
    struct sim_loop *l;
    int too_many;
    int run_open;
    char line[256];
    size_t len;
};

static void run_line(struct walk *w)
{
    struct sim_cmd cmd;
    sim_cmd_parse(w->line, &cmd);
    if (cmd.kind != SIM_CMD_NONE && cmd.kind != SIM_CMD_LOGOFF)
        w->l->actions[cmd.kind]++;
    w->run_open = 0;
    w->len = 0;
    w->line[0] = '\0';
}

/* Whether the chord holds the key named `name` (or, for a modifier, either of its keys), decoded
 * by simhost's own decoder. */
static int chord_has(const struct workload_step *s, const char *name, unsigned mod)
{
    for (size_t i = 0; i < s->nchord; i++) {
        const struct sim_kbd_key *k = sim_kbd_decode(s->chord[i]);
        if (k && (mod ? k->mod == mod : !strcmp(k->name, name)))
            return 1;
    }
    return 0;
}

static void on_key(struct walk *w, const struct workload_step *s)
{
    w->l->keystrokes++;
    w->l->typing_s += (double)s->pause_us / 1e6;   /* the pause after the key (none after a
                                                      timer's last input: a small overcount) */
    if (chord_has(s, NULL, SIM_MOD_WIN) && chord_has(s, "r", 0)) {
        w->run_open = 1;
        w->len = 0;
        w->line[0] = '\0';
    } else if (chord_has(s, NULL, SIM_MOD_CTRL) && chord_has(s, "o", 0)) {
        w->l->actions[SIM_CMD_OPEN]++;
    } else if (s->nchord == 1 && chord_has(s, "enter", 0) && w->run_open) {
        run_line(w);
    } else if (s->nchord == 1 && chord_has(s, "esc", 0)) {
        w->run_open = 0;
    }
}

static void on_type(struct walk *w, const struct workload_step *s)
{
    char text[4096];
    size_t n = workload_expand(s->text, "simuser001", text, sizeof text);
    if (n >= sizeof text)
        n = sizeof text - 1;
    w->l->keystrokes += n;
    w->l->typing_s += (double)n * (double)s->rate_us / 1e6;
    for (size_t i = 0; i < n; i++) {
        if (!w->run_open)
            continue;
        if (text[i] == '\n')
            run_line(w);
        else if (w->len + 1 < sizeof w->line) {
            w->line[w->len++] = text[i];
            w->line[w->len] = '\0';
        }
    }
}

/* The entry of timer `name`, added on first sight; NULL when the table is full. */
static struct sim_loop_timer *timer_entry(struct sim_loop *l, const char *name)
{
    for (size_t i = 0; i < l->ntimers; i++)
        if (!strcmp(l->timers[i].name, name))
            return &l->timers[i];
    if (l->ntimers == SIM_LOOP_TIMERS_MAX)
        return NULL;
    struct sim_loop_timer *t = &l->timers[l->ntimers++];
    snprintf(t->name, sizeof t->name, "%s", name);
    return t;
}

static double settle_of(const struct workload_wait *wt)
{
    double s = 0;
    for (size_t i = 0; i < wt->n; i++)
        if (wt->conds[i].kind == WORKLOAD_COND_STABLE)
            s += (double)wt->conds[i].stable_us / 1e6;
    return s;
}

/* Runs one step against the loop totals; what it triggered inside a timer is added to that
 * timer too (the difference of the totals before and after). */
static void count_step(struct walk *w, const struct workload_step *s, struct sim_loop_timer *t)
{
    unsigned actions[SIM_CMD_KIND_COUNT];
    uint64_t keystrokes = w->l->keystrokes;
    memcpy(actions, w->l->actions, sizeof actions);
    if (s->kind == WORKLOAD_STEP_KEY)
        on_key(w, s);
    else
        on_type(w, s);
    if (!t)
        return;
    t->keystrokes += w->l->keystrokes - keystrokes;
    for (int k = 0; k < SIM_CMD_KIND_COUNT; k++)
        t->actions[k] += w->l->actions[k] - actions[k];
}

static int visit(void *ctx, const struct workload_step *s, const char *timer)
{
    struct walk *w = ctx;
    struct sim_loop_timer *t = timer ? timer_entry(w->l, timer) : NULL;
    if (timer && !t)
        return w->too_many = 1;
    switch (s->kind) {
    case WORKLOAD_STEP_KEY:
    case WORKLOAD_STEP_TYPE: count_step(w, s, t); break;
    case WORKLOAD_STEP_THINK: w->l->think_s += (double)(s->think_min_us + s->think_max_us) / 2e6; break;
    case WORKLOAD_STEP_WAIT: w->l->settle_s += settle_of(&s->wait); break;
    case WORKLOAD_STEP_TIMER:
        t->count++;
        w->l->settle_s += settle_of(&s->wait);
        break;
    default: break;
    }
    return 0;
}

/* Picks the measure group (`name`, or vsi, or the only one) and weights the loop's timers. */
static int pick_measure(const struct workload *wl, const char *name, struct sim_loop *l, char *err, size_t errlen)
{
    const struct workload_measure *m = NULL;
    l->nmeasures = wl->nmeasures;
    for (size_t i = 0; i < wl->nmeasures; i++)
        if (!strcmp(wl->measures[i].name, name ? name : "vsi"))
            m = &wl->measures[i];
    if (!m && !name && wl->nmeasures == 1)
        m = &wl->measures[0];
    if (!m && name) {
        snprintf(err, errlen, "%s: --measure %s: the workload has no measure group of that name", wl->file, name);
        return -1;
    }
    if (!m)
        return 0;
    snprintf(l->measure, sizeof l->measure, "%s", m->name);
    for (size_t i = 0; i < m->n; i++)
        for (size_t k = 0; k < l->ntimers; k++)
            if (!strcmp(l->timers[k].name, m->items[i].timer))
                l->timers[k].weight += m->items[i].weight;
    return 0;
}

int sim_predict_load(const char *path, const char *measure, struct sim_loop *l, char *err, size_t errlen)
{
    struct workload *wl = workload_load_file(path, err, errlen);
    struct walk w = { .l = l };
    int rc = -1;
    memset(l, 0, sizeof *l);
    if (!wl)
        return -1;
    workload_walk(wl, WORKLOAD_PART_LOOP, visit, &w);
    if (w.too_many)
        snprintf(err, errlen, "%s: more than %d distinct timers in the loop: too many for --predict", path,
                 SIM_LOOP_TIMERS_MAX);
    else if (sim_cost_loop_user_s(l) <= 0)
        snprintf(err, errlen, "%s: the loop has no think, typing or settle time: capacity is unbounded", path);
    else
        rc = pick_measure(wl, measure, l, err, errlen);
    workload_free(wl);
    return rc;
}

int sim_predict_loop(const char *path, struct sim_loop *l, char *err, size_t errlen)
{
    return sim_predict_load(path, NULL, l, err, errlen);
}

static void print_smax(const struct sim_predict_args *a, const struct sim_costs *c, const struct sim_loop *l,
                       FILE *out)
{
    struct sim_mva_timer t[SIM_LOOP_TIMERS_MAX];
    struct sim_mva_smax r;
    if (!l->measure[0]) {
        fprintf(out, "predicted smax: skipped (%s)\n", l->nmeasures ? "several measure groups and none named vsi: "
                "pick one with --measure NAME" : "the workload has no measure group");
        return;
    }
    fprintf(out, "sessmax-simhost: CPU per sample:");
    for (size_t i = 0; i < l->ntimers; i++) {
        t[i].demand_s = sim_cost_timer_cpu_s(c, &l->timers[i]);
        t[i].weight = l->timers[i].weight;
        fprintf(out, " %s %.1f ms%s", l->timers[i].name, t[i].demand_s * 1e3, t[i].weight > 0 ? "" : " (unweighted)");
    }
    fputc('\n', out);
    double cpu = sim_cost_loop_cpu_s(c, l);
    sim_mva_smax(a->cpus, cpu, sim_cost_loop_user_s(l), t, l->ntimers, a->offset_ms / 1e3, &r);
    if (r.reached)
        fprintf(out, "predicted smax: %u", r.smax);
    else
        fprintf(out, "predicted smax: not reached (> %u)", SIM_MVA_MAX_USERS);
    fprintf(out, " (closed-queue MVA, measure %s: baseline %.0f ms, threshold +%g ms)\n", l->measure,
            r.baseline_s * 1e3, a->offset_ms);
}

int sim_predict_main(const struct sim_predict_args *a, const struct sim_costs *c, FILE *out)
{
    struct sim_loop l;
    char err[1024];
    if (sim_predict_load(a->path, a->measure, &l, err, sizeof err) != 0) {
        log_error("%s", err);
        return EX_DATAERR;
    }
    double cpu = sim_cost_loop_cpu_s(c, &l), len = sim_cost_loop_len_s(c, &l);
    fprintf(out, "sessmax-simhost: predict %s: per loop", a->path);
    for (int k = SIM_CMD_NONE + 1; k < SIM_CMD_KIND_COUNT; k++)
        if (l.actions[k])
            fprintf(out, " %s x%u", sim_cmd_name((enum sim_cmd_kind)k), l.actions[k]);
    fprintf(out, ", %llu keystrokes\n", (unsigned long long)l.keystrokes);
    fprintf(out, "sessmax-simhost: loop length %.2f s at low load (think %.2f s + typing %.2f s + settle %.2f s + "
            "response %.3f s), CPU %.3f s per loop\n", len, l.think_s, l.typing_s, l.settle_s, cpu, cpu);
    if (cpu <= 0) {
        fprintf(out, "sessmax-simhost: the loop costs no measurable CPU: capacity unbounded\n");
        return 0;
    }
    fprintf(out, "capacity: %.1f users on %g CPU (= %g x %.2f s / %.3f s) at work-scale %g\n",
            sim_cost_capacity(c, &l, a->cpus), a->cpus, a->cpus, len, cpu, c->scale);
    print_smax(a, c, &l, out);
    fflush(out);
    return 0;
}
