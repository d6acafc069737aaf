/* keymap.h -- the US keyboard layout as both sides of sessmax see it.
 *
 * The agent turns key names ("ctrl+alt+t", "f4") and typed text into RDP scancodes; simhost turns
 * the scancodes it receives back into keys and characters. One table serves both directions so
 * they can never disagree. Scancodes are PC set 1 make codes; KEYMAP_EXT (0x100, FreeRDP's
 * KBDEXT) marks extended keys, as in freerdp/scancode.h. */
#ifndef SESSMAX_KEYMAP_H
#define SESSMAX_KEYMAP_H

#include <stdint.h>

#define KEYMAP_EXT 0x100u

/* A few scancodes other modules name directly. */
#define KEYMAP_SC_LSHIFT 0x2Au
#define KEYMAP_SC_RSHIFT 0x36u
#define KEYMAP_SC_LCTRL  0x1Du
#define KEYMAP_SC_LALT   0x38u
#define KEYMAP_SC_LWIN   (0x5Bu | KEYMAP_EXT)
#define KEYMAP_SC_ENTER  0x1Cu
#define KEYMAP_SC_ESC    0x01u

/* Scancode of a named key: "a".."z", "0".."9", "enter", "esc", "tab", "space", "backspace",
 * "delete", "insert", "home", "end", "pageup", "pagedown", "up", "down", "left", "right",
 * "f1".."f12", "ctrl", "alt", "shift", "win", punctuation by its unshifted character ("-", "/").
 * Aliases: "escape", "return", "super", "meta", "control", "del", "pgup", "pgdn".
 * Returns 0 for an unknown name. Case-insensitive. */
uint32_t keymap_scancode_by_name(const char *name);

/* Scancode and shift state that type the printable ASCII character c (also '\n' = enter,
 * '\t' = tab). Returns 0 when c cannot be typed on the US layout. */
uint32_t keymap_scancode_for_char(char c, int *needs_shift);

/* The character a scancode produces with the given shift state, or 0 for non-printing keys
 * (enter gives '\n', tab '\t', backspace '\b'). */
char keymap_char_for_scancode(uint32_t scancode, int shift);

/* Whether the scancode is a modifier (shift, ctrl, alt, win). */
int keymap_is_modifier(uint32_t scancode);

#endif
