/* traffic_order.c -- a run's traffic rows grouped by session (see traffic_order.h). */
#include "controller/score/traffic_order.h"

#include "common/sortkey.h"

#include <stdint.h>
#include <stdlib.h>

size_t *traffic_by_session(const struct store_traffic_row *rows, size_t n)
{
    /* a stable radix sort by session keeps each session's rows in their time order, which is
     * what sorting by (session, position) gave */
    int64_t *key = malloc((n ? n : 1) * sizeof *key);
    uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
    size_t *order = n <= UINT32_MAX ? malloc((n ? n : 1) * sizeof *order) : NULL;
    if (!key || !pos || !order)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        key[i] = rows[i].session;
        pos[i] = (uint32_t)i;
    }
    if (sortkey_i64(key, pos, n) < 0)
        goto fail;
    for (size_t i = 0; i < n; i++)
        order[i] = pos[i];
    free(key);
    free(pos);
    return order;
fail:
    free(key);
    free(pos);
    free(order);
    return NULL;
}
