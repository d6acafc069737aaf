/* traffic_order.c -- a run's traffic rows grouped by session (see traffic_order.h). */
#include "controller/score/traffic_order.h"

#include <stdint.h>
#include <stdlib.h>

struct session_pos { uint32_t session; size_t pos; };

static int by_session_then_pos(const void *a, const void *b)
{
    const struct session_pos *x = a, *y = b;
    if (x->session != y->session)
        return x->session < y->session ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

size_t *traffic_by_session(const struct store_traffic_row *rows, size_t n)
{
    struct session_pos *pairs = malloc((n ? n : 1) * sizeof *pairs);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!pairs || !order) {
        free(pairs);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        pairs[i] = (struct session_pos){ rows[i].session, i };
    if (n)
        qsort(pairs, n, sizeof *pairs, by_session_then_pos);
    for (size_t i = 0; i < n; i++)
        order[i] = pairs[i].pos;
    free(pairs);
    return order;
}
