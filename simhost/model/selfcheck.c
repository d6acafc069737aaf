/* selfcheck.c -- the real-session check of selfcheck.h: a simhost child, one headless
 * session, the workload's loop played into it, the child's CPU per loop from /proc. */
#include "simhost/model/selfcheck.h"

#include "common/hostport.h"
#include "common/keymap.h"
#include "common/procstat.h"
#include "common/workload.h"
#include "simhost/model/client.h"
#include "simhost/model/predict.h"
#include "simhost/model/ramp_plan.h"

#include <errno.h>
#include <freerdp/addin.h>
#include <freerdp/client/channels.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <winpr/synch.h>

#define ARGS_MAX 32

/* Reads the child's "listening on ... fingerprint FP" line: 0, or -1 when it ended first. */
static int read_ready(struct sim_selfcheck_child *ch)
{
    char line[512];
    while (fgets(line, sizeof line, ch->out)) {
        char *fp = strstr(line, " fingerprint ");
        if (strstr(line, "listening on") && fp) {
            snprintf(ch->fingerprint, sizeof ch->fingerprint, "%s", fp + 13);
            ch->fingerprint[strcspn(ch->fingerprint, "\n")] = '\0';
            return 0;
        }
    }
    return -1;
}

int sim_selfcheck_spawn(struct sim_selfcheck_child *ch, const char *exe, const char *password, const char *state,
                        const char *const *extra, char *err, size_t errlen)
{
    char listen[64];
    const char *argv[ARGS_MAX] = { exe, "--listen", listen, "--state-dir", state, "--log-level", "warn" };
    size_t n = 7;
    int fds[2];
    memset(ch, 0, sizeof *ch);
    for (; extra && *extra && n < ARGS_MAX - 1; extra++)
        argv[n++] = *extra;
    if ((ch->port = hostport_free_loopback()) <= 0 || pipe(fds) != 0) {
        snprintf(err, errlen, "no free loopback port or pipe: %s", strerror(errno));
        return -1;
    }
    snprintf(listen, sizeof listen, "127.0.0.1:%d", ch->port);
    if ((ch->pid = fork()) == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);   /* never outlive the caller */
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        setenv("SESSMAX_PASSWORD", password, 1);
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    ch->out = ch->pid > 0 ? fdopen(fds[0], "r") : NULL;
    if (!ch->out || read_ready(ch) != 0) {
        snprintf(err, errlen, "%s did not start listening", exe);
        if (!ch->out)
            close(fds[0]);
        sim_selfcheck_stop(ch);
        return -1;
    }
    return 0;   /* keep the pipe open: the child's stdout stays valid */
}

void sim_selfcheck_stop(struct sim_selfcheck_child *ch)
{
    if (ch->pid > 0) {
        kill(ch->pid, SIGTERM);
        waitpid(ch->pid, NULL, 0);
    }
    if (ch->out)
        fclose(ch->out);
    ch->pid = 0;
    ch->out = NULL;
}

/* ---- one session: its events driven by a thread while the loop is played ---- */

struct session {
    freerdp *inst;
    volatile int stop;
};

static void *pump(void *arg)
{
    struct session *s = arg;
    struct sim_client *c = (struct sim_client *)s->inst->context;
    while (!s->stop && !c->dead) {
        HANDLE h[32];
        DWORD n = freerdp_get_event_handles(s->inst->context, h, 32);
        if (n == 0 || WaitForMultipleObjects(n, h, FALSE, 100) == WAIT_FAILED ||
            !freerdp_check_event_handles(s->inst->context))
            c->dead = 1;
    }
    return NULL;
}

static void pause_ms(int ms) { usleep((useconds_t)ms * 1000); }

static int play_step(void *ctx, const struct workload_step *st, const char *timer)
{
    freerdp *inst = ctx;
    (void)timer;
    if (st->kind == WORKLOAD_STEP_KEY) {
        for (size_t i = 0; i < st->nchord; i++)
            sim_client_key(inst, st->chord[i], 1);
        for (size_t i = st->nchord; i-- > 0;)
            sim_client_key(inst, st->chord[i], 0);
        /* enter and ctrl+o start work: give it time so frames go out one per action */
        pause_ms(st->nchord == 1 && st->chord[0] == KEYMAP_SC_ENTER ? 1200 : st->nchord > 1 ? 300 : 20);
    } else if (st->kind == WORKLOAD_STEP_TYPE) {
        char text[1024];
        workload_expand(st->text, "simuser001", text, sizeof text);
        for (const char *c = text; *c; c++) {
            sim_client_char(inst, *c);
            pause_ms(20);
        }
    }
    return 0;
}

/* Plays the loops and returns the child's CPU seconds from before the first key until it is
 * idle again (less than 20 ms in a second, at most 30 s), or -1. */
