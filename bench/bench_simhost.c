/* bench_simhost.c -- how many concurrent logged-on sessions sessmax-simhost holds, and what each
 * costs it: starts build/sessmax-simhost on a free loopback port, logs on N headless FreeRDP
 * clients (a pool of connect threads doing freerdp_connect + gdi_init; one poll thread driving
 * every connected instance), holds them idle, and prints simhost's RSS, threads and fds per
 * session side by side with the baseline. With --mid-action each client types a command and
 * disconnects at once (used by the robustness test).
 *
 * With --loop-check it runs simhost's real-session check (simhost/model/selfcheck.h) and prints its
 * figure beside the cost model's.
 *
 *   bench_simhost [--sessions N] [--threads K] [--hold S] [--bpp 16|32] [--mid-action CMD]
 *                 [--simhost PATH] [--port P --pid PID --fingerprint FP (an already running simhost)]
 */
#include "common/procstat.h"
#include "common/keymap.h"
#include "common/numarg.h"
#include "common/workload.h"
#include "simhost/desktop/cost.h"
#include "simhost/model/client.h"
#include "simhost/model/predict.h"
#include "simhost/model/selfcheck.h"

#include <freerdp/addin.h>
#include <freerdp/client/channels.h>
#include <freerdp/freerdp.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <winpr/synch.h>
#include <winpr/wlog.h>
#include <sysexits.h>

static struct {
    const char *host, *fingerprint, *mid_action, *simhost_path, *loop_check;
    int port, sessions, threads, bpp, loops;
    double hold_s;
    pid_t pid;
    char password[64], config_dir[PATH_MAX];
} cfg = { "127.0.0.1", NULL, NULL, NULL, NULL, 0, 300, 16, 16, 5, 10.0, 0, "", "" };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static freerdp **conns;
static int nconns, next_user, failures, mid_done;
/* The first connection is made alone: FreeRDP 2.11 builds its WLog loggers and BIO method tables
 * lazily in unguarded statics, and connect threads that make their first connection at the same
 * instant each build one and drop all but one (leaks LeakSanitizer reports, and a data race). */
static pthread_cond_t first_cv = PTHREAD_COND_INITIALIZER;
static int first_over;
static volatile int stop_poll;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* win+r, the command, enter: the session starts its work; the caller disconnects right after. */
static void type_command(freerdp *inst, const char *cmd)
{
    sim_client_key(inst, KEYMAP_SC_LWIN, 1);
    sim_client_key(inst, keymap_scancode_by_name("r"), 1);
    sim_client_key(inst, keymap_scancode_by_name("r"), 0);
    sim_client_key(inst, KEYMAP_SC_LWIN, 0);
    for (const char *p = cmd; *p; p++)
        sim_client_char(inst, *p);
    sim_client_key(inst, KEYMAP_SC_ENTER, 1);
    sim_client_key(inst, KEYMAP_SC_ENTER, 0);
}

static freerdp *new_instance(int user)
{
    char name[32];
    snprintf(name, sizeof name, "simuser%03d", user);
    struct sim_client_cfg cc = { cfg.host, cfg.port, name, cfg.password, cfg.config_dir, cfg.fingerprint, cfg.bpp };
    return sim_client_new(&cc);
}

static void *connect_thread(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&mu);
        int user = next_user < cfg.sessions ? ++next_user : 0;
        while (user > 1 && !first_over)
            pthread_cond_wait(&first_cv, &mu);
        pthread_mutex_unlock(&mu);
        if (!user)
            return NULL;
        freerdp *inst = new_instance(user);
        BOOL connected = inst && freerdp_connect(inst);
        if (user == 1) {
            pthread_mutex_lock(&mu);
            first_over = 1;
            pthread_cond_broadcast(&first_cv);
            pthread_mutex_unlock(&mu);
        }
        if (!connected) {
            if (inst)
                fprintf(stderr, "bench_simhost: simuser%03d: connect failed: %s\n", user,
                        freerdp_get_last_error_string(freerdp_get_last_error(inst->context)));
            pthread_mutex_lock(&mu);
            failures++;
            pthread_mutex_unlock(&mu);
            if (inst)
                sim_client_free(inst);
            continue;
        }
        if (cfg.mid_action) {
            type_command(inst, cfg.mid_action);
            usleep(100 * 1000);    /* the server has started the work ... */
            sim_client_free(inst);   /* ... and the client is gone before the paint */
            pthread_mutex_lock(&mu);
            mid_done++;
            pthread_mutex_unlock(&mu);
            continue;
        }
        pthread_mutex_lock(&mu);
        conns[nconns++] = inst;
        pthread_mutex_unlock(&mu);
    }
}

