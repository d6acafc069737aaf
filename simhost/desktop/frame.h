/* frame.h -- turns dirty rectangles of a desktop into wire-ready strips: render the strip
 * with sim_desktop_render, then convert to the negotiated depth, bottom-up as uncompressed
 * SurfaceBits (RDP_CODEC_ID_NONE) expects: 32 bpp = BGRX, 16 bpp = RGB565 little-endian.
 * Strips are at most SIM_FRAME_STRIP_BYTES of wire data, so every PDU stays small. */
#ifndef SIM_FRAME_H
#define SIM_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "simhost/desktop/desktop.h"

#define SIM_FRAME_STRIP_BYTES (64u * 1024u)

struct sim_strip {
    int x, y, w, h;       /* desktop rectangle */
    int bpp;              /* 16 or 32 */
    const uint8_t *data;  /* w*h*bpp/8 bytes, last row first */
    size_t len;
};

/* Called per strip; return 0 to continue, -1 to stop (e.g. the peer went away). */
typedef int (*sim_strip_fn)(void *arg, const struct sim_strip *s);

struct sim_frame_buf {
    uint32_t *px;         /* render scratch */
    uint8_t *wire;        /* converted scratch */
    size_t max_bytes;     /* wire bytes per strip */
};

int sim_frame_buf_init(struct sim_frame_buf *b, size_t max_bytes);
void sim_frame_buf_free(struct sim_frame_buf *b);

/* Converts w*h pixels (0x00RRGGBB, top row first) to bpp wire format, bottom row first. */
void sim_frame_to_wire(const uint32_t *px, int w, int h, int bpp, uint8_t *out);

/* Renders r (clipped to the desktop) strip by strip and hands each to fn. Returns the number of
 * wire bytes produced, or -1 when fn stopped. */
long long sim_frame_emit(const struct sim_desktop *d, const struct sim_font *f, struct sim_rect r,
                         int bpp, struct sim_frame_buf *b, sim_strip_fn fn, void *arg);

#endif
