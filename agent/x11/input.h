/* input.h -- the driver contract's RDP scancodes and pointer buttons in X11 terms, for the
 * external-client connector: X keycodes of the evdev keymap Xvfb loads (keycode = Linux input
 * code + 8), X pointer buttons, and the keysym of a Unicode character. Pure functions. */
#ifndef SESSMAX_X11_KEYS_H
#define SESSMAX_X11_KEYS_H

#include <stdint.h>

/* X keycode for an RDP scancode (low byte; DRIVER_KEY_EXTENDED for E0 keys); 0 when the key has
 * no X keycode (it is then not sent). */
unsigned x11_keycode_of_scancode(uint32_t rdp_scancode);

/* X button (1 left, 2 middle, 3 right) of a DRIVER_PTR_BUTTON* flag set; 0 when none. */
unsigned x11_button_of_flags(uint16_t flags);

/* X keysym of a Unicode code point: Latin-1 as is, others 0x01000000 + code point. */
unsigned long x11_keysym_of_codepoint(uint32_t cp);

#endif
