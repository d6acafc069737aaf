/* cond.c -- screen conditions held one after the other; see cond.h. Only reads pixels of the
 * watched region, and only when a paint touched it. */
#include "agent/interp/cond.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/workload_pixel.h"

/* The condition's region clipped to the screen (w or h 0 when outside it). */
static struct workload_rect clip(struct workload_rect r, const struct screen_view *v)
{
    int64_t x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
    int64_t x1 = (int64_t)r.x + r.w, y1 = (int64_t)r.y + r.h;
    if (x1 > (int64_t)v->width) x1 = v->width;
    if (y1 > (int64_t)v->height) y1 = v->height;
    struct workload_rect out = { (int32_t)x0, (int32_t)y0, 0, 0 };
    if (x1 > x0 && y1 > y0) {
        out.w = (int32_t)(x1 - x0);
        out.h = (int32_t)(y1 - y0);
    }
    return out;
}

static int valid(const struct screen_view *v)
{
    return v && v->pixels && (v->bytes_per_pixel == 2 || v->bytes_per_pixel == 4);
}

static uint64_t region_hash(const struct workload_cond *c, const struct screen_view *v, unsigned tol)
{
    struct workload_rect r = clip(c->region, v);
    if (r.w == 0)
        return 0;
    return workload_region_hash(v->pixels, v->stride, v->bytes_per_pixel, r, tol);
}

/* Fast hash of pixels [x, x+w) of row y (not the documented match hash: only compared with
 * itself). The X byte of 32 bpp pixels is masked out: servers leave it undefined. */
static uint64_t span_hash(const struct screen_view *v, int32_t x, int32_t w, int32_t y, uint64_t h)
{
    const uint8_t *p = v->pixels + (size_t)y * v->stride + (size_t)x * v->bytes_per_pixel;
    size_t len = (size_t)w * v->bytes_per_pixel, i = 0;
    uint64_t mask = v->bytes_per_pixel == 4 ? 0x00FFFFFF00FFFFFFull : ~0ull;
    h ^= 0x9E3779B97F4A7C15ull ^ len;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ (w & mask)) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    for (; i < len; i++)
        h = (h ^ (v->bytes_per_pixel == 4 && i % 4 == 3 ? 0 : p[i])) * 0x100000001b3ull;
    return h;
}

/* Hash of row y of the watched area, leaving out the columns of every `except` area that
 * covers the row (where the input echoes). */
static uint64_t row_hash(const struct cond_state *st, const struct screen_view *v, int32_t y)
{
    const struct workload_rect *a = &st->area;
    const struct workload_cond *c = &st->wait->conds[st->idx];
    if (c->kind != WORKLOAD_COND_CHANGE || c->nexcept == 0)
        return span_hash(v, a->x, a->w, y, 0);
    int32_t x = a->x, end = a->x + a->w;
    uint64_t h = 0;
    while (x < end) {
        int32_t cut = end, resume = x;       /* the nearest excluded interval at or after x */
        for (size_t i = 0; i < c->nexcept; i++) {
            const struct workload_rect *e = &c->except[i];
            if (y < e->y || y >= e->y + e->h || e->x + e->w <= x || e->x >= cut)
                continue;
            cut = e->x > x ? e->x : x;
            resume = e->x + e->w;
        }
        if (cut > x)
            h = span_hash(v, x, cut - x, y, h);
        x = cut < end ? (resume > cut ? resume : cut + 1) : end;
    }
    return h;
}

static uint64_t area_hash(const struct cond_state *st, const struct screen_view *v)
{
    uint64_t h = 0;
    for (int32_t y = 0; y < st->area.h; y++)
        h = (h ^ row_hash(st, v, st->area.y + y)) * 0x100000001b3ull;
    return h;
}

void cond_end(struct cond_state *st)
{
    free(st->row_hash);
    st->row_hash = NULL;
}

/* Reads the baseline of a change condition. */
static void change_base(struct cond_state *st, const struct workload_cond *c, const struct screen_view *v)
{
    cond_end(st);
    st->area = clip(c->region, v);
    st->have_base = 1;
    if (st->area.h == 0)
        return;
    st->row_hash = malloc((size_t)st->area.h * sizeof *st->row_hash);
    if (!st->row_hash) {
        st->base_hash = area_hash(st, v);
        return;
    }
    for (int32_t y = 0; y < st->area.h; y++)
        st->row_hash[y] = row_hash(st, v, st->area.y + y);
}

/* Does the area differ from its baseline now? Only rows touched by the paint can. */
static int change_seen(struct cond_state *st, const struct screen_view *v, const struct rect *rects, size_t n)
{
    const struct workload_rect *a = &st->area;
    if (a->h == 0 || a->x + a->w > (int32_t)v->width || a->y + a->h > (int32_t)v->height)
        return 0;
    if (!st->row_hash)
        return area_hash(st, v) != st->base_hash;
    for (size_t i = 0; i < n; i++) {
        int32_t y0 = rects[i].y > a->y ? rects[i].y : a->y;
        int64_t y1 = (int64_t)rects[i].y + rects[i].h;
        if (y1 > a->y + a->h)
            y1 = a->y + a->h;
        for (int32_t y = y0; y < y1; y++)
            if (row_hash(st, v, y) != st->row_hash[y - a->y])
                return 1;
    }
    return 0;
}

