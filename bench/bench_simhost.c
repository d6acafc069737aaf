/* bench_simhost.c -- how many concurrent logged-on sessions sessmax-simhost holds, and what each
 * costs it: starts build/sessmax-simhost on a free loopback port, logs on N headless FreeRDP
 * clients (a pool of connect threads doing freerdp_connect + gdi_init; one poll thread driving
 * every connected instance), holds them idle, and prints simhost's RSS, threads and fds per
 * session side by side with the baseline. With --mid-action each client types a command and
 * disconnects at once (used by the robustness test).
 *
 *   bench_simhost [--sessions N] [--threads K] [--hold S] [--bpp 16|32] [--mid-action CMD]
 *                 [--simhost PATH] [--port P --pid PID --fingerprint FP (an already running simhost)]
 */
#include "bench/bench_proc.h"
#include "common/hostport.h"
#include "common/keymap.h"
#include "common/numarg.h"
#include "common/workload.h"
#include "simhost/sim_cost.h"
#include "simhost/sim_predict.h"

#include <errno.h>
#include <freerdp/addin.h>
#include <freerdp/client/channels.h>
#include <freerdp/freerdp.h>
#include <freerdp/gdi/gdi.h>
#include <freerdp/settings.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <winpr/synch.h>
#include <winpr/wlog.h>
#include <sysexits.h>

struct bctx {
    rdpContext base;
    pBeginPaint orig_begin;
    pEndPaint orig_end;
    volatile int frames;
    volatile int dead;
};

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
static volatile int stop_poll;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static BOOL end_paint(rdpContext *ctx)
{
    struct bctx *b = (struct bctx *)ctx;
    BOOL ok = b->orig_end ? b->orig_end(ctx) : TRUE;
    HGDI_WND w = ctx->gdi->primary->hdc->hwnd;
    w->invalid->null = TRUE;
    w->ninvalid = 0;
    b->frames++;
    return ok;
}

static BOOL post_connect(freerdp *inst)
{
    struct bctx *b = (struct bctx *)inst->context;
    if (!gdi_init(inst, cfg.bpp == 16 ? PIXEL_FORMAT_RGB16 : PIXEL_FORMAT_BGRX32))
        return FALSE;
    b->orig_end = inst->context->update->EndPaint;
    inst->context->update->EndPaint = end_paint;
    return TRUE;
}

static freerdp *new_instance(int user)
{
    freerdp *inst = freerdp_new();
    char name[32];
    if (!inst)
        return NULL;
    inst->ContextSize = sizeof(struct bctx);
    inst->PostConnect = post_connect;
    if (!freerdp_context_new(inst)) {
        freerdp_free(inst);
        return NULL;
    }
    rdpSettings *s = inst->settings;
    snprintf(name, sizeof name, "simuser%03d", user);
    freerdp_settings_set_string(s, FreeRDP_ServerHostname, cfg.host);
    freerdp_settings_set_uint32(s, FreeRDP_ServerPort, (UINT32)cfg.port);
    freerdp_settings_set_string(s, FreeRDP_Username, name);
    freerdp_settings_set_string(s, FreeRDP_Password, cfg.password);
    freerdp_settings_set_string(s, FreeRDP_ConfigPath, cfg.config_dir);
    if (cfg.fingerprint)
        freerdp_settings_set_string(s, FreeRDP_CertificateAcceptedFingerprints, cfg.fingerprint);
    else
        freerdp_settings_set_bool(s, FreeRDP_IgnoreCertificate, TRUE);
    freerdp_settings_set_bool(s, FreeRDP_NlaSecurity, FALSE);
    freerdp_settings_set_uint32(s, FreeRDP_DesktopWidth, 1024);
    freerdp_settings_set_uint32(s, FreeRDP_DesktopHeight, 768);
    freerdp_settings_set_uint32(s, FreeRDP_ColorDepth, (UINT32)cfg.bpp);
    freerdp_settings_set_uint32(s, FreeRDP_KeyboardLayout, 0x409);
    freerdp_settings_set_bool(s, FreeRDP_RedirectClipboard, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_NetworkAutoDetect, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_SupportHeartbeatPdu, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_BitmapCacheEnabled, FALSE);
    freerdp_settings_set_uint32(s, FreeRDP_TcpAckTimeout, 60000);
    return inst;
}

