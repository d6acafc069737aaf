/* ydoc.c -- libyaml events folded into a position-keeping tree, plus typed, positioned getters.
 *
 * libyaml reports 0-based marks; we store 1-based line and column because that is what editors
 * and compilers print. Every allocation hangs off the document so ydoc_free() is one walk. */
#include "common/ydoc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/file_read.h"

struct builder {
    yaml_parser_t parser;
    struct ydoc *doc;
    char *err;
    size_t errlen;
};

static void node_free(struct ydoc_node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++) {
        if (n->keys)
            node_free(n->keys[i]);
        node_free(n->items[i]);
    }
    free(n->keys);
    free(n->items);
    free(n->value);
    free(n);
}

void ydoc_free(struct ydoc *doc)
{
    if (!doc)
        return;
    node_free(doc->root);
    free(doc->file);
    free(doc);
}

/* Appends a pair (map) or an item (seq), doubling the arrays so a long map costs O(n). */
static int push(struct ydoc_node *parent, struct ydoc_node *key, struct ydoc_node *item)
{
    if (parent->n == parent->cap) {
        size_t cap = parent->cap ? parent->cap * 2 : 4;
        struct ydoc_node **items = realloc(parent->items, cap * sizeof *items);
        if (!items)
            return -1;
        parent->items = items;
        if (parent->kind == YDOC_MAP) {
            struct ydoc_node **keys = realloc(parent->keys, cap * sizeof *keys);
            if (!keys)
                return -1;
            parent->keys = keys;
        }
        parent->cap = cap;
    }
    if (parent->kind == YDOC_MAP)
        parent->keys[parent->n] = key;
    parent->items[parent->n++] = item;
    return 0;
}

/* The keys of the map being built, for the duplicate check: a linear scan while the map is
 * small, then an open-addressing hash set of key indices, so a map of n keys costs O(n). */
#define KEYSET_LINEAR 16

struct keyset {
    size_t *slot;                /* 1 + key index; 0 = empty */
    size_t cap;                  /* power of two, at least twice the keys held */
};

static uint64_t key_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* Slot of `key` in the set: where it is, or the empty slot where it would go. */
static size_t *keyset_find(const struct keyset *ks, const struct ydoc_node *map, const char *key)
{
    size_t i = (size_t)key_hash(key) & (ks->cap - 1);
    while (ks->slot[i] && strcmp(map->keys[ks->slot[i] - 1]->value, key) != 0)
        i = (i + 1) & (ks->cap - 1);
    return &ks->slot[i];
}

/* Makes room for map->n + 1 keys, rehashing the map's keys when the table grows. */
static int keyset_reserve(struct keyset *ks, const struct ydoc_node *map)
{
    if (ks->cap >= 2 * (map->n + 1))
        return 0;
    size_t cap = ks->cap ? ks->cap * 2 : 4 * KEYSET_LINEAR;
    size_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    free(ks->slot);
    ks->slot = slot;
    ks->cap = cap;
    for (size_t i = 0; i < map->n; i++)
        *keyset_find(ks, map, map->keys[i]->value) = i + 1;
    return 0;
}

/* 1 when `key` is already in the map, 0 when not (it is then recorded as index map->n), -1 when
 * memory ran out. */
static int keyset_check(struct keyset *ks, const struct ydoc_node *map, const char *key)
{
    if (map->n < KEYSET_LINEAR)
        return ydoc_get(map, key) != NULL;
    if (keyset_reserve(ks, map) != 0)
        return -1;
    size_t *slot = keyset_find(ks, map, key);
    if (*slot)
        return 1;
    *slot = map->n + 1;
    return 0;
}

/* Messages quote the file's own text (keys, values), which may hold newlines or other control
 * characters: each becomes '?', so an error stays one line and cannot forge another. */
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

static int build_error(struct builder *b, const yaml_mark_t *mark, const char *msg)
{
    snprintf(b->err, b->errlen, "%s:%zu:%zu: %s", b->doc->file, mark->line + 1, mark->column + 1, msg);
    one_line(b->err);
    return -1;
}