static int channel_close(uint32_t a, uint32_t b, unsigned shift, uint32_t tol)
{
    int d = (int)((a >> shift) & 0xFF) - (int)((b >> shift) & 0xFF);
    return (uint32_t)abs(d) <= tol;
}

/* match and pixel: does the screen show it now? */
static int holds_now(const struct workload_cond *c, const struct screen_view *v)
{
    if (!valid(v))
        return 0;
    if (c->kind == WORKLOAD_COND_MATCH)
        return clip(c->region, v).w > 0 && region_hash(c, v, c->tolerance) == c->hash;
    if (c->region.x >= (int32_t)v->width || c->region.y >= (int32_t)v->height)
        return 0;
    uint32_t px = workload_pixel_rgb(v->pixels, v->stride, v->bytes_per_pixel, c->region.x, c->region.y);
    return channel_close(px, c->rgb, 16, c->tolerance) && channel_close(px, c->rgb, 8, c->tolerance) &&
           channel_close(px, c->rgb, 0, c->tolerance);
}

/* Starts condition st->idx at now_us; moves on through every condition that already holds. */
static int start_current(struct cond_state *st, const struct screen_view *v, uint64_t now_us)
{
    while (st->idx < st->wait->n) {
        const struct workload_cond *c = &st->wait->conds[st->idx];
        st->cond_start_us = now_us;
        st->last_paint_us = now_us;
        st->have_base = 0;
        cond_end(st);
        if (c->kind == WORKLOAD_COND_CHANGE) {
            if (valid(v))
                change_base(st, c, v);
            return 0;
        }
        if (c->kind == WORKLOAD_COND_STABLE)
            return 0;
        if (!holds_now(c, v))
            return 0;
        st->idx++;
    }
    cond_end(st);
    st->met = 1;
    st->met_us = now_us;
    return 1;
}

int cond_begin(struct cond_state *st, const struct workload_wait *w, const struct screen_view *v, uint64_t now_us)
{
    cond_end(st);
    *st = (struct cond_state){ .wait = w };
    return start_current(st, v, now_us);
}

static int touches(const struct workload_rect *r, const struct rect *p)
{
    return p->w > 0 && p->h > 0 && p->x < r->x + r->w && r->x < p->x + p->w &&
           p->y < r->y + r->h && r->y < p->y + p->h;
}

int cond_wants_paint(const struct cond_state *st, const struct rect *rects, size_t n)
{
    if (!st->wait || st->met)
        return 0;
    const struct workload_rect *r = &st->wait->conds[st->idx].region;
    for (size_t i = 0; i < n; i++)
        if (touches(r, &rects[i]))
            return 1;
    return 0;
}

int cond_on_paint(struct cond_state *st, const struct screen_view *v, const struct rect *rects, size_t n,
                  uint64_t now_us)
{
    if (!st->wait || st->met)
        return st->met;
    if (!cond_wants_paint(st, rects, n))
        return 0;
    const struct workload_cond *c = &st->wait->conds[st->idx];
    int held;
    switch (c->kind) {
    case WORKLOAD_COND_STABLE:
        st->last_paint_us = now_us;
        return 0;
    case WORKLOAD_COND_CHANGE:
        if (!valid(v))
            return 0;
        if (!st->have_base) {
            change_base(st, c, v);
            return 0;
        }
        held = change_seen(st, v, rects, n);
        break;
    default:
        held = holds_now(c, v);
        break;
    }
    if (!held)
        return 0;
    st->idx++;
    if (start_current(st, v, now_us))
        return 1;
    return 0;
}

uint64_t cond_next_tick_us(const struct cond_state *st)
{
    if (!st->wait || st->met || st->wait->conds[st->idx].kind != WORKLOAD_COND_STABLE)
        return 0;
    return st->last_paint_us + st->wait->conds[st->idx].stable_us;
}

int cond_on_tick(struct cond_state *st, const struct screen_view *v, uint64_t now_us)
{
    uint64_t due = cond_next_tick_us(st);
    if (!due || now_us < due)
        return st->met;
    uint64_t quiet_since = st->last_paint_us;
    st->idx++;
    if (start_current(st, v, quiet_since)) {
        st->met_us = quiet_since;
        return 1;
    }
    return 0;
}

const char *cond_describe(const struct cond_state *st, char *buf, size_t len)
{
    static const char *const kinds[] = { "change", "stable", "match", "pixel" };
    if (!st->wait || st->met) {
        snprintf(buf, len, "met");
        return buf;
    }
    const struct workload_cond *c = &st->wait->conds[st->idx];
    if (c->kind == WORKLOAD_COND_PIXEL)
        snprintf(buf, len, "pixel %d,%d #%06x", c->region.x, c->region.y, c->rgb);
    else
        snprintf(buf, len, "%s %s", kinds[c->kind], c->region_name);
    return buf;
}
