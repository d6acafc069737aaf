/* test_sim_canvas.c -- text and fills rendered into a buffer, checked pixel by pixel; dirty
 * rectangle merging. */
#include "unit.h"

#include "simhost/desktop/canvas.h"

#include <stdlib.h>
#include <string.h>

#include "fixture_font.h"

static int count_dark(const struct sim_canvas *c, int x, int y, int w, int h)
{
    int n = 0;
    for (int yy = y; yy < y + h; yy++)
        for (int xx = x; xx < x + w; xx++)
            n += (c->px[(size_t)(yy - c->y0) * c->w + (xx - c->x0)] & 0xFF) < 0x80;
    return n;
}

static void test_sim_canvas__font_metrics(void)
{
    CU_ASSERT(font.advance >= 6 && font.advance <= 10);
    CU_ASSERT(font.line_h >= 13 && font.line_h <= 18);
    CU_ASSERT(font.ascent > 0 && font.ascent < font.line_h);
    CU_ASSERT_PTR_NOT_NULL(sim_font_glyph(&font, 'A')->alpha);
    CU_ASSERT_PTR_NULL(sim_font_glyph(&font, ' ')->alpha);
    CU_ASSERT_PTR_EQUAL(sim_font_glyph(&font, '\x01'), sim_font_glyph(&font, '?'));
}

static void test_sim_canvas__text_pixels(void)
{
    uint32_t px[64 * 20];
    struct sim_canvas c = { px, 100, 200, 64, 20 };
    sim_canvas_fill(&c, 0, 0, 2000, 2000, 0xFFFFFF);
    CU_ASSERT_EQUAL(count_dark(&c, 100, 200, 64, 20), 0);
    int adv = sim_canvas_text(&c, &font, 102, 201, 0, "HI", 0x000000);
    CU_ASSERT_EQUAL(adv, 2 * font.advance);
    /* ink lies inside the two cells, none to the right of them */
    CU_ASSERT(count_dark(&c, 102, 201, font.advance, font.line_h) > 8);
    CU_ASSERT(count_dark(&c, 102 + font.advance, 201, font.advance, font.line_h) > 8);
    CU_ASSERT_EQUAL(count_dark(&c, 102 + 2 * font.advance + 1, 200, 64 - 3 - 2 * font.advance, 20), 0);
    /* 'H' has two vertical stems: the middle row of its cell has dark pixels at both sides */
    int mid = 201 + font.ascent - 4;
    CU_ASSERT(count_dark(&c, 102, mid, font.advance / 2, 1) >= 1);
    CU_ASSERT(count_dark(&c, 102 + font.advance / 2, mid, font.advance - font.advance / 2, 1) >= 1);
}

static void test_sim_canvas__clipping(void)
{
    uint32_t px[16 * 16];
    struct sim_canvas c = { px, 50, 50, 16, 16 };
    sim_canvas_fill(&c, 0, 0, 100, 100, 0x123456);
    sim_canvas_fill(&c, 60, 60, 100, 100, 0xABCDEF);      /* partly outside */
    CU_ASSERT_EQUAL(px[0], 0x123456u);
    CU_ASSERT_EQUAL(px[9 * 16 + 9], 0x123456u);
    CU_ASSERT_EQUAL(px[10 * 16 + 10], 0xABCDEFu);
    CU_ASSERT_EQUAL(px[15 * 16 + 15], 0xABCDEFu);
    /* text entirely outside changes nothing but still reports its advance */
    CU_ASSERT_EQUAL(sim_canvas_text(&c, &font, 0, 0, 0, "abc", 0), 3 * font.advance);
    CU_ASSERT_EQUAL(px[0], 0x123456u);
    /* clip_w stops drawing */
    sim_canvas_fill(&c, 50, 50, 16, 16, 0xFFFFFF);
    sim_canvas_text(&c, &font, 50, 50, 1, "WWWW", 0);
    CU_ASSERT_EQUAL(count_dark(&c, 52, 50, 14, 16), 0);
    sim_canvas_frame(&c, 50, 50, 16, 16, 0x000000);
    CU_ASSERT_EQUAL(px[0], 0u);
    CU_ASSERT_EQUAL(px[15 * 16 + 7], 0u);
    CU_ASSERT_EQUAL(px[7 * 16 + 7], 0xFFFFFFu);
}

static void test_sim_canvas__dirty_merge(void)
{
    struct sim_dirty d = { .n = 0 };
    sim_dirty_add(&d, (struct sim_rect){ 0, 0, 10, 10 });
    sim_dirty_add(&d, (struct sim_rect){ 5, 5, 10, 10 });   /* overlaps: merged */
    CU_ASSERT_EQUAL(d.n, 1);
    CU_ASSERT_EQUAL(d.r[0].w, 15);
    CU_ASSERT_EQUAL(d.r[0].h, 15);
    sim_dirty_add(&d, (struct sim_rect){ 100, 100, 5, 5 });
    CU_ASSERT_EQUAL(d.n, 2);
    sim_dirty_add(&d, (struct sim_rect){ 1, 1, 0, 5 });     /* empty: ignored */
    CU_ASSERT_EQUAL(d.n, 2);
    for (int i = 0; i < 40; i++)
        sim_dirty_add(&d, (struct sim_rect){ 200 + 20 * i, 300, 5, 5 });
    CU_ASSERT(d.n <= SIM_DIRTY_MAX);
    int covered = 0;   /* the last rectangle is inside some dirty one */
    for (int i = 0; i < d.n; i++)
        covered |= d.r[i].x <= 980 && d.r[i].x + d.r[i].w >= 985 && d.r[i].y <= 300 && d.r[i].y + d.r[i].h >= 305;
    CU_ASSERT(covered);
    struct sim_rect a = { 0, 0, 10, 10 }, b = { 10, 0, 5, 5 }, o;
    CU_ASSERT_EQUAL(sim_rect_intersect(&a, &b, &o), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_canvas__font_metrics), UNIT_TEST(test_sim_canvas__text_pixels),
        UNIT_TEST(test_sim_canvas__clipping), UNIT_TEST(test_sim_canvas__dirty_merge), UNIT_END,
    };
    return unit_run("sim_canvas", tests, setup, teardown);
}
