/* kbd.c -- keyboard scancode set 1 (make codes) as MS-RDPBCGR's keyboard event carries them,
 * the US layout's characters; see kbd.h. */
#include "simhost/desktop/kbd.h"

#include <stdio.h>
#include <string.h>

#define KBDFLAGS_EXTENDED_BIT 0x0100u

/* Codes 0x00-0x58 without the 0xE0 prefix. */
static const struct sim_kbd_key plain_keys[0x59] = {
    [0x01] = {"esc", 0, 0, 0},
    [0x02] = {"1", '1', '!', 0}, [0x03] = {"2", '2', '@', 0}, [0x04] = {"3", '3', '#', 0},
    [0x05] = {"4", '4', '$', 0}, [0x06] = {"5", '5', '%', 0}, [0x07] = {"6", '6', '^', 0},
    [0x08] = {"7", '7', '&', 0}, [0x09] = {"8", '8', '*', 0}, [0x0A] = {"9", '9', '(', 0},
    [0x0B] = {"0", '0', ')', 0}, [0x0C] = {"-", '-', '_', 0}, [0x0D] = {"=", '=', '+', 0},
    [0x0E] = {"backspace", '\b', '\b', 0}, [0x0F] = {"tab", '\t', '\t', 0},
    [0x10] = {"q", 'q', 'Q', 0}, [0x11] = {"w", 'w', 'W', 0}, [0x12] = {"e", 'e', 'E', 0},
    [0x13] = {"r", 'r', 'R', 0}, [0x14] = {"t", 't', 'T', 0}, [0x15] = {"y", 'y', 'Y', 0},
    [0x16] = {"u", 'u', 'U', 0}, [0x17] = {"i", 'i', 'I', 0}, [0x18] = {"o", 'o', 'O', 0},
    [0x19] = {"p", 'p', 'P', 0}, [0x1A] = {"[", '[', '{', 0}, [0x1B] = {"]", ']', '}', 0},
    [0x1C] = {"enter", '\n', '\n', 0}, [0x1D] = {"lctrl", 0, 0, SIM_MOD_CTRL},
    [0x1E] = {"a", 'a', 'A', 0}, [0x1F] = {"s", 's', 'S', 0}, [0x20] = {"d", 'd', 'D', 0},
    [0x21] = {"f", 'f', 'F', 0}, [0x22] = {"g", 'g', 'G', 0}, [0x23] = {"h", 'h', 'H', 0},
    [0x24] = {"j", 'j', 'J', 0}, [0x25] = {"k", 'k', 'K', 0}, [0x26] = {"l", 'l', 'L', 0},
    [0x27] = {";", ';', ':', 0}, [0x28] = {"'", '\'', '"', 0}, [0x29] = {"`", '`', '~', 0},
    [0x2A] = {"lshift", 0, 0, SIM_MOD_SHIFT}, [0x2B] = {"\\", '\\', '|', 0},
    [0x2C] = {"z", 'z', 'Z', 0}, [0x2D] = {"x", 'x', 'X', 0}, [0x2E] = {"c", 'c', 'C', 0},
    [0x2F] = {"v", 'v', 'V', 0}, [0x30] = {"b", 'b', 'B', 0}, [0x31] = {"n", 'n', 'N', 0},
    [0x32] = {"m", 'm', 'M', 0}, [0x33] = {",", ',', '<', 0}, [0x34] = {".", '.', '>', 0},
    [0x35] = {"/", '/', '?', 0}, [0x36] = {"rshift", 0, 0, SIM_MOD_SHIFT},
    [0x37] = {"kp*", 0, 0, 0}, [0x38] = {"lalt", 0, 0, SIM_MOD_ALT}, [0x39] = {"space", ' ', ' ', 0},
    [0x3A] = {"capslock", 0, 0, 0},
    [0x3B] = {"f1", 0, 0, 0}, [0x3C] = {"f2", 0, 0, 0}, [0x3D] = {"f3", 0, 0, 0},
    [0x3E] = {"f4", 0, 0, 0}, [0x3F] = {"f5", 0, 0, 0}, [0x40] = {"f6", 0, 0, 0},
    [0x41] = {"f7", 0, 0, 0}, [0x42] = {"f8", 0, 0, 0}, [0x43] = {"f9", 0, 0, 0},
    [0x44] = {"f10", 0, 0, 0}, [0x45] = {"numlock", 0, 0, 0}, [0x46] = {"scrolllock", 0, 0, 0},
    [0x47] = {"kp7", 0, 0, 0}, [0x48] = {"kp8", 0, 0, 0}, [0x49] = {"kp9", 0, 0, 0},
    [0x4A] = {"kp-", 0, 0, 0}, [0x4B] = {"kp4", 0, 0, 0}, [0x4C] = {"kp5", 0, 0, 0},
    [0x4D] = {"kp6", 0, 0, 0}, [0x4E] = {"kp+", 0, 0, 0}, [0x4F] = {"kp1", 0, 0, 0},
    [0x50] = {"kp2", 0, 0, 0}, [0x51] = {"kp3", 0, 0, 0}, [0x52] = {"kp0", 0, 0, 0},
    [0x53] = {"kp.", 0, 0, 0}, [0x56] = {"oem102", 0, 0, 0},
    [0x57] = {"f11", 0, 0, 0}, [0x58] = {"f12", 0, 0, 0},
};

