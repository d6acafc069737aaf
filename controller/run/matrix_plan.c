/* matrix_plan.c -- a cell's plan text: blank the lines of the entries the cell sets, append the
 * cell's entries. */
#include "controller/run/matrix_plan.h"

#include "common/ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OVERRIDES 8

struct override {
    const char *key;
    char value[2 * MATRIX_VALUE_LEN + 1024];
};

/* A scalar as YAML: plain when it was plain and is a plain word, else double-quoted. */
static void put_scalar(FILE *o, const struct ydoc_node *n)
{
    const char *v = n->value;
    int plain = !n->quoted && v[0] && strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                                          strlen(v);
    if (plain) {
        fputs(v, o);
        return;
    }
    fputc('"', o);
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            fprintf(o, "\\%c", *v);
        else if ((unsigned char)*v < 0x20)
            fprintf(o, "\\x%02x", (unsigned char)*v);
        else
            fputc(*v, o);
    }
    fputc('"', o);
}

/* Any node in flow style. */
static void put_node(FILE *o, const struct ydoc_node *n)
{
    if (n->kind == YDOC_SCALAR) {
        put_scalar(o, n);
        return;
    }
    fputs(n->kind == YDOC_MAP ? "{" : "[", o);
    for (size_t i = 0; i < n->n; i++) {
        if (i)
            fputs(", ", o);
        if (n->kind == YDOC_MAP) {
            put_scalar(o, n->keys[i]);
            fputs(": ", o);
        }
        put_node(o, n->items[i]);
    }
    fputs(n->kind == YDOC_MAP ? "}" : "]", o);
}

/* The plan's target with host (and port, when given) replaced, in flow style. */
static void target_value(const struct ydoc_node *target, const char *host, unsigned port, char *buf, size_t len)
{
    FILE *o = fmemopen(buf, len, "w");
    if (!o) {
        buf[0] = 0;
        return;
    }
    fprintf(o, "{host: \"%s\"", host);
    if (port)
        fprintf(o, ", port: %u", port);
    for (size_t i = 0; target && target->kind == YDOC_MAP && i < target->n; i++) {
        const char *k = target->keys[i]->value;
        if (!strcmp(k, "host") || (port && !strcmp(k, "port")))
            continue;
        fputs(", ", o);
        put_scalar(o, target->keys[i]);
        fputs(": ", o);
        put_node(o, target->items[i]);
    }
    fputs("}", o);
    fclose(o);
}

/* The entries the cell sets, in key order. */
static size_t overrides(const struct ydoc_node *root, const struct matrix_spec *s, const struct matrix_cell *c,
                        struct override *ov)
{
    size_t n = 0;
    for (int k = 0; k < MATRIX_KEY__COUNT; k++) {
        const char *v = matrix_cell_value(s, c, (enum matrix_key)k);
        if (!v)
            continue;
        ov[n].key = matrix_key_name((enum matrix_key)k);
        if (k == MATRIX_PLATFORM) {
            char host[MATRIX_VALUE_LEN];
            uint16_t port;
            matrix_platform_split(v, ov[n].value, sizeof ov[n].value, host, sizeof host, &port);
            if (host[0]) {
                ov[++n].key = "target";
                target_value(ydoc_get(root, "target"), host, port, ov[n].value, sizeof ov[n].value);
            }
        } else {   /* a client is builtin, a preset or an entry of the plan's clients: (plan_client.h) */
            snprintf(ov[n].value, sizeof ov[n].value, "%s", v);
        }
        n++;
    }
    return n;
}

/* Marks the lines (1-based) of every top-level entry named in ov for blanking. */
static int blank_lines(const struct ydoc *doc, const struct override *ov, size_t nov, char *blank, int nlines,
                       char *err, size_t errlen)
{
    const struct ydoc_node *root = doc->root;
    if (!root || root->kind != YDOC_MAP)
        return ydoc_error(doc, root, err, errlen, "a plan is a mapping of keys");
    for (size_t i = 0; i < root->n; i++) {
        const struct ydoc_node *k = root->keys[i];
        if ((i == 0 && (root->line != k->line || root->col != k->col)) ||
            (i > 0 && k->line <= root->keys[i - 1]->line))
            return ydoc_error(doc, k, err, errlen, "a matrix needs the plan's top level in block style "
                              "(one 'key: value' per line)");
        for (size_t j = 0; j < nov; j++) {
            if (strcmp(k->value, ov[j].key) != 0)
                continue;
            int end = i + 1 < root->n ? root->keys[i + 1]->line : nlines + 1;
            for (int l = k->line; l < end && l <= nlines; l++)
                blank[l] = 1;
        }
    }
    return 0;
}

char *matrix_plan_text(const char *path, const char *text, size_t len, const struct matrix_spec *s,
                       const struct matrix_cell *c, char *err, size_t errlen)
{
    struct ydoc *doc = ydoc_load_string(path, text, len, err, errlen);
    if (!doc)
        return NULL;
    int nlines = 1;
    for (size_t i = 0; i < len; i++)
        nlines += text[i] == '\n' && i + 1 < len;
    struct override ov[OVERRIDES];
    size_t nov = doc->root && doc->root->kind == YDOC_MAP ? overrides(doc->root, s, c, ov) : 0;
    char *blank = calloc((size_t)nlines + 2, 1), *out = NULL;
    size_t outlen = 0;
    FILE *o = blank ? open_memstream(&out, &outlen) : NULL;
    int rc = o ? blank_lines(doc, ov, nov, blank, nlines, err, errlen) : -1;
    if (!o)
        snprintf(err, errlen, "%s: out of memory", path);
    for (size_t i = 0, line = 1; rc == 0 && i < len; line++) {
        size_t l = strcspn(text + i, "\n");
        if (!blank[line])
            fwrite(text + i, 1, l, o);
        fputc('\n', o);
        i += l + (i + l < len);
    }
    char tag[MATRIX_TAG_LEN];
    matrix_cell_tag(s, c, tag, sizeof tag);
    if (rc == 0) {
        fprintf(o, "# sessmax matrix cell %s\n", tag);
        for (size_t j = 0; j < nov; j++)
            fprintf(o, "%s: %s\n", ov[j].key, ov[j].value);
    }
    if (o && (fclose(o) != 0 || rc != 0)) {
        free(out);
        out = NULL;
    }
    free(blank);
    ydoc_free(doc);
    return out;
}
