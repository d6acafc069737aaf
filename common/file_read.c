/* file_read.c -- whole-file reader with a size limit; see file_read.h. */
#include "common/file_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *shown_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* Reads in growing chunks rather than trusting ftell(): pipes, /proc files and files that grow
 * while read all report sizes that are wrong or absent. */
static char *read_stream(FILE *f, const char *name, size_t max_bytes, size_t *len, char *err, size_t errlen)
{
    size_t used = 0, cap = 8192;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, errlen, "%s: out of memory", name);
            return NULL;
        }
        size_t r = fread(buf + used, 1, cap - used - 1, f);
        used += r;
        if (used > max_bytes) {
            snprintf(err, errlen, "%s: larger than the limit of %zu bytes", name, max_bytes);
            free(buf);
            return NULL;
        }
        if (r == 0 || used + 1 < cap) {
            if (ferror(f)) {
                snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
                free(buf);
                return NULL;
            }
            if (feof(f))
                break;
            continue;
        }
        size_t ncap = cap * 2;
        char *grown = realloc(buf, ncap);
        if (!grown)
            free(buf);
        buf = grown;
        cap = ncap;
    }
    buf[used] = '\0';
    *len = used;
    return buf;
}

char *file_read_all(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen)
{
    const char *name = shown_name(path);
    size_t ignored;
    if (!len)
        len = &ignored;
    *len = 0;
    if (errlen)
        err[0] = '\0';
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", name, strerror(errno));
        return NULL;
    }
    char *buf = read_stream(f, name, max_bytes, len, err, errlen);
    if (f != stdin)
        fclose(f);
    return buf;
}