static void free_instance(freerdp *inst)
{
    freerdp_disconnect(inst);
    gdi_free(inst);
    freerdp_context_free(inst);
    freerdp_free(inst);
}

static void send_key(freerdp *inst, uint32_t sc, int down)
{
    freerdp_input_send_keyboard_event_ex(inst->input, down, sc);
}

/* win+r, the command, enter: the session starts its work; the caller disconnects right after. */
static void type_command(freerdp *inst, const char *cmd)
{
    send_key(inst, KEYMAP_SC_LWIN, 1);
    send_key(inst, keymap_scancode_by_name("r"), 1);
    send_key(inst, keymap_scancode_by_name("r"), 0);
    send_key(inst, KEYMAP_SC_LWIN, 0);
    for (const char *p = cmd; *p; p++) {
        int shift;
        uint32_t sc = keymap_scancode_for_char(*p, &shift);
        send_key(inst, sc, 1);
        send_key(inst, sc, 0);
    }
    send_key(inst, KEYMAP_SC_ENTER, 1);
    send_key(inst, KEYMAP_SC_ENTER, 0);
}

static void *connect_thread(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&mu);
        int user = next_user < cfg.sessions ? ++next_user : 0;
        pthread_mutex_unlock(&mu);
        if (!user)
            return NULL;
        freerdp *inst = new_instance(user);
        if (!inst || !freerdp_connect(inst)) {
            if (inst)
                fprintf(stderr, "bench_simhost: simuser%03d: connect failed: %s\n", user,
                        freerdp_get_last_error_string(freerdp_get_last_error(inst->context)));
            pthread_mutex_lock(&mu);
            failures++;
            pthread_mutex_unlock(&mu);
            if (inst)
                free_instance(inst);
            continue;
        }
        if (cfg.mid_action) {
            type_command(inst, cfg.mid_action);
            usleep(100 * 1000);    /* the server has started the work ... */
            free_instance(inst);   /* ... and the client is gone before the paint */
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
            struct bctx *b = (struct bctx *)conns[i]->context;
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
            struct bctx *b = (struct bctx *)conns[last]->context;
            if (!freerdp_check_event_handles(conns[last]->context))
                b->dead = 1;
        }
    }
    free(pfd);
    free(owner);
    return NULL;
}

/* Starts simhost (--users = sessions) and reads port + fingerprint from its ready line. */
static pid_t start_simhost(const char *path, const char *state)
{
    int fds[2];
    char port[16], users[16], listen[64];
    int p = hostport_free_loopback();
    FILE *f;
    char line[512];
    if (p <= 0)
        return -1;
    snprintf(port, sizeof port, "%d", p);
    snprintf(listen, sizeof listen, "127.0.0.1:%s", port);
    snprintf(users, sizeof users, "%d", cfg.sessions);
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);   /* never outlive the bench */
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        setenv("SESSMAX_PASSWORD", cfg.password, 1);
        execl(path, path, "--listen", listen, "--users", users, "--state-dir", state, "--max-conns",
              "4096", "--log-level", "warn", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    f = fdopen(fds[0], "r");
    while (f && fgets(line, sizeof line, f)) {
        char *fp = strstr(line, " fingerprint ");
        if (strstr(line, "listening on") && fp) {
            static char fpbuf[128];
            snprintf(fpbuf, sizeof fpbuf, "%s", fp + 13);
            fpbuf[strcspn(fpbuf, "\n")] = '\0';
            cfg.fingerprint = fpbuf;
            cfg.port = p;
            return pid;   /* keep the pipe open: simhost's stdout stays valid */
        }
    }
    return -1;
}

/* ---- --loop-check: play a workload loop into one session ---- */

struct player {
    freerdp *inst;
    int enter_pause;
};

