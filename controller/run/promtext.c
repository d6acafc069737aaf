/* promtext.c -- the Prometheus text format, line by line (promtext.h). Each line is parsed
 * between two pointers; nothing reads past `end`, every copy is bounded by its field's size. */
#include "controller/run/promtext.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cur {
    const char *p, *end;
};

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static int is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

static void skip_blanks(struct cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
}

/* A metric (colons allowed) or label name into out[PROMTEXT_NAME_MAX]; -1 when none or too long. */
static int name(struct cur *c, char *out, int colons)
{
    size_t n = 0;
    if (c->p >= c->end || !is_name_start(*c->p) || (!colons && *c->p == ':'))
        return -1;
    while (c->p < c->end && is_name_char(*c->p) && (colons || *c->p != ':')) {
        if (n + 1 >= PROMTEXT_NAME_MAX)
            return -1;
        out[n++] = *c->p++;
    }
    out[n] = 0;
    return 0;
}

/* "VALUE" with \\, \" and \n unescaped into out[PROMTEXT_VALUE_MAX]. */
static int quoted(struct cur *c, char *out)
{
    size_t n = 0;
    if (c->p >= c->end || *c->p != '"')
        return -1;
    c->p++;
    while (c->p < c->end && *c->p != '"') {
        char ch = *c->p++;
        if (ch == '\\') {
            if (c->p >= c->end)
                return -1;
            ch = *c->p++;
            if (ch == 'n')
                ch = '\n';
            else if (ch != '\\' && ch != '"')
                return -1;
        } else if (ch == '\n' || ch == '\0') {
            return -1;
        }
        if (n + 1 >= PROMTEXT_VALUE_MAX)
            return -1;
        out[n++] = ch;
    }
    if (c->p >= c->end)
        return -1;
    c->p++;
    out[n] = 0;
    return 0;
}

static int labels(struct cur *c, struct promtext_sample *s)
{
    c->p++;   /* '{' */
    for (;;) {
        skip_blanks(c);
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            return 0;
        }
        if (s->nlabels >= PROMTEXT_LABELS_MAX)
            return -1;
        struct promtext_label *l = &s->labels[s->nlabels];
        if (name(c, l->name, 0) < 0)
            return -1;
        skip_blanks(c);
        if (c->p >= c->end || *c->p != '=')
            return -1;
        c->p++;
        skip_blanks(c);
        if (quoted(c, l->value) < 0)
            return -1;
        s->nlabels++;
        skip_blanks(c);
        if (c->p < c->end && *c->p == ',')
            c->p++;
        else if (c->p >= c->end || *c->p != '}')
            return -1;
    }
}

/* The next blank-delimited token, copied into buf[len]; -1 when empty or too long. */
static int token(struct cur *c, char *buf, size_t len)
{
    size_t n = 0;
    while (c->p < c->end && *c->p != ' ' && *c->p != '\t') {
        if (n + 1 >= len)
            return -1;
        buf[n++] = *c->p++;
    }
    buf[n] = 0;
    return n ? 0 : -1;
}

static int number(const char *t, double *v)
{
    if (!strcmp(t, "+Inf") || !strcmp(t, "Inf")) {
        *v = INFINITY;
        return 0;
    }
    if (!strcmp(t, "-Inf")) {
        *v = -INFINITY;
        return 0;
    }
    if (!strcmp(t, "NaN")) {
        *v = NAN;
        return 0;
    }
    for (const char *q = t; *q; q++)   /* decimal only: no "inf", "nan(...)" or hex spellings */
        if (!strchr("0123456789+-.eE", *q))
            return -1;
    char *endp;
    errno = 0;
    *v = strtod(t, &endp);
    return *endp || endp == t ? -1 : 0;
}

static int timestamp(const char *t, int64_t *ms)
{
    const char *q = t + (*t == '-');
    if (!*q || strspn(q, "0123456789") != strlen(q) || strlen(q) > 18)
        return -1;
    *ms = strtoll(t, NULL, 10);
    return 0;
}

/* One sample line (no newline in [p, end)); 0 with *s, -1 when malformed. */
static int sample_line(const char *p, const char *end, struct promtext_sample *s)
{
    struct cur c = { p, end };
    char tok[64];
    s->nlabels = 0;
    s->has_ts = 0;
    if (name(&c, s->name, 1) < 0)
        return -1;
    skip_blanks(&c);
    if (c.p < c.end && *c.p == '{' && labels(&c, s) < 0)
        return -1;
    skip_blanks(&c);
    if (token(&c, tok, sizeof tok) < 0 || number(tok, &s->value) < 0)
        return -1;
    skip_blanks(&c);
    if (c.p < c.end) {
        if (token(&c, tok, sizeof tok) < 0 || timestamp(tok, &s->ts_ms) < 0)
            return -1;
        s->has_ts = 1;
        skip_blanks(&c);
    }
    return c.p == c.end ? 0 : -1;
}

int promtext_parse(const char *text, size_t len, promtext_cb cb, void *ctx, struct promtext_stats *stats)
{
    struct promtext_stats st = { 0 };
    struct promtext_sample s;
    const char *p = text, *end = text + len;
    int rc = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        st.lines++;
        if (le > p && le[-1] == '\r')
            le--;
        struct cur c = { p, le };
        skip_blanks(&c);
        if (c.p < le && *c.p != '#') {
            if (sample_line(c.p, le, &s) < 0) {
                st.malformed++;
                if (!st.first_bad_line)
                    st.first_bad_line = st.lines;
            } else {
                st.samples++;
                if (cb(ctx, &s) != 0) {
                    rc = 1;
                    break;
                }
            }
        }
        p = nl ? nl + 1 : end;
    }
    if (stats)
        *stats = st;
    return rc;
}

const char *promtext_label(const struct promtext_sample *s, const char *label)
{
    for (size_t i = 0; i < s->nlabels; i++)
        if (!strcmp(s->labels[i].name, label))
            return s->labels[i].value;
    return NULL;
}
