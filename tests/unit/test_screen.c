/* test_screen.c -- damage rectangles of a paint (clipping, dropping empties, folding overflow,
 * the ninvalid/null reset FreeRDP 2.11 leaves to the client) and PNG snapshots read back. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <freerdp/codec/color.h>

#include "agent/driver/screen.h"
#include "agent/rdp/screen.h"
#include "unit.h"

static GDI_RGN g_invalid;
static GDI_RGN g_cinvalid[64];
static GDI_WND g_wnd;

static void wnd_with(const GDI_RGN *rects, int n)
{
    memset(&g_wnd, 0, sizeof g_wnd);
    memcpy(g_cinvalid, rects, (size_t)n * sizeof *rects);
    g_invalid = (GDI_RGN){ .null = FALSE, .x = 0, .y = 0, .w = 1, .h = 1 };
    g_wnd.invalid = &g_invalid;
    g_wnd.cinvalid = g_cinvalid;
    g_wnd.ninvalid = n;
    g_wnd.count = 64;
}

/** Rectangles pass through, clipped to the screen; the region is reset afterwards. */
static void test_screen__damage_clip_and_reset(void)
{
    GDI_RGN in[] = { { .x = 10, .y = 20, .w = 30, .h = 40 },
                     { .x = -5, .y = -5, .w = 10, .h = 10 },
                     { .x = 1000, .y = 760, .w = 100, .h = 100 } };
    struct rect out[8];
    wnd_with(in, 3);
    size_t n = rdp_screen_take_damage(&g_wnd, 1024, 768, out, 8);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT(out[0].x == 10 && out[0].y == 20 && out[0].w == 30 && out[0].h == 40);
    CU_ASSERT(out[1].x == 0 && out[1].y == 0 && out[1].w == 5 && out[1].h == 5);
    CU_ASSERT(out[2].x == 1000 && out[2].y == 760 && out[2].w == 24 && out[2].h == 8);
    CU_ASSERT_EQUAL(g_wnd.ninvalid, 0);
    CU_ASSERT_TRUE(g_invalid.null);
    /* nothing painted since: nothing reported */
    CU_ASSERT_EQUAL(rdp_screen_take_damage(&g_wnd, 1024, 768, out, 8), 0);
}

/** Empty and off-screen rectangles are dropped, but the region is still reset. */
static void test_screen__damage_drops_empty(void)
{
    GDI_RGN in[] = { { .x = 5, .y = 5, .w = 0, .h = 10 },
                     { .x = 2000, .y = 10, .w = 10, .h = 10 },
                     { .x = 5, .y = 5, .w = 2, .h = 2 } };
    struct rect out[8];
    wnd_with(in, 3);
    CU_ASSERT_EQUAL(rdp_screen_take_damage(&g_wnd, 1024, 768, out, 8), 1);
    CU_ASSERT(out[0].x == 5 && out[0].w == 2);
    CU_ASSERT_EQUAL(g_wnd.ninvalid, 0);
}

/** More rectangles than slots: the last slot becomes the bounding box of the rest. */
static void test_screen__damage_overflow_folds(void)
{
    GDI_RGN in[5];
    for (int i = 0; i < 5; i++)
        in[i] = (GDI_RGN){ .x = i * 100, .y = i * 10, .w = 10, .h = 10 };
    struct rect out[3];
    wnd_with(in, 5);
    CU_ASSERT_EQUAL(rdp_screen_take_damage(&g_wnd, 1024, 768, out, 3), 3);
    CU_ASSERT(out[0].x == 0 && out[1].x == 100);
    CU_ASSERT(out[2].x == 200 && out[2].y == 20 && out[2].w == 210 && out[2].h == 30);
    CU_ASSERT_EQUAL(g_wnd.ninvalid, 0);
    CU_ASSERT_EQUAL(rdp_screen_take_damage(NULL, 1024, 768, out, 3), 0);
}

/* Reads a PNG back: width, height and the RGB of pixel (x, y). */
static int read_png(const char *path, uint32_t *w, uint32_t *h, uint32_t x, uint32_t y,
                    uint8_t rgb[3])
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return -1;
    img.format = PNG_FORMAT_RGB;
    uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf || !png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        free(buf);
        return -1;
    }
    *w = img.width;
    *h = img.height;
    memcpy(rgb, buf + ((size_t)y * img.width + x) * 3, 3);
    free(buf);
    return 0;
}

