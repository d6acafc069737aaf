/* fuzz_ydoc.c -- libFuzzer harness for the YAML layer (common/ydoc.c over libyaml): any bytes
 * either become a tree or give a one-line "name:line:col: ..." error. Every node of a tree is
 * then read with each typed getter, which must either succeed or give a one-line error, and map
 * lookups must find every key the map holds (the duplicate check's hash set agrees with it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ydoc.h"

static void one_line(const char *err)
{
    if (!err[0] || strchr(err, '\n')) {
        fprintf(stderr, "not one line: '%s'\n", err);
        abort();
    }
}

static void visit(const struct ydoc *doc, const struct ydoc_node *n, int depth)
{
    char err[YDOC_ERR_LEN];
    long long i;
    double d;
    int b;
    uint64_t us;
    const char *s;
    if (!n || depth > 80)
        return;
    if (ydoc_int(doc, n, -1000, 1000, &i, err, sizeof err) != 0)
        one_line(err);
    if (ydoc_double(doc, n, -1e9, 1e9, &d, err, sizeof err) != 0)
        one_line(err);
    if (ydoc_bool(doc, n, &b, err, sizeof err) != 0)
        one_line(err);
    if (ydoc_duration_us(doc, n, &us, err, sizeof err) != 0)
        one_line(err);
    if (ydoc_str(doc, n, &s, err, sizeof err) != 0)
        one_line(err);
    for (size_t k = 0; k < n->n; k++) {
        if (n->kind == YDOC_MAP && ydoc_get(n, n->keys[k]->value) != n->items[k])
            abort();              /* keys are unique, so a lookup finds this very pair */
        visit(doc, n->items[k], depth + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[YDOC_ERR_LEN];
    err[0] = '\0';
    struct ydoc *doc = ydoc_load_string("fuzz.yaml", (const char *)data, size, err, sizeof err);
    if (!doc) {
        one_line(err);
        return 0;
    }
    visit(doc, doc->root, 0);
    if (doc->root && doc->root->kind == YDOC_MAP) {
        static const char *const allowed[] = { "version", "name", "loop", NULL };
        if (ydoc_check_keys(doc, doc->root, allowed, "fuzz", err, sizeof err) != 0)
            one_line(err);
    }
    ydoc_free(doc);
    return 0;
}