static struct ydoc_node *new_node(enum ydoc_kind kind, const yaml_mark_t *mark)
{
    struct ydoc_node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->line = (int)mark->line + 1;
        n->col = (int)mark->column + 1;
    }
    return n;
}

/* Reads one node starting with `ev` (already fetched). Recursion depth is bounded so a hostile
 * file cannot exhaust the stack. */
static int build_node(struct builder *b, yaml_event_t *ev, struct ydoc_node **out, int depth)
{
    if (depth > 64)
        return build_error(b, &ev->start_mark, "nesting deeper than 64 levels");
    switch (ev->type) {
    case YAML_ALIAS_EVENT:
        return build_error(b, &ev->start_mark, "YAML aliases (*name) are not supported; write the value out");
    case YAML_SCALAR_EVENT: {
        if (ev->data.scalar.anchor)
            return build_error(b, &ev->start_mark, "YAML anchors (&name) are not supported");
        struct ydoc_node *n = new_node(YDOC_SCALAR, &ev->start_mark);
        if (!n || !(n->value = strndup((const char *)ev->data.scalar.value, ev->data.scalar.length))) {
            node_free(n);
            return build_error(b, &ev->start_mark, "out of memory");
        }
        n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE ||
                    ev->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                    ev->data.scalar.style == YAML_FOLDED_SCALAR_STYLE;
        *out = n;
        return 0;
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        int is_map = ev->type == YAML_MAPPING_START_EVENT;
        if ((is_map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor))
            return build_error(b, &ev->start_mark, "YAML anchors (&name) are not supported");
        struct ydoc_node *n = new_node(is_map ? YDOC_MAP : YDOC_SEQ, &ev->start_mark);
        if (!n)
            return build_error(b, &ev->start_mark, "out of memory");
        struct keyset ks = { NULL, 0 };
        for (;;) {
            yaml_event_t child;
            if (!yaml_parser_parse(&b->parser, &child)) {
                node_free(n);
                free(ks.slot);
                return build_error(b, &b->parser.problem_mark, b->parser.problem ? b->parser.problem : "syntax error");
            }
            if (child.type == YAML_SEQUENCE_END_EVENT || child.type == YAML_MAPPING_END_EVENT) {
                yaml_event_delete(&child);
                break;
            }
            struct ydoc_node *key = NULL, *val = NULL;
            int rc = build_node(b, &child, is_map ? &key : &val, depth + 1);
            yaml_mark_t key_mark = child.start_mark;
            yaml_event_delete(&child);
            int dup = 0;
            if (rc == 0 && is_map) {
                if (key->kind != YDOC_SCALAR) {
                    rc = build_error(b, &key_mark, "map keys must be plain scalars");
                } else if ((dup = keyset_check(&ks, n, key->value)) < 0) {
                    rc = build_error(b, &key_mark, "out of memory");
                } else if (dup) {
                    char msg[256];
                    snprintf(msg, sizeof msg, "duplicate key '%.100s'", key->value);
                    rc = build_error(b, &key_mark, msg);
                } else {
                    yaml_event_t vev;
                    if (!yaml_parser_parse(&b->parser, &vev)) {
                        rc = build_error(b, &b->parser.problem_mark, b->parser.problem ? b->parser.problem : "syntax error");
                    } else {
                        rc = build_node(b, &vev, &val, depth + 1);
                        yaml_event_delete(&vev);
                    }
                }
            }
            if (rc == 0 && push(n, key, val) != 0)
                rc = build_error(b, &key_mark, "out of memory");
            if (rc != 0) {
                node_free(key);
                node_free(val);
                node_free(n);
                free(ks.slot);
                return -1;
            }
        }
        free(ks.slot);
        *out = n;
        return 0;
    }
    default:
        return build_error(b, &ev->start_mark, "unexpected YAML event");
    }
}

