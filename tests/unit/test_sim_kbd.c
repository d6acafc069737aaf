/* test_sim_kbd.c -- simhost's keyboard decoder against scancode set 1 as the protocol defines it
 * (literal make codes here, never common/keymap.h): letters, digits, punctuation with and without
 * shift, the 0xE0-prefixed keys, modifiers, and codes set 1 leaves undefined. */
#include "unit.h"

#include "simhost/desktop/kbd.h"

#include <string.h>

static const char *name_of(uint32_t code)
{
    const struct sim_kbd_key *k = sim_kbd_decode(code);
    return k ? k->name : "(none)";
}

static void test_sim_kbd__main_block(void)
{
    static const struct { uint32_t code; char plain, shifted; } cases[] = {
        {0x1E, 'a', 'A'}, {0x30, 'b', 'B'}, {0x2C, 'z', 'Z'}, {0x10, 'q', 'Q'}, {0x32, 'm', 'M'},
        {0x02, '1', '!'}, {0x0B, '0', ')'}, {0x0C, '-', '_'}, {0x0D, '=', '+'}, {0x1A, '[', '{'},
        {0x1B, ']', '}'}, {0x27, ';', ':'}, {0x28, '\'', '"'}, {0x29, '`', '~'}, {0x2B, '\\', '|'},
        {0x33, ',', '<'}, {0x34, '.', '>'}, {0x35, '/', '?'}, {0x39, ' ', ' '}, {0x1C, '\n', '\n'},
        {0x0F, '\t', '\t'}, {0x0E, '\b', '\b'},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct sim_kbd_key *k = sim_kbd_decode(cases[i].code);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_EQUAL(sim_kbd_char(k, 0), cases[i].plain);
        CU_ASSERT_EQUAL(sim_kbd_char(k, SIM_MOD_SHIFT), cases[i].shifted);
        CU_ASSERT_EQUAL(sim_kbd_char(k, SIM_MOD_CTRL), 0);
        CU_ASSERT_EQUAL(sim_kbd_char(k, SIM_MOD_WIN | SIM_MOD_SHIFT), 0);
    }
}

static void test_sim_kbd__named_keys(void)
{
    CU_ASSERT_STRING_EQUAL(name_of(0x01), "esc");
    CU_ASSERT_STRING_EQUAL(name_of(0x3B), "f1");
    CU_ASSERT_STRING_EQUAL(name_of(0x44), "f10");
    CU_ASSERT_STRING_EQUAL(name_of(0x57), "f11");
    CU_ASSERT_STRING_EQUAL(name_of(0x58), "f12");
    CU_ASSERT_STRING_EQUAL(name_of(0x47), "kp7");                      /* no prefix: the keypad */
    CU_ASSERT_STRING_EQUAL(name_of(0x47 | SIM_KBD_EXT), "home");       /* 0xE0 0x47 */
    CU_ASSERT_STRING_EQUAL(name_of(0x48 | SIM_KBD_EXT), "up");
    CU_ASSERT_STRING_EQUAL(name_of(0x4B | SIM_KBD_EXT), "left");
    CU_ASSERT_STRING_EQUAL(name_of(0x4D | SIM_KBD_EXT), "right");
    CU_ASSERT_STRING_EQUAL(name_of(0x50 | SIM_KBD_EXT), "down");
    CU_ASSERT_STRING_EQUAL(name_of(0x49 | SIM_KBD_EXT), "pageup");
    CU_ASSERT_STRING_EQUAL(name_of(0x51 | SIM_KBD_EXT), "pagedown");
    CU_ASSERT_STRING_EQUAL(name_of(0x4F | SIM_KBD_EXT), "end");
    CU_ASSERT_STRING_EQUAL(name_of(0x52 | SIM_KBD_EXT), "insert");
    CU_ASSERT_STRING_EQUAL(name_of(0x53 | SIM_KBD_EXT), "delete");
    CU_ASSERT_STRING_EQUAL(name_of(0x1C | SIM_KBD_EXT), "kpenter");
    CU_ASSERT_EQUAL(sim_kbd_char(sim_kbd_decode(0x1C | SIM_KBD_EXT), 0), '\n');
    CU_ASSERT_PTR_NULL(sim_kbd_decode(0x00));
    CU_ASSERT_PTR_NULL(sim_kbd_decode(0x7F));
    CU_ASSERT_PTR_NULL(sim_kbd_decode(0x1E | SIM_KBD_EXT));            /* no E0 'a' */
    CU_ASSERT_PTR_NULL(sim_kbd_decode(0x200 | 0x1E));
}

static void test_sim_kbd__modifiers(void)
{
    CU_ASSERT_EQUAL(sim_kbd_decode(0x2A)->mod, SIM_MOD_SHIFT);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x36)->mod, SIM_MOD_SHIFT);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x1D)->mod, SIM_MOD_CTRL);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x1D | SIM_KBD_EXT)->mod, SIM_MOD_CTRL);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x38)->mod, SIM_MOD_ALT);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x38 | SIM_KBD_EXT)->mod, SIM_MOD_ALT);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x5B | SIM_KBD_EXT)->mod, SIM_MOD_WIN);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x5C | SIM_KBD_EXT)->mod, SIM_MOD_WIN);
    CU_ASSERT_EQUAL(sim_kbd_decode(0x1E)->mod, 0);
    char buf[40];
    sim_kbd_mods_name(SIM_MOD_CTRL | SIM_MOD_SHIFT, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "shift+ctrl");
    sim_kbd_mods_name(0, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "-");
}

static void test_sim_kbd__event_flags(void)
{
    CU_ASSERT_EQUAL(sim_kbd_code(0x48, 0x0100), 0x48 | SIM_KBD_EXT);   /* KBDFLAGS_EXTENDED */
    CU_ASSERT_EQUAL(sim_kbd_code(0x48, 0x8000), 0x48);                 /* KBDFLAGS_RELEASE */
    CU_ASSERT_EQUAL(sim_kbd_code(0x148, 0), 0x48);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_sim_kbd__main_block), UNIT_TEST(test_sim_kbd__named_keys),
        UNIT_TEST(test_sim_kbd__modifiers), UNIT_TEST(test_sim_kbd__event_flags), UNIT_END,
    };
    return unit_run("sim_kbd", tests, NULL, NULL);
}
