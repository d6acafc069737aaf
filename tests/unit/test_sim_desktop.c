/* test_sim_desktop.c -- keyboard handling of the desktop contract (win+r, typing, enter, esc,
 * ctrl+o, alt+f4), dirty rectangles, and the rendered layout (taskbar, run box, app window). */
#include "unit.h"

#include "common/keymap.h"
#include "simhost/desktop/desktop.h"
#include "simhost/desktop/frame.h"

#include <stdlib.h>
#include <string.h>

#include "fixture_font.h"

static enum sim_key_result press(struct sim_desktop *d, uint32_t sc, struct sim_cmd *cmd)
{
    enum sim_key_result r = sim_desktop_key(d, sc, 1, cmd);
    sim_desktop_key(d, sc, 0, cmd);
    return r;
}

static enum sim_key_result type(struct sim_desktop *d, const char *text, struct sim_cmd *cmd)
{
    enum sim_key_result r = SIM_KEY_NONE;
    for (const char *p = text; *p; p++) {
        int shift;
        uint32_t sc = keymap_scancode_for_char(*p, &shift);
        if (shift)
            sim_desktop_key(d, KEYMAP_SC_LSHIFT, 1, cmd);
        r = press(d, sc, cmd);
        if (shift)
            sim_desktop_key(d, KEYMAP_SC_LSHIFT, 0, cmd);
    }
    return r;
}

static void win_r(struct sim_desktop *d, struct sim_cmd *cmd)
{
    sim_desktop_key(d, KEYMAP_SC_LWIN, 1, cmd);
    press(d, keymap_scancode_by_name("r"), cmd);
    sim_desktop_key(d, KEYMAP_SC_LWIN, 0, cmd);
}

static int dirty_covers(const struct sim_desktop *d, struct sim_rect r)
{
    for (int i = 0; i < d->dirty.n; i++) {
        const struct sim_rect *q = &d->dirty.r[i];
        if (q->x <= r.x && q->y <= r.y && q->x + q->w >= r.x + r.w && q->y + q->h >= r.y + r.h)
            return 1;
    }
    return 0;
}

static void test_sim_desktop__run_box(void)
{
    struct sim_desktop d;
    struct sim_cmd cmd;
    sim_desktop_init(&d, "simuser001", 1024, 768);
    CU_ASSERT(dirty_covers(&d, (struct sim_rect){ 0, 0, 1024, 768 }));
    sim_dirty_clear(&d.dirty);
    press(&d, keymap_scancode_by_name("r"), &cmd);          /* r alone: nothing */
    CU_ASSERT_FALSE(d.run_open);
    win_r(&d, &cmd);
    CU_ASSERT_TRUE(d.run_open);
    CU_ASSERT(dirty_covers(&d, (struct sim_rect){ 8, 600, 420, 132 }));
    sim_dirty_clear(&d.dirty);
    CU_ASSERT_EQUAL(type(&d, "Zip9 x", &cmd), SIM_KEY_NONE);
    CU_ASSERT_STRING_EQUAL(d.run_text, "Zip9 x");
    CU_ASSERT_EQUAL(d.dirty.n, 1);                            /* only the input line */
    CU_ASSERT(d.dirty.r[0].w < 420 && d.dirty.r[0].h <= 24);
    press(&d, keymap_scancode_by_name("backspace"), &cmd);
    press(&d, keymap_scancode_by_name("backspace"), &cmd);
    CU_ASSERT_STRING_EQUAL(d.run_text, "Zip9");
    type(&d, "\b\b\b\bcpu", &cmd);
    CU_ASSERT_STRING_EQUAL(d.run_text, "cpu");
    CU_ASSERT_EQUAL(press(&d, KEYMAP_SC_ENTER, &cmd), SIM_KEY_COMMAND);
    CU_ASSERT_EQUAL(cmd.kind, SIM_CMD_CPU);
    CU_ASSERT_FALSE(d.run_open);
    win_r(&d, &cmd);
    press(&d, KEYMAP_SC_ESC, &cmd);
    CU_ASSERT_FALSE(d.run_open);
}

