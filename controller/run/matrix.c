/* matrix.c -- running a matrix: check every cell, find or start the matrix, run the cells'
 * missing repeats through run_execute(), print the table. */
#include "controller/run/matrix.h"

#include "common/clock.h"
#include "common/file_read.h"
#include "controller/run/matrix_plan.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/run.h"
#include "controller/score/summary_load.h"
#include "controller/score/verdict.h"
#include "db/store.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#define SPEC_LEN (MATRIX_KEY__COUNT * MATRIX_MAX_VALUES * (MATRIX_VALUE_LEN + 1) + 256)

struct matrix_state {
    const struct matrix_options *o;
    char *text;                   /* the plan file */
    size_t len;
    char name[128];               /* the plan's name */
    char platform[128];           /* the plan's platform label */
    char db[4096];
    int64_t id;                   /* matrices.id */
    size_t cells;
    int *done;                    /* completed runs per cell */
};

static void sha256_hex(const char *text, size_t len, char *hex)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_Digest(text, len, md, &n, EVP_sha256(), NULL);
    for (unsigned int i = 0; i < n; i++)
        sprintf(hex + 2 * i, "%02x", md[i]);
    hex[2 * n] = 0;
}

/* Loads the plan of cell i; returns 0 or an exit code after a message naming the cell. */
static int load_cell(struct matrix_state *m, size_t i, struct plan_checked *pc)
{
    struct matrix_cell c;
    char err[PLAN_ERR_LEN], tag[MATRIX_TAG_LEN];
    matrix_spec_cell(m->o->spec, i, &c);
    matrix_cell_tag(m->o->spec, &c, tag, sizeof tag);
    char *text = matrix_plan_text(m->o->plan_path, m->text, m->len, m->o->spec, &c, err, sizeof err);
    int rc = text ? plan_check_load_runnable(m->o->plan_path, text, strlen(text), 0, pc, err, sizeof err) : EX_DATAERR;
    if (rc != 0)
        fprintf(stderr, "sessmax matrix: cell %s: %s\n", tag[0] ? tag : "(no --vary)", err);
    free(text);
    return rc;
}

/* Every cell's plan must be valid before the first run starts. */
static int check_cells(struct matrix_state *m)
{
    for (size_t i = 0; i < m->cells; i++) {
        struct plan_checked pc;
        int rc = load_cell(m, i, &pc);
        if (rc != 0)
            return rc;
        if (i == 0) {
            snprintf(m->name, sizeof m->name, "%s", pc.plan->name);
            snprintf(m->platform, sizeof m->platform, "%s", pc.plan->platform);
            snprintf(m->db, sizeof m->db, "%s", m->o->db_path ? m->o->db_path : pc.plan->results);
        }
        plan_check_free(&pc);
    }
    return 0;
}

/* Finds (--resume) or starts the matrix row and counts each cell's completed runs. */
static int open_matrix(struct matrix_state *m, FILE *out)
{
    char err[512], hash[2 * EVP_MAX_MD_SIZE + 1], spec[SPEC_LEN];
    sha256_hex(m->text, m->len, hash);
    matrix_spec_id(m->o->spec, hash, spec, sizeof spec);
    struct store *st = store_open(m->db, STORE_WRITE, err, sizeof err);
    if (!st) {
        fprintf(stderr, "sessmax matrix: %s\n", err);
        return EX_IOERR;
    }
    int rc = 0;
    m->id = m->o->resume ? store_matrix_find(st, spec) : 0;
    if (m->o->resume && m->id == 0)
        fprintf(out, "%s holds no matrix of this plan and --vary: starting a new one\n", m->db);
    if (m->id == 0)
        m->id = store_matrix_begin(st, m->name, spec, clock_wall_us());
    for (size_t i = 0; m->id > 0 && i < m->cells && rc == 0; i++) {
        struct matrix_cell c;
        char tag[MATRIX_TAG_LEN];
        matrix_spec_cell(m->o->spec, i, &c);
        matrix_cell_tag(m->o->spec, &c, tag, sizeof tag);
        m->done[i] = store_matrix_cell_done(st, m->id, tag);
        rc = m->done[i] < 0 ? -1 : 0;
    }
    if (m->id <= 0 || rc != 0) {
        fprintf(stderr, "sessmax matrix: %s\n", store_errmsg(st));
        rc = EX_IOERR;
    }
    store_close(st);
    return rc;
}

/* Runs one repeat of cell i. Returns 0 when the run completed, 1 when it ended otherwise (the
 * matrix goes on), 2 when it was interrupted, or an exit code >= 64 (the matrix stops). */
