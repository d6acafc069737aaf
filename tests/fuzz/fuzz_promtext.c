/* fuzz_promtext.c -- libFuzzer harness for the scraper's parser of exporters' replies
 * (controller/run/promtext.c) and what reads its samples (hostmetrics.c): any bytes parse or are
 * counted as malformed lines; every sample's name and labels are NUL-terminated within their
 * bounds; two readings of the input (the second later) give figures that are NaN or within their
 * ranges. Nothing may crash, leak, read out of bounds or hang. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "controller/run/hostmetrics.h"
#include "controller/run/promtext.h"

static int check(void *ctx, const struct promtext_sample *s)
{
    (void)ctx;
    if (strnlen(s->name, PROMTEXT_NAME_MAX) == PROMTEXT_NAME_MAX || !s->name[0] || s->nlabels > PROMTEXT_LABELS_MAX)
        abort();
    for (size_t i = 0; i < s->nlabels; i++)
        if (strnlen(s->labels[i].name, PROMTEXT_NAME_MAX) == PROMTEXT_NAME_MAX ||
            strnlen(s->labels[i].value, PROMTEXT_VALUE_MAX) == PROMTEXT_VALUE_MAX)
            abort();
    return 0;
}

static void in_range(double v, double lo, double hi)
{
    if (!isnan(v) && (v < lo || v > hi))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy: ASan catches a read one byte past the reply */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    struct promtext_stats st;
    promtext_parse(text, size, check, NULL, &st);
    if (st.samples + st.malformed > st.lines)
        abort();
    static struct hostmetrics_reading a, b;
    hostmetrics_read(&a, text, size, 10, NULL, NULL);
    hostmetrics_read(&b, text, size, 15, NULL, NULL);
    struct store_target_metrics m;
    store_target_metrics_clear(&m);
    hostmetrics_rates(&a, &b, &m);
    in_range(m.cpu_pct, 0, 100);
    in_range(m.disk_busy_pct, 0, 100);
    in_range(m.net_pct, 0, 100);
    free(text);
    return 0;
}
