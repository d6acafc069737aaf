/* store_write_int.h -- what the writer (store_write.c) lends the rest of db/: closing its
 * statements and name cache (store.c) and writing the waiting samples before a read
 * (store_samples.c), and the batch (store_metrics.c). Private to db/. */
#ifndef SESSMAX_STORE_WRITE_INT_H
#define SESSMAX_STORE_WRITE_INT_H

struct store;

/* Forgets the interned timer names (at close, and when a batch is lost). */
void store_names_clear(struct store *st);
/* Finalizes the writer's statements and the reader's cached ones. */
void store_finalize_all(struct store *st);
/* The batch for writers of other files of db/ (store_metrics.c): opens it when none is open
 * (writer only), and counts a row written into it, committing it when due. 0, or -1. */
int store_batch_begin(struct store *st);
int store_batch_add(struct store *st);
/* Writes the waiting samples as a chunk into the open batch (a no-op when there are none). */
int store_chunk_flush(struct store *st);

#endif