/* One thread drives every connected instance: poll on their event fds, check_event_handles. */
static void *poll_thread(void *arg)
{
    (void)arg;
    struct pollfd *pfd = NULL;
    int *owner = NULL, cap = 0;
    while (!stop_poll) {
        int n = 0;
        pthread_mutex_lock(&mu);
        int count = nconns;
        if (cap < count * 8) {
            cap = count * 8 + 64;
            pfd = realloc(pfd, sizeof *pfd * (size_t)cap);
            owner = realloc(owner, sizeof *owner * (size_t)cap);
        }
        for (int i = 0; i < count; i++) {
            struct sim_client *b = (struct sim_client *)conns[i]->context;
            if (b->dead)
                continue;
            HANDLE h[8];
            DWORD k = freerdp_get_event_handles(conns[i]->context, h, 8);
            for (DWORD j = 0; j < k; j++) {
                pfd[n] = (struct pollfd){ .fd = GetEventFileDescriptor(h[j]), .events = POLLIN };
                owner[n++] = i;
            }
        }
        pthread_mutex_unlock(&mu);
        if (n == 0) {
            usleep(50000);
            continue;
        }
        if (poll(pfd, (nfds_t)n, 100) <= 0)
            continue;
        int last = -1;
        for (int j = 0; j < n; j++) {
            if (!pfd[j].revents || owner[j] == last)
                continue;
            last = owner[j];
            struct sim_client *b = (struct sim_client *)conns[last]->context;
            if (!freerdp_check_event_handles(conns[last]->context))
                b->dead = 1;
        }
    }
    free(pfd);
    free(owner);
    return NULL;
}

/* Starts simhost (--users = sessions) on a free loopback port; port and fingerprint into cfg. */
static int start_simhost(const char *path, const char *state, struct sim_selfcheck_child *ch)
{
    char users[16], err[512];
    snprintf(users, sizeof users, "%d", cfg.sessions);
    const char *extra[] = { "--users", users, "--max-conns", "4096", NULL };
    if (sim_selfcheck_spawn(ch, path, cfg.password, state, extra, err, sizeof err) != 0) {
        fprintf(stderr, "bench_simhost: %s\n", err);
        return -1;
    }
    static char fp[128];
    snprintf(fp, sizeof fp, "%s", ch->fingerprint);
    cfg.fingerprint = fp;
    cfg.port = ch->port;
    cfg.pid = ch->pid;
    return 0;
}

/* --loop-check: simhost's real-session check against the cost model at work-scale 1. */
static int loop_check(const char *exe, const char *dir)
{
    char err[1024], calib[PATH_MAX + 16];
    struct sim_loop l;
    struct sim_costs costs;
    struct sim_font font;
    double measured;
    struct sim_selfcheck_args a = { exe, cfg.loop_check, (unsigned)cfg.loops, 1.0, cfg.bpp, dir };
    snprintf(calib, sizeof calib, "%s/calib", dir);
    if (sim_predict_loop(cfg.loop_check, &l, err, sizeof err) != 0 ||
        sim_font_load(&font, SIM_FONT_PATH, 13, err, sizeof err) != 0) {
        fprintf(stderr, "bench_simhost: %s\n", err);
        return 1;
    }
    int rc = sim_cost_calibrate(&costs, calib, 1.0, &font, err, sizeof err);
    sim_font_free(&font);
    if (rc != 0 || sim_selfcheck_run(&a, &measured, err, sizeof err) != 0) {
        fprintf(stderr, "bench_simhost: %s\n", err);
        return 1;
    }
    double predicted = sim_cost_loop_cpu_s(&costs, &l);
    printf("bench_simhost: loop-check %s, %d loops, %d bpp: simhost CPU per loop measured %.3f s, "
           "cost model %.3f s, measured/model = %.2f\n", cfg.loop_check, cfg.loops, cfg.bpp, measured,
           predicted, measured / predicted);
    return 0;
}

