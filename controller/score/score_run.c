/* score_run.c -- load, evaluate, print and store the score of one run. */
#include "controller/score/score_run.h"

#include <string.h>
#include <sysexits.h>

#include "controller/score/runsel.h"
#include "controller/score/score_text.h"
#include "db/store.h"

#define SCORE_RUN_REASONS_LEN 2048

int score_run(struct store *st, int64_t run, const struct score_run_options *o, struct summary *s,
              struct verdict *v, int *code)
{
    memset(s, 0, sizeof *s);
    if (runsel_load(o->verb, st, run, o->override, o->flags, s, v, code) < 0)
        return -1;
    if (o->text)
        score_text_print(o->text, s, v, o->db_path);
    *code = verdict_code(v);
    char err[512];
    if (o->verdict_path && verdict_write_json(s, v, o->verdict_path, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax %s: %s\n", o->verb, err);
        *code = EX_IOERR;
    }
    return 0;
}

int score_run_store(struct store *st, const struct summary *s, const struct verdict *v)
{
    char reasons[SCORE_RUN_REASONS_LEN];
    verdict_reasons(v, reasons, sizeof reasons);
    struct store_score sc = { SCORE_VERSION, s->score.baseline_ms, s->score.threshold_ms, s->score.smax,
                              s->score.reached, s->launched, s->active, s->stuck, verdict_name(v->kind),
                              reasons };
    return store_run_set_score(st, s->run.id, &sc);
}
