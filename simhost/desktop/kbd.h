/* kbd.h -- simhost's own keyboard decoder: RDP keyboard events (MS-RDPBCGR 2.2.8.1.1.3.1.1.1,
 * TS_KEYBOARD_EVENT: keyCode = a scancode of keyboard scancode set 1, KBDFLAGS_EXTENDED for the
 * 0xE0-prefixed keys) turned into a key name, a modifier bit and the character the US layout types.
 * Written from the protocol, independently of the table the agent encodes with (common/keymap.h),
 * so a mistake on either side shows up in tests/integration/simhost_keys.sh. */
#ifndef SIM_KBD_H
#define SIM_KBD_H

#include <stddef.h>
#include <stdint.h>

/* A decoded key code: the 7-bit make code, | SIM_KBD_EXT for KBDFLAGS_EXTENDED (0xE0 prefix). */
#define SIM_KBD_EXT 0x100u

/* Modifier bits held (struct sim_desktop.mods). */
#define SIM_MOD_SHIFT 1u
#define SIM_MOD_CTRL  2u
#define SIM_MOD_ALT   4u
#define SIM_MOD_WIN   8u

struct sim_kbd_key {
    const char *name;     /* "a", "1", "-", "enter", "lshift", "kpenter", "f11", "lwin", ... */
    char plain, shifted;  /* what the US layout types, 0 for none; enter '\n', tab '\t', backspace '\b' */
    unsigned mod;         /* SIM_MOD_* for modifier keys, else 0 */
};

/* The key of a code (make code | SIM_KBD_EXT), or NULL for a code set 1 does not define. */
const struct sim_kbd_key *sim_kbd_decode(uint32_t code);
/* The code of an RDP keyboard event's keyCode and keyboardFlags (KBDFLAGS_EXTENDED = 0x0100). */
uint32_t sim_kbd_code(uint16_t key_code, uint16_t flags);
/* The character k types with the modifiers held (0 with ctrl, alt or win, or for none). */
char sim_kbd_char(const struct sim_kbd_key *k, unsigned mods);
/* The modifiers held as "shift+ctrl+alt+win" (those set), "-" for none. */
void sim_kbd_mods_name(unsigned mods, char *buf, size_t len);

#endif
