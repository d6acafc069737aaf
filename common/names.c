/* names.c -- the character set of names. */
#include "common/names.h"

#include <string.h>

int name_char_is_safe(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
}

int name_is_safe(const char *s)
{
    if (!s || !s[0])
        return 0;
    size_t n = strnlen(s, RESULTS_NAME_LEN);
    if (n >= RESULTS_NAME_LEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!name_char_is_safe(s[i]))
            return 0;
    return 1;
}

void name_sanitize(const char *s, char *out, size_t outlen)
{
    size_t o = 0;
    for (size_t i = 0; s && s[i] && o + 1 < outlen; i++, o++)
        out[o] = name_char_is_safe(s[i]) && !(o == 0 && s[i] == '.') ? s[i] : '_';
    if (o == 0 && outlen > 1)
        out[o++] = '_';
    out[o] = '\0';
}
