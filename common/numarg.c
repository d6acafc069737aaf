/* numarg.c -- checked parsing of numeric option values (contract: numarg.h). */
#include "common/numarg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

/* strtoul/strtod skip leading blanks and strtoul takes a sign: neither belongs in an option. */
static int plain_start(const char *text, int allow_minus)
{
    return text && *text && !isspace((unsigned char)*text) && *text != '+' &&
           (allow_minus || *text != '-');
}

int numarg_ulong(const char *opt, const char *text, unsigned long min, unsigned long max,
                 unsigned long *out, char *err, size_t errlen)
{
    char *end = NULL;
    unsigned long v = 0;
    if (plain_start(text, 0)) {
        errno = 0;
        v = strtoul(text, &end, 10);
    }
    if (!end || *end || errno == ERANGE || v < min || v > max) {
        return log_escapef(err, errlen, "%s: expected an integer in [%lu, %lu], got '%s'", opt, min,
                           max, text ? text : "");
    }
    *out = v;
    return 0;
}

int numarg_double(const char *opt, const char *text, double min, double max, double *out,
                  char *err, size_t errlen)
{
    char *end = NULL;
    double v = 0;
    if (plain_start(text, 1)) {
        errno = 0;
        v = strtod(text, &end);
    }
    if (!end || *end || errno == ERANGE || !isfinite(v) || v < min || v > max) {
        return log_escapef(err, errlen, "%s: expected a number in [%g, %g], got '%s'", opt, min, max,
                           text ? text : "");
    }
    *out = v;
    return 0;
}

int numarg_size(const char *opt, const char *text, unsigned long min_w, unsigned long min_h,
                unsigned long max_w, unsigned long max_h, unsigned long *w, unsigned long *h,
                char *err, size_t errlen)
{
    char width[24];
    const char *x = text ? strchr(text, 'x') : NULL;
    unsigned long vw, vh;
    int ok = x && (size_t)(x - text) < sizeof width;
    if (ok) {
        memcpy(width, text, (size_t)(x - text));
        width[x - text] = '\0';
        ok = numarg_ulong(opt, width, min_w, max_w, &vw, err, errlen) == 0 &&
             numarg_ulong(opt, x + 1, min_h, max_h, &vh, err, errlen) == 0;
    }
    if (!ok) {
        return log_escapef(err, errlen, "%s: expected WxH between %lux%lu and %lux%lu, got '%s'", opt,
                           min_w, min_h, max_w, max_h, text ? text : "");
    }
    *w = vw, *h = vh;
    return 0;
}
