/* test_cond.c -- screen conditions on synthetic 16 and 32 bpp framebuffers: change, stable,
 * match, pixel, conditions held in sequence, regions outside the screen. Times are synthetic. */
#include "unit.h"

#include <string.h>

#include "agent/interp/cond.h"
#include "common/workload_pixel.h"

#define W 64
#define H 48

static uint8_t fb[W * H * 4];
static struct screen_view view;

static void screen(uint32_t bpp)
{
    memset(fb, 0, sizeof fb);
    view = (struct screen_view){ fb, W, H, W * bpp, bpp };
}

/* Paints a rectangle with 0xRRGGBB in the current format. */
static void fill(int x, int y, int w, int h, uint32_t rgb)
{
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) {
            uint8_t *p = fb + (size_t)j * view.stride + (size_t)i * view.bytes_per_pixel;
            uint8_t r = (uint8_t)(rgb >> 16), g = (uint8_t)(rgb >> 8), b = (uint8_t)rgb;
            if (view.bytes_per_pixel == 4) {
                p[0] = b; p[1] = g; p[2] = r; p[3] = 0;
            } else {
                unsigned v = ((r >> 3u) << 11) | ((g >> 2u) << 5) | (b >> 3u);
                p[0] = (uint8_t)v;
                p[1] = (uint8_t)(v >> 8);
            }
        }
}

static struct workload_cond cond(enum workload_cond_kind k, int x, int y, int w, int h)
{
    struct workload_cond c = { .kind = k, .region = { x, y, w, h } };
    strcpy(c.region_name, "r");
    return c;
}

static void check_change(uint32_t bpp)
{
    screen(bpp);
    struct workload_wait w = { .n = 1, .timeout_us = 1000 };
    w.conds[0] = cond(WORKLOAD_COND_CHANGE, 10, 10, 20, 10);
    struct cond_state st = { 0 };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 100), 0);
    struct rect outside = { 40, 30, 5, 5 }, inside = { 12, 12, 4, 4 };
    fill(40, 30, 5, 5, 0xFFFFFF);
    CU_ASSERT_FALSE(cond_wants_paint(&st, &outside, 1));
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &outside, 1, 200), 0);
    CU_ASSERT_TRUE(cond_wants_paint(&st, &inside, 1));
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &inside, 1, 300), 0);   /* painted, same pixels */
    fill(12, 12, 4, 4, 0x808080);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &inside, 1, 400), 1);
    CU_ASSERT_EQUAL(st.met_us, 400);
    CU_ASSERT_EQUAL(cond_next_tick_us(&st), 0);
    cond_end(&st);
}

static void test_cond__change_32(void) { check_change(4); }
static void test_cond__change_16(void) { check_change(2); }

/* Only rows a paint touched are read again; the padding byte of 32 bpp pixels is ignored. */
static void test_cond__change_rows(void)
{
    screen(4);
    struct workload_wait w = { .n = 1 };
    w.conds[0] = cond(WORKLOAD_COND_CHANGE, 0, 0, 40, 40);
    struct cond_state st = { 0 };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 0), 0);
    fb[(5 * W + 5) * 4 + 3] = 0xFF;                     /* X byte only */
    struct rect r5 = { 5, 5, 1, 1 }, r9 = { 0, 9, 40, 2 };
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r5, 1, 1), 0);
    fill(30, 20, 1, 1, 0xFFFFFF);                        /* changed, but the paint names rows 9-10 */
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r9, 1, 2), 0);
    fill(39, 10, 1, 1, 0xFFFFFF);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r9, 1, 3), 1);
    CU_ASSERT_PTR_NULL(st.row_hash);                     /* released once held */
    cond_end(&st);
}

static void test_cond__change_without_screen(void)
{
    screen(4);
    struct workload_wait w = { .n = 1 };
    w.conds[0] = cond(WORKLOAD_COND_CHANGE, 0, 0, 10, 10);
    struct cond_state st = { 0 };
    struct rect r = { 0, 0, 10, 10 };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, NULL, 0), 0);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 10), 0);   /* first screen = baseline */
    fill(0, 0, 1, 1, 0xFF0000);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 20), 1);
    cond_end(&st);
}

static void test_cond__stable(void)
{
    screen(2);
    struct workload_wait w = { .n = 1 };
    w.conds[0] = cond(WORKLOAD_COND_STABLE, 0, 0, 32, 32);
    w.conds[0].stable_us = 50;
    struct cond_state st = { 0 };
    struct rect r = { 5, 5, 2, 2 }, away = { 40, 40, 2, 2 };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 1000), 0);
    CU_ASSERT_EQUAL(cond_next_tick_us(&st), 1050);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 1020), 0);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &away, 1, 1060), 0);   /* elsewhere: no effect */
    CU_ASSERT_EQUAL(cond_next_tick_us(&st), 1070);
    CU_ASSERT_EQUAL(cond_on_tick(&st, &view, 1050), 0);
    CU_ASSERT_EQUAL(cond_on_tick(&st, &view, 1070), 1);
    CU_ASSERT_EQUAL(st.met_us, 1020);       /* the screen was done at the last paint */
    cond_end(&st);
}

