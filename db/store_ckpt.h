/* store_ckpt.h -- the writer's WAL checkpoints on a thread of their own. With SQLite's automatic
 * checkpoint, the commit that crosses 1,000 WAL pages copies them into the database and fsyncs
 * it, on the committing thread: the controller's loop, which then acknowledges nobody until the
 * disk answers. Here the writer's connection does not checkpoint; its commit hook wakes a second
 * connection on its own thread, which does (PASSIVE, as the automatic one) when the WAL has grown
 * past the same 1,000 pages.
 * Durability is unchanged: under synchronous=NORMAL a commit is never fsynced, a checkpoint is. */
#ifndef SESSMAX_STORE_CKPT_H
#define SESSMAX_STORE_CKPT_H

struct store_ckpt;
struct sqlite3;

/* Starts the checkpointer for the database at `path` and turns the automatic checkpoint of
 * `writer` off. NULL (the automatic checkpoint stays on) when the thread or its connection cannot
 * start. */
struct store_ckpt *store_ckpt_start(const char *path, struct sqlite3 *writer);
/* Stops the thread (after a checkpoint under way) and closes its connection; NULL is fine. */
void store_ckpt_stop(struct store_ckpt *c);

#endif
