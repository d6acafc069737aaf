/* test_studio_rec.c -- the studio's recording and YAML writer: snapping, names, the text it
 * writes (loaded back by the workload loader), quoting that no typed text can break out of,
 * refusals that keep the recording unchanged, the try workload, the page's condition form. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "agent/studio/studio_rec.h"
#include "common/workload.h"

static struct studio_rec R;
static char err[512];

static struct workload *load(const struct studio_rec *r)
{
    char *y = studio_rec_yaml(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(y);
    struct workload *wl = workload_load_string("t.yaml", y, strlen(y), err, sizeof err);
    if (!wl)
        fprintf(stderr, "%s\n--\n%s\n", err, y);
    free(y);
    return wl;
}

static struct studio_step key(const char *chord)
{
    struct studio_step s = { .kind = STUDIO_KEY };
    snprintf(s.text, sizeof s.text, "%s", chord);
    return s;
}

static void test_studio_rec__snap_clip_and_names(void)
{
    studio_rec_init(&R, "desk", 1024, 768, 16);
    struct workload_rect r = { 113, 61, -50, 30 };           /* dragged leftwards */
    CU_ASSERT_EQUAL(studio_rec_snap(&R, &r), 0);
    CU_ASSERT_EQUAL(r.x, 60);
    CU_ASSERT_EQUAL(r.y, 60);
    CU_ASSERT_EQUAL(r.w, 56);
    CU_ASSERT_EQUAL(r.h, 32);
    r = (struct workload_rect){ 1000, 700, 100, 100 };      /* clipped at the desktop's edge */
    CU_ASSERT_EQUAL(studio_rec_snap(&R, &r), 0);
    CU_ASSERT_EQUAL(r.w, 24);
    CU_ASSERT_EQUAL(r.h, 68);
    r = (struct workload_rect){ 2000, 10, 10, 10 };
    CU_ASSERT_EQUAL(studio_rec_snap(&R, &r), -1);
    CU_ASSERT_EQUAL(studio_rec_region(&R, "appwin", (struct workload_rect){ 112, 60, 800, 500 }, err, sizeof err), 0);
    CU_ASSERT_EQUAL(studio_rec_region(&R, "appwin", (struct workload_rect){ 110, 58, 10, 10 }, err, sizeof err), 0);
    CU_ASSERT_EQUAL(R.nregions, 1);                          /* moved, not added */
    CU_ASSERT_EQUAL(R.regions[0].r.x, 108);
    CU_ASSERT_EQUAL(studio_rec_region(&R, "screen", r, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "built in"));
    CU_ASSERT_EQUAL(studio_rec_region(&R, "a b", (struct workload_rect){ 0, 0, 8, 8 }, err, sizeof err), -1);
    CU_ASSERT_EQUAL(studio_rec_region(&R, "-x", (struct workload_rect){ 0, 0, 8, 8 }, err, sizeof err), -1);
    CU_ASSERT_EQUAL(studio_rec_region(&R, "x: [1]", (struct workload_rect){ 0, 0, 8, 8 }, err, sizeof err), -1);
    CU_ASSERT_EQUAL(R.nregions, 1);
}

