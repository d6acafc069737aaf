/* test_link_opts.c -- `sessmax-agent connect` options: numbers are checked and a bad one is an
 * error naming the option and the value; options may follow the address; defaults. */
#include "unit.h"

#include "agent/link/link_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

/* Parses a space-separated command line; stderr goes to `err`. */
static int parse(const char *line, struct link_opts *o, char *err, size_t errlen)
{
    static char buf[512];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "connect %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    memset(o, 0, sizeof *o);
    fflush(stderr);
    FILE *saved = stderr, *f = tmpfile();
    stderr = f;
    int rc = link_opts_parse(argc, argv, o);
    stderr = saved;
    rewind(f);
    size_t n = fread(err, 1, errlen - 1, f);
    err[n] = 0;
    fclose(f);
    return rc;
}

static void test_link_opts__good_line_and_defaults(void)
{
    struct link_opts o;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(parse("ctl:7400 --name a1 --capacity 25 --tls-pin sha256:AB --token-fd 5", &o, err,
                                sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(o.addr, "ctl:7400");
    CU_ASSERT_STRING_EQUAL(o.name, "a1");
    CU_ASSERT_EQUAL(o.capacity, 25);
    CU_ASSERT(o.tls);
    CU_ASSERT_EQUAL(o.token_fd, 5);
    CU_ASSERT_EQUAL(o.buffer_mib, 64);
    CU_ASSERT_EQUAL(o.wait_us, 0);                 /* one attempt unless told to wait */
    CU_ASSERT_PTR_NOT_NULL(o.spill_dir);
    CU_ASSERT_EQUAL_FATAL(parse("--buffer-mib 2 --spill-dir /var/tmp h:1", &o, err, sizeof err), 0);
    CU_ASSERT_EQUAL(o.capacity, 100);
    CU_ASSERT_EQUAL(o.token_fd, -1);
    CU_ASSERT_EQUAL(o.buffer_mib, 2);
    CU_ASSERT_STRING_EQUAL(o.spill_dir, "/var/tmp");
    CU_ASSERT_EQUAL_FATAL(parse("h:1 --controller-wait 2m --controller-wait 90s", &o, err, sizeof err), 0);
    CU_ASSERT_EQUAL(o.wait_us, 90000000ull);
}

static void test_link_opts__bad_values_name_option_and_value(void)
{
    static const struct { const char *line, *want; } bad[] = {
        { "h:1 --capacity 12x", "--capacity: expected an integer in [1, 100000], got '12x'" },
        { "h:1 --capacity 0", "--capacity: expected an integer in [1, 100000], got '0'" },
        { "h:1 --capacity -5", "got '-5'" },
        { "h:1 --capacity 99999999999999999999", "got '99999999999999999999'" },
        { "h:1 --connect-threads 1000", "--connect-threads: expected an integer in [1, 256], got '1000'" },
        { "h:1 --token-fd x", "--token-fd: expected an integer in [0, 2147483647], got 'x'" },
        { "h:1 --buffer-mib 0", "--buffer-mib: expected an integer in [1, 65536], got '0'" },
        { "h:1 --frobnicate", "unknown option '--frobnicate'" },
        { "h:1 --name", "option needs a value: '--name'" },
        { "h:1 --name a\x1b[2Jb", "--name: use 1 to 47 characters, each one of letters" },
        { "h:1 --name a/b", "--name: use 1 to 47 characters" },
        { "h:1 h:2", "unexpected argument 'h:2'" },
        { "--name x", "missing HOST:PORT" },
        { "h:1 --tls", "--tls-pin" },
        { "h:1 --controller-wait 2x", "--controller-wait: expected a duration up to 24h (e.g. 120s, 2m), got '2x'" },
        { "h:1 --controller-wait 25h", "got '25h'" },
        { "h:1 --tls-pin-cert /nonexistent/tls.crt", "--tls-pin-cert: /nonexistent/tls.crt: cannot open" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct link_opts o;
        char err[512];
        CU_ASSERT_EQUAL(parse(bad[i].line, &o, err, sizeof err), EX_USAGE);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].want));
        size_t lines = 0;
        for (const char *p = err; *p; p++)
            lines += *p == '\n';
        CU_ASSERT_EQUAL(lines, 1);                 /* one line */
    }
}

/* The token from the environment is taken, then it and any inherited SESSMAX_PASSWORD (a Slurm
 * job submitted with --export=ALL) leave the agent's environment. */
static void test_link_opts__token_and_password_leave_the_environment(void)
{
    struct link_opts o;
    char err[512];
    setenv("SESSMAX_TOKEN", "0123456789abcdef0123456789abcdef", 1);
    setenv("SESSMAX_PASSWORD", "target-pw", 1);
    CU_ASSERT_EQUAL_FATAL(parse("h:1", &o, err, sizeof err), 0);
    char *t = link_opts_token(&o);
    CU_ASSERT_PTR_NOT_NULL(t);
    CU_ASSERT_PTR_NULL(getenv("SESSMAX_TOKEN"));
    CU_ASSERT_PTR_NULL(getenv("SESSMAX_PASSWORD"));
    free(t);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_link_opts__token_and_password_leave_the_environment),
        UNIT_TEST(test_link_opts__good_line_and_defaults),
        UNIT_TEST(test_link_opts__bad_values_name_option_and_value),
        UNIT_END,
    };
    return unit_run("link_opts", tests, NULL, NULL);
}
