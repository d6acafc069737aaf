/* test_sim_codec.c -- the codec choice per session depth and client, and the round trip: a
 * desktop sent through sim_codec and decoded with the decoders a FreeRDP client uses
 * (planar_decompress with vertical flip, interleaved_decompress) gives back every pixel of the
 * rendered desktop at the session's depth, in far fewer bytes than uncompressed. */
#include "unit.h"

#include "common/keymap.h"
#include "simhost/desktop/codec.h"
#include "simhost/desktop/desktop.h"
#include "simhost/desktop/frame.h"

#include <freerdp/codec/interleaved.h>
#include <freerdp/codec/planar.h>
#include <freerdp/settings.h>
#include <freerdp/update.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_font.h"

/* the client side: every Bitmap Update rectangle decoded into a framebuffer, as gdi does */
static struct {
    uint8_t *fb;
    int w, h, bytespp, bad, rects;
    uint32_t format;
    BITMAP_PLANAR_CONTEXT *planar;
    BITMAP_INTERLEAVED_CONTEXT *interleaved;
} cli;

static BOOL on_bitmap(rdpContext *ctx, const BITMAP_UPDATE *u)
{
    static uint8_t tile[64 * 64 * 4];
    gdiPalette pal;
    (void)ctx;
    memset(&pal, 0, sizeof pal);
    for (UINT32 i = 0; i < u->number; i++) {
        const BITMAP_DATA *b = &u->rectangles[i];
        BOOL ok = b->compressed && b->width <= 64 && b->height <= 64 && b->width % 4 == 0;
        if (ok && b->bitsPerPixel == 32)
            ok = planar_decompress(cli.planar, b->bitmapDataStream, b->bitmapLength, b->width, b->height, tile,
                                   cli.format, 0, 0, 0, b->width, b->height, TRUE);
        else if (ok)
            ok = interleaved_decompress(cli.interleaved, b->bitmapDataStream, b->bitmapLength, b->width, b->height,
                                        b->bitsPerPixel, tile, cli.format, 0, 0, 0, b->width, b->height, &pal);
        if (!ok || (int)b->destRight >= cli.w || (int)b->destBottom >= cli.h) {
            cli.bad++;
            continue;
        }
        size_t row = (size_t)(b->destRight - b->destLeft + 1) * cli.bytespp;
        for (UINT32 y = 0; y <= b->destBottom - b->destTop; y++)
            memcpy(cli.fb + ((size_t)(b->destTop + y) * cli.w + b->destLeft) * cli.bytespp,
                   tile + (size_t)y * b->width * cli.bytespp, row);
        cli.rects++;
    }
    return TRUE;
}

static void type_text(struct sim_desktop *d, const char *text)
{
    struct sim_cmd cmd;
    for (const char *p = text; *p; p++) {
        int shift;
        uint32_t sc = keymap_scancode_for_char(*p, &shift);
        sim_desktop_key(d, sc, 1, &cmd);
        sim_desktop_key(d, sc, 0, &cmd);
    }
}

/* Sends the whole desktop, then a few odd rectangles after a change, and compares every pixel
 * with the render at the session's depth. Returns the bytes sent for the whole desktop. */
static long long round_trip(enum sim_codec_id id, int bpp, int w, int h)
{
    rdpSettings *st = freerdp_settings_new(0);
    rdpUpdate update;
    rdpContext ctx;
    struct sim_desktop d;
    struct sim_frame_buf fb;
    struct sim_codec *c = NULL;
    memset(&update, 0, sizeof update);
    memset(&ctx, 0, sizeof ctx);
    update.BitmapUpdate = on_bitmap;
    ctx.update = &update;
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT_FATAL(sim_codec_open(id, st, &c) == 0 && c != NULL);
    CU_ASSERT_FATAL(sim_frame_buf_init(&fb, 8192) == 0);   /* the smallest scratch a session gets */
    cli.w = w, cli.h = h, cli.bytespp = bpp == 16 ? 2 : 4, cli.bad = 0, cli.rects = 0;
    cli.format = bpp == 16 ? PIXEL_FORMAT_RGB16 : PIXEL_FORMAT_BGRX32;
    cli.fb = calloc((size_t)w * h, 4);
    cli.planar = freerdp_bitmap_planar_context_new(0, 64, 64);
    cli.interleaved = bitmap_interleaved_context_new(FALSE);
    freerdp_planar_switch_bgr(cli.planar, freerdp_settings_get_bool(st, FreeRDP_DrawAllowDynamicColorFidelity));
    sim_desktop_init(&d, "simuser001", w, h);
    long long whole = sim_codec_emit(c, &d, &font, (struct sim_rect){ 0, 0, w, h }, &fb, &ctx);
    CU_ASSERT(whole > 0);
    /* open the run box, type: small, unaligned updates */
    struct sim_cmd cmd;
    sim_desktop_key(&d, KEYMAP_SC_LWIN, 1, &cmd);
    sim_desktop_key(&d, keymap_scancode_by_name("r"), 1, &cmd);
    sim_desktop_key(&d, keymap_scancode_by_name("r"), 0, &cmd);
    sim_desktop_key(&d, KEYMAP_SC_LWIN, 0, &cmd);
    type_text(&d, "edit doc1.txt");
    for (int i = 0; i < d.dirty.n; i++)
        CU_ASSERT(sim_codec_emit(c, &d, &font, d.dirty.r[i], &fb, &ctx) > 0);
    CU_ASSERT(sim_codec_emit(c, &d, &font, (struct sim_rect){ 3, 5, 37, 70 }, &fb, &ctx) > 0);
    CU_ASSERT(sim_codec_emit(c, &d, &font, (struct sim_rect){ w - 7, h - 9, 50, 50 }, &fb, &ctx) > 0);
    CU_ASSERT(cli.bad == 0);
    CU_ASSERT(cli.rects > 0);
    /* the reference: the whole desktop rendered, at the wire depth (top row first) */
    uint32_t *px = malloc((size_t)w * h * 4);
    uint8_t *row = malloc((size_t)w * 4);
    struct sim_canvas cv = { px, 0, 0, w, h };
    sim_desktop_render(&d, &font, &cv);
    int mismatched = 0;
    for (int y = 0; y < h; y++) {
        sim_frame_to_wire(px + (size_t)y * w, w, 1, bpp, row);
        for (int x = 0; x < w; x++) {
            const uint8_t *a = row + (size_t)x * cli.bytespp, *b = cli.fb + ((size_t)y * w + x) * cli.bytespp;
            /* 32 bpp: compare B, G, R (the X byte is not a colour) */
            if (memcmp(a, b, bpp == 16 ? 2 : 3) != 0)
                mismatched++;
        }
    }
    CU_ASSERT_EQUAL(mismatched, 0);
    uint64_t raw, sent;
    sim_codec_totals(c, &raw, &sent);
    CU_ASSERT(raw >= (uint64_t)w * h * cli.bytespp);
    CU_ASSERT(sent < raw / 5);
    free(px), free(row), free(cli.fb);
    freerdp_bitmap_planar_context_free(cli.planar);
    bitmap_interleaved_context_free(cli.interleaved);
    sim_frame_buf_free(&fb);
    sim_codec_free(c);
    freerdp_settings_free(st);
    return whole;
}

