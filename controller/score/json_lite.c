/* json_lite.c -- JSON output buffer and a small recursive-descent parser. */
#include "controller/score/json_lite.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void json_lite_buf_init(struct json_lite_buf *b)
{
    memset(b, 0, sizeof *b);
}

static int reserve(struct json_lite_buf *b, size_t more)
{
    if (b->oom)
        return -1;
    if (b->len + more + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

void json_lite_buf_printf(struct json_lite_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(b, (size_t)n) < 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void json_lite_buf_str(struct json_lite_buf *b, const char *s)
{
    json_lite_buf_printf(b, "\"");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            json_lite_buf_printf(b, "\\%c", *p);
        else if (*p == '\n')
            json_lite_buf_printf(b, "\\n");
        else if (*p < 0x20)
            json_lite_buf_printf(b, "\\u%04x", *p);
        else
            json_lite_buf_printf(b, "%c", *p);
    }
    json_lite_buf_printf(b, "\"");
}

void json_lite_buf_num(struct json_lite_buf *b, double v)
{
    if (!isfinite(v))
        json_lite_buf_printf(b, "null");
    else if (v == floor(v) && fabs(v) < 1e15)
        json_lite_buf_printf(b, "%.0f", v);
    else
        json_lite_buf_printf(b, "%.6g", v);
}

char *json_lite_buf_take(struct json_lite_buf *b)
{
    if (b->oom || reserve(b, 0) < 0) {
        free(b->s);
        b->s = NULL;
        return NULL;
    }
    b->s[b->len] = 0;
    char *s = b->s;
    json_lite_buf_init(b);
    return s;
}

void json_lite_fputs(FILE *f, const char *s)
{
    struct json_lite_buf b;
    json_lite_buf_init(&b);
    json_lite_buf_str(&b, s);
    char *t = json_lite_buf_take(&b);
    fputs(t ? t : "\"\"", f);
    free(t);
}

/* --- parser ------------------------------------------------------------------------------ */

struct parser {
    const char *text, *p;
    char *err;
    size_t errlen;
};

static int perr(struct parser *ps, const char *what)
{
    snprintf(ps->err, ps->errlen, "json: offset %zu: %s", (size_t)(ps->p - ps->text), what);
    return -1;
}

static void ws(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int put_utf8(char *o, size_t *n, unsigned cp)
{
    if (cp < 0x80) {
        o[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        o[(*n)++] = (char)(0xc0 | (cp >> 6));
        o[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else {
        o[(*n)++] = (char)(0xe0 | (cp >> 12));
        o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[(*n)++] = (char)(0x80 | (cp & 0x3f));
    }
    return 0;
}

static int parse_string(struct parser *ps, char **out)
{
    const char *start = ++ps->p;   /* after the quote */
    size_t max = 0;
    while (start[max] && start[max] != '"')
        max += start[max] == '\\' && start[max + 1] ? 2 : 1;
    if (!start[max])
        return perr(ps, "unterminated string");
    char *o = malloc(max * 3 + 1);
    size_t n = 0;
    if (!o)
        return perr(ps, "out of memory");
    while (*ps->p != '"') {
        char c = *ps->p++;
        if (c != '\\') {
            o[n++] = c;
            continue;
        }
        c = *ps->p++;
        const char *map = "\"\"\\\\//b\bf\fn\nr\rt\t";
        const char *m = strchr(map, c);
        if (c == 'u') {
            unsigned cp;
            if (sscanf(ps->p, "%4x", &cp) != 1) {
                free(o);
                return perr(ps, "bad \\u escape");
            }
            ps->p += 4;
            put_utf8(o, &n, cp);
        } else if (m && (m - map) % 2 == 0) {
            o[n++] = m[1];
        } else {
            free(o);
            return perr(ps, "bad escape");
        }
    }
    ps->p++;
    o[n] = 0;
    *out = o;
    return 0;
}

static int parse_value(struct parser *ps, struct json_lite_value *v, int depth);

static int parse_container(struct parser *ps, struct json_lite_value *v, int depth, int object)
{
    char close = object ? '}' : ']';
    v->kind = object ? JSON_LITE_OBJECT : JSON_LITE_ARRAY;
    ps->p++;
    ws(ps);
    if (*ps->p == close) {
        ps->p++;
        return 0;
    }
    for (;;) {
        struct json_lite_value *items = realloc(v->items, (v->count + 1) * sizeof *items);
        char **keys = object ? realloc(v->keys, (v->count + 1) * sizeof *keys) : v->keys;
        if (items)
            v->items = items;
        if (keys)
            v->keys = keys;
        if (!items || (object && !keys))
            return perr(ps, "out of memory");
        memset(&v->items[v->count], 0, sizeof *items);
        if (object) {
            ws(ps);
            v->keys[v->count] = NULL;
            if (*ps->p != '"' || parse_string(ps, &v->keys[v->count]) < 0) {
                v->count++;
                return ps->err[0] ? -1 : perr(ps, "expected a key string");
            }
            ws(ps);
            if (*ps->p++ != ':') {
                v->count++;
                return perr(ps, "expected ':'");
            }
        }
        int rc = parse_value(ps, &v->items[v->count++], depth + 1);
        if (rc < 0)
            return -1;
        ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p++ == close)
            return 0;
        return perr(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(struct parser *ps, struct json_lite_value *v, int depth)
{
    memset(v, 0, sizeof *v);
    if (depth > 32)
        return perr(ps, "nested too deeply");
    ws(ps);
    char c = *ps->p;
    if (c == '{' || c == '[')
        return parse_container(ps, v, depth, c == '{');
    if (c == '"') {
        v->kind = JSON_LITE_STRING;
        return parse_string(ps, &v->str);
    }
    static const struct { const char *w; enum json_lite_kind k; double n; } words[] = {
        { "null", JSON_LITE_NULL, 0 }, { "true", JSON_LITE_BOOL, 1 }, { "false", JSON_LITE_BOOL, 0 },
    };
    for (size_t i = 0; i < 3; i++)
        if (!strncmp(ps->p, words[i].w, strlen(words[i].w))) {
            v->kind = words[i].k;
            v->num = words[i].n;
            ps->p += strlen(words[i].w);
            return 0;
        }
    char *end;
    v->num = strtod(ps->p, &end);
    if (end == ps->p || (c != '-' && !isdigit((unsigned char)c)))
        return perr(ps, "expected a value");
    v->kind = JSON_LITE_NUMBER;
    ps->p = end;
    return 0;
}

int json_lite_parse(const char *text, struct json_lite_value *out, char *err, size_t errlen)
{
    struct parser ps = { text, text, err, errlen };
    err[0] = 0;
    if (parse_value(&ps, out, 0) < 0)
        goto fail;
    ws(&ps);
    if (*ps.p) {
        perr(&ps, "unexpected text after the value");
        goto fail;
    }
    return 0;
fail:
    json_lite_free(out);
    return -1;
}

void json_lite_free(struct json_lite_value *v)
{
    for (size_t i = 0; i < v->count; i++) {
        json_lite_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

const struct json_lite_value *json_lite_get(const struct json_lite_value *obj, const char *key)
{
    if (!obj || obj->kind != JSON_LITE_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (obj->keys[i] && !strcmp(obj->keys[i], key))
            return &obj->items[i];
    return NULL;
}
