/* canvas.c -- clipped fills, outlines and alpha-blended FreeType text; dirty rectangles. */
#include "simhost/desktop/canvas.h"

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

int sim_rect_intersect(const struct sim_rect *a, const struct sim_rect *b, struct sim_rect *out)
{
    int x1 = imax(a->x, b->x), y1 = imax(a->y, b->y);
    int x2 = imin(a->x + a->w, b->x + b->w), y2 = imin(a->y + a->h, b->y + b->h);
    if (x2 <= x1 || y2 <= y1) {
        *out = (struct sim_rect){ 0, 0, 0, 0 };
        return 0;
    }
    *out = (struct sim_rect){ x1, y1, x2 - x1, y2 - y1 };
    return 1;
}

void sim_canvas_fill(struct sim_canvas *c, int x, int y, int w, int h, uint32_t rgb)
{
    struct sim_rect r, cr = { c->x0, c->y0, c->w, c->h }, in = { x, y, w, h };
    if (!sim_rect_intersect(&cr, &in, &r))
        return;
    for (int yy = r.y; yy < r.y + r.h; yy++) {
        uint32_t *row = c->px + (size_t)(yy - c->y0) * c->w + (r.x - c->x0);
        for (int i = 0; i < r.w; i++)
            row[i] = rgb;
    }
}

void sim_canvas_frame(struct sim_canvas *c, int x, int y, int w, int h, uint32_t rgb)
{
    sim_canvas_fill(c, x, y, w, 1, rgb);
    sim_canvas_fill(c, x, y + h - 1, w, 1, rgb);
    sim_canvas_fill(c, x, y, 1, h, rgb);
    sim_canvas_fill(c, x + w - 1, y, 1, h, rgb);
}

static uint32_t blend(uint32_t bg, uint32_t fg, unsigned a)
{
    uint32_t out = 0;
    for (int s = 0; s < 24; s += 8) {
        unsigned b = (bg >> s) & 0xFF, f = (fg >> s) & 0xFF;
        out |= ((b * (255 - a) + f * a + 127) / 255) << s;
    }
    return out;
}

static void draw_glyph(struct sim_canvas *c, const struct sim_glyph *g, int gx, int gy,
                       const struct sim_rect *clip, uint32_t rgb)
{
    struct sim_rect gr = { gx, gy, g->w, g->h }, r;
    if (!g->alpha || !sim_rect_intersect(&gr, clip, &r))
        return;
    for (int yy = r.y; yy < r.y + r.h; yy++) {
        const uint8_t *src = g->alpha + (size_t)(yy - gy) * g->w;
        uint32_t *row = c->px + (size_t)(yy - c->y0) * c->w;
        for (int xx = r.x; xx < r.x + r.w; xx++) {
            unsigned a = src[xx - gx];
            if (a)
                row[xx - c->x0] = a == 255 ? rgb : blend(row[xx - c->x0], rgb, a);
        }
    }
}

int sim_canvas_text(struct sim_canvas *c, const struct sim_font *f, int x, int y, int clip_w,
                    const char *text, uint32_t rgb)
{
    struct sim_rect cr = { c->x0, c->y0, c->w, c->h };
    struct sim_rect lim = { x, y, clip_w > 0 ? clip_w : 1 << 20, f->line_h }, clip;
    int pen = x;
    if (!sim_rect_intersect(&cr, &lim, &clip)) {
        for (const char *p = text; *p; p++)
            pen += sim_font_glyph(f, *p)->advance;
        return pen - x;
    }
    int base = y + f->ascent;
    for (const char *p = text; *p; p++) {
        const struct sim_glyph *g = sim_font_glyph(f, *p);
        if (pen >= clip.x + clip.w)
            break;
        draw_glyph(c, g, pen + g->left, base - g->top, &clip, rgb);
        pen += g->advance;
    }
    return pen - x;
}

static int touches(const struct sim_rect *a, const struct sim_rect *b)
{
    return a->x <= b->x + b->w && b->x <= a->x + a->w && a->y <= b->y + b->h && b->y <= a->y + a->h;
}

static struct sim_rect bbox(const struct sim_rect *a, const struct sim_rect *b)
{
    int x1 = imin(a->x, b->x), y1 = imin(a->y, b->y);
    int x2 = imax(a->x + a->w, b->x + b->w), y2 = imax(a->y + a->h, b->y + b->h);
    return (struct sim_rect){ x1, y1, x2 - x1, y2 - y1 };
}

void sim_dirty_add(struct sim_dirty *d, struct sim_rect r)
{
    if (r.w <= 0 || r.h <= 0)
        return;
    for (int i = 0; i < d->n; i++) {
        if (touches(&d->r[i], &r)) {
            struct sim_rect m = bbox(&d->r[i], &r);
            d->r[i] = d->r[--d->n];
            sim_dirty_add(d, m);   /* the grown rectangle may now touch others */
            return;
        }
    }
    if (d->n == SIM_DIRTY_MAX) {
        struct sim_rect m = r;
        for (int i = 0; i < d->n; i++)
            m = bbox(&m, &d->r[i]);
        d->r[0] = m;
        d->n = 1;
        return;
    }
    d->r[d->n++] = r;
}

void sim_dirty_clear(struct sim_dirty *d) { d->n = 0; }
