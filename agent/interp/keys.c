/* keys.c -- chords, typed characters and clicks as driver calls; see keys.h. */
#include "agent/interp/keys.h"

#include "common/keymap.h"

int keys_chord(const struct driver_ops *ops, void *sess, const uint32_t *chord, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ops->key(sess, chord[i], 1) != 0)
            return -1;
    for (size_t i = n; i-- > 0;)
        if (ops->key(sess, chord[i], 0) != 0)
            return -1;
    return 0;
}

static int unicode_unit(const struct driver_ops *ops, void *sess, uint16_t u)
{
    return ops->unicode(sess, u, 1) == 0 && ops->unicode(sess, u, 0) == 0 ? 0 : -1;
}

int keys_type_codepoint(const struct driver_ops *ops, void *sess, uint32_t cp)
{
    int shift = 0;
    uint32_t sc = cp < 0x80 ? keymap_scancode_for_char((char)cp, &shift) : 0;
    if (sc) {
        if (shift && ops->key(sess, KEYMAP_SC_LSHIFT, 1) != 0)
            return -1;
        if (ops->key(sess, sc, 1) != 0 || ops->key(sess, sc, 0) != 0)
            return -1;
        return shift ? ops->key(sess, KEYMAP_SC_LSHIFT, 0) : 0;
    }
    if (cp < 0x10000)
        return unicode_unit(ops, sess, (uint16_t)cp);
    cp -= 0x10000;
    if (unicode_unit(ops, sess, (uint16_t)(0xD800 + (cp >> 10))) != 0)
        return -1;
    return unicode_unit(ops, sess, (uint16_t)(0xDC00 + (cp & 0x3FF)));
}

uint32_t keys_utf8_next(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    if (!s[0])
        return 0;
    int len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    uint32_t cp = len == 1 ? s[0] : len == 2 ? (s[0] & 0x1Fu) : len == 3 ? (s[0] & 0x0Fu) : (s[0] & 0x07u);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            len = 0;
            break;
        }
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    static const uint32_t min_cp[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (len == 0 || cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        *p += 1;
        return 0xFFFD;
    }
    *p += len;
    return cp;
}

int keys_move(const struct driver_ops *ops, void *sess, int32_t x, int32_t y)
{
    return ops->mouse(sess, DRIVER_PTR_MOVE, (uint16_t)x, (uint16_t)y);
}

int keys_click(const struct driver_ops *ops, void *sess, int32_t x, int32_t y, enum workload_button b,
               int double_click)
{
    uint16_t button = b == WORKLOAD_BUTTON_RIGHT ? DRIVER_PTR_BUTTON2 :
                      b == WORKLOAD_BUTTON_MIDDLE ? DRIVER_PTR_BUTTON3 : DRIVER_PTR_BUTTON1;
    if (keys_move(ops, sess, x, y) != 0)
        return -1;
    for (int i = 0; i < (double_click ? 2 : 1); i++)
        if (ops->mouse(sess, (uint16_t)(button | DRIVER_PTR_DOWN), (uint16_t)x, (uint16_t)y) != 0 ||
            ops->mouse(sess, button, (uint16_t)x, (uint16_t)y) != 0)
            return -1;
    return 0;
}