/* The text of a small recording, exactly: what the user will read and `sessmax validate` loads. */
static void test_studio_rec__writes_the_workload_language(void)
{
    studio_rec_init(&R, "office", 1024, 768, 32);
    studio_rec_region(&R, "runbox", (struct workload_rect){ 8, 600, 420, 132 }, err, sizeof err);
    studio_rec_region(&R, "appwin", (struct workload_rect){ 112, 60, 800, 500 }, err, sizeof err);
    struct studio_step s = key("win+r");
    CU_ASSERT_EQUAL_FATAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), 0);
    s = (struct studio_step){ .kind = STUDIO_WAIT, .nconds = 1, .timeout_ms = 5000,
                              .conds = { { .kind = STUDIO_CHANGE, .region = "runbox" } } };
    CU_ASSERT_EQUAL_FATAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), 0);
    s = (struct studio_step){ .kind = STUDIO_TYPE, .text = "edit doc1.txt" };
    CU_ASSERT_EQUAL_FATAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), 0);
    s = (struct studio_step){ .kind = STUDIO_TIMER, .name = "app_start", .input = STUDIO_KEY, .text = "enter",
                              .nconds = 3, .timeout_ms = 1500,
                              .conds = { { .kind = STUDIO_CHANGE, .region = "appwin", .except = "runbox" },
                                         { .kind = STUDIO_STABLE, .region = "appwin", .for_ms = 300 },
                                         { .kind = STUDIO_PIXEL, .x = 120, .y = 64, .rgb = 0x0a80ff, .tolerance = 8 } } };
    CU_ASSERT_EQUAL_FATAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), 0);
    s = (struct studio_step){ .kind = STUDIO_THINK, .text = "2s..4s" };
    CU_ASSERT_EQUAL_FATAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), 0);
    s = (struct studio_step){ .kind = STUDIO_CLICK, .x = 10, .y = 750 };
    CU_ASSERT_EQUAL_FATAL(studio_rec_append(&R, STUDIO_LOGOFF, &s, err, sizeof err), 0);
    char *y = studio_rec_yaml(&R);
    const char *want =
        "# recorded with sessmax-agent studio (docs/studio.md)\n"
        "version: 1\n"
        "name: office\n"
        "desktop: {width: 1024, height: 768, bpp: 32}\n"
        "regions:\n"
        "  runbox: [8, 600, 420, 132]\n"
        "  appwin: [112, 60, 800, 500]\n"
        "logon: {change: {region: screen}, stable: {region: screen, for: 1s}, timeout: 120s}\n"
        "loop:\n"
        "  - key: \"win+r\"\n"
        "  - wait: {change: {region: runbox}, timeout: 5s}\n"
        "  - type: \"edit doc1.txt\"\n"
        "  - timer: app_start\n"
        "    steps: [{key: \"enter\"}]\n"
        "    until: {change: {region: appwin, except: runbox}, stable: {region: appwin, for: 300ms}, "
        "pixel: {x: 120, y: 64, rgb: \"#0a80ff\", tolerance: 8}, timeout: 1500ms}\n"
        "  - think: \"2s..4s\"\n"
        "logoff:\n"
        "  - click: {x: 10, y: 750}\n";
    CU_ASSERT_STRING_EQUAL(y, want);
    free(y);
    struct workload *wl = load(&R);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(wl->nloop, 5);
    CU_ASSERT_EQUAL(wl->loop[3].kind, WORKLOAD_STEP_TIMER);
    CU_ASSERT_EQUAL(wl->loop[3].wait.n, 3);
    CU_ASSERT_EQUAL(wl->loop[3].wait.timeout_us, 1500000);
    CU_ASSERT_EQUAL(wl->loop[3].wait.conds[2].rgb, 0x0a80ff);
    CU_ASSERT_EQUAL(wl->nlogoff, 1);
    CU_ASSERT_EQUAL(studio_rec_check(&R, err, sizeof err), 0);
    workload_free(wl);
}

/* Typed text comes back byte for byte, however it tries to end the string or the line. */
static void test_studio_rec__typed_text_cannot_break_out(void)
{
    static const char *const texts[] = { "say \"hi\"", "C:\\Users\\{user}\\x", "logoff\n", "a\tb",
                                         "\"}\nlogoff: [{key: enter}]\n#", "caf\xc3\xa9 \xe2\x82\xac", "x\x01y" };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        studio_rec_init(&R, "t", 800, 600, 16);
        struct studio_step s = { .kind = STUDIO_TYPE };
        snprintf(s.text, sizeof s.text, "%s", texts[i]);
        CU_ASSERT_EQUAL_FATAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), 0);
        struct workload *wl = load(&R);
        CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
        CU_ASSERT_EQUAL(wl->nloop, 1);
        CU_ASSERT_EQUAL(wl->nlogoff, 0);
        CU_ASSERT_STRING_EQUAL(wl->loop[0].text, texts[i]);
        workload_free(wl);
    }
}

