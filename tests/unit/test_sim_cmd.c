/* test_sim_cmd.c -- run-box command parsing. */
#include "unit.h"

#include "simhost/desktop/cmd.h"

#include <string.h>

static void test_sim_cmd__commands(void)
{
    struct sim_cmd c;
    CU_ASSERT_EQUAL(sim_cmd_parse("edit doc1.txt", &c), SIM_CMD_EDIT);
    CU_ASSERT_STRING_EQUAL(c.arg, "doc1.txt");
    CU_ASSERT_EQUAL(sim_cmd_parse("  zip9   doc2.txt  ", &c), SIM_CMD_ZIP9);
    CU_ASSERT_STRING_EQUAL(c.arg, "doc2.txt");
    CU_ASSERT_EQUAL(sim_cmd_parse("zip1 doc3.txt", &c), SIM_CMD_ZIP1);
    CU_ASSERT_EQUAL(sim_cmd_parse("cpu", &c), SIM_CMD_CPU);
    CU_ASSERT_EQUAL(sim_cmd_parse("logoff", &c), SIM_CMD_LOGOFF);
    CU_ASSERT_EQUAL(sim_cmd_parse("", &c), SIM_CMD_NONE);
    CU_ASSERT_EQUAL(sim_cmd_parse("   ", &c), SIM_CMD_NONE);
    CU_ASSERT_STRING_EQUAL(sim_cmd_name(SIM_CMD_ZIP9), "zip9");
    CU_ASSERT_STRING_EQUAL(sim_cmd_name(SIM_CMD_OPEN), "open");
}

static void test_sim_cmd__errors(void)
{
    struct sim_cmd c;
    CU_ASSERT_EQUAL(sim_cmd_parse("notepad", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_STRING_EQUAL(c.text, "unknown command: notepad");
    CU_ASSERT_EQUAL(sim_cmd_parse("edit", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_PTR_NOT_NULL(strstr(c.text, "usage: edit FILE"));
    CU_ASSERT_EQUAL(sim_cmd_parse("edit ../etc/passwd", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("zip9 a b", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("cpu now", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("CPU", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("edit .hidden", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT(sim_cmd_valid_file("doc1.txt"));
    CU_ASSERT(!sim_cmd_valid_file("a/b"));
    CU_ASSERT(!sim_cmd_valid_file(""));
    char longname[200];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CU_ASSERT(!sim_cmd_valid_file(longname));
    CU_ASSERT_EQUAL(sim_cmd_parse(longname, &c), SIM_CMD_UNKNOWN);   /* long text is truncated, not overflowed */
}

static void test_sim_cmd__copy(void)
{
    struct sim_cmd c;
    CU_ASSERT_EQUAL(sim_cmd_parse("copyin share file10m", &c), SIM_CMD_COPYIN);
    CU_ASSERT_STRING_EQUAL(c.drive, "share");
    CU_ASSERT_STRING_EQUAL(c.arg, "file10m");
    CU_ASSERT_EQUAL(sim_cmd_parse("  copyout share out10m 10MB ", &c), SIM_CMD_COPYOUT);
    CU_ASSERT_STRING_EQUAL(c.arg, "out10m");
    CU_ASSERT_EQUAL(c.size, 10ull << 20);
    CU_ASSERT_EQUAL(sim_cmd_parse("copyout s f 4096", &c), SIM_CMD_COPYOUT);
    CU_ASSERT_EQUAL(c.size, 4096);
    CU_ASSERT_STRING_EQUAL(sim_cmd_name(SIM_CMD_COPYOUT), "copyout");
    CU_ASSERT_EQUAL(sim_cmd_parse("appstart", &c), SIM_CMD_APPSTART);
    CU_ASSERT_STRING_EQUAL(sim_cmd_name(SIM_CMD_APPSTART), "appstart");
    CU_ASSERT_EQUAL(sim_cmd_parse("appstart now", &c), SIM_CMD_UNKNOWN);
    /* errors: missing/extra words, bad size, drive name too long or odd, bad file */
    CU_ASSERT_EQUAL(sim_cmd_parse("copyin share", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_PTR_NOT_NULL(strstr(c.text, "usage: copyin NAME FILE"));
    CU_ASSERT_EQUAL(sim_cmd_parse("copyin share a b", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("copyout share f", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_PTR_NOT_NULL(strstr(c.text, "usage: copyout NAME FILE SIZE"));
    CU_ASSERT_EQUAL(sim_cmd_parse("copyout share f 10TB", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("copyout share f 0", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("copyin longname8 f", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("copyin a:b f", &c), SIM_CMD_UNKNOWN);
    CU_ASSERT_EQUAL(sim_cmd_parse("copyin share ../f", &c), SIM_CMD_UNKNOWN);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_cmd__commands), UNIT_TEST(test_sim_cmd__errors), UNIT_TEST(test_sim_cmd__copy), UNIT_END,
    };
    return unit_run("sim_cmd", tests, NULL, NULL);
}
