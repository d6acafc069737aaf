/* outbox.h -- the agent's results that the controller has not acknowledged yet: numbered
 * RECORDS frames, in order, kept until an ACK covers them, so that after a lost link they can
 * be sent again on the next one. Memory is bounded: past `mem_limit` bytes, new frames go to a
 * spill file (created 0600 in a directory, unlinked at once so nothing outlives the agent) and
 * are read back when their turn comes. */
#ifndef SESSMAX_OUTBOX_H
#define SESSMAX_OUTBOX_H

#include <stddef.h>
#include <stdint.h>

struct outbox;

/* NULL when out of memory. The spill file is created on first need in spill_dir. */
struct outbox *outbox_new(size_t mem_limit, const char *spill_dir);
void outbox_free(struct outbox *ob);

/* Appends one complete frame (untagged, as proto_records_* builds it) numbered seq; seq must
 * be one more than the previous frame's. 0, or -1 (with a logged reason) when it could be kept
 * neither in memory nor in the spill file. */
int outbox_push(struct outbox *ob, uint64_t seq, const uint8_t *frame, size_t len);
/* The controller stored every frame up to seq: they are dropped. */
void outbox_ack(struct outbox *ob, uint64_t seq);
/* The next frame to send on this link is the first one after `acked` (a new link). */
void outbox_rewind(struct outbox *ob);
/* The next frame not yet sent on this link: its bytes in *buf (valid until the next call) and
 * 1, or 0 when everything was sent; -1 when the spill file cannot be read. */
int outbox_next(struct outbox *ob, const uint8_t **buf, size_t *len);

uint64_t outbox_acked(const struct outbox *ob);      /* highest acknowledged seq */
size_t outbox_frames(const struct outbox *ob);       /* frames not acknowledged */
size_t outbox_mem_bytes(const struct outbox *ob);    /* of those, bytes held in memory */
uint64_t outbox_spilled_bytes(const struct outbox *ob);

#endif