static void test_sim_desktop__editor_and_dialog(void)
{
    struct sim_desktop d;
    struct sim_cmd cmd;
    static const char *const lines[] = { "edit #1: doc1.txt", "hello" };
    sim_desktop_init(&d, "simuser001", 1024, 768);
    sim_desktop_show_app(&d, "Editor - doc1.txt", SIM_RGB_EDIT_TITLE, 1, lines, 2);
    sim_dirty_clear(&d.dirty);
    type(&d, "Hi!", &cmd);
    CU_ASSERT_STRING_EQUAL(d.edit_text, "Hi!");
    CU_ASSERT_EQUAL(d.dirty.n, 1);
    CU_ASSERT(d.dirty.r[0].y >= 60 + 24 && d.dirty.r[0].h <= 20);   /* the cursor line only */
    sim_desktop_key(&d, KEYMAP_SC_LCTRL, 1, &cmd);
    CU_ASSERT_EQUAL(press(&d, keymap_scancode_by_name("o"), &cmd), SIM_KEY_OPEN_DIALOG);
    sim_desktop_key(&d, KEYMAP_SC_LCTRL, 0, &cmd);
    sim_desktop_show_dialog(&d, lines, 2);
    CU_ASSERT_TRUE(d.dlg.open);
    type(&d, "x", &cmd);                                              /* dialog has focus */
    CU_ASSERT_STRING_EQUAL(d.edit_text, "Hi!");
    press(&d, KEYMAP_SC_ESC, &cmd);                                  /* dialog first */
    CU_ASSERT_FALSE(d.dlg.open);
    CU_ASSERT_TRUE(d.app.open);
    sim_desktop_key(&d, KEYMAP_SC_LALT, 1, &cmd);
    press(&d, keymap_scancode_by_name("f4"), &cmd);
    sim_desktop_key(&d, KEYMAP_SC_LALT, 0, &cmd);
    CU_ASSERT_FALSE(d.app.open);
    CU_ASSERT(dirty_covers(&d, sim_desktop_app_rect(&d)));
}

static uint32_t pixel(const uint32_t *px, int x, int y) { return px[(size_t)y * 1024 + x]; }

static void test_sim_desktop__render_layout(void)
{
    struct sim_desktop d;
    struct sim_cmd cmd;
    uint32_t *px = malloc(1024 * 768 * 4);
    struct sim_canvas c = { px, 0, 0, 1024, 768 };
    static const char *const lines[] = { "cpu #1: done" };
    sim_desktop_init(&d, "simuser001", 1024, 768);
    sim_desktop_render(&d, &font, &c);
    CU_ASSERT_EQUAL(pixel(px, 500, 300), SIM_RGB_BACKGROUND);
    CU_ASSERT_EQUAL(pixel(px, 500, 760), SIM_RGB_TASKBAR);
    int ink = 0;                        /* the user name is drawn at the right of the taskbar */
    for (int x = 900; x < 1020; x++)
        for (int y = 742; y < 766; y++)
            ink += pixel(px, x, y) != SIM_RGB_TASKBAR;
    CU_ASSERT(ink > 50);
    win_r(&d, &cmd);
    sim_desktop_show_app(&d, "CPU", SIM_RGB_CPU_TITLE, 0, lines, 1);
    sim_desktop_render(&d, &font, &c);
    CU_ASSERT_EQUAL(pixel(px, 700, 65), SIM_RGB_CPU_TITLE);      /* app title bar */
    CU_ASSERT_EQUAL(pixel(px, 700, 400), 0xFFFFFFu);             /* app body */
    CU_ASSERT_EQUAL(pixel(px, 300, 605), SIM_RGB_RUN_TITLE);     /* run box above the app */
    CU_ASSERT_EQUAL(pixel(px, 950, 300), SIM_RGB_BACKGROUND);
    free(px);
}

static void test_sim_desktop__frame_strips(void)
{
    struct sim_desktop d;
    struct sim_frame_buf b;
    uint32_t px[4] = { 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF };   /* 2x2, top row first */
    uint8_t out[16];
    sim_frame_to_wire(px, 2, 2, 16, out);                           /* bottom row first, RGB565 LE */
    CU_ASSERT_EQUAL(out[0] | out[1] << 8, 0x001F);
    CU_ASSERT_EQUAL(out[2] | out[3] << 8, 0xFFFF);
    CU_ASSERT_EQUAL(out[4] | out[5] << 8, 0xF800);
    CU_ASSERT_EQUAL(out[6] | out[7] << 8, 0x07E0);
    sim_frame_to_wire(px, 2, 2, 32, out);
    CU_ASSERT_EQUAL(out[0], 0xFF);       /* blue pixel: B first */
    CU_ASSERT_EQUAL(out[2], 0x00);
    CU_ASSERT_EQUAL(out[8 + 2], 0xFF);   /* red pixel on the top row, sent last: R at byte 2 */
    sim_desktop_init(&d, "u", 1024, 768);
    CU_ASSERT_EQUAL(sim_frame_buf_init(&b, 16384), 0);
    long long bytes = sim_frame_emit(&d, &font, (struct sim_rect){ 0, 0, 1024, 768 }, 16, &b, NULL, NULL);
    CU_ASSERT_EQUAL(bytes, 1024LL * 768 * 2);
    bytes = sim_frame_emit(&d, &font, (struct sim_rect){ 1000, 700, 100, 100 }, 32, &b, NULL, NULL);
    CU_ASSERT_EQUAL(bytes, 24LL * 68 * 4);                          /* clipped to the desktop */
    sim_frame_buf_free(&b);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_desktop__run_box), UNIT_TEST(test_sim_desktop__editor_and_dialog),
        UNIT_TEST(test_sim_desktop__render_layout), UNIT_TEST(test_sim_desktop__frame_strips), UNIT_END,
    };
    return unit_run("sim_desktop", tests, setup, teardown);
}
