/* outpipe.h -- the standalone run's stdout and stderr (when they are files or pipes, not a
 * terminal) go through pipes that a writer thread drains, so the event loop never waits for the
 * disk when it prints a record or a log line. */
#ifndef SESSMAX_OUTPIPE_H
#define SESSMAX_OUTPIPE_H

struct outpipe;

/* Redirects descriptors 1 and 2 into pipes and starts the writer. NULL (and nothing changed)
 * when neither can be redirected. */
struct outpipe *outpipe_start(void);

/* Flushes stdio, points 1 and 2 back at their files, writes out what the pipes still hold and
 * joins the writer. NULL is a no-op. */
void outpipe_stop(struct outpipe *o);

#endif
