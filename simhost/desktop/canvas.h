/* canvas.h -- 32-bit pixel drawing clipped to a window of desktop coordinates, plus the
 * dirty-rectangle list a session accumulates between frames.
 *
 * Sessions keep no framebuffer: each frame re-renders only the dirty rectangles, strip by strip,
 * into a small buffer (a canvas whose origin is the strip's desktop position). Pixels are
 * 0x00RRGGBB, i.e. FreeRDP's PIXEL_FORMAT_BGRX32 in memory. */
#ifndef SIM_CANVAS_H
#define SIM_CANVAS_H

#include <stddef.h>
#include <stdint.h>

#include "simhost/desktop/font.h"

struct sim_rect { int x, y, w, h; };

struct sim_canvas {
    uint32_t *px;      /* w*h pixels, row stride = w */
    int x0, y0;        /* desktop position of px[0] */
    int w, h;
};

#define SIM_DIRTY_MAX 16
struct sim_dirty {
    struct sim_rect r[SIM_DIRTY_MAX];
    int n;
};

/* Intersection of a and b into out; returns 0 when empty. */
int sim_rect_intersect(const struct sim_rect *a, const struct sim_rect *b, struct sim_rect *out);

void sim_canvas_fill(struct sim_canvas *c, int x, int y, int w, int h, uint32_t rgb);
/* 1-pixel outline inside (x, y, w, h). */
void sim_canvas_frame(struct sim_canvas *c, int x, int y, int w, int h, uint32_t rgb);
/* Draws text with its line top at y, clipped to c and to clip_w pixels from x (<= 0: no limit).
 * Characters outside printable ASCII draw as '?'. Returns the advance in pixels. */
int sim_canvas_text(struct sim_canvas *c, const struct sim_font *f, int x, int y, int clip_w,
                    const char *text, uint32_t rgb);

/* Adds r (already clipped to the desktop by the caller or not: empty rects are ignored). Overlapping
 * rectangles merge; when the list is full everything collapses into one bounding box. */
void sim_dirty_add(struct sim_dirty *d, struct sim_rect r);
void sim_dirty_clear(struct sim_dirty *d);

#endif
