/* store_chunk.h -- how samples are stored: packed into chunks (rows of sample_chunks), each up to
 * STORE_CHUNK_MAX samples of one run in insertion order, fixed-width decimal fields in a BLOB.
 *
 * A chunk's data is `n` records of the same width; each record is the 9 fields below in this
 * order, each written in w_<field> ASCII characters: zero-padded digits, '-' first when negative.
 * The last, the agent's share of the sample (added in schema version 13; -1: not measured), may
 * have width 0: a chunk whose samples have none, and every chunk written before version 13.
 * t_us is stored as its offset from the chunk's t_min. Plain SQL can read every field with
 * CAST(substr(data, offset, width) AS INTEGER), which is what the `samples` view does
 * (schema.sql); the writer commits about one row per thousand samples, and the reader decodes
 * contiguous blobs instead of stepping an index row by row. */
#ifndef SESSMAX_STORE_CHUNK_H
#define SESSMAX_STORE_CHUNK_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_CHUNK_MAX 1024
/* t_max - t_min of one chunk stays below this, so every offset fits 16 digits */
#define STORE_CHUNK_SPAN 1000000000000000LL

enum store_chunk_field {
    CHUNK_SESSION, CHUNK_LOOP, CHUNK_T, CHUNK_NAME, CHUNK_VALUE, CHUNK_OK, CHUNK_MEASURE, CHUNK_ACTIVE,
    CHUNK_AGENT,     /* rec_sample.agent_us, or -1 */
    CHUNK__FIELDS
};
/* The fields of a chunk of schema versions 8 to 11 (no CHUNK_AGENT column): what the 7 -> 8
 * migration writes, with STORE_CHUNK_INSERT_SQL_V8. */
#define CHUNK_V8_FIELDS CHUNK_AGENT

/* One sample as stored: the fields above, t absolute (the encoder takes t_min off). */
struct store_chunk_rec {
    int64_t f[CHUNK__FIELDS];
};

/* The samples waiting to be written as one chunk. */
struct store_chunk {
    int64_t run;
    size_t n;
    int64_t t_min, t_max;
    struct store_chunk_rec rec[STORE_CHUNK_MAX];
};

/* Whether a sample of `run` at time t can join c (same run, room left, span kept). */
int store_chunk_fits(const struct store_chunk *c, int64_t run, int64_t t);
void store_chunk_add(struct store_chunk *c, int64_t run, const struct store_chunk_rec *r);

/* INSERT of one chunk; store_chunk_write binds and steps it (prepared by the caller). */
#define STORE_CHUNK_INSERT_SQL \
    "INSERT INTO sample_chunks (run_id, n, t_min, t_max, w_session, w_loop, w_t, w_name, w_value, w_ok," \
    " w_measure, w_active, w_agent, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
#define STORE_CHUNK_INSERT_SQL_V8 \
    "INSERT INTO sample_chunks (run_id, n, t_min, t_max, w_session, w_loop, w_t, w_name, w_value, w_ok," \
    " w_measure, w_active, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
/* Writes c (n > 0) with `ins` and empties it; returns SQLite's result code (SQLITE_DONE: ok).
 * fields: CHUNK__FIELDS with STORE_CHUNK_INSERT_SQL, CHUNK_V8_FIELDS with _V8 (the migration's). */
int store_chunk_write(sqlite3_stmt *ins, struct store_chunk *c, int fields);

/* A chunk as read back: its columns (SELECT n, t_min, w_session .. w_active, w_agent, data). */
struct store_chunk_view {
    int64_t n, t_min;
    int64_t w[CHUNK__FIELDS];
    const unsigned char *data;
    size_t len;
};
/* Fills v from the row `s` is on, whose columns from `first` on are n, t_min, w_session ..
 * w_active, w_agent, data (the data stays SQLite's until the next step). */
void store_chunk_view_read(struct store_chunk_view *v, sqlite3_stmt *s, int first);
/* Checks the chunk's shape (n, widths, length). 0 or -1 with a reason in why. */
int store_chunk_check(const struct store_chunk_view *v, const char **why);
/* Decodes record k (0 <= k < n) of a checked chunk into r (t absolute; CHUNK_AGENT -1 when its
 * width is 0); -1 on a malformed field. */
int store_chunk_decode(const struct store_chunk_view *v, size_t k, struct store_chunk_rec *r);

#endif