static void usage(void)
{
    fputs("usage: bench_simhost [--sessions N] [--threads K] [--hold S] [--bpp 16|32] [--mid-action CMD]\n"
          "                     [--simhost PATH] [--port P --pid PID [--fingerprint FP]]\n"
          "       bench_simhost --loop-check WORKLOAD.yaml [--loops N] [--bpp 16|32] [--simhost PATH]\n"
          "  The password comes from SESSMAX_PASSWORD with --port (a running simhost); otherwise a\n"
          "  throwaway one is generated for the simhost this bench starts.\n", stderr);
}

/* An integer option in [min, max] into an int field; complains on stderr. */
static int num(const char *opt, const char *v, unsigned long min, unsigned long max, int *out)
{
    char err[256];
    unsigned long n;
    if (numarg_ulong(opt, v, min, max, &n, err, sizeof err) != 0) {
        fprintf(stderr, "bench_simhost: %s\n", err);
        return -1;
    }
    *out = (int)n;
    return 0;
}

static int parse_one(int c, const char *v)
{
    char err[256];
    int pid;
    switch (c) {
    case 's': return num("--sessions", v, 1, 100000, &cfg.sessions);
    case 't': return num("--threads", v, 1, 1024, &cfg.threads);
    case 'b': return num("--bpp", v, 16, 32, &cfg.bpp);
    case 'l': return num("--loops", v, 1, 100000, &cfg.loops);
    case 'p': return num("--port", v, 1, 65535, &cfg.port);
    case 'P':
        if (num("--pid", v, 1, 4194304, &pid) != 0)
            return -1;
        cfg.pid = (pid_t)pid;
        return 0;
    case 'H':
        if (numarg_double("--hold", v, 0, 86400, &cfg.hold_s, err, sizeof err) == 0)
            return 0;
        fprintf(stderr, "bench_simhost: %s\n", err);
        return -1;
    case 'm': cfg.mid_action = v; return 0;
    case 'c': cfg.loop_check = v; return 0;
    case 'x': cfg.simhost_path = v; return 0;
    case 'f': cfg.fingerprint = v; return 0;
    }
    return -1;
}

