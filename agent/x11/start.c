/* start.c -- the worker side of an external-client session's start (see start.h). */
#include "agent/x11/start.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/x11/display.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/x11_preset.h"

#define X11_START_POLL_MS 100

static int fail(struct x11_start *st, enum failure_reason r, const char *detail)
{
    st->reason = r;
    snprintf(st->detail, sizeof st->detail, "%s", detail);
    return -1;
}

static int aborted(struct x11_start *st)
{
    return atomic_load(&st->abort) ? fail(st, FAIL_ABORTED, "session stopped while starting") : 0;
}

/* Xvfb, then its display number on the pipe. */
static int start_xserver(struct x11_start *st)
{
    char err[RESULTS_DETAIL_LEN], buf[16];
    const struct x11_client *c = st->ctx.cfg->client;
    size_t len = 0;
    int fd = -1, n = -1;
    if (!(st->xserver = x11_launch_xserver(st->ctx.dir, c->width, c->height, st->cookie, &fd, err,
                                            sizeof err)))
        return fail(st, FAIL_XSERVER, err);
    for (uint32_t waited = 0; n == -1 && waited < st->wait_ms; waited += X11_START_POLL_MS) {
        struct pollfd pf = { .fd = fd, .events = POLLIN };
        if (aborted(st)) {
            close(fd);
            return -1;
        }
        if (poll(&pf, 1, X11_START_POLL_MS) > 0)
            n = x11_launch_read_display(fd, buf, sizeof buf, &len);
    }
    close(fd);
    if (n < 0)
        return fail(st, FAIL_XSERVER, n == -1 ? "Xvfb did not say its display number in time"
                                              : "Xvfb did not say its display number");
    snprintf(st->display, sizeof st->display, ":%d", n);
    return 0;
}

static int open_display(struct x11_start *st)
{
    char err[RESULTS_DETAIL_LEN];
    st->dpy = x11_display_open(st->display, st->cookie, sizeof st->cookie, err, sizeof err);
    explicit_bzero(st->cookie, sizeof st->cookie);
    if (!st->dpy)
        return fail(st, FAIL_XSERVER, err);
    log_info("%s: X display %s, screen pixels through %s", st->ctx.user, st->display,
             x11_display_pixels_method(st->dpy));
    return 0;
}

/* The password helper when the preset has one, run to its end. */
static int run_helper(struct x11_start *st)
{
    char err[RESULTS_DETAIL_LEN], how[64], detail[RESULTS_DETAIL_LEN];
    int needed, status = 0;
    struct x11_proc *h = x11_launch_helper(&st->ctx, &needed, err, sizeof err);
    if (!needed)
        return 0;
    if (!h)
        return fail(st, FAIL_INTERNAL, err);
    int rc = x11_proc_wait(h, st->wait_ms, &st->abort, &status);
    x11_proc_free(h);
    if (rc != 0)
        return aborted(st) ? -1 : fail(st, FAIL_INTERNAL, "password helper did not finish in time");
    if (status != 0) {
        x11_proc_describe(status, how, sizeof how);
        snprintf(detail, sizeof detail, "password helper %s", how);
        return fail(st, FAIL_INTERNAL, detail);
    }
    return 0;
}

void x11_start_work(struct connector_job *j)
{
    struct x11_start *st = (struct x11_start *)j;
    char err[RESULTS_DETAIL_LEN];
    st->reason = FAIL_NONE;
    st->detail[0] = '\0';
    if (mkdir(st->ctx.dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, sizeof err, "%.100s: cannot create: %.40s", st->ctx.dir, strerror(errno));
        fail(st, FAIL_INTERNAL, err);
        return;
    }
    if (aborted(st) || start_xserver(st) != 0)
        return;
    st->ctx.display = st->display;
    if (aborted(st) || open_display(st) != 0 || aborted(st) || run_helper(st) != 0 || aborted(st))
        return;
    st->client_started_us = clock_now_us();
    if (!(st->client = x11_launch_client(&st->ctx, err, sizeof err)))
        fail(st, FAIL_INTERNAL, err);
}

void x11_start_abort(struct x11_start *st)
{
    atomic_store(&st->abort, 1);
}