static void test_sim_codec__choice(void)
{
    rdpSettings *st = freerdp_settings_new(0);
    enum sim_codec_id id;
    CU_ASSERT_FATAL(st != NULL);
    CU_ASSERT(sim_codec_parse("planar", &id) == 0 && id == SIM_CODEC_PLANAR);
    CU_ASSERT(sim_codec_parse("interleaved", &id) == 0 && id == SIM_CODEC_INTERLEAVED);
    CU_ASSERT(sim_codec_parse("auto", &id) == 0 && id == SIM_CODEC_AUTO);
    CU_ASSERT(sim_codec_parse("none", &id) == 0 && id == SIM_CODEC_NONE);
    CU_ASSERT(sim_codec_parse("rfx", &id) == -1);
    CU_ASSERT(sim_codec_parse(NULL, &id) == -1);
    CU_ASSERT_STRING_EQUAL(sim_codec_name(SIM_CODEC_INTERLEAVED), "interleaved");
    CU_ASSERT(sim_codec_choose(SIM_CODEC_AUTO, 32, st) == SIM_CODEC_PLANAR);
    CU_ASSERT(sim_codec_choose(SIM_CODEC_AUTO, 16, st) == SIM_CODEC_INTERLEAVED);
    CU_ASSERT(sim_codec_choose(SIM_CODEC_PLANAR, 16, st) == SIM_CODEC_INTERLEAVED);
    CU_ASSERT(sim_codec_choose(SIM_CODEC_INTERLEAVED, 32, st) == SIM_CODEC_PLANAR);
    CU_ASSERT(sim_codec_choose(SIM_CODEC_INTERLEAVED, 16, st) == SIM_CODEC_INTERLEAVED);
    CU_ASSERT(sim_codec_choose(SIM_CODEC_NONE, 32, st) == SIM_CODEC_NONE);
    /* a client whose reassembly buffer cannot hold one compressed tile gets uncompressed strips */
    freerdp_settings_set_uint32(st, FreeRDP_MultifragMaxRequestSize, 16384);
    CU_ASSERT(sim_codec_choose(SIM_CODEC_AUTO, 32, st) == SIM_CODEC_NONE);
    struct sim_codec *c = (struct sim_codec *)1;
    CU_ASSERT(sim_codec_open(SIM_CODEC_NONE, st, &c) == 0 && c == NULL);
    freerdp_settings_free(st);
}

static void test_sim_codec__planar_32(void) { round_trip(SIM_CODEC_PLANAR, 32, 1024, 768); }
static void test_sim_codec__interleaved_16(void) { round_trip(SIM_CODEC_INTERLEAVED, 16, 1024, 768); }
/* planar in a 16-bpp session (what --codec planar would send if asked to) decodes too */
static void test_sim_codec__planar_16(void) { round_trip(SIM_CODEC_PLANAR, 16, 1024, 768); }
/* a width that is not a multiple of 4: the last column of tiles carries padding */
static void test_sim_codec__odd_size(void) { round_trip(SIM_CODEC_PLANAR, 32, 1022, 766); }

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_codec__choice), UNIT_TEST(test_sim_codec__planar_32),
        UNIT_TEST(test_sim_codec__interleaved_16), UNIT_TEST(test_sim_codec__planar_16),
        UNIT_TEST(test_sim_codec__odd_size), UNIT_END,
    };
    return unit_run("sim_codec", tests, setup, teardown);
}
