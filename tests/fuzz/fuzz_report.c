/* fuzz_report.c -- libFuzzer harness for the HTML report and the dashboard on a tampered results
 * database (fuzz_store_edit.h makes the edited copy; fuzz_score.c covers score, verdict, text,
 * exports and compare): the dashboard over all runs is written, which loads, judges and writes
 * the report page of every run; when it stops at a run it cannot load or write, every run that
 * loads is judged and written as a report page on its own, so the runs after the bad one are
 * written too. Pages go to a tmpfs directory made once, where the pages of runs 1..MAX_RUNS, the
 * index and the lone page are symbolic links to /dev/null: every page is still opened, written
 * and closed by the report code, but no tmpfs page is allocated, faulted in and freed per input
 * (a tampered run id still writes a real file there). Bad data may give errors; nothing may
 * crash, leak, hang or read out of bounds. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "controller/report/dashboard.h"
#include "controller/report/report.h"
#include "controller/score/summary_load.h"
#include "controller/score/verdict.h"
#include "fuzz_store_edit.h"

#define MAX_RUNS 3

static char dir[64], html[96];

static void cleanup(void)
{
    char cmd[128];
    unlink(html);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz_report: could not remove %s\n", dir);
}

/* The directory and its links to /dev/null; aborts on failure (nothing to fuzz without them). */
static void make_dir(void)
{
    char link[128];
    snprintf(dir, sizeof dir, "/dev/shm/fuzz_report-%d", (int)getpid());
    snprintf(html, sizeof html, "%s.html", dir);
    if (mkdir(dir, 0700) != 0 || symlink("/dev/null", html) != 0)
        abort();
    for (int i = 0; i <= MAX_RUNS; i++) {
        if (i)
            snprintf(link, sizeof link, "%s/run-%d.html", dir, i);
        else
            snprintf(link, sizeof link, "%s/index.html", dir);
        if (symlink("/dev/null", link) != 0)
            abort();
    }
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0])
        make_dir();
    struct store *st = fuzz_store_edited(data, size);
    if (!st)
        return 0;
    char err[1024];
    if (dashboard_write(st, dir, err, sizeof err) < 0) {
        struct summary s;
        struct verdict v;
        for (int64_t run = 1; run <= MAX_RUNS; run++) {
            if (summary_load(st, run, NULL, &s, err, sizeof err) < 0)
                continue;
            if (verdict_evaluate(&s, &v, err, sizeof err) == 0)
                report_write_summary(&s, &v, html, err, sizeof err);
            summary_free(&s);
        }
    }
    fuzz_store_done();
    return 0;
}
