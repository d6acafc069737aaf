/* keymap.c -- one table of the US layout, read in both directions. */
#include "common/keymap.h"

#include <stddef.h>
#include <strings.h>

struct key_char { uint8_t sc; char plain, shifted; };

/* Printable keys of the main block: make code, unshifted and shifted character. */
static const struct key_char key_chars[] = {
    {0x02,'1','!'},{0x03,'2','@'},{0x04,'3','#'},{0x05,'4','$'},{0x06,'5','%'},{0x07,'6','^'},
    {0x08,'7','&'},{0x09,'8','*'},{0x0A,'9','('},{0x0B,'0',')'},{0x0C,'-','_'},{0x0D,'=','+'},
    {0x10,'q','Q'},{0x11,'w','W'},{0x12,'e','E'},{0x13,'r','R'},{0x14,'t','T'},{0x15,'y','Y'},
    {0x16,'u','U'},{0x17,'i','I'},{0x18,'o','O'},{0x19,'p','P'},{0x1A,'[','{'},{0x1B,']','}'},
    {0x1E,'a','A'},{0x1F,'s','S'},{0x20,'d','D'},{0x21,'f','F'},{0x22,'g','G'},{0x23,'h','H'},
    {0x24,'j','J'},{0x25,'k','K'},{0x26,'l','L'},{0x27,';',':'},{0x28,'\'','"'},{0x29,'`','~'},
    {0x2B,'\\','|'},{0x2C,'z','Z'},{0x2D,'x','X'},{0x2E,'c','C'},{0x2F,'v','V'},{0x30,'b','B'},
    {0x31,'n','N'},{0x32,'m','M'},{0x33,',','<'},{0x34,'.','>'},{0x35,'/','?'},{0x39,' ',' '},
    {0x1C,'\n','\n'},{0x0F,'\t','\t'},{0x0E,'\b','\b'},
};

struct key_name { const char *name; uint32_t sc; };

static const struct key_name key_names[] = {
    {"enter",0x1C},{"return",0x1C},{"esc",0x01},{"escape",0x01},{"tab",0x0F},{"space",0x39},
    {"backspace",0x0E},{"delete",0x53|KEYMAP_EXT},{"del",0x53|KEYMAP_EXT},{"insert",0x52|KEYMAP_EXT},
    {"home",0x47|KEYMAP_EXT},{"end",0x4F|KEYMAP_EXT},{"pageup",0x49|KEYMAP_EXT},{"pgup",0x49|KEYMAP_EXT},
    {"pagedown",0x51|KEYMAP_EXT},{"pgdn",0x51|KEYMAP_EXT},{"up",0x48|KEYMAP_EXT},{"down",0x50|KEYMAP_EXT},
    {"left",0x4B|KEYMAP_EXT},{"right",0x4D|KEYMAP_EXT},
    {"f1",0x3B},{"f2",0x3C},{"f3",0x3D},{"f4",0x3E},{"f5",0x3F},{"f6",0x40},{"f7",0x41},{"f8",0x42},
    {"f9",0x43},{"f10",0x44},{"f11",0x57},{"f12",0x58},
    {"ctrl",KEYMAP_SC_LCTRL},{"control",KEYMAP_SC_LCTRL},{"alt",KEYMAP_SC_LALT},
    {"shift",KEYMAP_SC_LSHIFT},{"win",KEYMAP_SC_LWIN},{"super",KEYMAP_SC_LWIN},{"meta",KEYMAP_SC_LWIN},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

uint32_t keymap_scancode_by_name(const char *name)
{
    for (size_t i = 0; i < COUNT(key_names); i++)
        if (strcasecmp(key_names[i].name, name) == 0)
            return key_names[i].sc;
    if (name[0] && !name[1]) {
        char c = name[0];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        int shift;
        uint32_t sc = keymap_scancode_for_char(c, &shift);
        if (sc && !shift)
            return sc;
    }
    return 0;
}

uint32_t keymap_scancode_for_char(char c, int *needs_shift)
{
    for (size_t i = 0; i < COUNT(key_chars); i++) {
        if (key_chars[i].plain == c) { *needs_shift = 0; return key_chars[i].sc; }
        if (key_chars[i].shifted == c) { *needs_shift = 1; return key_chars[i].sc; }
    }
    *needs_shift = 0;
    return 0;
}

char keymap_char_for_scancode(uint32_t scancode, int shift)
{
    if (scancode & KEYMAP_EXT)
        return 0;
    for (size_t i = 0; i < COUNT(key_chars); i++)
        if (key_chars[i].sc == scancode)
            return shift ? key_chars[i].shifted : key_chars[i].plain;
    return 0;
}

int keymap_is_modifier(uint32_t sc)
{
    return sc == KEYMAP_SC_LSHIFT || sc == KEYMAP_SC_RSHIFT || sc == KEYMAP_SC_LCTRL ||
           sc == (KEYMAP_SC_LCTRL | KEYMAP_EXT) || sc == KEYMAP_SC_LALT ||
           sc == (KEYMAP_SC_LALT | KEYMAP_EXT) || sc == KEYMAP_SC_LWIN || sc == (0x5Cu | KEYMAP_EXT);
}
