/* traffic_order.h -- a run's traffic rows grouped by session. Rows are cumulative per session and
 * load in time order; the score needs each session's rows in sequence (byte deltas, the last
 * retransmission counters). A session number comes from the database, so it may be anything:
 * sorting, rather than a table indexed by session number, keeps memory proportional to the rows
 * whatever the numbers are (a tampered 4e9 once asked for 32 GB). */
#ifndef SESSMAX_TRAFFIC_ORDER_H
#define SESSMAX_TRAFFIC_ORDER_H

#include <stddef.h>

#include "db/store.h"

/* Row indexes ordered by session, then by load position (time); malloc'd, n entries (at least
 * one allocated); NULL when out of memory. */
size_t *traffic_by_session(const struct store_traffic_row *rows, size_t n);

#endif
