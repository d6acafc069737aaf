/* kind.c -- the x11 kind's table for the engine (kind.h) and its engine-wide part: Xlib made
 * thread-safe once, the sessions' directories (on tmpfs when there is one, so the X servers'
 * framebuffer files never cause disk writes) and the clients' costs read off the loop (costs.h). */
#include "agent/x11/kind.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/engine/session_life.h"
#include "agent/x11/costs.h"
#include "agent/x11/display.h"
#include "agent/x11/session.h"
#include "common/log.h"
#include "common/x11_preset.h"

struct x11_kind {
    char dir[4096];                    /* the sessions' directories */
    struct x11_costs *costs;
};

static int make_dir(char *path, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, len, "/dev/shm/sessmax-x11.XXXXXX");
    if (access("/dev/shm", W_OK) == 0 && mkdtemp(path))
        return 0;
    snprintf(path, len, "%s/sessmax-x11.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(path))
        return 0;
    log_error("%s: cannot create: %s", path, strerror(errno));
    path[0] = '\0';
    return -1;
}

static int rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void kind_free(void *kind)
{
    struct x11_kind *k = kind;
    if (!k)
        return;
    x11_costs_free(k->costs);
    if (k->dir[0])
        nftw(k->dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
    free(k);
}

/* The agent's memory per external session: its copy of the screen and the MIT-SHM segment. */
static uint64_t screen_kb(const struct x11_client *c)
{
    return (uint64_t)c->width * c->height * 4 * 2 / 1024;
}

static int kind_init(const struct session_host *h, void **kind)
{
    struct x11_kind *k = calloc(1, sizeof *k);
    *kind = k;
    if (!h->cfg->client) {
        log_error("engine: the x11 session kind needs an external client");
        return -1;
    }
    if (!k || x11_display_init() != 0 || make_dir(k->dir, sizeof k->dir) != 0 ||
        !(k->costs = x11_costs_new(h->conn, screen_kb(h->cfg->client))))
        return -1;
    return 0;
}

/* The clients' processes: the figures of the last read into rec, and the next read handed to a
 * worker. */
static void kind_health(void *kind, struct rec_health *rec, void *const *sessions, size_t n)
{
    struct x11_kind *k = kind;
    x11_costs_take(k->costs, rec);
    if (!x11_costs_begin(k->costs))
        return;
    for (size_t i = 0; i < n; i++) {
        pid_t client, xserver;
        if (x11_session_pids(sessions[i], &client, &xserver))
            x11_costs_add(k->costs, x11_session_life(sessions[i])->index, client, xserver);
    }
    x11_costs_submit(k->costs);
}

static void *create(void *kind, const struct session_host *h, const struct engine_session_spec *spec)
{
    struct x11_kind *k = kind;
    struct x11_session *s = x11_session_new(h, k->dir, spec);
    if (!s)
        log_error("session %u: out of memory", spec->session_index);
    return s;
}

static void start(void *s) { x11_session_start(s); }
static void logoff(void *s) { x11_session_logoff(s); }
static void kill_now(void *s, enum failure_reason r, const char *d) { x11_session_kill(s, r, d); }
static const struct session_life *life(const void *s) { return x11_session_life(s); }
static int screen(void *s, struct screen_view *out) { return x11_session_screen(s, out); }
static int save_png(void *s, const char *path) { return x11_session_save_png(s, path); }
static void abort_start(void *s) { x11_session_abort_start(s); }
static void free_session(void *s) { x11_session_free(s); }

const struct session_ops x11_session_ops = {
    .name = "x11", .kind_init = kind_init, .kind_health = kind_health, .kind_free = kind_free,
    .create = create, .start = start, .logoff = logoff, .kill = kill_now, .life = life,
    .screen = screen, .save_png = save_png, .abort_start = abort_start, .free = free_session,
};