static void test_cond__sequence(void)
{
    screen(4);
    struct workload_wait w = { .n = 2 };
    w.conds[0] = cond(WORKLOAD_COND_CHANGE, 0, 0, 16, 16);
    w.conds[1] = cond(WORKLOAD_COND_STABLE, 0, 0, 16, 16);
    w.conds[1].stable_us = 100;
    struct cond_state st = { 0 };
    struct rect r = { 0, 0, 16, 16 };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 0), 0);
    CU_ASSERT_EQUAL(cond_next_tick_us(&st), 0);          /* stable not watched before change */
    fill(0, 0, 16, 16, 0x102030);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 10), 0);
    CU_ASSERT_EQUAL(st.idx, 1);
    fill(0, 0, 16, 8, 0x405060);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 60), 0);
    CU_ASSERT_EQUAL(cond_on_tick(&st, &view, 110), 0);
    CU_ASSERT_EQUAL(cond_on_tick(&st, &view, 160), 1);
    CU_ASSERT_EQUAL(st.met_us, 60);
    char buf[64];
    CU_ASSERT_STRING_EQUAL(cond_describe(&st, buf, sizeof buf), "met");
    cond_end(&st);
}

static void check_match(uint32_t bpp)
{
    screen(bpp);
    fill(8, 8, 8, 8, 0x336699);
    struct workload_rect rr = { 8, 8, 8, 8 };
    uint64_t want = workload_region_hash(fb, view.stride, bpp, rr, 0);
    screen(bpp);
    struct workload_wait w = { .n = 1 };
    w.conds[0] = cond(WORKLOAD_COND_MATCH, 8, 8, 8, 8);
    w.conds[0].hash = want;
    struct cond_state st = { 0 };
    struct rect r = { 0, 0, 12, 12 };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 0), 0);
    fill(8, 8, 8, 8, 0x336699);
    fill(9, 9, 1, 1, 0x3366A9);                          /* one pixel slightly off */
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 5), 0);
    fill(9, 9, 1, 1, 0x336699);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 7), 1);
    CU_ASSERT_EQUAL(st.met_us, 7);
    /* Already on screen when the wait starts: held at once. Tolerance 2 absorbs small shifts. */
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 9), 1);
    w.conds[0].tolerance = 2;
    w.conds[0].hash = workload_region_hash(fb, view.stride, bpp, rr, 2);
    fill(9, 9, 1, 1, 0x3B6699);                          /* differs in RGB565, not in its top 3 bits */
    CU_ASSERT_NOT_EQUAL(workload_region_hash(fb, view.stride, bpp, rr, 0), want);
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 9), 1);
    cond_end(&st);
}

static void test_cond__match_32(void) { check_match(4); }
static void test_cond__match_16(void) { check_match(2); }

static void check_pixel(uint32_t bpp, uint32_t tol)
{
    screen(bpp);
    struct workload_wait w = { .n = 1 };
    w.conds[0] = cond(WORKLOAD_COND_PIXEL, 20, 30, 1, 1);
    w.conds[0].rgb = 0x10FF20;
    w.conds[0].tolerance = tol;
    struct cond_state st = { 0 };
    struct rect r = { 20, 30, 1, 1 };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 0), 0);
    fill(20, 30, 1, 1, 0x40FF20);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 1), 0);
    fill(20, 30, 1, 1, 0x10FF20);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 2), 1);
    cond_end(&st);
}

static void test_cond__pixel_32(void) { check_pixel(4, 0); }
static void test_cond__pixel_16(void) { check_pixel(2, 8); }   /* RGB565 rounding needs tolerance */

static void test_cond__outside_screen(void)
{
    screen(4);
    struct workload_wait w = { .n = 1 };
    w.conds[0] = cond(WORKLOAD_COND_CHANGE, 100, 100, 10, 10);   /* the server gave a smaller desktop */
    struct cond_state st = { 0 };
    struct rect r = { 0, 0, W, H };
    CU_ASSERT_EQUAL(cond_begin(&st, &w, &view, 0), 0);
    fill(0, 0, W, H, 0xFFFFFF);
    CU_ASSERT_EQUAL(cond_on_paint(&st, &view, &r, 1, 1), 0);
    char buf[64];
    CU_ASSERT_STRING_EQUAL(cond_describe(&st, buf, sizeof buf), "change r");
    cond_end(&st);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_cond__change_32),
        UNIT_TEST(test_cond__change_16),
        UNIT_TEST(test_cond__change_rows),
        UNIT_TEST(test_cond__change_without_screen),
        UNIT_TEST(test_cond__stable),
        UNIT_TEST(test_cond__sequence),
        UNIT_TEST(test_cond__match_32),
        UNIT_TEST(test_cond__match_16),
        UNIT_TEST(test_cond__pixel_32),
        UNIT_TEST(test_cond__pixel_16),
        UNIT_TEST(test_cond__outside_screen),
        UNIT_END,
    };
    return unit_run("cond", tests, NULL, NULL);
}
