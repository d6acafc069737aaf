/* fuzz_matrix.c -- libFuzzer harness for the `sessmax matrix` / `trend` argument parsers
 * (controller/run/matrix_spec.c): each line of the input is one `--vary KEY=V1,V2` argument, or,
 * when the first byte is '#', the rest is a `--cell` filter. Any text is accepted or refused
 * with one non-empty line; nothing may crash, leak or read out of bounds. Oracles: every cell's
 * tag parses back (matrix_tag_parse) to the cell's values, and a platform value splits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/run/matrix_spec.h"

static void one_line(const char *what, const char *err)
{
    for (const char *p = err; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            fprintf(stderr, "%s: error not one printable line: '%s'\n", what, err);
            abort();
        }
    if (!err[0]) {
        fprintf(stderr, "%s: empty error\n", what);
        abort();
    }
}

/* The cell's tag must parse back to exactly the cell's values. */
static void check_cell(const struct matrix_spec *s, size_t i)
{
    struct matrix_cell c;
    struct matrix_tag t;
    char tag[MATRIX_TAG_LEN], err[512];
    matrix_spec_cell(s, i, &c);
    matrix_cell_tag(s, &c, tag, sizeof tag);
    if (matrix_tag_parse(tag, &t, err, sizeof err) != 0) {
        fprintf(stderr, "tag '%s' does not parse back: %s\n", tag, err);
        abort();
    }
    for (int k = 0; k < MATRIX_KEY__COUNT; k++) {
        const char *v = matrix_cell_value(s, &c, (enum matrix_key)k);
        if ((v == NULL) != (t.value[k] == NULL) || (v && strcmp(v, t.value[k]))) {
            fprintf(stderr, "tag '%s': %s changed\n", tag, matrix_key_name((enum matrix_key)k));
            abort();
        }
    }
    const char *p = matrix_cell_value(s, &c, MATRIX_PLATFORM);
    char label[MATRIX_VALUE_LEN], host[MATRIX_VALUE_LEN];
    uint16_t port;
    if (p && matrix_platform_split(p, label, sizeof label, host, sizeof host, &port) != 0)
        abort();   /* --vary accepted it, so it splits */
}

static void vary(char *text)
{
    struct matrix_spec s;
    char err[1024];
    matrix_spec_init(&s);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        err[0] = '\0';
        if (matrix_spec_add_vary(&s, line, err, sizeof err) != 0) {
            one_line("--vary", err);
            return;
        }
    }
    size_t n = matrix_spec_cells(&s);
    check_cell(&s, 0);
    check_cell(&s, n - 1);
    check_cell(&s, n / 2);
    char id[4096];
    matrix_spec_id(&s, "0123456789abcdef", id, sizeof id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[1024];
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (text[0] == '#') {
        struct matrix_tag t;
        err[0] = '\0';
        if (matrix_tag_parse(text + 1, &t, err, sizeof err) != 0)
            one_line("--cell", err);
    } else {
        vary(text);
    }
    free(text);
    return 0;
}