/* A step the loader refuses is not kept, and says why; so is a bad logon. */
static void test_studio_rec__refusals_keep_the_recording(void)
{
    studio_rec_init(&R, "t", 1024, 768, 16);
    struct studio_step s = key("win+r");
    CU_ASSERT_EQUAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), 0);
    s = key("ctrl+entr");
    CU_ASSERT_EQUAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "entr"));
    s = (struct studio_step){ .kind = STUDIO_WAIT, .nconds = 1, .conds = { { .kind = STUDIO_CHANGE, .region = "nowhere" } } };
    CU_ASSERT_EQUAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "nowhere"));
    s = (struct studio_step){ .kind = STUDIO_WAIT };
    CU_ASSERT_EQUAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), -1);
    s = (struct studio_step){ .kind = STUDIO_TIMER, .name = "bad name", .text = "enter", .nconds = 1,
                              .conds = { { .kind = STUDIO_STABLE, .region = "screen" } } };
    CU_ASSERT_EQUAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), -1);
    s = (struct studio_step){ .kind = STUDIO_THINK, .text = "soon" };
    CU_ASSERT_EQUAL(studio_rec_append(&R, STUDIO_LOOP, &s, err, sizeof err), -1);
    CU_ASSERT_EQUAL(R.nsteps[STUDIO_LOOP], 1);
    struct studio_cond c = { .kind = STUDIO_STABLE, .region = "taskbar" };
    CU_ASSERT_EQUAL(studio_rec_set_logon(&R, &c, 1, err, sizeof err), -1);
    CU_ASSERT_EQUAL(R.nlogon, 2);
    studio_rec_region(&R, "taskbar", (struct workload_rect){ 0, 740, 1024, 28 }, err, sizeof err);
    CU_ASSERT_EQUAL(studio_rec_set_logon(&R, &c, 1, err, sizeof err), 0);
    CU_ASSERT_EQUAL(R.nlogon, 1);
    CU_ASSERT_EQUAL(studio_rec_undo(&R, STUDIO_LOOP), 0);
    CU_ASSERT_EQUAL(studio_rec_undo(&R, STUDIO_LOOP), -1);
    CU_ASSERT_EQUAL(studio_rec_check(&R, err, sizeof err), -1);   /* an empty loop does not run */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "loop must not be empty"));
}

/* The try's workload: the same regions, a logon that holds on any screen, timeouts that fail. */
static void test_studio_rec__try_workload(void)
{
    studio_rec_init(&R, "t", 1024, 768, 16);
    studio_rec_region(&R, "appwin", (struct workload_rect){ 112, 60, 800, 500 }, err, sizeof err);
    struct studio_step s = { .kind = STUDIO_TIMER, .name = "app_start", .text = "enter", .nconds = 1,
                             .conds = { { .kind = STUDIO_CHANGE, .region = "appwin" } } };
    char *y = studio_rec_try_yaml(&R, &s, 1);
    struct workload *wl = workload_load_string("try.yaml", y, strlen(y), err, sizeof err);
    free(y);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(wl->logon.n, 1);
    CU_ASSERT_EQUAL(wl->logon.conds[0].kind, WORKLOAD_COND_PIXEL);
    CU_ASSERT_EQUAL(wl->logon.conds[0].tolerance, 255);
    CU_ASSERT_EQUAL(wl->nloop, 2);
    CU_ASSERT_TRUE(wl->loop[0].wait.on_timeout_fail);
    CU_ASSERT_EQUAL(wl->loop[1].kind, WORKLOAD_STEP_THINK);
    workload_free(wl);
}

static void test_studio_rec__condition_short_form(void)
{
    struct studio_cond c;
    CU_ASSERT_EQUAL(studio_cond_parse("change,appwin,runbox", &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.kind, STUDIO_CHANGE);
    CU_ASSERT_STRING_EQUAL(c.region, "appwin");
    CU_ASSERT_STRING_EQUAL(c.except, "runbox");
    CU_ASSERT_EQUAL(studio_cond_parse("stable,appwin,250", &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.for_ms, 250);
    CU_ASSERT_EQUAL(studio_cond_parse("stable,appwin", &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.for_ms, 0);
    CU_ASSERT_EQUAL(studio_cond_parse("pixel,10,20,#A0b0C0,8", &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(c.x, 10);
    CU_ASSERT_EQUAL(c.rgb, 0xa0b0c0);
    CU_ASSERT_EQUAL(c.tolerance, 8);
    static const char *const bad[] = { "", "match,x", "change,a,b,c", "stable,a,0", "stable,a,x",
                                       "pixel,1,2,a0b0c0", "pixel,1,2,#a0b0c", "pixel,-1,2,#a0b0c0", "pixel,1,2,#a0b0c0,300" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CU_ASSERT_EQUAL(studio_cond_parse(bad[i], &c, err, sizeof err), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_studio_rec__snap_clip_and_names),
        UNIT_TEST(test_studio_rec__writes_the_workload_language),
        UNIT_TEST(test_studio_rec__typed_text_cannot_break_out),
        UNIT_TEST(test_studio_rec__refusals_keep_the_recording),
        UNIT_TEST(test_studio_rec__try_workload),
        UNIT_TEST(test_studio_rec__condition_short_form),
        UNIT_END,
    };
    return unit_run("studio_rec", tests, NULL, NULL);
}
