/* test_sim_tls.c -- certificate generation on first start, reuse after, fingerprint format; and
 * the event-log line format. */
#include "unit.h"

#include "simhost/server/eventlog.h"
#include "simhost/server/tls.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void test_sim_tls__generate_and_reuse(void)
{
    struct sim_tls a, b;
    char err[512], dir[1024], key[1100];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/tls", unit_tmpdir());
    mkdir(dir, 0700);
    CU_ASSERT_EQUAL_FATAL(sim_tls_load(&a, dir, NULL, NULL, err, sizeof err), 0);
    CU_ASSERT_EQUAL(strlen(a.fingerprint), 7 + 32 * 3 - 1);
    CU_ASSERT_EQUAL(strncmp(a.fingerprint, "sha256:", 7), 0);
    for (size_t i = 7; a.fingerprint[i]; i++)
        CU_ASSERT(((i - 7) % 3 == 2) ? a.fingerprint[i] == ':' : isxdigit((unsigned char)a.fingerprint[i]) != 0);
    snprintf(key, sizeof key, "%s/key.pem", dir);
    CU_ASSERT_EQUAL(stat(key, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 077, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(a.key_pem, "PRIVATE KEY"));
    CU_ASSERT_EQUAL_FATAL(sim_tls_load(&b, dir, NULL, NULL, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(a.fingerprint, b.fingerprint);          /* reused, not regenerated */
    sim_tls_free(&a);
    sim_tls_free(&b);
    CU_ASSERT_EQUAL(sim_tls_load(&a, dir, "/nonexistent/c.pem", key, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/c.pem"));
}

static void test_sim_tls__eventlog_line(void)
{
    struct sim_event e = { .session = 3, .user = "simuser003", .action = "zip9", .seq = 12, .input_us = 90,
                          .work_start_us = 100, .work_end_us = 250, .frame_sent_us = 300, .write_wait_us = 20, .ok = 1 };
    char line[256];
    int n = sim_eventlog_format(&e, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "session=3 user=simuser003 action=zip9 seq=12 input_us=90 work_start_us=100 "
                                 "work_end_us=250 frame_sent_us=300 write_wait_us=20 ok=1\n");
    CU_ASSERT_EQUAL(n, (int)strlen(line));
    char path[1024];
    snprintf(path, sizeof path, "%s/events.log", unit_tmpdir());
    struct sim_eventlog *l = sim_eventlog_open(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    sim_eventlog_write(l, &e);
    sim_eventlog_write(l, &e);
    sim_eventlog_write(NULL, &e);
    sim_eventlog_close(l);
    FILE *f = fopen(path, "r");
    int lines = 0;
    while (fgets(line, sizeof line, f))
        lines++;
    fclose(f);
    CU_ASSERT_EQUAL(lines, 2);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_tls__generate_and_reuse), UNIT_TEST(test_sim_tls__eventlog_line), UNIT_END,
    };
    return unit_run("sim_tls", tests, NULL, NULL);
}
