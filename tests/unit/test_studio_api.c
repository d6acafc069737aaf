/* test_studio_api.c -- the studio's request handlers over a fake live session (a 128x96 BGRX
 * screen whose "application" paints its window a few times after Enter is released): state,
 * screen and pixel, regions, recorded steps, tries run by the interpreter on a real event loop
 * (sent, ended by a condition, timed out, refused while one runs), undo and save. */
#include "unit.h"

#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "agent/studio/studio.h"
#include "agent/studio/studio_api.h"
#include "common/keymap.h"
#include "common/workload.h"

#define FW 128
#define FH 96

static struct {
    uint8_t fb[FW * FH * 4];
    struct event_base *base;
    struct studio *st;
    struct event *app_ev;
    int app_left, keys_down, no_input;
    uint32_t last_key, colour;
} F;

static void paint(struct workload_rect r)
{
    F.colour += 0x204080;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            memcpy(F.fb + ((size_t)y * FW + (size_t)x) * 4, &F.colour, 4);
    struct rect pr = { r.x, r.y, r.w, r.h };
    studio_paint(F.st, &pr, 1);
}

static void app_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what, (void)arg;
    paint((struct workload_rect){ 16, 8, 96, 64 });
    if (--F.app_left > 0) {
        struct timeval tv = { 0, 2000 };
        evtimer_add(F.app_ev, &tv);
    }
}

static int f_key(void *s, uint32_t sc, int down)
{
    (void)s;
    F.keys_down += down;
    F.last_key = sc;
    if (!down && sc == 0x1c) {   /* Enter: the application opens */
        F.app_left = 3;
        struct timeval tv = { 0, 3000 };
        evtimer_add(F.app_ev, &tv);
    }
    return 0;
}
static int f_uni(void *s, uint16_t u, int down) { (void)s, (void)u, (void)down; return 0; }
static int f_mouse(void *s, uint16_t fl, uint16_t x, uint16_t y) { (void)s, (void)fl, (void)x, (void)y; return 0; }
static int f_screen(void *s, struct screen_view *v)
{
    (void)s;
    *v = (struct screen_view){ F.fb, FW, FH, FW * 4, 4 };
    return 0;
}
static const struct driver_ops ops = { .key = f_key, .unicode = f_uni, .mouse = f_mouse, .screen = f_screen };

static int live_screen(void *arg, struct screen_view *out) { return f_screen(arg, out); }
static int live_driver(void *arg, const struct driver_ops **o, void **sess)
{
    if (F.no_input)
        return -1;
    *o = &ops;
    *sess = arg;
    return 0;
}

static int setup(void)
{
    memset(&F, 0, sizeof F);
    F.base = event_base_new();
    F.app_ev = evtimer_new(F.base, app_cb, NULL);
    struct studio_live live = { .arg = &F, .screen = live_screen, .driver = live_driver };
    char out[512];
    snprintf(out, sizeof out, "%s/studio-out.yaml", unit_tmpdir());
    F.st = studio_new(F.base, &live, "simuser001", "desk", out, FW, FH, 32);
    return F.st ? 0 : 1;
}

static int teardown(void)
{
    studio_free(F.st);
    event_free(F.app_ev);
    event_base_free(F.base);
    return 0;
}

/* GET path?query through the page function; returns the status, *out the body (malloc'd). */
static int get(const char *path_query, char **out, size_t *len, const char **type)
{
    char path[256];
    const char *qm = strchr(path_query, '?');
    snprintf(path, sizeof path, "%.*s", (int)(qm ? (size_t)(qm - path_query) : strlen(path_query)), path_query);
    struct evkeyvalq q;
    TAILQ_INIT(&q);
    CU_ASSERT_EQUAL_FATAL(qm ? evhttp_parse_query_str(qm + 1, &q) : 0, 0);
    *out = NULL;
    int code = studio_api_page(F.st, path, &q, out, len, type);
    evhttp_clear_headers(&q);
    return code;
}

/* The JSON answer to path_query, with its status in *code. */
static json_t *get_json(const char *path_query, int *code)
{
    char *body;
    size_t len;
    const char *type = NULL;
    *code = get(path_query, &body, &len, &type);
    json_t *j = body ? json_loadb(body, len, 0, NULL) : NULL;
    CU_ASSERT_PTR_NOT_NULL(j);
    CU_ASSERT_STRING_EQUAL(type, "application/json");
    free(body);
    return j;
}

static void guard_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what, (void)arg;
    event_base_loopbreak(F.base);
}