static int run_cell(struct matrix_state *m, size_t i, unsigned repeat, FILE *out)
{
    struct matrix_cell c;
    char tag[MATRIX_TAG_LEN];
    matrix_spec_cell(m->o->spec, i, &c);
    matrix_cell_tag(m->o->spec, &c, tag, sizeof tag);
    fprintf(out, "== matrix %lld: cell %zu/%zu %s, run %u/%u\n", (long long)m->id, i + 1, m->cells,
            tag[0] ? tag : "(no --vary)", repeat + 1, m->o->spec->repeat);
    fflush(out);
    struct plan_checked pc;
    int rc = load_cell(m, i, &pc);
    if (rc != 0)
        return rc;
    struct run_options ro = { .db_path = m->db, .tty = m->o->tty, .out = out, .agent_log = m->o->agent_log,
                              .matrix_id = m->id, .cell = tag };
    struct run_outcome res;
    rc = run_execute(&pc, &ro, &res);
    plan_check_free(&pc);
    if (res.run_id < 0)
        return rc >= 64 ? rc : EX_SOFTWARE;
    if (!strcmp(res.status, "aborted"))
        return 2;
    if (strcmp(res.status, "completed") != 0) {
        fprintf(out, "cell %s: run %lld %s (%s); the matrix goes on\n", tag, (long long)res.run_id, res.status,
                res.message);
        return 1;
    }
    return 0;
}

int matrix_print_table(const char *db, int64_t matrix_id, const struct matrix_spec *s, const char *platform,
                       enum matrix_format fmt, FILE *out)
{
    char err[1024];
    struct store *st = store_open(db, STORE_READ, err, sizeof err);
    if (!st) {
        fprintf(stderr, "sessmax matrix: %s\n", err);
        return EX_NOINPUT;
    }
    struct store_run *runs = NULL;
    size_t n = 0, k = 0;
    int rc = store_list_runs(st, &runs, &n) < 0 ? EX_DATAERR : 0;
    struct summary *sums = rc ? NULL : calloc(n ? n : 1, sizeof *sums);
    for (size_t i = 0; sums && i < n; i++) {
        if (runs[i].matrix_id != matrix_id || !matrix_table_counts(runs[i].status))
            continue;
        if (summary_load(st, runs[i].id, NULL, &sums[k], err, sizeof err) < 0)
            fprintf(stderr, "sessmax matrix: run %lld left out of the table: %s\n", (long long)runs[i].id, err);
        else
            k++;
    }
    if (rc == 0 && (!sums || matrix_table_write(s, platform, sums, k, fmt, out) < 0))
        rc = EX_IOERR;
    if (rc != 0)
        fprintf(stderr, "sessmax matrix: %s: %s\n", db, rc == EX_DATAERR ? store_errmsg(st) : "cannot write the table");
    for (size_t i = 0; i < k; i++)
        summary_free(&sums[i]);
    free(sums);
    free(runs);
    store_close(st);
    return rc;
}

static int execute(struct matrix_state *m, FILE *out)
{
    const struct matrix_options *o = m->o;
    int rc = check_cells(m);
    if (rc != 0 || (rc = open_matrix(m, out)) != 0)
        return rc;
    size_t todo = 0;
    for (size_t i = 0; i < m->cells; i++)
        todo += o->spec->repeat > (unsigned)m->done[i] ? o->spec->repeat - (unsigned)m->done[i] : 0;
    fprintf(out, "matrix %lld of plan '%s': %zu cells x %u runs -> %s (%zu runs to do)\n", (long long)m->id, m->name,
            m->cells, o->spec->repeat, m->db, todo);
    int incomplete = 0;
    for (size_t i = 0; i < m->cells && rc < 2; i++)
        for (unsigned r = (unsigned)m->done[i]; r < o->spec->repeat && rc < 2; r++) {
            rc = run_cell(m, i, r, out);
            incomplete |= rc == 1;
        }
    if (rc >= 64)
        return rc;
    if (rc == 2)
        fprintf(out, "matrix %lld interrupted: run the same command with --resume to finish it\n", (long long)m->id);
    fflush(out);
    int trc = matrix_print_table(m->db, m->id, o->spec, m->platform, o->format, o->table ? o->table : stdout);
    if (trc != 0)
        return trc;
    return rc == 2 || incomplete ? EXIT_INCONCLUSIVE : EXIT_PASS;
}

int matrix_execute(const struct matrix_options *o)
{
    char err[512];
    struct matrix_state m = { .o = o, .cells = matrix_spec_cells(o->spec) };
    FILE *out = o->out ? o->out : stdout;
    m.text = file_read_all(o->plan_path, FILE_READ_MAX_CONFIG, &m.len, err, sizeof err);
    if (!m.text) {
        fprintf(stderr, "sessmax matrix: %s\n", err);
        return EX_NOINPUT;
    }
    m.done = calloc(m.cells, sizeof *m.done);
    int rc = m.done ? execute(&m, out) : EX_OSERR;
    free(m.done);
    free(m.text);
    return rc;
}
