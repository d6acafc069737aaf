/* numarg.h -- checked parsing of a numeric option value, for every binary's getopt_long loop:
 * the whole text must be one number inside [min, max] (no sign on an unsigned value, no leading
 * blanks, no trailing characters, no overflow); anything else gives a one-line error naming the
 * option and the value. */
#ifndef SESSMAX_NUMARG_H
#define SESSMAX_NUMARG_H

#include <stddef.h>

/* A decimal unsigned integer in [min, max] into *out. 0, or -1 with err set to
 * "OPT: expected an integer in [MIN, MAX], got 'TEXT'" (*out unchanged). text may be NULL. */
int numarg_ulong(const char *opt, const char *text, unsigned long min, unsigned long max,
                 unsigned long *out, char *err, size_t errlen);

/* A finite decimal number in [min, max] into *out; as numarg_ulong otherwise. */
int numarg_double(const char *opt, const char *text, double min, double max, double *out,
                  char *err, size_t errlen);

/* "WxH" with each side a checked integer, W in [min_w, max_w] and H in [min_h, max_h], into *w
 * and *h. 0, or -1 with err "OPT: expected WxH between MINxMIN and MAXxMAX, got 'TEXT'". */
int numarg_size(const char *opt, const char *text, unsigned long min_w, unsigned long min_h,
                unsigned long max_w, unsigned long max_h, unsigned long *w, unsigned long *h,
                char *err, size_t errlen);

#endif
