/* fuzz_score.c -- libFuzzer harness for score on a tampered results database
 * (fuzz_store_edit.h makes the edited copy): every run is loaded, scored, judged, printed,
 * exported in every format and compared. The HTML report and the dashboard of the same data are
 * fuzz_report.c's. Bad data may give errors; nothing may crash, leak, hang or read out of bounds. */
#include <stdio.h>
#include <stdlib.h>

#include "controller/report/compare.h"
#include "controller/report/export.h"
#include "controller/score/score_text.h"
#include "controller/score/summary_load.h"
#include "controller/score/verdict.h"
#include "fuzz_store_edit.h"

#define MAX_RUNS 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    static char buf[1 << 16];               /* one write(2) per 64 KB of output, not per 4 KB */
    if (!null && (!(null = fopen("/dev/null", "w")) || setvbuf(null, buf, _IOFBF, sizeof buf) != 0))
        abort();
    struct store *st = fuzz_store_edited(data, size);
    if (!st)
        return 0;
    char err[1024];
    struct summary s[MAX_RUNS];
    struct verdict v;
    size_t ok = 0;
    for (int64_t run = 1; run <= MAX_RUNS; run++) {
        if (summary_load(st, run, NULL, &s[ok], err, sizeof err) < 0)
            continue;
        if (verdict_evaluate(&s[ok], &v, err, sizeof err) == 0) {
            score_text_print(null, &s[ok], &v, "fuzz.db");
            for (int f = 0; f < 4; f++)
                export_write(&s[ok], &v, (enum export_format)f, null);
            export_points_csv(&s[ok], null);
        }
        ok++;
    }
    if (ok)
        compare_write(s, ok, 0, COMPARE_TEXT, null);
    for (size_t i = 0; i < ok; i++)
        summary_free(&s[i]);
    fuzz_store_done();
    return 0;
}
