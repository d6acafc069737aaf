/* test_keys.c -- chords and typed text into scancodes (shift for capitals and symbols, extended
 * keys), Unicode fallback with surrogate pairs, UTF-8 decoding, and mouse clicks. */
#include "unit.h"

#include <freerdp/input.h>
#include <stdio.h>
#include <string.h>

#include "agent/interp/keys.h"
#include "common/keymap.h"

static char log_buf[1024];
static int fail_after = -1;

static int rec(const char *fmt, unsigned a, int b)
{
    size_t n = strlen(log_buf);
    snprintf(log_buf + n, sizeof log_buf - n, fmt, a, b ? '+' : '-');
    return fail_after < 0 || --fail_after > 0 ? 0 : -1;
}

static int f_key(void *s, uint32_t sc, int down) { (void)s; return rec("k%x%c ", sc, down); }
static int f_uni(void *s, uint16_t u, int down) { (void)s; return rec("u%x%c ", u, down); }
static int f_mouse(void *s, uint16_t flags, uint16_t x, uint16_t y)
{
    (void)s;
    size_t n = strlen(log_buf);
    snprintf(log_buf + n, sizeof log_buf - n, "m%x@%u,%u ", flags, x, y);
    return 0;
}

static const struct driver_ops ops = { .key = f_key, .unicode = f_uni, .mouse = f_mouse };

static const char *type(const char *text)
{
    log_buf[0] = '\0';
    const char *p = text;
    uint32_t cp;
    while ((cp = keys_utf8_next(&p)))
        CU_ASSERT_EQUAL(keys_type_codepoint(&ops, NULL, cp), 0);
    return log_buf;
}

static void test_keys__chord(void)
{
    uint32_t chord[3] = { keymap_scancode_by_name("ctrl"), keymap_scancode_by_name("alt"), keymap_scancode_by_name("t") };
    log_buf[0] = '\0';
    CU_ASSERT_EQUAL(keys_chord(&ops, NULL, chord, 3), 0);
    CU_ASSERT_STRING_EQUAL(log_buf, "k1d+ k38+ k14+ k14- k38- k1d- ");
    uint32_t ext[2] = { keymap_scancode_by_name("win"), keymap_scancode_by_name("end") };
    log_buf[0] = '\0';
    CU_ASSERT_EQUAL(keys_chord(&ops, NULL, ext, 2), 0);
    CU_ASSERT_STRING_EQUAL(log_buf, "k15b+ k14f+ k14f- k15b- ");
}

static void test_keys__typing(void)
{
    CU_ASSERT_STRING_EQUAL(type("a"), "k1e+ k1e- ");
    CU_ASSERT_STRING_EQUAL(type("A"), "k2a+ k1e+ k1e- k2a- ");
    CU_ASSERT_STRING_EQUAL(type("!"), "k2a+ k2+ k2- k2a- ");
    CU_ASSERT_STRING_EQUAL(type("1 \n"), "k2+ k2- k39+ k39- k1c+ k1c- ");
    CU_ASSERT_STRING_EQUAL(type("\t:"), "kf+ kf- k2a+ k27+ k27- k2a- ");
}

static void test_keys__unicode(void)
{
    CU_ASSERT_STRING_EQUAL(type("\xc3\xa9"), "ue9+ ue9- ");                           /* é */
    CU_ASSERT_STRING_EQUAL(type("\xe2\x82\xac"), "u20ac+ u20ac- ");                    /* € */
    CU_ASSERT_STRING_EQUAL(type("\xf0\x9f\x98\x80"), "ud83d+ ud83d- ude00+ ude00- ");  /* 😀 */
}

static void test_keys__utf8(void)
{
    const char *p = "\xc3(x\xe0\x80\x80";     /* truncated 2-byte, then overlong 3-byte */
    CU_ASSERT_EQUAL(keys_utf8_next(&p), 0xFFFD);
    CU_ASSERT_EQUAL(keys_utf8_next(&p), '(');
    CU_ASSERT_EQUAL(keys_utf8_next(&p), 'x');
    CU_ASSERT_EQUAL(keys_utf8_next(&p), 0xFFFD);
    while (*p)
        keys_utf8_next(&p);
    CU_ASSERT_EQUAL(keys_utf8_next(&p), 0);
}

static void test_keys__mouse(void)
{
    log_buf[0] = '\0';
    CU_ASSERT_EQUAL(keys_click(&ops, NULL, 10, 20, WORKLOAD_BUTTON_LEFT, 0), 0);
    char want[128];
    snprintf(want, sizeof want, "m%x@10,20 m%x@10,20 m%x@10,20 ", PTR_FLAGS_MOVE,
             PTR_FLAGS_BUTTON1 | PTR_FLAGS_DOWN, PTR_FLAGS_BUTTON1);
    CU_ASSERT_STRING_EQUAL(log_buf, want);
    log_buf[0] = '\0';
    CU_ASSERT_EQUAL(keys_click(&ops, NULL, 1, 2, WORKLOAD_BUTTON_RIGHT, 1), 0);
    snprintf(want, sizeof want, "m%x@1,2 m%x@1,2 m%x@1,2 m%x@1,2 m%x@1,2 ", PTR_FLAGS_MOVE,
             PTR_FLAGS_BUTTON2 | PTR_FLAGS_DOWN, PTR_FLAGS_BUTTON2, PTR_FLAGS_BUTTON2 | PTR_FLAGS_DOWN,
             PTR_FLAGS_BUTTON2);
    CU_ASSERT_STRING_EQUAL(log_buf, want);
}

static void test_keys__driver_failure(void)
{
    uint32_t chord[2] = { KEYMAP_SC_LCTRL, 0x18 };
    log_buf[0] = '\0';
    fail_after = 2;
    CU_ASSERT_EQUAL(keys_chord(&ops, NULL, chord, 2), -1);
    CU_ASSERT_STRING_EQUAL(log_buf, "k1d+ k18+ ");      /* stops at the failing call */
    fail_after = -1;
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_keys__chord),
        UNIT_TEST(test_keys__typing),
        UNIT_TEST(test_keys__unicode),
        UNIT_TEST(test_keys__utf8),
        UNIT_TEST(test_keys__mouse),
        UNIT_TEST(test_keys__driver_failure),
        UNIT_END,
    };
    return unit_run("keys", tests, NULL, NULL);
}
