/* studio.c -- the studio's state and its tries (studio.h): a try's workload is the recording's
 * head plus the steps (studio_rec_try_yaml), loaded with the workload loader and run by
 * studio_try; its outcome is described for the page (which condition ended it, and what the
 * plausibility floor says) and kept with the latest STUDIO_TRIES_KEPT. */
#include "agent/studio/studio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/driver/screen.h"
#include "common/workload.h"

struct studio *studio_new(struct event_base *base, const struct studio_live *live, const char *user,
                          const char *name, const char *out_path, uint32_t width, uint32_t height, uint32_t bpp)
{
    struct studio *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->base = base;
    s->live = *live;
    snprintf(s->user, sizeof s->user, "%s", user ? user : "");
    snprintf(s->out_path, sizeof s->out_path, "%s", out_path);
    studio_rec_init(&s->rec, name, width, height, bpp);
    s->png_frame = UINT64_MAX;
    return s;
}

void studio_free(struct studio *s)
{
    if (!s)
        return;
    studio_try_free(s->cur);
    free(s->png);
    free(s);
}

void studio_paint(struct studio *s, const struct rect *rects, size_t n)
{
    s->frame++;
    studio_try_paint(s->cur, rects, n);
}

/* ---------------------------------------------------------------- describing a try */

static void cond_text(const struct studio_cond *c, char *out, size_t len)
{
    if (c->kind == STUDIO_PIXEL)
        snprintf(out, len, "pixel %d,%d #%06x", c->x, c->y, c->rgb);
    else if (c->kind == STUDIO_STABLE)
        snprintf(out, len, "stable %s for %u ms", c->region, c->for_ms ? c->for_ms : 300);
    else if (c->except[0])
        snprintf(out, len, "change %s (except %s)", c->region, c->except);
    else
        snprintf(out, len, "change %s", c->region);
}

static void ms(char *out, size_t len, uint64_t us) { snprintf(out, len, "%.1f ms", us / 1000.0); }

void studio_describe(const struct studio_step *steps, size_t n, struct studio_tried *t)
{
    const struct studio_step *last = n ? &steps[n - 1] : NULL;
    const struct studio_try_result *r = &t->r;
    char c[96], f[32];
    t->floor[0] = '\0';
    if (r->failed) {
        snprintf(t->ended_by, sizeof t->ended_by, "did not hold: %s", r->detail);
    } else if (last && (last->kind == STUDIO_WAIT || last->kind == STUDIO_TIMER) && last->nconds) {
        cond_text(&last->conds[last->nconds - 1], c, sizeof c);
        snprintf(t->ended_by, sizeof t->ended_by, "%s held%s", c,
                 last->nconds > 1 ? ", the last of its conditions in order" : "");
    } else {
        snprintf(t->ended_by, sizeof t->ended_by, "sent");
    }
    if (!r->timed)
        return;
    ms(f, sizeof f, r->floor_us);
    const char *kind = !r->floor_echo ? "min" : r->floor_hinted ? "echo of an earlier try" : "echo";
    if (r->status == SAMPLE_FAILED)
        snprintf(t->floor, sizeof t->floor, "failed sample (ok=0)");
    else if (r->floor_rejects)
        snprintf(t->floor, sizeof t->floor, "suspect: the plausibility floor rejects it (%s %s%s); a run "
                 "stores it as ok=2, never scored", kind, f,
                 r->status == SAMPLE_SUSPECT && r->value_us >= (int64_t)r->floor_us ? ", or it held before the "
                 "first input" : "");
    else if (r->floor_us)
        snprintf(t->floor, sizeof t->floor, "ok: above the plausibility floor (%s %s)", kind, f);
    else if (r->floor_echo)
        snprintf(t->floor, sizeof t->floor, "ok; no echo floor measured yet (it takes 3 untimed inputs: type "
                 "something first, then try the timer)");
    else
        snprintf(t->floor, sizeof t->floor, "ok (min: 0, no floor)");
}

/* ---------------------------------------------------------------- tries */

