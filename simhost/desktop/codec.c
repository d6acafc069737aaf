/* codec.c -- dirty rectangle -> 64x64 tiles -> planar or interleaved -> Bitmap Updates.
 *
 * Tiles are rendered a band at a time into the session's render scratch (sim_frame_buf.px, which
 * holds at least 64x64 pixels), compressed into one buffer, and sent as one Bitmap Update per
 * buffer-full (kept below the client's MultifragMaxRequestSize). */
#include "simhost/desktop/codec.h"

#include "common/log.h"

#include <freerdp/codec/color.h>
#include <freerdp/codec/interleaved.h>
#include <freerdp/codec/planar.h>
#include <freerdp/settings.h>
#include <freerdp/update.h>
#include <stdlib.h>
#include <string.h>

#define TILE 64
#define TILE_MAX_BYTES (TILE * TILE * 4 + 64)   /* either encoder's worst case for one tile */
#define RECT_OVERHEAD 26                         /* TS_BITMAP_DATA header + compression header */
#define UPDATE_OVERHEAD 64                       /* update and fast-path headers, with room */
#define BATCH_RECTS 128
#define BATCH_BYTES (62u * 1024u)

struct sim_codec {
    enum sim_codec_id id;
    int wire_bpp;                    /* 32 (planar) or 16 (interleaved) */
    BITMAP_PLANAR_CONTEXT *planar;
    BITMAP_INTERLEAVED_CONTEXT *interleaved;
    uint8_t *buf;                    /* compressed tiles of the update being built */
    size_t cap, used, update_bytes;
    BITMAP_DATA rects[BATCH_RECTS];
    uint32_t nrects;
    uint64_t raw, sent;
};

static const char *const names[] = { "auto", "none", "planar", "interleaved" };

int sim_codec_parse(const char *name, enum sim_codec_id *id)
{
    for (int i = 0; name && i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(name, names[i])) {
            *id = (enum sim_codec_id)i;
            return 0;
        }
    return -1;
}

const char *sim_codec_name(enum sim_codec_id id)
{
    return (unsigned)id < sizeof names / sizeof names[0] ? names[id] : "?";
}

static size_t batch_cap(rdpSettings *st)
{
    UINT32 frag = freerdp_settings_get_uint32(st, FreeRDP_MultifragMaxRequestSize);
    size_t cap = frag > 2048 ? frag - 2048 : 0;
    return cap > BATCH_BYTES ? BATCH_BYTES : cap;
}

enum sim_codec_id sim_codec_choose(enum sim_codec_id asked, int bpp, rdpSettings *st)
{
    if (asked == SIM_CODEC_NONE)
        return SIM_CODEC_NONE;
    if (batch_cap(st) < TILE_MAX_BYTES + RECT_OVERHEAD + UPDATE_OVERHEAD)
        return SIM_CODEC_NONE;
    if (asked == SIM_CODEC_AUTO)
        return bpp >= 32 ? SIM_CODEC_PLANAR : SIM_CODEC_INTERLEAVED;
    if (asked == SIM_CODEC_PLANAR && bpp < 32)
        return SIM_CODEC_INTERLEAVED;
    if (asked == SIM_CODEC_INTERLEAVED && bpp >= 32)
        return SIM_CODEC_PLANAR;   /* FreeRDP 2.11's 24-bpp interleaved encoder garbles colour runs */
    return asked;
}

int sim_codec_open(enum sim_codec_id choice, rdpSettings *st, struct sim_codec **out)
{
    *out = NULL;
    if (choice != SIM_CODEC_PLANAR && choice != SIM_CODEC_INTERLEAVED)
        return 0;
    struct sim_codec *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->id = choice;
    c->cap = batch_cap(st);
    c->buf = malloc(c->cap);
    if (choice == SIM_CODEC_PLANAR) {
        /* lossless: run-length encoded planes, no colour loss or subsampling; the alpha plane only
         * when the client cannot skip it (drawingFlags) */
        DWORD flags = PLANAR_FORMAT_HEADER_RLE;
        if (freerdp_settings_get_bool(st, FreeRDP_DrawAllowSkipAlpha))
            flags |= PLANAR_FORMAT_HEADER_NA;
        c->wire_bpp = 32;
        c->planar = freerdp_bitmap_planar_context_new(flags, TILE, TILE);
        /* FreeRDP's decoder swaps R and B of an alpha-carrying stream when the client allows
         * dynamic colour fidelity; mirror it so the colours arrive as they were */
        if (c->planar)
            freerdp_planar_switch_bgr(c->planar, freerdp_settings_get_bool(st, FreeRDP_DrawAllowDynamicColorFidelity));
    } else {
        c->wire_bpp = 16;
        c->interleaved = bitmap_interleaved_context_new(TRUE);
    }
    if (!c->buf || (!c->planar && !c->interleaved)) {
        sim_codec_free(c);
        return -1;
    }
    c->update_bytes = UPDATE_OVERHEAD;
    *out = c;
    return 0;
}