/** 32 bpp (B,G,R,X) and 16 bpp (RGB565) views write PNGs with the right pixels. */
static void test_screen__png_roundtrip(void)
{
    enum { W = 37, H = 11 };
    uint8_t px32[W * H * 4], px16[W * H * 2];
    memset(px32, 0, sizeof px32);
    memset(px16, 0, sizeof px16);
    uint8_t *p = px32 + (5 * W + 7) * 4;
    p[0] = 0x30; p[1] = 0x20; p[2] = 0x10;                 /* B G R at (7,5) */
    uint16_t v = (uint16_t)(0x1f << 11);                     /* pure red at (7,5) */
    px16[(5 * W + 7) * 2] = (uint8_t)v;
    px16[(5 * W + 7) * 2 + 1] = (uint8_t)(v >> 8);
    char path[4096];
    uint32_t w, h;
    uint8_t rgb[3];

    struct screen_view v32 = { px32, W, H, W * 4, 4 };
    snprintf(path, sizeof path, "%s/s32.png", unit_tmpdir());
    CU_ASSERT_EQUAL(screen_write_png(&v32, path), 0);
    CU_ASSERT_EQUAL(read_png(path, &w, &h, 7, 5, rgb), 0);
    CU_ASSERT(w == W && h == H);
    CU_ASSERT(rgb[0] == 0x10 && rgb[1] == 0x20 && rgb[2] == 0x30);

    struct screen_view v16 = { px16, W, H, W * 2, 2 };
    snprintf(path, sizeof path, "%s/s16.png", unit_tmpdir());
    CU_ASSERT_EQUAL(screen_write_png(&v16, path), 0);
    CU_ASSERT_EQUAL(read_png(path, &w, &h, 7, 5, rgb), 0);
    CU_ASSERT(rgb[0] == 0xff && rgb[1] == 0 && rgb[2] == 0);
    CU_ASSERT_EQUAL(read_png(path, &w, &h, 0, 0, rgb), 0);
    CU_ASSERT(rgb[0] == 0 && rgb[1] == 0 && rgb[2] == 0);
}

/** Unwritable paths and empty views fail cleanly. */
static void test_screen__png_errors(void)
{
    uint8_t px[16] = { 0 };
    struct screen_view ok = { px, 2, 2, 8, 4 }, empty = { NULL, 0, 0, 0, 4 };
    CU_ASSERT_EQUAL(screen_write_png(&ok, "/nonexistent-dir/x.png"), -1);
    char path[4096];
    snprintf(path, sizeof path, "%s/empty.png", unit_tmpdir());
    CU_ASSERT_EQUAL(screen_write_png(&empty, path), -1);
}

/** A view of a gdi needs a framebuffer in a supported format. */
static void test_screen__view_of(void)
{
    rdpGdi gdi;
    struct screen_view v;
    uint8_t buf[64];
    memset(&gdi, 0, sizeof gdi);
    CU_ASSERT_EQUAL(rdp_screen_view_of(NULL, &v), -1);
    CU_ASSERT_EQUAL(rdp_screen_view_of(&gdi, &v), -1);
    gdi.primary_buffer = buf;
    gdi.width = 4;
    gdi.height = 2;
    gdi.stride = 8;
    gdi.dstFormat = PIXEL_FORMAT_RGB16;
    CU_ASSERT_EQUAL(rdp_screen_view_of(&gdi, &v), 0);
    CU_ASSERT(v.bytes_per_pixel == 2 && v.stride == 8 && v.width == 4 && v.pixels == buf);
    gdi.dstFormat = PIXEL_FORMAT_RGBA32;
    CU_ASSERT_EQUAL(rdp_screen_view_of(&gdi, &v), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_screen__damage_clip_and_reset), UNIT_TEST(test_screen__damage_drops_empty),
        UNIT_TEST(test_screen__damage_overflow_folds), UNIT_TEST(test_screen__png_roundtrip),
        UNIT_TEST(test_screen__png_errors), UNIT_TEST(test_screen__view_of), UNIT_END,
    };
    return unit_run("screen", tests, NULL, NULL);
}
