/* test_workload.c -- the workload parser: what loads, what each mistake reports (exact
 * file:line:col text), the flattening walk, {user} expansion and the region hash. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/keymap.h"
#include "common/workload.h"
#include "common/workload_drives.h"
#include "common/workload_pixel.h"

#define HEAD "version: 1\nname: t\nregions: {win: [10, 20, 100, 50]}\n" \
             "logon: {change: screen, timeout: 5s}\n"

static struct workload *load(const char *text, char *err)
{
    err[0] = '\0';
    return workload_load_string("w.yaml", text, strlen(text), err, WORKLOAD_ERR_LEN);
}

/* Asserts that `text` fails to load with exactly `want`. */
static void expect_error(const char *text, const char *want)
{
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = load(text, err);
    CU_ASSERT_PTR_NULL(wl);
    workload_free(wl);
    if (strcmp(err, want) != 0)
        fprintf(stderr, "\n  want: %s\n  got:  %s\n", want, err);
    CU_ASSERT_STRING_EQUAL(err, want);
}

static void test_workload__minimal(void)
{
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = load(HEAD "loop: [{think: 1s}]\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_STRING_EQUAL(workload_name(wl), "t");
    CU_ASSERT_EQUAL(workload_width(wl), 1024);
    CU_ASSERT_EQUAL(workload_height(wl), 768);
    CU_ASSERT_EQUAL(workload_bpp(wl), 16);
    CU_ASSERT_EQUAL(strlen(workload_hash(wl)), 64);
    CU_ASSERT_EQUAL(wl->type_rate_us, 160000);
    CU_ASSERT_EQUAL(wl->logon.timeout_us, 5000000);
    CU_ASSERT_PTR_NOT_NULL(workload_region(wl, "screen"));
    CU_ASSERT_EQUAL(workload_region(wl, "win")->r.w, 100);
    CU_ASSERT_EQUAL(wl->nloop, 1);
    CU_ASSERT_EQUAL(wl->loop[0].think_min_us, 1000000);
    CU_ASSERT_EQUAL(wl->loop[0].think_max_us, 1000000);
    workload_free(wl);
}

/* pause after key/click/move, a change's except areas, a timer's plausibility floor, the logon
 * repaint delay: defaults and overrides. */
static void test_workload__honest_timers(void)
{
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = load("version: 1\nname: t\nregions: {win: [10, 20, 100, 50], line: [10, 60, 100, 10]}\n"
        "logon: {change: screen, repaint_after: 1s}\n"
        "loop:\n"
        "  - key: a\n"
        "  - {click: win, pause: 0s}\n"
        "  - {timer: t, until: {change: {region: win, except: line}}}\n"
        "  - {timer: u, until: {change: {region: win, except: [line, win]}, min: 40ms}}\n"
        "  - {timer: v, until: {change: win, min: 0}}\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(wl->logon.repaint_after_us, 1000000);
    CU_ASSERT_EQUAL(wl->loop[0].pause_us, 100000);
    CU_ASSERT_EQUAL(wl->loop[1].pause_us, 0);
    const struct workload_cond *c = &wl->loop[2].wait.conds[0];
    CU_ASSERT_EQUAL(c->nexcept, 1);
    CU_ASSERT_EQUAL(c->except[0].y, 60);
    CU_ASSERT_EQUAL(wl->loop[2].wait.min, WORKLOAD_MIN_ECHO);
    CU_ASSERT_EQUAL(wl->loop[3].wait.conds[0].nexcept, 2);
    CU_ASSERT_EQUAL(wl->loop[3].wait.min, WORKLOAD_MIN_FIXED);
    CU_ASSERT_EQUAL(wl->loop[3].wait.min_us, 40000);
    CU_ASSERT_EQUAL(wl->loop[4].wait.min, WORKLOAD_MIN_NONE);
    workload_free(wl);
    wl = load(HEAD "defaults: {pause: 20ms, min: 0}\nloop: [{key: a}, {timer: t, until: {change: win}}]\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(wl->loop[0].pause_us, 20000);
    CU_ASSERT_EQUAL(wl->loop[1].wait.min, WORKLOAD_MIN_NONE);
    CU_ASSERT_EQUAL(wl->logon.repaint_after_us, 5000000);
    workload_free(wl);
}

static void test_workload__steps(void)
{
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = load(HEAD
        "desktop: {width: 800, height: 600, bpp: 32}\n"
        "defaults: {type_rate: 50ms, timeout: 3s, on_timeout: fail}\n"
        "loop:\n"
        "  - key: ctrl+alt+t\n"
        "  - type: \"Hi {user}\\n\"\n"
        "    rate: 10ms\n"
        "  - click: win\n"
        "  - click: {x: 5, y: 6, button: right, double: true}\n"
        "  - move: {x: 7, y: 8}\n"
        "  - think: 2s..5s\n"
        "  - wait: {pixel: {x: 1, y: 2, rgb: \"#10ff20\", tolerance: 3}, on_timeout: continue}\n"
        "  - timer: t1\n"
        "    steps: [{key: enter}]\n"
        "    until: {change: win, stable: {region: win, for: 100ms}, timeout: 2s}\n"
        "  - repeat: {count: 2, steps: [{timer: t2, until: {match: {region: win, hash: 00112233445566ff, tolerance: 1}}}]}\n"
        "measures: {m: {t1: 0.5, t2: 2}}\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(wl->bpp, 32);
    const struct workload_step *s = wl->loop;
    CU_ASSERT_EQUAL(s[0].kind, WORKLOAD_STEP_KEY);
    CU_ASSERT_EQUAL(s[0].nchord, 3);
    CU_ASSERT_EQUAL(s[0].chord[0], KEYMAP_SC_LCTRL);
    CU_ASSERT_EQUAL(s[0].chord[1], KEYMAP_SC_LALT);
    CU_ASSERT_EQUAL(s[0].chord[2], 0x14);
    CU_ASSERT_EQUAL(s[0].line, 8);
    CU_ASSERT_EQUAL(s[0].col, 5);
    CU_ASSERT_STRING_EQUAL(s[1].text, "Hi {user}\n");
    CU_ASSERT_EQUAL(s[1].rate_us, 10000);
    CU_ASSERT_EQUAL(s[2].x, 60);
    CU_ASSERT_EQUAL(s[2].y, 45);
    CU_ASSERT_EQUAL(s[3].button, WORKLOAD_BUTTON_RIGHT);
    CU_ASSERT_EQUAL(s[3].double_click, 1);
    CU_ASSERT_EQUAL(s[4].kind, WORKLOAD_STEP_MOVE);
    CU_ASSERT_EQUAL(s[5].think_min_us, 2000000);
    CU_ASSERT_EQUAL(s[5].think_max_us, 5000000);
    CU_ASSERT_EQUAL(s[6].wait.conds[0].kind, WORKLOAD_COND_PIXEL);
    CU_ASSERT_EQUAL(s[6].wait.conds[0].rgb, 0x10ff20);
    CU_ASSERT_EQUAL(s[6].wait.conds[0].tolerance, 3);
    CU_ASSERT_EQUAL(s[6].wait.timeout_us, 3000000);
    CU_ASSERT_EQUAL(s[6].wait.on_timeout_fail, 0);
    CU_ASSERT_EQUAL(s[7].wait.n, 2);
    CU_ASSERT_EQUAL(s[7].wait.conds[1].stable_us, 100000);
    CU_ASSERT_EQUAL(s[7].wait.on_timeout_fail, 1);
    CU_ASSERT_EQUAL(s[8].count, 2);
    CU_ASSERT_EQUAL(s[8].steps[0].wait.conds[0].hash, 0x00112233445566ffull);
    CU_ASSERT_EQUAL(wl->ntimers, 2);
    CU_ASSERT_EQUAL(wl->nmeasures, 1);
    CU_ASSERT_DOUBLE_EQUAL(wl->measures[0].items[1].weight, 2.0, 1e-9);
    workload_free(wl);
}

static void test_workload__errors(void)
{
    expect_error("", "w.yaml: empty workload");
    expect_error("name: t\n", "w.yaml:1:1: version is missing (write version: 1)");
    expect_error("version: 2\n", "w.yaml:1:10: version 2 is not supported (this sessmax reads version 1)");
    expect_error(HEAD "loop: [{think: 1s}]\nlop: 1\n",
                 "w.yaml:6:1: unknown key 'lop' in a workload (did you mean 'loop'?)");
    expect_error(HEAD "loop: []\n", "w.yaml:5:7: loop must not be empty");
    expect_error(HEAD "measures: {}\n", "w.yaml:1:1: loop is missing");
    expect_error(HEAD "loop:\n  - key: ctrl+alt+tee\n",
                 "w.yaml:6:19: unknown key 'tee' in chord 'ctrl+alt+tee'");
    expect_error(HEAD "loop:\n  - key: \"ctrl+bogus\"\n",
                 "w.yaml:6:16: unknown key 'bogus' in chord 'ctrl+bogus'");
    expect_error(HEAD "loop:\n  - think: 2\n",
                 "w.yaml:6:12: expected a duration or a range like 2s..5s, found '2'");
    expect_error(HEAD "loop:\n  - think: 5s..2s\n", "w.yaml:6:12: think range '5s..2s' ends before it starts");
    expect_error(HEAD "loop:\n  - wait: {change: nowhere}\n",
                 "w.yaml:6:20: unknown region 'nowhere' in change (define it under regions:)");
    expect_error(HEAD "loop:\n  - wait: {change: win, timeout: soon}\n",
                 "w.yaml:6:34: expected a duration with a unit (250ms, 2s, 5m), found 'soon'");
    expect_error(HEAD "loop:\n  - wait: {timeout: 1s}\n",
                 "w.yaml:6:11: wait needs a condition: change, stable, match or pixel");
    expect_error(HEAD "loop:\n  - type: hi\n    rat: 1ms\n",
                 "w.yaml:7:5: unknown key 'rat' in a type step (did you mean 'rate'?)");
    expect_error(HEAD "loop:\n  - click: {x: 5}\n", "w.yaml:6:12: click needs x and y, or a region");
    expect_error(HEAD "loop:\n  - click: {x: 5000, y: 1}\n", "w.yaml:6:16: 5000 is out of range [0, 1023]");
    expect_error(HEAD "loop:\n  - frob: 1\n",
                 "w.yaml:6:5: a step needs one of key, type, click, move, think, wait, timer, repeat");
    expect_error(HEAD "loop:\n  - timer: t1\n    steps: [{key: enter}]\n",
                 "w.yaml:6:5: timer 't1' needs until: {<condition>, timeout}");
    expect_error(HEAD "loop:\n  - timer: t1\n    until: {change: win}\nmeasures: {m: {t1: 1, t9: 1}}\n",
                 "w.yaml:8:23: unknown timer 't9' in measure 'm'");
    expect_error(HEAD "loop:\n  - wait: {match: {region: win, hash: xyz}}\n",
                 "w.yaml:6:39: hash must be 16 hex digits, found 'xyz'");
    expect_error(HEAD "loop:\n  - wait: {pixel: {x: 1, y: 1, rgb: red}}\n",
                 "w.yaml:6:37: rgb must be \"#RRGGBB\", found 'red'");
    expect_error(HEAD "loop:\n  - wait: {change: win, on_timeout: maybe}\n",
                 "w.yaml:6:37: on_timeout must be 'continue' or 'fail', not 'maybe'");
    expect_error("version: 1\nname: t\nregions: {big: [1000, 0, 100, 10]}\nlogon: {change: big}\nloop: [{think: 1s}]\n",
                 "w.yaml:3:16: region 'big' [1000, 0, 100, 10] does not fit the 1024x768 desktop");
    expect_error("version: 1\nname: t\nlogon: {change: screen, on_timeout: fail}\nloop: [{think: 1s}]\n",
                 "w.yaml:3:25: unknown key 'on_timeout' in logon");
    expect_error(HEAD "loop:\n  - repeat: {count: 0, steps: [{think: 1s}]}\n",
                 "w.yaml:6:21: 0 is out of range [1, 100000]");
    expect_error(HEAD "loop:\n  - {key: a, pause: 0s}\n  - think: 0s\n",
                 "w.yaml:6:3: loop never pauses, so it would repeat unbounded: add a think, wait, timer, type or a pause");
    expect_error(HEAD "loop:\n  - {timer: a, until: {change: {region: win, except: nowhere}}}\n",
                 "w.yaml:6:54: unknown region 'nowhere' in except (define it under regions:)");
    expect_error(HEAD "loop:\n  - {timer: a, until: {change: win, min: soon}}\n",
                 "w.yaml:6:42: min must be echo, 0 or a duration like 50ms, not 'soon'");
    expect_error(HEAD "loop:\n  - {wait: {change: win, min: 5ms}}\n",
                 "w.yaml:6:26: unknown key 'min' in wait");
    expect_error(HEAD "loop:\n  - key: ctrl\n  - key: [a]\n",
                 "w.yaml:7:10: expected a text value, found a list");
}

static void test_workload__file_errors(void)
{
    char err[WORKLOAD_ERR_LEN];
    CU_ASSERT_PTR_NULL(workload_load_file("/nonexistent/w.yaml", err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "/nonexistent/w.yaml: cannot open: No such file or directory");
    const char *path = unit_write_file("bad.yaml", "version: 1\nname: [unclosed\n");
    CU_ASSERT_PTR_NULL(workload_load_file(path, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.yaml:"));
}

struct walk_log { char text[512]; };

static int visit(void *ctx, const struct workload_step *s, const char *timer)
{
    struct walk_log *log = ctx;
    static const char *const kinds[] = { "key", "type", "click", "move", "think", "wait", "timer", "repeat" };
    size_t n = strlen(log->text);
    snprintf(log->text + n, sizeof log->text - n, "%s%s%s ", kinds[s->kind], timer ? "@" : "", timer ? timer : "");
    return 0;
}

static void test_workload__walk(void)
{
    char err[WORKLOAD_ERR_LEN];
    struct workload *wl = load(HEAD
        "loop:\n"
        "  - key: a\n"
        "  - repeat: {count: 2, steps: [{type: x}, {timer: t, steps: [{key: b}], until: {change: win}}]}\n"
        "  - think: 1s\n"
        "logoff: [{type: \"logoff\\n\"}]\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    struct walk_log log = { "" };
    CU_ASSERT_EQUAL(workload_walk(wl, WORKLOAD_PART_LOOP, visit, &log), 0);
    CU_ASSERT_STRING_EQUAL(log.text, "key type timer@t key@t type timer@t key@t think ");
    log.text[0] = '\0';
    workload_walk(wl, WORKLOAD_PART_LOGOFF, visit, &log);
    CU_ASSERT_STRING_EQUAL(log.text, "type ");
    workload_free(wl);
}

static void test_workload__expand(void)
{
    char out[32];
    CU_ASSERT_EQUAL(workload_expand("hi {user}!", "bob", out, sizeof out), 7);
    CU_ASSERT_STRING_EQUAL(out, "hi bob!");
    CU_ASSERT_EQUAL(workload_expand("{user}{user}", "simuser001", out, 8), 20);
    CU_ASSERT_STRING_EQUAL(out, "simuser");
    CU_ASSERT_EQUAL(workload_expand("{use", NULL, out, sizeof out), 4);
    CU_ASSERT_STRING_EQUAL(out, "{use");
}

static void test_workload__hash_16_32(void)
{
    /* The same picture at 16 and 32 bpp hashes alike; one changed pixel changes the hash;
     * a small colour change is absorbed by tolerance. */
    uint8_t fb16[8 * 4 * 2], fb32[8 * 4 * 4];
    for (int i = 0; i < 32; i++) {
        unsigned r = (unsigned)(i * 8) & 0xF8, g = (unsigned)(255 - i * 4) & 0xFC, b = 0x40;
        unsigned v = ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3);
        fb16[2 * i] = (uint8_t)(v & 0xFF);
        fb16[2 * i + 1] = (uint8_t)(v >> 8);
        fb32[4 * i] = (uint8_t)b;
        fb32[4 * i + 1] = (uint8_t)g;
        fb32[4 * i + 2] = (uint8_t)r;
        fb32[4 * i + 3] = 0;
    }
    struct workload_rect r = { 1, 1, 6, 3 };
    uint64_t h16 = workload_region_hash(fb16, 16, 2, r, 0), h32 = workload_region_hash(fb32, 32, 4, r, 0);
    CU_ASSERT_EQUAL(h16, h32);
    CU_ASSERT_EQUAL(workload_pixel_rgb(fb32, 32, 4, 3, 1), workload_pixel_rgb(fb16, 16, 2, 3, 1) & 0xF8FCF8);
    uint64_t tol = workload_region_hash(fb32, 32, 4, r, 2);
    fb32[4 * 10 + 2] ^= 0x08;     /* red low bit of RGB565 precision */
    CU_ASSERT_NOT_EQUAL(workload_region_hash(fb32, 32, 4, r, 0), h32);
    CU_ASSERT_EQUAL(workload_region_hash(fb32, 32, 4, r, 2), tol);
    fb32[4 * 10 + 2] ^= 0x08;
    fb32[4 * 0 + 2] ^= 0x80;      /* outside the rect */
    CU_ASSERT_EQUAL(workload_region_hash(fb32, 32, 4, r, 0), h32);
}

static void test_workload__shipped(void)
{
    const char *files[] = { "workloads/simhost-task-worker.yaml", "workloads/single-user.yaml" };
    for (size_t i = 0; i < 2; i++) {
        char err[WORKLOAD_ERR_LEN] = "";
        struct workload *wl = workload_load_file(unit_source_path(files[i]), err, sizeof err);
        if (!wl)
            fprintf(stderr, "\n  %s\n", err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
        CU_ASSERT_EQUAL(wl->nmeasures, 1);
        CU_ASSERT_EQUAL(wl->measures[0].n, 5);
        CU_ASSERT(workload_timer_index(wl, "echo") >= 0);
        CU_ASSERT(wl->nlogoff > 0);
        workload_free(wl);
    }
    char err[WORKLOAD_ERR_LEN] = "";                 /* the xrdp helper's workload loads too */
    struct workload *wl = workload_load_file(unit_source_path("workloads/xrdp-task-worker.yaml"), err, sizeof err);
    if (!wl)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_PTR_NOT_NULL(wl);
    workload_free(wl);
}

/* Mangled workloads never crash the parser: each either loads or names its file in the error. */
static void test_workload__mutations(void)
{
    FILE *f = fopen(unit_source_path("workloads/simhost-task-worker.yaml"), "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char orig[16384], text[16384];
    size_t len = fread(orig, 1, sizeof orig - 1, f);
    fclose(f);
    static const char alphabet[] = "{}[]:,-\"' \n\t#&*!|>%@`0123456789abcxyz.+";
    uint64_t x = 12345;
    int loaded = 0;
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(text, orig, len);
        size_t n = len;
        for (int k = 0; k < 1 + iter % 4; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            size_t pos = (size_t)(x >> 33) % n;
            char c = alphabet[(x >> 20) % (sizeof alphabet - 1)];
            if ((x >> 10) % 3 == 0 && n > 1) {
                memmove(text + pos, text + pos + 1, n - pos - 1);
                n--;
            } else if ((x >> 10) % 3 == 1 && n + 1 < sizeof text) {
                memmove(text + pos + 1, text + pos, n - pos);
                text[pos] = c;
                n++;
            } else {
                text[pos] = c;
            }
        }
        char err[WORKLOAD_ERR_LEN] = "";
        struct workload *wl = workload_load_string("m.yaml", text, n, err, sizeof err);
        if (wl)
            loaded++;
        else
            CU_ASSERT(strncmp(err, "m.yaml:", 7) == 0);
        workload_free(wl);
    }
    CU_ASSERT(loaded > 0);
}

static void test_workload__drives_and_fail(void)
{
    char err[WORKLOAD_ERR_LEN];
    static const char *base = "version: 1\nname: d\nlogon: {change: screen}\n"
                              "loop: [{timer: c, steps: [{key: enter}], until: {change: screen, "
                              "fail: {pixel: {x: 1, y: 2, rgb: \"#6D4C41\"}}}}]\n";
    char text[1024];
    snprintf(text, sizeof text, "%sdrives:\n  share: {files: {file10m: 10MB, f2: 4096}}\n  B-2: {files: {x: 1KB}}\n", base);
    struct workload *wl = workload_load_string("d.yaml", text, strlen(text), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL_FATAL(wl->ndrives, 2);
    CU_ASSERT_STRING_EQUAL(wl->drives[0].name, "share");
    CU_ASSERT_EQUAL_FATAL(wl->drives[0].nfiles, 2);
    CU_ASSERT_STRING_EQUAL(wl->drives[0].files[0].name, "file10m");
    CU_ASSERT_EQUAL(wl->drives[0].files[0].size, 10485760);
    CU_ASSERT_EQUAL(wl->drives[0].files[1].size, 4096);
    CU_ASSERT_EQUAL(wl->drives[1].files[0].size, 1024);
    CU_ASSERT_EQUAL(wl->loop[0].fail.n, 1);
    CU_ASSERT_EQUAL(wl->loop[0].fail.conds[0].kind, WORKLOAD_COND_PIXEL);
    CU_ASSERT_EQUAL(wl->loop[0].fail.conds[0].rgb, 0x6D4C41u);
    workload_free(wl);
    static const struct { const char *drives, *msg; } bad[] = {
        { "drives: {toolongname: {files: {a: 1MB}}}", "d.yaml:5:10: drive name 'toolongname' must be 1-7" },
        { "drives: {s: {files: {a: 10XB}}}", "d.yaml:5:25: bad size '10XB'" },
        { "drives: {s: {files: {a: 5GB}}}", "bad size '5GB'" },
        { "drives: {s: {files: {}}}", "drive 's' has no files" },
        { "drives: {s: {}}", "drive 's' needs files" },
        { "drives: {s: {files: {a: 1MB}, x: 1}}", "unknown key 'x'" },
        { "drives: {s: {files: {a: 1MB}}, S: {files: {a: 1MB}}}", "drive 'S' declared twice" },
        { "drives: {s: {files: {.a: 1MB}}}", "must not start with a dot" },
        { "drives: [a]", "d.yaml:5:9" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(text, sizeof text, "%s%s\n", base, bad[k].drives);
        wl = workload_load_string("d.yaml", text, strlen(text), err, sizeof err);
        CU_ASSERT_PTR_NULL(wl);
        if (!strstr(err, bad[k].msg))
            fprintf(stderr, "\n  expected '%s', got '%s'\n", bad[k].msg, err);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[k].msg));
        workload_free(wl);
    }
    /* fail is only for a timer's until */
    static const char *waitfail = "version: 1\nname: d\nlogon: {change: screen}\n"
                                  "loop: [{wait: {change: screen, fail: {change: screen}}}]\n";
    CU_ASSERT_PTR_NULL(workload_load_string("d.yaml", waitfail, strlen(waitfail), err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown key 'fail'"));
}

/* Copy timers: size and direction, DRIVE/FILE resolved against the drives (the workload's, or
 * later the plan's), each mistake at its place; drives added from a plan's text. */
static void test_workload__copy_timers(void)
{
    char err[WORKLOAD_ERR_LEN], text[1024];
    static const char *base = "version: 1\nname: c\nlogon: {change: screen}\nloop:\n"
        "  - {timer: in, copy: {to: server, size: %s}, steps: [{key: enter}], until: {change: screen}}\n"
        "  - {timer: out, copy: {to: client, size: 3MB}, steps: [{key: enter}], until: {change: screen}}\n%s";
    snprintf(text, sizeof text, base, "share/f1", "drives: {share: {files: {f1: 1MB}}}\n");
    struct workload *wl = workload_load_string("c.yaml", text, strlen(text), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL_FATAL(wl->ncopies, 2);
    CU_ASSERT_STRING_EQUAL(wl->copies[0].timer, "in");
    CU_ASSERT_EQUAL(wl->copies[0].to_client, 0);
    CU_ASSERT_EQUAL(wl->copies[0].bytes, 1048576);
    CU_ASSERT_EQUAL(workload_copy(wl, "out")->to_client, 1);
    CU_ASSERT_EQUAL(workload_copy(wl, "out")->bytes, 3145728);
    CU_ASSERT_PTR_NULL(workload_copy(wl, "nope"));
    workload_free(wl);

    /* no drives in the workload: left for the plan's, resolved strictly there */
    snprintf(text, sizeof text, base, "share/f1", "");
    wl = workload_load_string("c.yaml", text, strlen(text), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(wl->copies[0].bytes, 0);
    CU_ASSERT_EQUAL(workload_resolve_copies(wl, 1, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "c.yaml:5:42: copy size 'share/f1': no such file in the drives: none declared "
                                "(in the workload or the plan)");
    CU_ASSERT_EQUAL(workload_add_drives_text(wl, "plan", "{share: {files: {f1: 2048}}}", err, sizeof err), 0);
    CU_ASSERT_EQUAL(workload_resolve_copies(wl, 1, err, sizeof err), 0);
    CU_ASSERT_EQUAL(wl->copies[0].bytes, 2048);
    char *back = workload_drives_text(wl->drives, wl->ndrives);
    CU_ASSERT_STRING_EQUAL(back, "{share: {files: {f1: 2048}}}");
    free(back);
    CU_ASSERT_EQUAL(workload_add_drives_text(wl, "plan", "{SHARE: {files: {g: 1}}}", err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "plan:1:2: drive 'SHARE' declared twice"));
    workload_free(wl);

    static const struct { const char *size, *drives, *msg; } bad[] = {
        { "share/f2", "drives: {share: {files: {f1: 1MB}}}\n", "c.yaml:5:42: copy size 'share/f2': no such file" },
        { "10XB", "", "c.yaml:5:42: copy size '10XB': write a size like 10MB or DRIVE/FILE" },
        { "/f1", "", "c.yaml:5:42: copy size '/f1': write DRIVE/FILE" },
        { "{a: 1}", "", "c.yaml:5:42:" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(text, sizeof text, base, bad[k].size, bad[k].drives);
        wl = workload_load_string("c.yaml", text, strlen(text), err, sizeof err);
        CU_ASSERT_PTR_NULL(wl);
        if (!strstr(err, bad[k].msg))
            fprintf(stderr, "\n  expected '%s', got '%s'\n", bad[k].msg, err);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[k].msg));
        workload_free(wl);
    }
    static const char *badto = "version: 1\nname: c\nlogon: {change: screen}\nloop:\n"
        "  - {timer: in, copy: {to: disk, size: 1MB}, steps: [{key: enter}], until: {change: screen}}\n";
    CU_ASSERT_PTR_NULL(workload_load_string("c.yaml", badto, strlen(badto), err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "c.yaml:5:28: copy to 'disk': write server"));
}

/** Nested repeats are checked by their size, not by the product of their counts: three nested
 * repeats of 100,000 (10^15 steps per pass) load, and a loop whose only pause comes after them
 * is found to pause; without any pause the load fails with the usual message. (Issue: the check
 * once walked every flattened step, so this never finished; ctest's TIMEOUT catches a relapse.) */
static void test_workload__nested_repeats_linear(void)
{
    char err[WORKLOAD_ERR_LEN];
    const char *nest = "  - repeat:\n      count: 100000\n      steps:\n"
                       "        - repeat:\n            count: 100000\n            steps:\n"
                       "              - repeat:\n                  count: 100000\n"
                       "                  steps: [{key: a, pause: 0s}, {key: b, pause: 0s}]\n";
    char text[1024];
    snprintf(text, sizeof text, HEAD "loop:\n%s  - think: 1s\n", nest);
    struct workload *wl = load(text, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(workload_flat_steps(wl, WORKLOAD_PART_LOOP), 2000000000000000ull + 1);
    workload_free(wl);
    snprintf(text, sizeof text, HEAD "loop:\n%s", nest);
    expect_error(text, "w.yaml:6:3: loop never pauses, so it would repeat unbounded: add a think, "
                       "wait, timer, type or a pause");
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_workload__drives_and_fail),
        UNIT_TEST(test_workload__copy_timers),
        UNIT_TEST(test_workload__minimal),
        UNIT_TEST(test_workload__steps),
        UNIT_TEST(test_workload__honest_timers),
        UNIT_TEST(test_workload__errors),
        UNIT_TEST(test_workload__file_errors),
        UNIT_TEST(test_workload__walk),
        UNIT_TEST(test_workload__expand),
        UNIT_TEST(test_workload__hash_16_32),
        UNIT_TEST(test_workload__shipped),
        UNIT_TEST(test_workload__mutations),
        UNIT_TEST(test_workload__nested_repeats_linear),
        UNIT_END,
    };
    return unit_run("workload", tests, NULL, NULL);
}