static double play_loops(freerdp *inst, pid_t pid, const struct workload *wl, unsigned loops)
{
    double c0 = procstat_cpu_s(pid), c1, c2 = -1;
    for (unsigned i = 0; i < loops; i++)
        workload_walk(wl, WORKLOAD_PART_LOOP, play_step, inst);
    c1 = procstat_cpu_s(pid);
    for (int i = 0; i < 30; i++, c1 = c2) {
        pause_ms(1000);
        c2 = procstat_cpu_s(pid);
        if (c2 - c1 < 0.02)
            break;
    }
    return c0 < 0 || c2 < 0 ? -1 : c2 - c0;
}

/* Logs one client on to the child, plays, measures. */
static int session_measure(const struct sim_selfcheck_args *a, const struct sim_selfcheck_child *ch,
                           const char *password, const struct workload *wl, double *cpu, char *err, size_t errlen)
{
    char config[PATH_MAX];
    snprintf(config, sizeof config, "%s/freerdp", a->dir);
    struct sim_client_cfg cc = { "127.0.0.1", ch->port, "simuser001", password, config, ch->fingerprint, a->bpp };
    struct session s = { sim_client_new(&cc), 0 };
    pthread_t th;
    if (!s.inst || !freerdp_connect(s.inst)) {
        snprintf(err, errlen, "the session did not log on: %s",
                 s.inst ? freerdp_get_last_error_string(freerdp_get_last_error(s.inst->context)) : "no memory");
        if (s.inst)
            sim_client_free(s.inst);
        return -1;
    }
    pthread_create(&th, NULL, pump, &s);
    pause_ms(1000);   /* the desktop's first paint is not the loop's */
    double used = play_loops(s.inst, ch->pid, wl, a->loops);
    int dead = ((struct sim_client *)s.inst->context)->dead;
    s.stop = 1;
    pthread_join(th, NULL);
    sim_client_free(s.inst);
    if (used <= 0 || dead) {
        snprintf(err, errlen, dead ? "the session dropped during the loop" : used < 0 ? "cannot read the child's "
                 "CPU time" : "the child used no measurable CPU");
        return -1;
    }
    *cpu = used / a->loops;
    return 0;
}

int sim_selfcheck_run(const struct sim_selfcheck_args *a, double *cpu_per_loop, char *err, size_t errlen)
{
    char state[PATH_MAX], password[64], scale[32];
    struct sim_selfcheck_child ch;
    struct workload *wl = workload_load_file(a->workload, err, errlen);
    if (!wl)
        return -1;
    freerdp_register_addin_provider(freerdp_channels_load_static_addin_entry, 0);
    snprintf(state, sizeof state, "%s/state", a->dir);
    snprintf(password, sizeof password, "check-%ld-%ld-%d", (long)getpid(), (long)time(NULL), rand());
    snprintf(scale, sizeof scale, "%g", a->work_scale);
    const char *extra[] = { "--users", "1", "--work-scale", scale, NULL };
    int rc = sim_selfcheck_spawn(&ch, a->exe, password, state, extra, err, errlen);
    if (rc == 0) {
        rc = session_measure(a, &ch, password, wl, cpu_per_loop, err, errlen);
        sim_selfcheck_stop(&ch);
    }
    workload_free(wl);
    return rc;
}

/* The workload --predict prices: its own, or the plan's (malloc'd, or NULL with err). */
static char *workload_of(const struct sim_opts *o, char *err, size_t errlen)
{
    if (!o->plan)
        return strdup(o->predict);
    return sim_ramp_plan_workload(o->plan, err, errlen);
}

void sim_selfcheck_predict(const struct sim_opts *o, struct sim_costs *c, FILE *out)
{
    char err[1024], exe[PATH_MAX], dir[PATH_MAX];
    struct sim_loop l;
    double measured = 0;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(dir, sizeof dir, "%.*s/session-check", PATH_MAX - 32, o->state_dir);
    char *wpath = workload_of(o, err, sizeof err);
    struct sim_selfcheck_args a = { exe, wpath, (unsigned)o->session_loops, o->work_scale, SIM_COST_BPP, dir };
    if (n <= 0)
        snprintf(err, sizeof err, "cannot find this program's path");
    if (n <= 0 || !wpath || sim_predict_loop(wpath, &l, err, sizeof err) != 0 ||
        sim_selfcheck_run(&a, &measured, err, sizeof err) != 0) {
        fprintf(out, "sessmax-simhost: real-session check failed (%s): the prediction uses the synthetic cost "
                "model\n", err);
        free(wpath);
        return;
    }
    double model = sim_cost_loop_cpu_s(c, &l), f = sim_cost_scale_to(c, &l, measured);
    fprintf(out, "sessmax-simhost: real session: %.3f s of CPU per loop (%u loop%s played into one session of a "
            "simhost child), synthetic cost model %.3f s (x%.2f): the prediction uses the real session's\n",
            measured, a.loops, a.loops == 1 ? "" : "s", model, f);
    fflush(out);
    free(wpath);
}