/* Runs the loop until the try ended (a guard of 10 s keeps a bug from hanging the suite). */
static void until_idle(void)
{
    struct event *guard = evtimer_new(F.base, guard_cb, NULL);
    struct timeval tv = { 10, 0 };
    evtimer_add(guard, &tv);
    while (F.st->cur && event_base_loop(F.base, EVLOOP_ONCE) == 0 && !event_base_got_break(F.base))
        ;
    CU_ASSERT_PTR_NULL(F.st->cur);
    event_free(guard);
}

/* The latest try, as /api/state lists it (first). */
static json_t *latest_try(void)
{
    int code;
    json_t *s = get_json("/api/state", &code);
    CU_ASSERT_EQUAL(code, 200);
    json_t *t = json_incref(json_array_get(json_object_get(s, "tries"), 0));
    json_decref(s);
    CU_ASSERT_PTR_NOT_NULL(t);
    return t;
}

static void test_studio_api__page_state_screen_pixel(void)
{
    char *body;
    size_t len;
    const char *type;
    CU_ASSERT_EQUAL(get("/", &body, &len, &type), 200);
    CU_ASSERT_STRING_EQUAL(type, "text/html; charset=utf-8");
    CU_ASSERT_PTR_NOT_NULL(strstr(body, "id=\"screen\""));
    free(body);
    int code;
    json_t *s = get_json("/api/state", &code);
    CU_ASSERT_EQUAL(code, 200);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(s, "width")), FW);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(s, "bpp")), 32);
    CU_ASSERT_TRUE(json_is_false(json_object_get(s, "busy")));
    CU_ASSERT_TRUE(json_is_false(json_object_get(s, "valid")));   /* nothing recorded: no loop yet */
    json_decref(s);
    paint((struct workload_rect){ 0, 0, 8, 8 });                   /* F.colour is now 0x204080 */
    CU_ASSERT_EQUAL(get("/api/screen.png", &body, &len, &type), 200);
    CU_ASSERT_STRING_EQUAL(type, "image/png");
    CU_ASSERT_TRUE(len > 8 && !memcmp(body, "\x89PNG\r\n\x1a\n", 8));
    free(body);
    size_t n1, n2;
    const char *a = studio_png(F.st, &n1), *b = studio_png(F.st, &n2);
    CU_ASSERT_PTR_EQUAL(a, b);                                      /* no paint since: not encoded again */
    s = get_json("/api/pixel?x=3&y=4", &code);
    CU_ASSERT_EQUAL(code, 200);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(s, "rgb")), "#204080");
    json_decref(s);
    s = get_json("/api/pixel?x=300&y=4", &code);
    CU_ASSERT_EQUAL(code, 400);
    json_decref(s);
    CU_ASSERT_EQUAL(get("/nothing", &body, &len, &type), 404);
}

static void test_studio_api__regions(void)
{
    int code;
    json_t *r = get_json("/api/region?name=appwin&x=17&y=9&w=94&h=62", &code);
    CU_ASSERT_EQUAL(code, 200);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "x")), 16);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "w")), 96);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "h")), 64);
    json_decref(r);
    r = get_json("/api/region?name=bar&x=20&y=100&w=-12&h=-16", &code);   /* dragged up and left */
    CU_ASSERT_EQUAL(code, 200);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "y")), 84);
    json_decref(r);
    r = get_json("/api/region?name=screen&x=0&y=0&w=8&h=8", &code);
    CU_ASSERT_EQUAL(code, 400);
    CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r, "error")), "built in"));
    json_decref(r);
    r = get_json("/api/region?name=x&x=0&y=0", &code);
    CU_ASSERT_EQUAL(code, 400);
    json_decref(r);
    CU_ASSERT_EQUAL(F.st->rec.nregions, 2);
}

/* A key with a condition: recorded as the key and its wait, tried together. */
static void test_studio_api__send_a_key_and_wait(void)
{
    int code;
    json_t *r = get_json("/api/step?kind=key&text=enter&c=change,appwin&timeout_ms=2000&record=1&run=1", &code);
    CU_ASSERT_EQUAL(code, 200);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(r, "steps")), 2);
    json_decref(r);
    CU_ASSERT_PTR_NOT_NULL(F.st->cur);
    r = get_json("/api/step?kind=key&text=esc&run=1", &code);
    CU_ASSERT_EQUAL(code, 409);                                        /* one try at a time */
    json_decref(r);
    until_idle();
    CU_ASSERT_EQUAL(F.last_key, 0x1c);
    json_t *t = latest_try();
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(t, "ended_by")), "change appwin held");
    CU_ASSERT_TRUE(json_is_false(json_object_get(t, "failed")));
    CU_ASSERT_PTR_NULL(json_object_get(t, "sample"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(t, "what")), "wait: {change: {region: appwin}"));
    json_decref(t);
    CU_ASSERT_EQUAL(F.st->rec.nsteps[STUDIO_LOOP], 2);
}

