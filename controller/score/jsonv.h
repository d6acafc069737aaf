/* jsonv.h -- the few helpers the controller's JSON writers share on top of libjansson: a number
 * that is null when it is not finite, a string that stays valid JSON whatever bytes a results
 * file holds, and compact one-line text. All JSON is read and written by libjansson. */
#ifndef SESSMAX_JSONV_H
#define SESSMAX_JSONV_H

#include <jansson.h>

/* A JSON integer when v is integral (and exactly representable), a real otherwise, null when
 * v is NaN or infinite. NULL only when out of memory. */
json_t *jsonv_number(double v);

/* A JSON string of `s` (NULL: ""); bytes that are not valid UTF-8 become '?'. */
json_t *jsonv_string(const char *s);

/* Sets obj[key] = value and takes the reference; returns -1 (and counts nothing) when value is
 * NULL or the set fails, so callers can sum the results. */
int jsonv_set(json_t *obj, const char *key, json_t *value);

#define JSONV_EXACT 17     /* reals give back the same double (stored parameters), each printed with
                              the fewest digits that do so: 0.4 as written, not 0.40000000000000002 */
#define JSONV_REPORT 6     /* significant digits for figures people read (verdict.json, exports) */

/* Compact text of `v` with reals to `digits` significant digits and a final newline when
 * `newline`; malloc'd (caller frees), NULL when out of memory. Takes the reference to v. */
char *jsonv_take_text(json_t *v, int digits, int newline);

#endif
