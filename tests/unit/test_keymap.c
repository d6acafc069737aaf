/* test_keymap.c -- the US layout read both ways: every typeable character survives the round
 * trip agent (char -> scancode) to simhost (scancode -> char); key names and aliases. */
#include "unit.h"

#include "common/keymap.h"

static void test_keymap__printable_round_trip(void)
{
    int failures = 0;
    for (int c = 0x20; c < 0x7F; c++) {
        int shift = -1;
        uint32_t sc = keymap_scancode_for_char((char)c, &shift);
        if (sc == 0 || (shift != 0 && shift != 1) || keymap_char_for_scancode(sc, shift) != (char)c)
            failures++;
    }
    CU_ASSERT_EQUAL(failures, 0);
    int shift = -1;
    CU_ASSERT_EQUAL(keymap_scancode_for_char('A', &shift), 0x1E);
    CU_ASSERT_EQUAL(shift, 1);
    CU_ASSERT_EQUAL(keymap_scancode_for_char('\n', &shift), KEYMAP_SC_ENTER);
    CU_ASSERT_EQUAL(keymap_char_for_scancode(KEYMAP_SC_ENTER, 0), '\n');
    CU_ASSERT_EQUAL(keymap_scancode_for_char((char)0xE9, &shift), 0);   /* é: not on the US layout */
}

static void test_keymap__names(void)
{
    CU_ASSERT_EQUAL(keymap_scancode_by_name("enter"), KEYMAP_SC_ENTER);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("Return"), KEYMAP_SC_ENTER);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("ESC"), KEYMAP_SC_ESC);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("ctrl"), KEYMAP_SC_LCTRL);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("win"), KEYMAP_SC_LWIN);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("f4"), 0x3E);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("a"), 0x1E);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("/"), 0x35);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("delete") & KEYMAP_EXT, KEYMAP_EXT);
    CU_ASSERT_EQUAL(keymap_scancode_by_name("hyper"), 0);
    CU_ASSERT_EQUAL(keymap_scancode_by_name(""), 0);
}

static void test_keymap__modifiers(void)
{
    CU_ASSERT_TRUE(keymap_is_modifier(KEYMAP_SC_LSHIFT));
    CU_ASSERT_TRUE(keymap_is_modifier(KEYMAP_SC_RSHIFT));
    CU_ASSERT_TRUE(keymap_is_modifier(KEYMAP_SC_LALT));
    CU_ASSERT_TRUE(keymap_is_modifier(KEYMAP_SC_LWIN));
    CU_ASSERT_FALSE(keymap_is_modifier(KEYMAP_SC_ENTER));
    CU_ASSERT_EQUAL(keymap_char_for_scancode(KEYMAP_SC_LSHIFT, 0), 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_keymap__printable_round_trip),
        UNIT_TEST(test_keymap__names),
        UNIT_TEST(test_keymap__modifiers),
        UNIT_END,
    };
    return unit_run("keymap", tests, NULL, NULL);
}
