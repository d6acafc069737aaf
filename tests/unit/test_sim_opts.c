/* test_sim_opts.c -- sessmax-simhost's command line: values reach their fields, every bad number
 * or unknown option is refused with one line naming it, passwords never come from argv. */
#include "unit.h"

#include "simhost/server/opts.h"

#include <string.h>

#define ARGC(a) ((int)(sizeof(a) / sizeof *(a)) - 1)

static int parse(char **argv, int argc, struct sim_opts *o, char *err, size_t errlen)
{
    err[0] = '\0';
    return sim_opts_parse(argc, argv, o, err, errlen);
}

static void test_sim_opts__values(void)
{
    char *argv[] = { "sessmax-simhost", "--listen", "127.0.0.1:3390", "--users", "3", "--bpp=16",
                     "--size", "1280x800", "--work-scale", "0.2", "--max-sessions", "0", "--nla",
                     "--drive-redirection", "off", "--state-dir", "/tmp/s", NULL };
    struct sim_opts o;
    char err[256];
    CU_ASSERT_EQUAL_FATAL(parse(argv, ARGC(argv), &o, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(o.host, "127.0.0.1");
    CU_ASSERT_EQUAL(o.port, 3390);
    CU_ASSERT_EQUAL(o.users, 3);
    CU_ASSERT_EQUAL(o.bpp, 16);
    CU_ASSERT_EQUAL(o.width, 1280);
    CU_ASSERT_EQUAL(o.height, 800);
    CU_ASSERT_DOUBLE_EQUAL(o.work_scale, 0.2, 1e-12);
    CU_ASSERT_EQUAL(o.nla, 1);
    CU_ASSERT_EQUAL(o.drives, 0);
    CU_ASSERT_STRING_EQUAL(o.state_dir, "/tmp/s");
}

static void test_sim_opts__refused(void)
{
    static const struct { const char *opt, *val, *says; } bad[] = {
        { "--users", "12x", "--users: expected an integer in [1, 9999], got '12x'" },
        { "--users", "-1", "--users: expected an integer in [1, 9999], got '-1'" },
        { "--max-conns", "99999999999999999999", "--max-conns: expected an integer" },
        { "--handshake-timeout", "1.5", "--handshake-timeout: expected an integer" },
        { "--bpp", "24", "--bpp: expected 16 or 32, got '24'" },
        { "--size", "800x4097", "--size: expected WxH between 640x480 and 4096x4096, got '800x4097'" },
        { "--work-scale", "fast", "--work-scale: expected a number in [0.001, 1000], got 'fast'" },
        { "--io-fairshare", "yes", "--io-fairshare: expected on or off, got 'yes'" },
        { "--frobnicate", "1", "--frobnicate: unknown option" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *argv[] = { "sessmax-simhost", (char *)bad[i].opt, (char *)bad[i].val, NULL };
        struct sim_opts o;
        char err[256];
        CU_ASSERT_EQUAL(parse(argv, ARGC(argv), &o, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].says));
        CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    }
}

static void test_sim_opts__missing_and_extra(void)
{
    struct sim_opts o;
    char err[256];
    char *missing[] = { "sessmax-simhost", "--users", NULL };
    CU_ASSERT_EQUAL(parse(missing, ARGC(missing), &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "--users: missing value (see --help)");
    char *extra[] = { "sessmax-simhost", "--nla", "stray", NULL };
    CU_ASSERT_EQUAL(parse(extra, ARGC(extra), &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "stray: unexpected argument (see --help)");
    char *pair[] = { "sessmax-simhost", "--cert", "c.pem", NULL };
    CU_ASSERT_EQUAL(parse(pair, ARGC(pair), &o, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "--cert and --key go together");
}

static void test_sim_opts__no_password_in_argv(void)
{
    struct sim_opts o;
    char err[256];
    char *argv[] = { "sessmax-simhost", "--password=Secret-1", NULL };
    CU_ASSERT_EQUAL(parse(argv, ARGC(argv), &o, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "never taken from the command line"));
    CU_ASSERT_PTR_NULL(strstr(err, "Secret-1"));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_opts__values), UNIT_TEST(test_sim_opts__refused),
        UNIT_TEST(test_sim_opts__missing_and_extra), UNIT_TEST(test_sim_opts__no_password_in_argv),
        UNIT_END,
    };
    return unit_run("sim_opts", tests, NULL, NULL);
}