static void pause_ms(int ms) { usleep((useconds_t)ms * 1000); }

static int play_step(void *ctx, const struct workload_step *st, const char *timer)
{
    struct player *p = ctx;
    (void)timer;
    if (st->kind == WORKLOAD_STEP_KEY) {
        for (size_t i = 0; i < st->nchord; i++)
            send_key(p->inst, st->chord[i], 1);
        for (size_t i = st->nchord; i-- > 0;)
            send_key(p->inst, st->chord[i], 0);
        /* enter and ctrl+o start work: give it time so frames go out one per action */
        pause_ms(st->nchord == 1 && st->chord[0] == KEYMAP_SC_ENTER ? 1200 : st->nchord > 1 ? 300 : 20);
    } else if (st->kind == WORKLOAD_STEP_TYPE) {
        char text[1024];
        workload_expand(st->text, "simuser001", text, sizeof text);
        for (const char *c = text; *c; c++) {
            int shift;
            uint32_t sc = keymap_scancode_for_char(*c, &shift);
            if (shift)
                send_key(p->inst, KEYMAP_SC_LSHIFT, 1);
            send_key(p->inst, sc, 1);
            send_key(p->inst, sc, 0);
            if (shift)
                send_key(p->inst, KEYMAP_SC_LSHIFT, 0);
            pause_ms(20);
        }
    }
    return 0;
}

static int loop_check(void)
{
    char err[1024], dir[PATH_MAX + 16];
    struct workload *wl = workload_load_file(cfg.loop_check, err, sizeof err);
    struct sim_loop l;
    struct sim_costs costs;
    struct sim_font font;
    if (!wl || sim_predict_loop(cfg.loop_check, &l, err, sizeof err) != 0) {
        fprintf(stderr, "bench_simhost: %s\n", err);
        return 1;
    }
    snprintf(dir, sizeof dir, "%s/calib", cfg.config_dir);
    if (sim_font_load(&font, SIM_FONT_PATH, 13, err, sizeof err) != 0 ||
        sim_cost_calibrate(&costs, dir, 1.0, &font, err, sizeof err) != 0) {
        fprintf(stderr, "bench_simhost: %s\n", err);
        return 1;
    }
    sim_font_free(&font);
    while (nconns < 1 && !failures)
        usleep(10000);
    if (!nconns)
        return 1;
    struct player p = { conns[0], 0 };
    usleep(1000000);
    double c0 = bench_proc_cpu_s(cfg.pid);
    for (int i = 0; i < cfg.loops; i++)
        workload_walk(wl, WORKLOAD_PART_LOOP, play_step, &p);
    double c1 = bench_proc_cpu_s(cfg.pid), c2;
    for (;;) {   /* until simhost is idle again */
        usleep(1000000);
        c2 = bench_proc_cpu_s(cfg.pid);
        if (c2 - c1 < 0.02)
            break;
        c1 = c2;
    }
    workload_free(wl);
    double measured = (c2 - c0) / cfg.loops, predicted = sim_cost_loop_cpu_s(&costs, &l);
    printf("bench_simhost: loop-check %s, %d loops, %d bpp: simhost CPU per loop measured %.3f s, "
           "cost model %.3f s, measured/model = %.2f\n", cfg.loop_check, cfg.loops, cfg.bpp, measured,
           predicted, measured / predicted);
    return 0;
}

