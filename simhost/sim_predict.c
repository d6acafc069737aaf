/* sim_predict.c -- capacity prediction: walks one pass of a workload's loop (common/workload.h),
 * replays its keys and typing against the run-box rules (win+r opens, enter runs the typed line,
 * esc closes, ctrl+o opens the dialog) and prices the result with the measured cost table. */
#include "simhost/sim_predict.h"

#include "common/keymap.h"
#include "common/log.h"
#include "common/workload.h"

#include <string.h>

struct walk {
    struct sim_loop *l;
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

static int chord_has(const struct workload_step *s, uint32_t sc)
{
    for (size_t i = 0; i < s->nchord; i++)
        if (s->chord[i] == sc)
            return 1;
    return 0;
}

static void on_key(struct walk *w, const struct workload_step *s)
{
    uint32_t r = keymap_scancode_by_name("r"), o = keymap_scancode_by_name("o");
    w->l->keystrokes++;
    if (chord_has(s, KEYMAP_SC_LWIN) && chord_has(s, r)) {
        w->run_open = 1;
        w->len = 0;
        w->line[0] = '\0';
    } else if (chord_has(s, KEYMAP_SC_LCTRL) && chord_has(s, o)) {
        w->l->actions[SIM_CMD_OPEN]++;
    } else if (s->nchord == 1 && s->chord[0] == KEYMAP_SC_ENTER && w->run_open) {
        run_line(w);
    } else if (s->nchord == 1 && s->chord[0] == KEYMAP_SC_ESC) {
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

static int visit(void *ctx, const struct workload_step *s, const char *timer)
{
    struct walk *w = ctx;
    (void)timer;
    switch (s->kind) {
    case WORKLOAD_STEP_KEY: on_key(w, s); break;
    case WORKLOAD_STEP_TYPE: on_type(w, s); break;
    case WORKLOAD_STEP_THINK: w->l->think_s += (double)(s->think_min_us + s->think_max_us) / 2e6; break;
    default: break;
    }
    return 0;
}

int sim_predict_loop(const char *path, struct sim_loop *l, char *err, size_t errlen)
{
    struct workload *wl = workload_load_file(path, err, errlen);
    struct walk w = { .l = l };
    memset(l, 0, sizeof *l);
    if (!wl)
        return -1;
    workload_walk(wl, WORKLOAD_PART_LOOP, visit, &w);
    workload_free(wl);
    if (sim_cost_loop_len_s(l) <= 0) {
        snprintf(err, errlen, "%s: the loop has no think or typing time: capacity is unbounded", path);
        return -1;
    }
    return 0;
}

int sim_predict_main(const char *path, double cpus, const struct sim_costs *c, FILE *out)
{
    struct sim_loop l;
    char err[1024];
    if (sim_predict_loop(path, &l, err, sizeof err) != 0) {
        log_error("%s", err);
        return 65;
    }
    double cpu = sim_cost_loop_cpu_s(c, &l), len = sim_cost_loop_len_s(&l);
    fprintf(out, "sessmax-simhost: predict %s: per loop", path);
    for (int k = SIM_CMD_NONE + 1; k < SIM_CMD_KIND_COUNT; k++)
        if (l.actions[k])
            fprintf(out, " %s x%u", sim_cmd_name((enum sim_cmd_kind)k), l.actions[k]);
    fprintf(out, ", %llu keystrokes\n", (unsigned long long)l.keystrokes);
    fprintf(out, "sessmax-simhost: loop length %.2f s (think %.2f s + typing %.2f s), CPU %.3f s per loop\n",
            len, l.think_s, l.typing_s, cpu);
    if (cpu <= 0) {
        fprintf(out, "sessmax-simhost: the loop costs no measurable CPU: capacity unbounded\n");
        return 0;
    }
    fprintf(out, "capacity: %.1f users on %g CPU (= %g x %.2f s / %.3f s) at work-scale %g\n",
            sim_cost_capacity(c, &l, cpus), cpus, cpus, len, cpu, c->scale);
    fflush(out);
    return 0;
}
