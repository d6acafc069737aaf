/* json_lite.h -- just enough JSON for sessmax's own files: a growing output buffer with string
 * escaping, and a small recursive parser into a tree (score parameters, verdict.json, tests).
 * Depth is limited to 32; numbers are doubles; \u escapes above U+007F become UTF-8. */
#ifndef SESSMAX_JSON_LITE_H
#define SESSMAX_JSON_LITE_H

#include <stddef.h>
#include <stdio.h>

struct json_lite_buf {
    char *s;
    size_t len, cap;
    int oom;                 /* an allocation failed: json_lite_buf_take returns NULL */
};

void json_lite_buf_init(struct json_lite_buf *b);
void json_lite_buf_printf(struct json_lite_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends a quoted, escaped JSON string. */
void json_lite_buf_str(struct json_lite_buf *b, const char *s);
/* Appends a number, or null when it is NaN or infinite. */
void json_lite_buf_num(struct json_lite_buf *b, double v);
/* Returns the malloc'd text (caller frees) or NULL after an allocation failure. */
char *json_lite_buf_take(struct json_lite_buf *b);

/* Writes a JSON-escaped string (with quotes) to a stream. */
void json_lite_fputs(FILE *f, const char *s);

enum json_lite_kind { JSON_LITE_NULL, JSON_LITE_BOOL, JSON_LITE_NUMBER, JSON_LITE_STRING,
                      JSON_LITE_ARRAY, JSON_LITE_OBJECT };

struct json_lite_value {
    enum json_lite_kind kind;
    double num;              /* NUMBER; BOOL as 0/1 */
    char *str;               /* STRING */
    size_t count;            /* ARRAY / OBJECT */
    char **keys;             /* OBJECT: keys parallel to items */
    struct json_lite_value *items;
};

/* Parses text into *out (free with json_lite_free). Returns 0, or -1 with "json: offset N: ..." */
int json_lite_parse(const char *text, struct json_lite_value *out, char *err, size_t errlen);
void json_lite_free(struct json_lite_value *v);
/* Object member by key; NULL when absent or not an object. */
const struct json_lite_value *json_lite_get(const struct json_lite_value *obj, const char *key);

#endif
