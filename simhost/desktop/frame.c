/* frame.c -- dirty rectangle -> rendered, converted strips. */
#include "simhost/desktop/frame.h"

#include <stdlib.h>
#include <string.h>

int sim_frame_buf_init(struct sim_frame_buf *b, size_t max_bytes)
{
    b->max_bytes = max_bytes;
    b->px = malloc(max_bytes * 2);          /* 32-bit pixels for up to max_bytes/2 16-bit ones */
    b->wire = malloc(max_bytes);
    if (!b->px || !b->wire) {
        sim_frame_buf_free(b);
        return -1;
    }
    return 0;
}

void sim_frame_buf_free(struct sim_frame_buf *b)
{
    free(b->px);
    free(b->wire);
    b->px = NULL;
    b->wire = NULL;
}

void sim_frame_to_wire(const uint32_t *px, int w, int h, int bpp, uint8_t *out)
{
    for (int y = 0; y < h; y++) {
        const uint32_t *src = px + (size_t)(h - 1 - y) * w;
        if (bpp == 16) {
            uint8_t *dst = out + (size_t)y * w * 2;
            for (int x = 0; x < w; x++) {
                uint32_t p = src[x];
                uint16_t v = (uint16_t)(((p >> 8) & 0xF800) | ((p >> 5) & 0x07E0) | ((p >> 3) & 0x001F));
                dst[2 * x] = (uint8_t)(v & 0xFF);
                dst[2 * x + 1] = (uint8_t)(v >> 8);
            }
        } else {
            uint8_t *dst = out + (size_t)y * w * 4;
            for (int x = 0; x < w; x++) {
                uint32_t p = src[x];
                dst[4 * x] = (uint8_t)(p & 0xFF);
                dst[4 * x + 1] = (uint8_t)((p >> 8) & 0xFF);
                dst[4 * x + 2] = (uint8_t)((p >> 16) & 0xFF);
                dst[4 * x + 3] = 0xFF;
            }
        }
    }
}

long long sim_frame_emit(const struct sim_desktop *d, const struct sim_font *f, struct sim_rect r,
                         int bpp, struct sim_frame_buf *b, sim_strip_fn fn, void *arg)
{
    struct sim_rect screen = { 0, 0, d->w, d->h }, c;
    long long total = 0;
    int bytespp = bpp == 16 ? 2 : 4;
    if (!sim_rect_intersect(&screen, &r, &c))
        return 0;
    int rows = (int)(b->max_bytes / ((size_t)c.w * bytespp));
    if (rows < 1)
        rows = 1;   /* max_bytes is at least one 1024-px row at 32 bpp in practice */
    for (int y = c.y; y < c.y + c.h; y += rows) {
        int h = c.y + c.h - y < rows ? c.y + c.h - y : rows;
        struct sim_canvas cv = { b->px, c.x, y, c.w, h };
        sim_desktop_render(d, f, &cv);
        sim_frame_to_wire(b->px, c.w, h, bpp, b->wire);
        struct sim_strip s = { c.x, y, c.w, h, bpp, b->wire, (size_t)c.w * h * bytespp };
        if (fn && fn(arg, &s) != 0)
            return -1;
        total += (long long)s.len;
    }
    return total;
}
