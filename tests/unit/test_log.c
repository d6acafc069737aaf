/* test_log.c -- log lines: program prefix, level filter, level names, rate limiting. Captures
 * stderr in a temporary file for the duration of each check. */
#include "unit.h"

#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char captured[8192];
static int saved_fd = -1;
static FILE *capture_file;

static void capture_begin(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    saved_fd = dup(STDERR_FILENO);
    dup2(fileno(capture_file), STDERR_FILENO);
}

static const char *capture_end(void)
{
    dup2(saved_fd, STDERR_FILENO);
    close(saved_fd);
    rewind(capture_file);
    size_t n = fread(captured, 1, sizeof captured - 1, capture_file);
    captured[n] = '\0';
    fclose(capture_file);
    return captured;
}

static int count_lines(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_log__levels_and_prefix(void)
{
    log_init("sessmax-test", LOG_INFO);
    capture_begin();
    log_error("disk %s", "full");
    log_warn("slow");
    log_info("hello %d", 42);
    log_debug("hidden");
    const char *out = capture_end();
    CU_ASSERT_STRING_EQUAL(out, "sessmax-test: error: disk full\nsessmax-test: warn: slow\n"
                                "sessmax-test: info: hello 42\n");
    log_set_level(LOG_DEBUG);
    CU_ASSERT_EQUAL(log_get_level(), LOG_DEBUG);
    capture_begin();
    log_debug("shown");
    CU_ASSERT_STRING_EQUAL(capture_end(), "sessmax-test: debug: shown\n");
    log_set_level(LOG_ERROR);
    capture_begin();
    log_warn("quiet");
    CU_ASSERT_STRING_EQUAL(capture_end(), "");
}

static void test_log__parse_level(void)
{
    CU_ASSERT_EQUAL(log_parse_level("error"), LOG_ERROR);
    CU_ASSERT_EQUAL(log_parse_level("WARN"), LOG_WARN);
    CU_ASSERT_EQUAL(log_parse_level("warning"), LOG_WARN);
    CU_ASSERT_EQUAL(log_parse_level("Debug"), LOG_DEBUG);
    CU_ASSERT_EQUAL(log_parse_level("verbose"), -1);
}

static void test_log__long_line_is_one_line(void)
{
    log_init("t", LOG_INFO);
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    capture_begin();
    log_info("%s", big);
    const char *out = capture_end();
    CU_ASSERT_EQUAL(count_lines(out, "\n"), 1);
    CU_ASSERT_EQUAL(out[strlen(out) - 1], '\n');
}

/* A peer's text with a newline and a terminal escape cannot forge a second line. */
static void test_log__control_characters_escaped(void)
{
    log_init("t", LOG_INFO);
    capture_begin();
    log_warn("agent said: %s", "oops\nt: error: forged line\r\x1b[2J");
    const char *out = capture_end();
    CU_ASSERT_EQUAL(count_lines(out, "\n"), 1);
    CU_ASSERT_STRING_EQUAL(out, "t: warn: agent said: oops\\x0at: error: forged line\\x0d\\x1b[2J\n");
    char small[5];
    CU_ASSERT_EQUAL(log_escape(small, sizeof small, "ab\x01" "cd"), 2);   /* no half escape */
    CU_ASSERT_STRING_EQUAL(small, "ab");
}

/* An error message that quotes outside text: formatted, then escaped to one line; -1 to return. */
static void test_log__escapef(void)
{
    char err[64];
    CU_ASSERT_EQUAL(log_escapef(err, sizeof err, "bad value '%s' at %d", "a\nb\x1b", 7), -1);
    CU_ASSERT_STRING_EQUAL(err, "bad value 'a\\x0ab\\x1b' at 7");
    char small[12];
    log_escapef(small, sizeof small, "%s", "0123456789\t-more");
    CU_ASSERT_STRING_EQUAL(small, "0123456789");   /* cut to fit, no half escape */
}

/* A storm of one kind of message is cut to a burst; other kinds are unaffected. */
static void test_log__ratelimited(void)
{
    static const char key[] = "storm";
    log_init("t", LOG_INFO);
    capture_begin();
    for (int i = 0; i < 200; i++)
        log_ratelimited(LOG_WARN, key, "storm %d", i);
    log_ratelimited(LOG_WARN, "other", "calm");
    const char *out = capture_end();
    CU_ASSERT_TRUE(count_lines(out, "warn: storm ") >= 5);
    CU_ASSERT_TRUE(count_lines(out, "warn: storm ") < 200);
    CU_ASSERT_EQUAL(count_lines(out, "warn: calm"), 1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_log__levels_and_prefix),
        UNIT_TEST(test_log__parse_level),
        UNIT_TEST(test_log__long_line_is_one_line),
        UNIT_TEST(test_log__ratelimited),
        UNIT_TEST(test_log__control_characters_escaped),
        UNIT_TEST(test_log__escapef),
        UNIT_END,
    };
    return unit_run("log", tests, NULL, NULL);
}
