/* names.h -- the one character set for timer, measure and region names, checked where a workload
 * is loaded and where a record arrives from a peer (agent or controller side), so that a name
 * can never carry markup, quotes, separators or control characters into a store, report or
 * export. */
#ifndef SESSMAX_NAMES_H
#define SESSMAX_NAMES_H

#include <stddef.h>

#include "common/results.h"

#define NAMES_CHARSET_TEXT "letters, digits, '_', '-' and '.'"

/* 1 when `s` is 1 to RESULTS_NAME_LEN - 1 characters, each an ASCII letter, digit, '_', '-' or
 * '.'; 0 otherwise (also for NULL). */
int name_is_safe(const char *s);

/* 1 when character `c` may appear in a name. */
int name_char_is_safe(char c);

/* Copies `s` into out (always NUL-terminated, outlen > 0) as one component of a file name:
 * every character outside the set becomes '_', and so does a leading '.', so "../x" gives
 * "_._x": never a path, never hidden. An empty or NULL s gives "_". */
void name_sanitize(const char *s, char *out, size_t outlen);

#endif
