/* input.c -- RDP scancode -> X keycode (evdev), pointer flags -> X buttons, code point ->
 * keysym. The X keycodes are those of the evdev rules Xvfb's default keymap uses; xfreerdp maps
 * them back to the same scancodes, and a VNC viewer turns them into the same keysyms. */
#include "agent/x11/input.h"

#include "agent/driver/driver.h"

/* E0-prefixed keys: (scancode, Linux input code). */
static const uint8_t extended[][2] = {
    { 0x1C, 96 },  /* keypad Enter */  { 0x1D, 97 },  /* right Ctrl */
    { 0x35, 98 },  /* keypad / */      { 0x37, 99 },  /* Print Screen */
    { 0x38, 100 }, /* right Alt */     { 0x47, 102 }, /* Home */
    { 0x48, 103 }, /* Up */            { 0x49, 104 }, /* Page Up */
    { 0x4B, 105 }, /* Left */          { 0x4D, 106 }, /* Right */
    { 0x4F, 107 }, /* End */           { 0x50, 108 }, /* Down */
    { 0x51, 109 }, /* Page Down */     { 0x52, 110 }, /* Insert */
    { 0x53, 111 }, /* Delete */        { 0x5B, 125 }, /* left Windows */
    { 0x5C, 126 }, /* right Windows */ { 0x5D, 127 }, /* Menu */
};

#define EVDEV_OFFSET 8

unsigned x11_keycode_of_scancode(uint32_t sc)
{
    uint8_t code = (uint8_t)(sc & 0xFF);
    if (!(sc & DRIVER_KEY_EXTENDED))
        /* PC set 1 make codes 0x01..0x58 are the Linux input codes 1..88 (Esc .. F12) */
        return code >= 0x01 && code <= 0x58 ? code + EVDEV_OFFSET : 0;
    for (unsigned i = 0; i < sizeof extended / sizeof extended[0]; i++)
        if (extended[i][0] == code)
            return extended[i][1] + EVDEV_OFFSET;
    return 0;
}

unsigned x11_button_of_flags(uint16_t flags)
{
    if (flags & DRIVER_PTR_BUTTON1)
        return 1;
    if (flags & DRIVER_PTR_BUTTON3)
        return 2;
    if (flags & DRIVER_PTR_BUTTON2)
        return 3;
    return 0;
}

unsigned long x11_keysym_of_codepoint(uint32_t cp)
{
    if ((cp >= 0x20 && cp <= 0x7E) || (cp >= 0xA0 && cp <= 0xFF))
        return cp;
    return 0x01000000ul + cp;
}
