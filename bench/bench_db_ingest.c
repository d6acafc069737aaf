/* bench_db_ingest.c -- sample rows per second into the results store: the batched writer (its
 * default batch) against one transaction per row, same machine, same run, as a ratio.
 * Usage: bench_db_ingest [BATCHED_ROWS [PER_ROW_ROWS]]   (defaults 200000 and 20000); the file
 * lives in a fresh directory under $TMPDIR (default /tmp), removed afterwards. */
#include "common/clock.h"
#include "common/numarg.h"
#include "db/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#define TARGET_ROWS_PER_S 50000.0

static const char *const timer_names[] = {
    "logon", "open_notepad", "type_text", "save_file", "open_browser", "scroll_page", "zip_file",
    "open_pdf", "print_preview", "close_app", "menu_open", "dialog_open", "search", "paste",
    "minimize", "restore", "word_open", "excel_calc", "start_menu", "logoff",
};
#define TIMER_NAMES (sizeof timer_names / sizeof timer_names[0])

/* Writes `rows` samples as 100 sessions would; returns rows/s including the final commit. */
static double ingest(const char *path, unsigned rows, unsigned batch_rows)
{
    char err[512];
    unlink(path);
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!st) {
        fprintf(stderr, "bench_db_ingest: %s\n", err);
        return -1;
    }
    if (batch_rows)
        store_set_batch(st, batch_rows, 200000);
    struct store_run_info info = { .name = "bench", .transport = "tcp", .sessions_planned = 100,
                                   .started_us = clock_wall_us() };
    int64_t run = store_run_begin(st, &info);
    struct rec_sample s = { .ok = 1 };
    uint64_t t0 = clock_now_us();
    for (unsigned i = 0; run > 0 && i < rows; i++) {
        s.session = i % 100;
        s.loop = i / 2000;
        s.t_us = info.started_us + (uint64_t)i * 50;
        s.value_us = 800 + (int64_t)(i * 7919 % 3000);
        snprintf(s.name, sizeof s.name, "%s", timer_names[i % TIMER_NAMES]);
        if (store_add_sample(st, run, &s, 1 + i % 100) != 0) {
            fprintf(stderr, "bench_db_ingest: %s\n", store_errmsg(st));
            run = -1;
        }
    }
    int rc = run > 0 ? store_flush(st) : -1;
    uint64_t elapsed = clock_now_us() - t0;
    store_close(st);
    if (rc != 0)
        return -1;
    return rows / (elapsed / 1e6);
}

int main(int argc, char **argv)
{
    unsigned long batched_rows = 200000, per_row_rows = 20000;
    char dir[512], path[600], err[256];
    if (argc > 3 || (argc > 1 && numarg_ulong("BATCHED_ROWS", argv[1], 1, 100000000, &batched_rows, err, sizeof err)) ||
        (argc > 2 && numarg_ulong("PER_ROW_ROWS", argv[2], 1, 100000000, &per_row_rows, err, sizeof err))) {
        fprintf(stderr, "bench_db_ingest: %s\nusage: bench_db_ingest [BATCHED_ROWS [PER_ROW_ROWS]]\n",
                argc > 3 ? "too many arguments" : err);
        return EX_USAGE;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/sessmax-bench-db.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench_db_ingest: cannot create a directory under %s\n", tmp && *tmp ? tmp : "/tmp");
        return EX_CANTCREAT;
    }
    snprintf(path, sizeof path, "%s/ingest.db", dir);
    printf("db-ingest: sample rows into a fresh SQLite file (WAL, synchronous=NORMAL), %zu timer names, 100 sessions\n",
           TIMER_NAMES);
    double batched = ingest(path, (unsigned)batched_rows, 0);
    double per_row = ingest(path, (unsigned)per_row_rows, 1);
    char side[640];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    rmdir(dir);
    if (batched < 0 || per_row < 0)
        return EX_SOFTWARE;
    printf("  batched writer (default batch: 5000 rows / 200 ms): %lu rows\n", batched_rows);
    printf("  one transaction per row:                           %lu rows\n", per_row_rows);
    printf("batched: %.0f rows/s   per-row: %.0f rows/s   ratio: %.1f x   (target >= %.0f rows/s: %s)\n",
           batched, per_row, batched / per_row, TARGET_ROWS_PER_S, batched >= TARGET_ROWS_PER_S ? "PASS" : "FAIL");
    return 0;
}