/* Codes with the 0xE0 prefix (KBDFLAGS_EXTENDED). */
static const struct {
    uint8_t code;
    struct sim_kbd_key key;
} ext_keys[] = {
    {0x1C, {"kpenter", '\n', '\n', 0}}, {0x1D, {"rctrl", 0, 0, SIM_MOD_CTRL}},
    {0x35, {"kp/", 0, 0, 0}}, {0x37, {"prtsc", 0, 0, 0}}, {0x38, {"ralt", 0, 0, SIM_MOD_ALT}},
    {0x47, {"home", 0, 0, 0}}, {0x48, {"up", 0, 0, 0}}, {0x49, {"pageup", 0, 0, 0}},
    {0x4B, {"left", 0, 0, 0}}, {0x4D, {"right", 0, 0, 0}}, {0x4F, {"end", 0, 0, 0}},
    {0x50, {"down", 0, 0, 0}}, {0x51, {"pagedown", 0, 0, 0}}, {0x52, {"insert", 0, 0, 0}},
    {0x53, {"delete", 0, 0, 0}}, {0x5B, {"lwin", 0, 0, SIM_MOD_WIN}},
    {0x5C, {"rwin", 0, 0, SIM_MOD_WIN}}, {0x5D, {"menu", 0, 0, 0}},
};

const struct sim_kbd_key *sim_kbd_decode(uint32_t code)
{
    uint32_t make = code & 0xFFu;
    if (code & ~(0xFFu | SIM_KBD_EXT))
        return NULL;
    if (!(code & SIM_KBD_EXT))
        return make < sizeof plain_keys / sizeof plain_keys[0] && plain_keys[make].name ? &plain_keys[make] : NULL;
    for (size_t i = 0; i < sizeof ext_keys / sizeof ext_keys[0]; i++)
        if (ext_keys[i].code == make)
            return &ext_keys[i].key;
    return NULL;
}

uint32_t sim_kbd_code(uint16_t key_code, uint16_t flags)
{
    return (key_code & 0xFFu) | ((flags & KBDFLAGS_EXTENDED_BIT) ? SIM_KBD_EXT : 0);
}

char sim_kbd_char(const struct sim_kbd_key *k, unsigned mods)
{
    if (!k || (mods & (SIM_MOD_CTRL | SIM_MOD_ALT | SIM_MOD_WIN)))
        return 0;
    return (mods & SIM_MOD_SHIFT) ? k->shifted : k->plain;
}

void sim_kbd_mods_name(unsigned mods, char *buf, size_t len)
{
    static const char *const names[] = { "shift", "ctrl", "alt", "win" };
    static const unsigned bits[] = { SIM_MOD_SHIFT, SIM_MOD_CTRL, SIM_MOD_ALT, SIM_MOD_WIN };
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < 4 && len > 0; i++)
        if (mods & bits[i]) {
            int w = snprintf(buf + n, len - n, "%s%s", n ? "+" : "", names[i]);
            n = w < 0 || (size_t)w >= len - n ? len - 1 : n + (size_t)w;
        }
    if (n == 0)
        snprintf(buf, len, "-");
}