void sim_codec_free(struct sim_codec *c)
{
    if (!c)
        return;
    freerdp_bitmap_planar_context_free(c->planar);
    bitmap_interleaved_context_free(c->interleaved);
    free(c->buf);
    free(c);
}

static int send_batch(struct sim_codec *c, rdpContext *ctx)
{
    if (c->nrects == 0)
        return 0;
    BITMAP_UPDATE u = { .count = c->nrects, .number = c->nrects, .rectangles = c->rects, .skipCompression = TRUE };
    BOOL ok = ctx->update->BitmapUpdate(ctx, &u);
    c->nrects = 0;
    c->used = 0;
    c->update_bytes = UPDATE_OVERHEAD;
    return ok ? 0 : -1;
}

/* Compresses the w x h tile at px (row stride `stride` pixels, top row first) that belongs at
 * desktop (x, y); columns at or beyond desk_w are padding and are not painted. */
static int add_tile(struct sim_codec *c, rdpContext *ctx, const uint32_t *px, int stride, int x, int y, int w,
                    int h, int desk_w)
{
    if (c->nrects == BATCH_RECTS || c->update_bytes + RECT_OVERHEAD + TILE_MAX_BYTES > c->cap)
        if (send_batch(c, ctx) != 0)
            return -1;
    BYTE *dst = c->buf + c->used;
    UINT32 size = TILE_MAX_BYTES;
    BOOL ok;
    if (c->planar)
        ok = freerdp_bitmap_compress_planar(c->planar, (const BYTE *)px, PIXEL_FORMAT_BGRX32, (UINT32)w, (UINT32)h,
                                            (UINT32)stride * 4, dst, &size) != NULL;
    else
        ok = interleaved_compress(c->interleaved, dst, &size, (UINT32)w, (UINT32)h, (const BYTE *)px,
                                  PIXEL_FORMAT_BGRX32, (UINT32)stride * 4, 0, 0, NULL, (UINT32)c->wire_bpp);
    if (!ok || size > TILE_MAX_BYTES) {
        log_ratelimited(LOG_WARN, "sim_codec", "%s: cannot compress a %dx%d tile", sim_codec_name(c->id), w, h);
        return -1;
    }
    int bytespp = (c->wire_bpp + 7) / 8, visible = (x + w > desk_w ? desk_w : x + w) - x;
    c->rects[c->nrects++] = (BITMAP_DATA){
        .destLeft = (UINT32)x, .destTop = (UINT32)y, .destRight = (UINT32)(x + visible - 1),
        .destBottom = (UINT32)(y + h - 1), .width = (UINT32)w, .height = (UINT32)h,
        .bitsPerPixel = (UINT32)c->wire_bpp, .bitmapLength = size, .cbCompMainBodySize = size,
        .cbScanWidth = (UINT32)(w * bytespp), .cbUncompressedSize = (UINT32)(w * h * bytespp),
        .bitmapDataStream = dst, .compressed = TRUE };
    c->used += size;
    c->update_bytes += RECT_OVERHEAD + size;
    c->raw += (uint64_t)visible * (uint64_t)h * (uint64_t)bytespp;
    c->sent += size;
    return 0;
}

long long sim_codec_emit(struct sim_codec *c, const struct sim_desktop *d, const struct sim_font *f,
                         struct sim_rect r, struct sim_frame_buf *fb, rdpContext *ctx)
{
    struct sim_rect screen = { 0, 0, d->w, d->h }, v;
    if (!sim_rect_intersect(&screen, &r, &v))
        return 0;
    uint64_t before = c->sent;
    int x0 = v.x & ~3, x1 = (v.x + v.w + 3) & ~3;
    int band_w = (int)(fb->max_bytes * 2 / sizeof(uint32_t) / TILE) / TILE * TILE;   /* px holds max_bytes*2 */
    if (band_w < TILE)
        return -1;
    for (int y = v.y; y < v.y + v.h; y += TILE) {
        int h = v.y + v.h - y < TILE ? v.y + v.h - y : TILE;
        for (int x = x0; x < x1; x += band_w) {
            int w = x1 - x < band_w ? x1 - x : band_w;
            struct sim_canvas cv = { fb->px, x, y, w, h };
            if (x + w > d->w)   /* the render fills the desktop only: zero the padding columns */
                memset(fb->px, 0, (size_t)w * (size_t)h * sizeof(uint32_t));
            sim_desktop_render(d, f, &cv);
            for (int tx = 0; tx < w; tx += TILE)
                if (add_tile(c, ctx, fb->px + tx, w, x + tx, y, w - tx < TILE ? w - tx : TILE, h, d->w) != 0)
                    return -1;
        }
    }
    if (send_batch(c, ctx) != 0)
        return -1;
    return (long long)(c->sent - before);
}

void sim_codec_totals(const struct sim_codec *c, uint64_t *raw_bytes, uint64_t *sent_bytes)
{
    *raw_bytes = c ? c->raw : 0;
    *sent_bytes = c ? c->sent : 0;
}
