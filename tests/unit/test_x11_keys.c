/* test_x11_keys.c -- RDP scancodes to X keycodes (evdev), pointer buttons, Unicode keysyms;
 * plus the connector's process helpers that need no X server (PATH lookup, exit descriptions,
 * /proc costs of this process). */
#include "unit.h"

#include "agent/driver/driver.h"
#include "agent/x11/input.h"
#include "agent/x11/proc.h"
#include "common/keymap.h"
#include "common/x11_preset.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_x11_keys__scancodes(void)
{
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x01), 9);                          /* Escape */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x1C), 36);                         /* Return */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x1E), 38);                         /* a */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x2A), 50);                         /* left Shift */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x58), 96);                         /* F12 */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x1C | DRIVER_KEY_EXTENDED), 104);  /* keypad Enter */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x48 | DRIVER_KEY_EXTENDED), 111);  /* Up */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x5B | DRIVER_KEY_EXTENDED), 133);  /* left Windows */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x53 | DRIVER_KEY_EXTENDED), 119);  /* Delete */
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x00), 0);
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x7F), 0);
    CU_ASSERT_EQUAL(x11_keycode_of_scancode(0x10 | DRIVER_KEY_EXTENDED), 0);    /* media key */
}

/* Every key the workload language can name has an X keycode. */
static void test_x11_keys__every_named_key(void)
{
    const char *names[] = { "enter", "esc", "tab", "space", "backspace", "delete", "insert",
                            "up", "down", "left", "right", "home", "end", "pageup", "pagedown",
                            "win", "ctrl", "alt", "shift", "f1", "f12", "a", "z", "0", "/", NULL };
    for (int i = 0; names[i]; i++) {
        uint32_t sc = keymap_scancode_by_name(names[i]);
        CU_ASSERT(sc != 0);
        CU_ASSERT(x11_keycode_of_scancode(sc) != 0);
    }
    for (char c = ' '; c <= '~'; c++) {                 /* and every typed ASCII character */
        int shift;
        CU_ASSERT(x11_keycode_of_scancode(keymap_scancode_for_char(c, &shift)) != 0);
    }
}

static void test_x11_keys__buttons_and_keysyms(void)
{
    CU_ASSERT_EQUAL(x11_button_of_flags(DRIVER_PTR_BUTTON1 | DRIVER_PTR_DOWN), 1);
    CU_ASSERT_EQUAL(x11_button_of_flags(DRIVER_PTR_BUTTON2), 3);    /* RDP button 2 is right */
    CU_ASSERT_EQUAL(x11_button_of_flags(DRIVER_PTR_BUTTON3), 2);
    CU_ASSERT_EQUAL(x11_button_of_flags(DRIVER_PTR_MOVE), 0);
    CU_ASSERT_EQUAL(x11_keysym_of_codepoint('a'), 'a');
    CU_ASSERT_EQUAL(x11_keysym_of_codepoint(0xE9), 0xE9);
    CU_ASSERT_EQUAL(x11_keysym_of_codepoint(0x20AC), 0x010020ACul);
    CU_ASSERT_EQUAL(x11_keysym_of_codepoint(0x1F600), 0x0101F600ul);
}

static void test_x11_keys__proc_helpers(void)
{
    char path[4096], how[64];
    struct x11_cost c;
    CU_ASSERT_EQUAL(x11_which("sh", path, sizeof path), 0);
    CU_ASSERT(strchr(path, '/') != NULL);
    CU_ASSERT_EQUAL(x11_which("no-such-program-sessmax", path, sizeof path), -1);
    x11_proc_describe(3 << 8, how, sizeof how);
    CU_ASSERT_STRING_EQUAL(how, "exit status 3");
    x11_proc_describe(SIGKILL, how, sizeof how);
    CU_ASSERT(strstr(how, "signal 9") != NULL);
    CU_ASSERT_EQUAL(x11_proc_cost(getpid(), &c), 0);
    CU_ASSERT(c.rss_kb > 0 && c.pss_kb > 0 && c.pss_kb <= c.rss_kb);
    CU_ASSERT_EQUAL(x11_proc_cost(0x7ffffff0, &c), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_x11_keys__scancodes),
        UNIT_TEST(test_x11_keys__every_named_key),
        UNIT_TEST(test_x11_keys__buttons_and_keysyms),
        UNIT_TEST(test_x11_keys__proc_helpers),
        UNIT_END,
    };
    return unit_run("x11_keys", tests, NULL, NULL);
}
