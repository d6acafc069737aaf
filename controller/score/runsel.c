/* runsel.c -- open a results file, pick a run, load its summary and verdict. */
#include "controller/score/runsel.h"

#include "controller/score/summary_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "common/ydoc.h"
#include <sysexits.h>
#include "db/store.h"

struct store *runsel_open(const char *verb, const char *path, int *code)
{
    char err[512];
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "sessmax %s: %s: %s\n", verb, path, strerror(errno));
        *code = EX_NOINPUT;
        return NULL;
    }
    struct store *st = store_open(path, STORE_READ, err, sizeof err);
    if (!st) {
        fprintf(stderr, "sessmax %s: %s\n", verb, err);
        *code = EX_DATAERR;
    }
    return st;
}

int64_t runsel_pick(const char *verb, struct store *st, const char *path, const char *text, int *code)
{
    struct store_run info;
    int64_t run;
    if (!text) {
        run = store_latest_run(st);
        if (run < 0) {
            fprintf(stderr, "sessmax %s: %s holds no run\n", verb, path);
            *code = EX_DATAERR;
        }
        return run;
    }
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || errno || v <= 0) {
        fprintf(stderr, "sessmax %s: --run '%s': expected a run id (a positive number; "
                "see sessmax compare %s)\n", verb, text, path);
        *code = EX_USAGE;
        return -1;
    }
    if (store_get_run(st, (int64_t)v, &info) < 0) {
        fprintf(stderr, "sessmax %s: %s: no run %lld\n", verb, path, v);
        *code = EX_DATAERR;
        return -1;
    }
    return (int64_t)v;
}

int runsel_load(const char *verb, struct store *st, int64_t run, const struct score_config *override,
                unsigned flags, struct summary *s, struct verdict *v, int *code)
{
    char err[1024];
    if (summary_load_flags(st, run, override, flags, s, err, sizeof err) < 0 ||
        verdict_evaluate(s, v, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax %s: %s\n", verb, err);
        *code = EX_DATAERR;
        return -1;
    }
    return 0;
}

int runsel_plan_config(const char *verb, const char *plan, struct score_config *out, int *code)
{
    char err[YDOC_ERR_LEN];
    score_config_init(out);
    struct ydoc *doc = ydoc_load_file(plan, err, sizeof err);
    if (!doc) {
        fprintf(stderr, "sessmax %s: %s\n", verb, err);
        *code = access(plan, R_OK) ? EX_NOINPUT : EX_CONFIG;
        return -1;
    }
    const struct ydoc_node *root = doc->root;
    int rc = score_config_parse(doc, root ? ydoc_get(root, "score") : NULL,
                                root ? ydoc_get(root, "thresholds") : NULL, NULL, out, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "sessmax %s: %s\n", verb, err);
        *code = EX_CONFIG;
        score_config_free(out);
    }
    ydoc_free(doc);
    return rc;
}