static void one_line(const struct studio_rec *r, const struct studio_step *steps, size_t n, char *out, size_t len)
{
    char *y = studio_rec_try_yaml(r, steps, n);
    const char *p = y ? strstr(y, "loop:\n") : NULL;
    size_t o = 0;
    out[0] = '\0';
    if (!p)
        goto done;
    p += 6;
    const char *start = p, *end = strstr(p, "  - think: 10ms\n");
    for (; p < end && o + 3 < len; p++) {
        if ((p == start || p[-1] == '\n') && !strncmp(p, "  - ", 4)) {   /* a step: "; " between */
            while (o && out[o - 1] == ' ')
                o--;
            if (o) {
                out[o++] = ';';
                out[o++] = ' ';
            }
            p += 3;
            continue;
        }
        char ch = *p == '\n' ? ' ' : *p;
        if (ch == ' ' && (!o || out[o - 1] == ' '))
            continue;
        out[o++] = ch;
    }
    while (o && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
done:
    free(y);
}

static void try_done(void *arg, const struct studio_try_result *r)
{
    struct studio *s = arg;
    struct studio_tried *t = &s->tried[s->ntried % STUDIO_TRIES_KEPT];
    memset(t, 0, sizeof *t);
    t->seq = ++s->ntried;
    t->r = *r;
    if (r->echo_us)
        s->echo_us = r->echo_us;
    one_line(&s->rec, s->cur_steps, s->cur_n, t->what, sizeof t->what);
    studio_describe(s->cur_steps, s->cur_n, t);
    studio_try_free(s->cur);
    s->cur = NULL;
}

int studio_try_steps(struct studio *s, const struct studio_step *steps, size_t n, char *err, size_t errlen)
{
    const struct driver_ops *ops;
    void *sess;
    if (s->cur) {
        snprintf(err, errlen, "a try is running: wait for it to end");
        return -1;
    }
    if (n == 0 || n > STUDIO_TRY_MAX) {
        snprintf(err, errlen, "1 to %d steps at a time", STUDIO_TRY_MAX);
        return -1;
    }
    if (s->live.driver(s->live.arg, &ops, &sess) != 0) {
        snprintf(err, errlen, "the session takes no input (not logged on, or gone)");
        return -1;
    }
    char *y = studio_rec_try_yaml(&s->rec, steps, n);
    struct workload *wl = y ? workload_load_string("try.yaml", y, strlen(y), err, errlen) : NULL;
    free(y);
    if (!wl)
        return -1;
    memcpy(s->cur_steps, steps, n * sizeof *steps);
    s->cur_n = n;
    if (!(s->cur = studio_try_start(s->base, ops, sess, wl, s->user, s->echo_us, try_done, s))) {
        snprintf(err, errlen, "cannot start the workload interpreter");
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the screen, the file */

const char *studio_png(struct studio *s, size_t *len)
{
    struct screen_view v;
    if (s->png && s->png_frame == s->frame) {
        *len = s->png_len;
        return s->png;
    }
    if (s->live.screen(s->live.arg, &v) != 0)
        return NULL;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    int rc = screen_png_stream(&v, f, 1);
    if (fclose(f) != 0 || rc != 0) {
        free(buf);
        return NULL;
    }
    free(s->png);
    s->png = buf;
    s->png_len = n;
    s->png_frame = s->frame;
    *len = n;
    return buf;
}

int studio_save(struct studio *s, char *err, size_t errlen)
{
    if (studio_rec_check(&s->rec, err, errlen) != 0)
        return -1;
    char *y = studio_rec_yaml(&s->rec);
    char tmp[STUDIO_PATH_LEN + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", s->out_path);
    FILE *f = y ? fopen(tmp, "w") : NULL;
    int ok = f && fputs(y, f) >= 0;
    ok = f && fclose(f) == 0 && ok;
    free(y);
    if (!ok || rename(tmp, s->out_path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", s->out_path, strerror(errno));
        remove(tmp);
        return -1;
    }
    s->dirty = 0;
    return 0;
}
