/* matrix_spec.h -- what `sessmax matrix` runs: the --vary axes (a plan key and its values), the
 * cells of their product in a fixed order, and the tag that names a cell in the results store.
 *
 * Keys: platform, transport, client, network, sessions. A platform value is a label, optionally
 * with where that platform lives: `LABEL`, `LABEL@HOST` or `LABEL@HOST:PORT` (the cell's plan
 * then points its target there). Values are plain words ([A-Za-z0-9._-], and for a platform's
 * target also ':', '[', ']'): they never need quoting, and a tag parses back unambiguously.
 *
 * Cells are numbered like an odometer: the last --vary changes fastest. A tag lists the varied
 * keys in the fixed key order above ("platform=ws2022,network=wan-100ms"), whatever order the
 * --vary options came in, so the same cell always has the same tag. Pure; no I/O. */
#ifndef SESSMAX_MATRIX_SPEC_H
#define SESSMAX_MATRIX_SPEC_H

#include <stddef.h>
#include <stdint.h>

enum matrix_key { MATRIX_PLATFORM, MATRIX_TRANSPORT, MATRIX_CLIENT, MATRIX_NETWORK, MATRIX_SESSIONS, MATRIX_KEY__COUNT };

#define MATRIX_MAX_VALUES 16
#define MATRIX_VALUE_LEN 128
#define MATRIX_TAG_LEN (MATRIX_KEY__COUNT * (MATRIX_VALUE_LEN + 16))
#define MATRIX_MAX_REPEAT 100

struct matrix_axis {
    enum matrix_key key;
    size_t n;
    char values[MATRIX_MAX_VALUES][MATRIX_VALUE_LEN];
};

struct matrix_spec {
    struct matrix_axis axes[MATRIX_KEY__COUNT];   /* in --vary order */
    size_t naxes;
    unsigned repeat;                              /* runs per cell; default 1 */
};

/* One cell: for each axis (in --vary order) the index of its value. */
struct matrix_cell {
    size_t index;                                 /* 0 .. matrix_spec_cells() - 1 */
    size_t value[MATRIX_KEY__COUNT];
};

/* A tag parsed back: the value of every key it names, NULL for the others. Points into text. */
struct matrix_tag {
    char text[MATRIX_TAG_LEN];
    const char *value[MATRIX_KEY__COUNT];
};

void matrix_spec_init(struct matrix_spec *s);
/* Adds "KEY=V1,V2,...". Returns 0, or -1 with a one-line err (unknown key with the list of keys,
 * a key given twice, an empty, repeated or malformed value, too many values). */
int matrix_spec_add_vary(struct matrix_spec *s, const char *arg, char *err, size_t errlen);
/* Number of cells (product of the axes' sizes; 1 with no axis). */
size_t matrix_spec_cells(const struct matrix_spec *s);
/* The i-th cell, the last axis changing fastest. */
void matrix_spec_cell(const struct matrix_spec *s, size_t i, struct matrix_cell *c);
/* The value of `key` in the cell, or NULL when the matrix does not vary that key. */
const char *matrix_cell_value(const struct matrix_spec *s, const struct matrix_cell *c, enum matrix_key key);
/* The cell's tag: "key=value" for every varied key, in key order, comma-separated. */
void matrix_cell_tag(const struct matrix_spec *s, const struct matrix_cell *c, char *buf, size_t len);
/* What identifies the matrix for --resume: the plan text's hash, the axes and the repeat count. */
void matrix_spec_id(const struct matrix_spec *s, const char *plan_sha256, char *buf, size_t len);

/* Parses a tag (or a --cell filter, same syntax) into *out. Returns 0, or -1 with err. */
int matrix_tag_parse(const char *text, struct matrix_tag *out, char *err, size_t errlen);

/* "platform", "transport", ...; matrix_key_parse returns -1 for an unknown name. */
const char *matrix_key_name(enum matrix_key key);
int matrix_key_parse(const char *name, size_t len);

/* Splits a platform value "LABEL[@HOST[:PORT]]": label into label[], host into host[] ("" when
 * none) and *port (0 when none). Returns 0, or -1 on a bad port. */
int matrix_platform_split(const char *value, char *label, size_t labellen, char *host, size_t hostlen,
                          uint16_t *port);

#endif