static int parse(int argc, char **argv)
{
    static const struct option LONGOPTS[] = {
        { "sessions", required_argument, NULL, 's' }, { "threads", required_argument, NULL, 't' },
        { "hold", required_argument, NULL, 'H' }, { "bpp", required_argument, NULL, 'b' },
        { "mid-action", required_argument, NULL, 'm' }, { "loop-check", required_argument, NULL, 'c' },
        { "loops", required_argument, NULL, 'l' }, { "simhost", required_argument, NULL, 'x' },
        { "port", required_argument, NULL, 'p' }, { "pid", required_argument, NULL, 'P' },
        { "fingerprint", required_argument, NULL, 'f' }, { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "", LONGOPTS, NULL)) != -1)
        if (c == '?' || parse_one(c, optarg) != 0) {
            usage();
            return -1;
        }
    if (optind < argc || (cfg.bpp != 16 && cfg.bpp != 32)) {
        usage();
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    char tmpl[] = "/tmp/bench_simhost.XXXXXX", state[PATH_MAX + 16], exe[PATH_MAX];
    pthread_t *th = NULL, poller;
    int rc = 1;
    if (parse(argc, argv) != 0)
        return EX_USAGE;
    signal(SIGPIPE, SIG_IGN);
    WLog_SetLogLevel(WLog_GetRoot(), WLOG_OFF);
    freerdp_register_addin_provider(freerdp_channels_load_static_addin_entry, 0);
    if (!mkdtemp(tmpl))
        return 1;
    snprintf(cfg.config_dir, sizeof cfg.config_dir, "%s/freerdp", tmpl);
    snprintf(state, sizeof state, "%s/state", tmpl);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
    exe[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        strcpy(slash, "/../sessmax-simhost");
    const char *path = cfg.simhost_path ? cfg.simhost_path : exe;
    struct sim_selfcheck_child child = { 0 };
    if (cfg.loop_check) {
        rc = loop_check(path, tmpl);
        goto out;
    }
    if (cfg.port) {
        const char *pw = getenv("SESSMAX_PASSWORD");
        snprintf(cfg.password, sizeof cfg.password, "%s", pw ? pw : "");
    } else {
        snprintf(cfg.password, sizeof cfg.password, "bench-%ld-%ld", (long)getpid(), (long)time(NULL));
        if (start_simhost(path, state, &child) != 0)
            return 1;
    }
    long rss0 = cfg.pid ? procstat_kb(cfg.pid, "VmRSS:") : -1;
    int thr0 = cfg.pid ? procstat_count(cfg.pid, "task") : -1, fd0 = cfg.pid ? procstat_count(cfg.pid, "fd") : -1;
    long self0 = procstat_kb(getpid(), "VmRSS:");
    conns = calloc((size_t)cfg.sessions, sizeof *conns);
    th = calloc((size_t)cfg.threads, sizeof *th);
    double t0 = now_s();
    pthread_create(&poller, NULL, poll_thread, NULL);
    for (int i = 0; i < cfg.threads; i++)
        pthread_create(&th[i], NULL, connect_thread, NULL);
    for (int i = 0; i < cfg.threads; i++)
        pthread_join(th[i], NULL);
    double t_conn = now_s() - t0;
    /* wait (bounded) for every session's first frame: the desktop is painted */
    int painted = 0;
    for (int w = 0; w < 300; w++) {
        painted = 0;
        pthread_mutex_lock(&mu);
        for (int i = 0; i < nconns && !cfg.mid_action; i++)
            painted += ((struct sim_client *)conns[i]->context)->frames > 0;
        pthread_mutex_unlock(&mu);
        if (painted >= nconns || cfg.mid_action)
            break;
        usleep(100000);
    }
    double cpu0 = cfg.pid ? procstat_cpu_s(cfg.pid) : 0;
    usleep((useconds_t)(cfg.hold_s * 1e6));
    double cpu1 = cfg.pid ? procstat_cpu_s(cfg.pid) : 0;
    int alive = 0;
    for (int i = 0; i < nconns && !cfg.mid_action; i++)
        alive += !((struct sim_client *)conns[i]->context)->dead;
    long rss1 = cfg.pid ? procstat_kb(cfg.pid, "VmRSS:") : -1, self1 = procstat_kb(getpid(), "VmRSS:");
    int thr1 = cfg.pid ? procstat_count(cfg.pid, "task") : -1, fd1 = cfg.pid ? procstat_count(cfg.pid, "fd") : -1;
    stop_poll = 1;
    pthread_join(poller, NULL);
    for (int i = 0; i < nconns && !cfg.mid_action; i++)
        sim_client_free(conns[i]);
    usleep(1500000);
    int thr2 = cfg.pid ? procstat_count(cfg.pid, "task") : -1, fd2 = cfg.pid ? procstat_count(cfg.pid, "fd") : -1;
    if (cfg.mid_action) {
        printf("bench_simhost: mid-action: %d sessions typed '%s' and disconnected, %d failed to connect\n",
               mid_done, cfg.mid_action, failures);
        rc = failures ? 1 : 0;
    } else {
        int held = alive;
        printf("bench_simhost: sessions held %d of %d (%d failed), connect %.1f s (%.1f logons/s, %d threads), "
               "%d painted\n", held, cfg.sessions, failures, t_conn, nconns / t_conn, cfg.threads, painted);
        if (cfg.pid && held > 0) {
            printf("bench_simhost: simhost RSS   %7.1f MB idle -> %7.1f MB with %d sessions = %.2f MB per session\n",
                   rss0 / 1024.0, rss1 / 1024.0, held, (rss1 - rss0) / 1024.0 / held);
            printf("bench_simhost: simhost threads %5d      -> %7d              = %.2f per session\n", thr0, thr1,
                   (double)(thr1 - thr0) / held);
            printf("bench_simhost: simhost fds     %5d      -> %7d              = %.2f per session\n", fd0, fd1,
                   (double)(fd1 - fd0) / held);
            printf("bench_simhost: simhost CPU while idle: %.3f s over %.0f s = %.3f %% of a core per session\n",
                   cpu1 - cpu0, cfg.hold_s, (cpu1 - cpu0) / cfg.hold_s * 100.0 / held);
            printf("bench_simhost: after logoff: threads %d, fds %d (baseline %d, %d)\n", thr2, fd2, thr0, fd0);
        }
        printf("bench_simhost: this client: %.2f MB per session (%d bpp framebuffers)\n",
               held ? (self1 - self0) / 1024.0 / held : 0.0, cfg.bpp);
        rc = (held == cfg.sessions) ? 0 : 1;
    }
out:
    sim_selfcheck_stop(&child);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpl);
    if (system(cmd) != 0)
        rc = rc ? rc : 0;
    free(conns);
    free(th);
    return rc;
}
