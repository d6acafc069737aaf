/* store_types.h -- the names every file of db/ shares with the store's callers: the schema
 * version, the open mode and the handle (opaque outside db/). store.h includes it; the store's
 * parts include it through store_handle.h or store_conn.h, never store.h. */
#ifndef SESSMAX_STORE_TYPES_H
#define SESSMAX_STORE_TYPES_H

/* Version of schema.sql. 1: first release; 2: samples.loop and the health table; 3: network
 * profile and TCP segment counters; 4: copy_timers; 5: runs.client, runs.matrix_id/cell and
 * matrices; 6: agents.clock_offset_us and rtt_us; 7: target_load; 8: samples packed in
 * sample_chunks, `samples` a view; 9: external clients' costs in health; 10: the traffic index
 * covers the columns readers load; 11: the logon's phases per session and traffic.min_rtt_us;
 * 12: target_metrics. */
#define STORE_SCHEMA_VERSION 12

struct store;

enum store_mode { STORE_READ = 0, STORE_WRITE = 1 };

#endif
