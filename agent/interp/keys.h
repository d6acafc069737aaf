/* keys.h -- turns workload input (chords, typed text, clicks) into the driver's key, unicode and
 * mouse calls. Characters of the US layout become scancodes (with shift when the character needs
 * it); anything else is sent as Unicode keyboard events (UTF-16, surrogate pairs included). */
#ifndef SESSMAX_KEYS_H
#define SESSMAX_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "agent/driver/driver.h"
#include "common/workload.h"

/* Presses the chord's keys in order and releases them in reverse. 0, or -1 if the driver failed. */
int keys_chord(const struct driver_ops *ops, void *sess, const uint32_t *chord, size_t n);
/* Types one Unicode code point ('\n' = Enter, '\t' = Tab). 0 or -1. */
int keys_type_codepoint(const struct driver_ops *ops, void *sess, uint32_t cp);
/* Decodes the next UTF-8 code point at *p and advances *p (U+FFFD for malformed bytes);
 * returns 0 at the end of the string. */
uint32_t keys_utf8_next(const char **p);
/* Moves the pointer, or moves and clicks (twice for double). 0 or -1. */
int keys_move(const struct driver_ops *ops, void *sess, int32_t x, int32_t y);
int keys_click(const struct driver_ops *ops, void *sess, int32_t x, int32_t y, enum workload_button b,
               int double_click);

#endif
