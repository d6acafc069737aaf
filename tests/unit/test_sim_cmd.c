/* test_sim_cmd.c -- run-box command parsing. */
#include "unit.h"

#include "simhost/sim_cmd.h"

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

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_cmd__commands), UNIT_TEST(test_sim_cmd__errors), UNIT_END,
    };
    return unit_run("sim_cmd", tests, NULL, NULL);
}