/* A timer: the interpreter's sample, the condition that ended it, the floor's word on it. */
static void test_studio_api__timer_try(void)
{
    int code;
    json_t *r = get_json("/api/step?kind=type&text=abc&record=1&run=1", &code);   /* 3 untimed inputs: an echo */
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    until_idle();
    CU_ASSERT_EQUAL(F.keys_down >= 4, 1);
    r = get_json("/api/step?kind=timer&name=app_start&input=key&text=enter&c=change,appwin&c=stable,appwin,20"
                 "&timeout_ms=3000&record=1&run=1", &code);
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    until_idle();
    json_t *t = latest_try();
    json_t *sample = json_object_get(t, "sample");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sample);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(sample, "timer")), "app_start");
    CU_ASSERT_TRUE(json_real_value(json_object_get(sample, "value_ms")) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(t, "ended_by")), "stable appwin for 20 ms held"));
    const char *status = json_string_value(json_object_get(sample, "status"));
    const char *floor = json_string_value(json_object_get(t, "floor"));
    /* the floor is this fake's echo: the paint after an input comes within microseconds of it,
     * so the sample (3 ms and more) is above it -- unless no echo was measured at all */
    CU_ASSERT_STRING_EQUAL(status, "ok");
    CU_ASSERT_TRUE(strstr(floor, "ok: above the plausibility floor") == floor || strstr(floor, "no echo floor") != NULL);
    json_decref(t);
    /* timed out: the condition that did not hold is named */
    r = get_json("/api/step?kind=timer&name=never&input=key&text=a&c=change,bar&timeout_ms=30&run=1", &code);
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    until_idle();
    t = latest_try();
    CU_ASSERT_TRUE(json_is_true(json_object_get(t, "failed")));
    CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(t, "ended_by")), "change bar did not hold"));
    json_decref(t);
    CU_ASSERT_EQUAL(F.st->rec.nsteps[STUDIO_LOOP], 4);                    /* run=1 alone records nothing */
}

/* A recorded step tried again; bad requests; no input; undo; save. */
static void test_studio_api__try_undo_save(void)
{
    int code;
    json_t *r = get_json("/api/try?from=1&to=2", &code);                  /* the wait, then `type: abc` */
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    until_idle();
    r = get_json("/api/try?from=7", &code);
    CU_ASSERT_EQUAL(code, 400);
    json_decref(r);
    r = get_json("/api/step?kind=dance", &code);
    CU_ASSERT_EQUAL(code, 400);
    json_decref(r);
    r = get_json("/api/step?kind=key&text=ctrl%2Bentr&record=1", &code);
    CU_ASSERT_EQUAL(code, 400);
    CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(r, "error")), "entr"));
    json_decref(r);
    F.no_input = 1;
    r = get_json("/api/step?kind=key&text=esc&run=1", &code);
    CU_ASSERT_EQUAL(code, 400);
    json_decref(r);
    F.no_input = 0;
    r = get_json("/api/step?kind=key&text=esc&record=1", &code);
    json_decref(r);
    r = get_json("/api/undo?part=loop", &code);
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    r = get_json("/api/step?kind=key&text=esc&record=1&part=logoff", &code);
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    r = get_json("/api/logon?c=stable,bar,500", &code);
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    r = get_json("/api/save", &code);
    CU_ASSERT_EQUAL(code, 200);
    json_decref(r);
    char err[512];
    struct workload *wl = workload_load_file(F.st->out_path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL(wl->nloop, 4);
    CU_ASSERT_EQUAL(wl->loop[3].kind, WORKLOAD_STEP_TIMER);
    CU_ASSERT_EQUAL(wl->nlogoff, 1);
    CU_ASSERT_EQUAL(wl->logon.conds[0].kind, WORKLOAD_COND_STABLE);
    workload_free(wl);
    json_t *s = get_json("/api/state", &code);
    CU_ASSERT_TRUE(json_is_true(json_object_get(s, "valid")));
    CU_ASSERT_TRUE(json_is_false(json_object_get(s, "unsaved")));
    json_decref(s);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_studio_api__page_state_screen_pixel),
        UNIT_TEST(test_studio_api__regions),
        UNIT_TEST(test_studio_api__send_a_key_and_wait),
        UNIT_TEST(test_studio_api__timer_try),
        UNIT_TEST(test_studio_api__try_undo_save),
        UNIT_END,
    };
    return unit_run("studio_api", tests, setup, teardown);
}