static void usage(void)
{
    fputs("usage: bench_simhost [--sessions N] [--threads K] [--hold S] [--bpp 16|32] [--mid-action CMD]\n"
          "                     [--simhost PATH] [--port P --pid PID [--fingerprint FP]]\n"
          "       bench_simhost --loop-check WORKLOAD.yaml [--loops N] --sessions 1\n"
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
    pthread_t *th, poller;
    int own = 0, rc = 1;
    if (parse(argc, argv) != 0)
        return EX_USAGE;
    signal(SIGPIPE, SIG_IGN);
    WLog_SetLogLevel(WLog_GetRoot(), WLOG_OFF);
    freerdp_register_addin_provider(freerdp_channels_load_static_addin_entry, 0);
    if (!mkdtemp(tmpl))
        return 1;
    snprintf(cfg.config_dir, sizeof cfg.config_dir, "%s/freerdp", tmpl);
    snprintf(state, sizeof state, "%s/state", tmpl);
    if (cfg.port) {
        const char *pw = getenv("SESSMAX_PASSWORD");
        snprintf(cfg.password, sizeof cfg.password, "%s", pw ? pw : "");
    } else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
        exe[n > 0 ? n : 0] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            strcpy(slash, "/../sessmax-simhost");
        snprintf(cfg.password, sizeof cfg.password, "bench-%ld-%ld", (long)getpid(), (long)time(NULL));
        cfg.pid = start_simhost(cfg.simhost_path ? cfg.simhost_path : exe, state);
        if (cfg.pid <= 0) {
            fprintf(stderr, "bench_simhost: cannot start %s\n", cfg.simhost_path ? cfg.simhost_path : exe);
            return 1;
        }
        own = 1;
    }
    long rss0 = cfg.pid ? bench_proc_kb(cfg.pid, "VmRSS:") : -1;
    int thr0 = cfg.pid ? bench_proc_count(cfg.pid, "task") : -1, fd0 = cfg.pid ? bench_proc_count(cfg.pid, "fd") : -1;
    long self0 = bench_proc_kb(getpid(), "VmRSS:");
    conns = calloc((size_t)cfg.sessions, sizeof *conns);
    th = calloc((size_t)cfg.threads, sizeof *th);
    double t0 = now_s();
    pthread_create(&poller, NULL, poll_thread, NULL);
    for (int i = 0; i < cfg.threads; i++)
        pthread_create(&th[i], NULL, connect_thread, NULL);
    for (int i = 0; i < cfg.threads; i++)
        pthread_join(th[i], NULL);
    double t_conn = now_s() - t0;
    if (cfg.loop_check) {
        rc = loop_check();
        stop_poll = 1;
        pthread_join(poller, NULL);
        for (int i = 0; i < nconns; i++)
            free_instance(conns[i]);
        goto out;
    }
    /* wait (bounded) for every session's first frame: the desktop is painted */
    int painted = 0;
    for (int w = 0; w < 300; w++) {
        painted = 0;
        pthread_mutex_lock(&mu);
        for (int i = 0; i < nconns && !cfg.mid_action; i++)
            painted += ((struct bctx *)conns[i]->context)->frames > 0;
        pthread_mutex_unlock(&mu);
        if (painted >= nconns || cfg.mid_action)
            break;
        usleep(100000);
    }
    double cpu0 = cfg.pid ? bench_proc_cpu_s(cfg.pid) : 0;
    usleep((useconds_t)(cfg.hold_s * 1e6));
    double cpu1 = cfg.pid ? bench_proc_cpu_s(cfg.pid) : 0;
    int alive = 0;
    for (int i = 0; i < nconns && !cfg.mid_action; i++)
        alive += !((struct bctx *)conns[i]->context)->dead;
    long rss1 = cfg.pid ? bench_proc_kb(cfg.pid, "VmRSS:") : -1, self1 = bench_proc_kb(getpid(), "VmRSS:");
    int thr1 = cfg.pid ? bench_proc_count(cfg.pid, "task") : -1, fd1 = cfg.pid ? bench_proc_count(cfg.pid, "fd") : -1;
    stop_poll = 1;
    pthread_join(poller, NULL);
    for (int i = 0; i < nconns && !cfg.mid_action; i++)
        free_instance(conns[i]);
    usleep(1500000);
    int thr2 = cfg.pid ? bench_proc_count(cfg.pid, "task") : -1, fd2 = cfg.pid ? bench_proc_count(cfg.pid, "fd") : -1;
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
    if (own) {
        kill(cfg.pid, SIGTERM);
        waitpid(cfg.pid, NULL, 0);
        char cmd[PATH_MAX + 16];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpl);
        if (system(cmd) != 0)
            rc = rc ? rc : 0;
    }
    free(conns);
    free(th);
    return rc;
}
