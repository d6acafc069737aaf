/* workload_drives.h -- the `drives:` of a workload or a plan (generated files an RDP drive
 * redirection announces) and the copy timers that move them. */
#ifndef SESSMAX_WORKLOAD_DRIVES_H
#define SESSMAX_WORKLOAD_DRIVES_H

#include <stddef.h>

#include "common/workload_model.h"

struct ydoc;
struct ydoc_node;

/* Adds the drives of a `drives:` map (a plan's, or the workload's own) to wl. The same checks as
 * in a workload; a drive declared twice (here or already in wl) is an error. Errors name
 * doc's file:line:col. Returns 0 or -1. */
int workload_add_drives(struct workload *wl, const struct ydoc *doc, const struct ydoc_node *map,
                        char *err, size_t errlen);
/* The same from text holding one flow map `{NAME: {files: {FILE: SIZE}}}` (what
 * workload_drives_text writes); `name` stands for it in messages. */
int workload_add_drives_text(struct workload *wl, const char *name, const char *text, char *err, size_t errlen);
/* wl's drives as such text (sizes in bytes). malloc'd; "" when none; NULL when out of memory. */
char *workload_drives_text(const struct workload_drive *drives, size_t n);
/* Gives each `size: DRIVE/FILE` of a copy timer the size of that file in wl's drives. With
 * strict 0, a workload without drives leaves them for the plan's drives (bytes stays 0); a
 * reference to a drive or file that does not exist is an error at the copy's file:line:col. */
int workload_resolve_copies(struct workload *wl, int strict, char *err, size_t errlen);
/* The copy timer named `timer`, or NULL. */
const struct workload_copy *workload_copy(const struct workload *wl, const char *timer);

/* --- private to common/workload*.c ---------------------------------------------------------- */

struct workload_parse;
/* Parses `drives:` (NULL: none) into p->wl->drives. */
int workload_parse_drives(struct workload_parse *p, const struct ydoc_node *map);
void workload_free_drives(struct workload *wl);
/* Parses a timer's `copy: {to: server|client, size: SIZE | DRIVE/FILE}`. */
int workload_parse_copy(struct workload_parse *p, const struct ydoc_node *n, const char *timer);

#endif
