/* test_textesc.c -- the one escaping of names in the text outputs (controller/score/textesc.h):
 * control characters and newlines become visible escapes, markdown's cell and markup characters
 * are escaped, UTF-8 and plain text stay as they are, and a short buffer cuts between escapes. */
#include "unit.h"

#include "controller/score/textesc.h"

#include <stdlib.h>

static void test_textesc__line(void)
{
    char buf[256];
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "plain name-1.x", TEXTESC_LINE), "plain name-1.x");
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "a\nb\r\tc\x01\x7f", TEXTESC_LINE), "a\\nb\\r\\tc\\x01\\x7f");
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "a|b<c>&\\", TEXTESC_LINE), "a|b<c>&\\");
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "caf\xc3\xa9", TEXTESC_LINE), "caf\xc3\xa9");
    CU_ASSERT_EQUAL(textesc_len("a\nb\x01", TEXTESC_LINE), 8);
}

static void test_textesc__markdown(void)
{
    char buf[256];
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "a|b\\c", TEXTESC_MARKDOWN), "a\\|b\\\\c");
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "<img src=x>&", TEXTESC_MARKDOWN), "&lt;img src=x&gt;&amp;");
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "x\n| forged | row |", TEXTESC_MARKDOWN),
                           "x\\n\\| forged \\| row \\|");
    CU_ASSERT_EQUAL(textesc_len("<|", TEXTESC_MARKDOWN), 6);
}

static void test_textesc__short_buffer_and_stream(void)
{
    char buf[6];
    /* "ab\n" needs 4 bytes escaped; "ab\ncd" would need 6 + NUL: cut after the whole escape */
    CU_ASSERT_STRING_EQUAL(textesc(buf, sizeof buf, "ab\ncd", TEXTESC_LINE), "ab\\nc");
    CU_ASSERT_STRING_EQUAL(textesc(buf, 4, "ab\ncd", TEXTESC_LINE), "ab");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    textesc_fputs(f, "r|1\n<x>", TEXTESC_MARKDOWN);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(out, "r\\|1\\n&lt;x&gt;");
    CU_ASSERT_EQUAL(strlen(out), textesc_len("r|1\n<x>", TEXTESC_MARKDOWN));
    free(out);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_textesc__line),
        UNIT_TEST(test_textesc__markdown),
        UNIT_TEST(test_textesc__short_buffer_and_stream),
        UNIT_END,
    };
    return unit_run("textesc", tests, NULL, NULL);
}
