/* textesc.c -- names and free text escaped for the text outputs (see textesc.h). */
#include "controller/score/textesc.h"

#include <string.h>

/* The escape of one byte into out (at most 7 bytes and a NUL); returns its length, 0 when the
 * byte stands for itself. */
static size_t escape_one(unsigned char c, enum textesc_mode mode, char *out)
{
    static const char hex[] = "0123456789abcdef";
    const char *named = NULL;
    switch (c) {
    case '\n': named = "\\n"; break;
    case '\r': named = "\\r"; break;
    case '\t': named = "\\t"; break;
    case '|': named = mode == TEXTESC_MARKDOWN ? "\\|" : NULL; break;
    case '\\': named = mode == TEXTESC_MARKDOWN ? "\\\\" : NULL; break;
    case '<': named = mode == TEXTESC_MARKDOWN ? "&lt;" : NULL; break;
    case '>': named = mode == TEXTESC_MARKDOWN ? "&gt;" : NULL; break;
    case '&': named = mode == TEXTESC_MARKDOWN ? "&amp;" : NULL; break;
    default: break;
    }
    if (named) {
        strcpy(out, named);
        return strlen(named);
    }
    if (c >= 0x20 && c != 0x7f)
        return 0;
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[c >> 4];
    out[3] = hex[c & 15];
    out[4] = 0;
    return 4;
}

const char *textesc(char *buf, size_t len, const char *s, enum textesc_mode mode)
{
    size_t n = 0;
    char e[8];
    if (!len)
        return buf;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        size_t k = escape_one(*p, mode, e);
        if (!k) {
            e[0] = (char)*p;
            k = 1;
        }
        if (n + k >= len)
            break;
        memcpy(buf + n, e, k);
        n += k;
    }
    buf[n] = 0;
    return buf;
}

void textesc_fputs(FILE *o, const char *s, enum textesc_mode mode)
{
    char e[8];
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (escape_one(*p, mode, e))
            fputs(e, o);
        else
            fputc(*p, o);
}

size_t textesc_len(const char *s, enum textesc_mode mode)
{
    size_t n = 0;
    char e[8];
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        size_t k = escape_one(*p, mode, e);
        n += k ? k : 1;
    }
    return n;
}
