/* jsonv.c -- numbers, strings and text for JSON written through libjansson. */
#include "controller/score/jsonv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSONV_EXACT_INT 9007199254740992.0   /* 2^53: larger doubles are not exact integers */

json_t *jsonv_number(double v)
{
    if (!isfinite(v))
        return json_null();
    if (v == floor(v) && fabs(v) <= JSONV_EXACT_INT)
        return json_integer((json_int_t)v);
    return json_real(v);
}

json_t *jsonv_string(const char *s)
{
    if (!s)
        s = "";
    json_t *j = json_string(s);
    if (j)
        return j;
    /* not UTF-8 (a tampered results file): keep ASCII, replace every other byte */
    size_t n = strlen(s);
    char *copy = malloc(n + 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        copy[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
    j = json_string(copy);
    free(copy);
    return j;
}

int jsonv_set(json_t *obj, const char *key, json_t *value)
{
    if (!value)
        return -1;
    return json_object_set_new(obj, key, value) == 0 ? 0 : -1;
}

/* Fewest significant digits (1..17) that give back exactly v. */
static int shortest_digits(double v)
{
    char buf[40];
    for (int d = 1; d < JSONV_EXACT; d++) {
        snprintf(buf, sizeof buf, "%.*g", d, v);
        if (strtod(buf, NULL) == v)
            return d;
    }
    return JSONV_EXACT;
}

/* The most digits any real of the tree needs to come back exactly. */
static int tree_digits(json_t *v)
{
    int d = 1;
    const char *key;
    size_t i;
    json_t *item;
    if (json_is_real(v))
        return shortest_digits(json_real_value(v));
    if (json_is_object(v))
        json_object_foreach(v, key, item) {
            int k = tree_digits(item);
            d = k > d ? k : d;
        }
    if (json_is_array(v))
        json_array_foreach(v, i, item) {
            int k = tree_digits(item);
            d = k > d ? k : d;
        }
    return d;
}

char *jsonv_take_text(json_t *v, int digits, int newline)
{
    if (!v)
        return NULL;
    if (digits == JSONV_EXACT)
        digits = tree_digits(v);   /* exact, and 0.4 stays "0.4", not 0.40000000000000002 */
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(digits));
    json_decref(v);
    if (!text || !newline)
        return text;
    size_t n = strlen(text);
    char *t = realloc(text, n + 2);
    if (!t) {
        free(text);
        return NULL;
    }
    t[n] = '\n';
    t[n + 1] = 0;
    return t;
}
