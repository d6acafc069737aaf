/* ydoc.h -- YAML documents as plain trees that remember where every node came from.
 *
 * Plans and workloads are loaded with libyaml into this tree, then validated by typed getters
 * that report every problem as "file:line:col: what is wrong" (1-based, as editors count).
 * Anchors/aliases and multi-document streams are refused: configuration should read as written.
 * A document owns all its nodes; free it with ydoc_free(). Not thread-safe per document. */
#ifndef SESSMAX_YDOC_H
#define SESSMAX_YDOC_H

#include <stddef.h>
#include <stdint.h>

enum ydoc_kind { YDOC_SCALAR, YDOC_MAP, YDOC_SEQ };

struct ydoc_node {
    enum ydoc_kind kind;
    int line, col;               /* 1-based position of the node's first character */
    char *value;                 /* scalar text (NUL-terminated); NULL for maps and seqs */
    int quoted;                  /* scalar was written in quotes: never a number or bool */
    size_t n;                    /* number of items (seq) or pairs (map) */
    size_t cap;                  /* allocated room in keys/items (the loader's business) */
    struct ydoc_node **keys;     /* map: key scalars (with their own positions) */
    struct ydoc_node **items;    /* seq: items; map: values, parallel to keys */
};

struct ydoc {
    char *file;                  /* name used in messages */
    struct ydoc_node *root;      /* NULL for an empty document */
};

#define YDOC_ERR_LEN 512

/* Loads a file. Returns NULL and fills err ("file:line:col: ...") on I/O or syntax errors. */
struct ydoc *ydoc_load_file(const char *path, char *err, size_t errlen);
/* Loads from memory; `name` is used in messages. */
struct ydoc *ydoc_load_string(const char *name, const char *text, size_t len, char *err, size_t errlen);
void ydoc_free(struct ydoc *doc);

/* Formats "file:line:col: <message>" into err and returns -1 (for `return ydoc_error(...)`).
 * Control characters (a quoted key's newline) become '?': an error is always one line. */
int ydoc_error(const struct ydoc *doc, const struct ydoc_node *at, char *err, size_t errlen,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Map lookup; NULL when absent or when `map` is not a map. */
const struct ydoc_node *ydoc_get(const struct ydoc_node *map, const char *key);

/* Fails on a node that is not a map, or on a key not in `allowed` (NULL-terminated), naming the
 * key's position and the closest allowed key. */
int ydoc_check_keys(const struct ydoc *doc, const struct ydoc_node *map, const char *const *allowed,
                    const char *what, char *err, size_t errlen);

/* Typed getters. Each returns 0 on success, -1 with err filled on a wrong type or range. */
int ydoc_expect(const struct ydoc *doc, const struct ydoc_node *n, enum ydoc_kind kind,
                const char *what, char *err, size_t errlen);
int ydoc_str(const struct ydoc *doc, const struct ydoc_node *n, const char **out, char *err, size_t errlen);
int ydoc_int(const struct ydoc *doc, const struct ydoc_node *n, long long min, long long max,
             long long *out, char *err, size_t errlen);
int ydoc_double(const struct ydoc *doc, const struct ydoc_node *n, double min, double max,
                double *out, char *err, size_t errlen);
int ydoc_bool(const struct ydoc *doc, const struct ydoc_node *n, int *out, char *err, size_t errlen);
/* Durations need a unit: "250ms", "1.5s", "2m", "1h", "500us". */
int ydoc_duration_us(const struct ydoc *doc, const struct ydoc_node *n, uint64_t *out,
                     char *err, size_t errlen);

/* The same duration syntax for CLI arguments; returns -1 on bad text. */
int ydoc_parse_duration_us(const char *text, uint64_t *out);

#endif