static struct ydoc *load(struct builder *b)
{
    yaml_event_t ev;
    int documents = 0;
    for (;;) {
        if (!yaml_parser_parse(&b->parser, &ev)) {
            build_error(b, &b->parser.problem_mark, b->parser.problem ? b->parser.problem : "syntax error");
            goto fail;
        }
        yaml_event_type_t type = ev.type;
        if (type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (type == YAML_DOCUMENT_START_EVENT && ++documents > 1) {
            build_error(b, &ev.start_mark, "only one YAML document per file");
            yaml_event_delete(&ev);
            goto fail;
        }
        int rc = 0;
        if (type == YAML_SCALAR_EVENT || type == YAML_SEQUENCE_START_EVENT ||
            type == YAML_MAPPING_START_EVENT || type == YAML_ALIAS_EVENT)
            rc = build_node(b, &ev, &b->doc->root, 0);
        yaml_event_delete(&ev);
        if (rc != 0)
            goto fail;
    }
    yaml_parser_delete(&b->parser);
    return b->doc;
fail:
    yaml_parser_delete(&b->parser);
    ydoc_free(b->doc);
    return NULL;
}

struct ydoc *ydoc_load_string(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    struct builder b = { .err = err, .errlen = errlen };
    b.doc = calloc(1, sizeof *b.doc);
    if (!b.doc || !(b.doc->file = strdup(name))) {
        free(b.doc);
        snprintf(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    yaml_parser_initialize(&b.parser);
    yaml_parser_set_input_string(&b.parser, (const unsigned char *)text, len);
    return load(&b);
}

struct ydoc *ydoc_load_file(const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = file_read_all(path, FILE_READ_MAX_DOCUMENT, &len, err, errlen);
    if (!text)
        return NULL;
    struct ydoc *doc = ydoc_load_string(path, text, len, err, errlen);
    free(text);
    return doc;
}

int ydoc_error(const struct ydoc *doc, const struct ydoc_node *at, char *err, size_t errlen, const char *fmt, ...)
{
    int n = at ? snprintf(err, errlen, "%s:%d:%d: ", doc->file, at->line, at->col)
               : snprintf(err, errlen, "%s: ", doc->file);
    if (n >= 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    if (errlen)
        one_line(err);
    return -1;
}

const struct ydoc_node *ydoc_get(const struct ydoc_node *map, const char *key)
{
    if (!map || map->kind != YDOC_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->keys[i]->value, key) == 0)
            return map->items[i];
    return NULL;
}

static const char *kind_name(enum ydoc_kind k)
{
    return k == YDOC_MAP ? "a map" : k == YDOC_SEQ ? "a list" : "a scalar";
}

int ydoc_expect(const struct ydoc *doc, const struct ydoc_node *n, enum ydoc_kind kind, const char *what,
                char *err, size_t errlen)
{
    if (!n)
        return ydoc_error(doc, NULL, err, errlen, "%s is missing", what);
    if (n->kind != kind)
        return ydoc_error(doc, n, err, errlen, "%s must be %s, not %s", what, kind_name(kind), kind_name(n->kind));
    return 0;
}

/* Levenshtein distance, capped: enough to suggest "timeout" for "timout". */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = c < del ? (c < ins ? c : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

int ydoc_check_keys(const struct ydoc *doc, const struct ydoc_node *map, const char *const *allowed,
                    const char *what, char *err, size_t errlen)
{
    if (ydoc_expect(doc, map, YDOC_MAP, what, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < map->n; i++) {
        const char *key = map->keys[i]->value;
        const char *best = NULL;
        size_t best_d = 99;
        int known = 0;
        for (const char *const *a = allowed; *a; a++) {
            if (strcmp(*a, key) == 0) { known = 1; break; }
            size_t d = edit_distance(*a, key);
            if (d < best_d) { best_d = d; best = *a; }
        }
        if (known)
            continue;
        if (best && best_d <= 2)
            return ydoc_error(doc, map->keys[i], err, errlen, "unknown key '%s' in %s (did you mean '%s'?)", key, what, best);
        return ydoc_error(doc, map->keys[i], err, errlen, "unknown key '%s' in %s", key, what);
    }
    return 0;
}

int ydoc_str(const struct ydoc *doc, const struct ydoc_node *n, const char **out, char *err, size_t errlen)
{
    if (!n || n->kind != YDOC_SCALAR)
        return ydoc_error(doc, n, err, errlen, "expected a text value, found %s", n ? kind_name(n->kind) : "nothing");
    *out = n->value;
    return 0;
}

int ydoc_int(const struct ydoc *doc, const struct ydoc_node *n, long long min, long long max, long long *out,
             char *err, size_t errlen)
{
    if (!n || n->kind != YDOC_SCALAR || n->quoted)
        return ydoc_error(doc, n, err, errlen, "expected an integer, found %s", n ? (n->quoted ? "quoted text" : kind_name(n->kind)) : "nothing");
    char *end;
    errno = 0;
    long long v = strtoll(n->value, &end, 10);
    if (errno || end == n->value || *end)
        return ydoc_error(doc, n, err, errlen, "expected an integer, found '%s'", n->value);
    if (v < min || v > max)
        return ydoc_error(doc, n, err, errlen, "%lld is out of range [%lld, %lld]", v, min, max);
    *out = v;
    return 0;
}

int ydoc_double(const struct ydoc *doc, const struct ydoc_node *n, double min, double max, double *out,
                char *err, size_t errlen)
{
    if (!n || n->kind != YDOC_SCALAR || n->quoted)
        return ydoc_error(doc, n, err, errlen, "expected a number, found %s", n ? (n->quoted ? "quoted text" : kind_name(n->kind)) : "nothing");
    char *end;
    errno = 0;
    double v = strtod(n->value, &end);
    if (errno || end == n->value || *end || !isfinite(v))
        return ydoc_error(doc, n, err, errlen, "expected a number, found '%s'", n->value);
    if (v < min || v > max)
        return ydoc_error(doc, n, err, errlen, "%g is out of range [%g, %g]", v, min, max);
    *out = v;
    return 0;
}

int ydoc_bool(const struct ydoc *doc, const struct ydoc_node *n, int *out, char *err, size_t errlen)
{
    if (n && n->kind == YDOC_SCALAR && !n->quoted) {
        if (!strcmp(n->value, "true") || !strcmp(n->value, "yes") || !strcmp(n->value, "on")) { *out = 1; return 0; }
        if (!strcmp(n->value, "false") || !strcmp(n->value, "no") || !strcmp(n->value, "off")) { *out = 0; return 0; }
    }
    return ydoc_error(doc, n, err, errlen, "expected true or false, found '%s'", n && n->value ? n->value : "?");
}

int ydoc_parse_duration_us(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || !isfinite(v) || v < 0)
        return -1;
    double mult;
    if (!strcmp(end, "us")) mult = 1;
    else if (!strcmp(end, "ms")) mult = 1e3;
    else if (!strcmp(end, "s")) mult = 1e6;
    else if (!strcmp(end, "m") || !strcmp(end, "min")) mult = 60e6;
    else if (!strcmp(end, "h")) mult = 3600e6;
    else return -1;
    double us = v * mult;
    if (us > 1e15)
        return -1;
    *out = (uint64_t)llround(us);
    return 0;
}

int ydoc_duration_us(const struct ydoc *doc, const struct ydoc_node *n, uint64_t *out, char *err, size_t errlen)
{
    if (!n || n->kind != YDOC_SCALAR || ydoc_parse_duration_us(n->value, out) != 0)
        return ydoc_error(doc, n, err, errlen, "expected a duration with a unit (250ms, 2s, 5m), found '%s'",
                          n && n->value ? n->value : "?");
    return 0;
}
