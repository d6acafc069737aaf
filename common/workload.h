/* workload.h -- a workload (what one simulated user does) parsed into plain structs.
 *
 * The YAML language is described in docs/workload-language.md. Loading validates everything
 * (keys, types, region names, key names, durations, measure members) and reports the first
 * problem as "file:line:col: message". The result is immutable and may be shared by any number
 * of sessions and threads. The agent's interpreter runs it, simhost --predict walks it
 * (workload_walk) and the controller's `validate` checks plans with it. */
#ifndef SESSMAX_WORKLOAD_H
#define SESSMAX_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"
#include "common/ydoc.h"

/* The structs, and the plain lookups on them (workload_model.h). */
#include "common/workload_model.h"

#define WORKLOAD_ERR_LEN 512

/* Loads and validates a workload file. Returns NULL with err = "file:line:col: message" (or
 * "file: message" for I/O problems). Free with workload_free(). */
struct workload *workload_load_file(const char *path, char *err, size_t errlen);
/* The same from memory; `name` stands for the file in messages. */
struct workload *workload_load_string(const char *name, const char *text, size_t len,
                                      char *err, size_t errlen);
void workload_free(struct workload *wl);

enum workload_part { WORKLOAD_PART_LOOP, WORKLOAD_PART_LOGOFF };

/* Called for each step in execution order. `timer` names the enclosing timer (NULL outside
 * one). Return non-zero to stop the walk. */
typedef int (*workload_visit_fn)(void *ctx, const struct workload_step *step, const char *timer);

/* Walks one part flattened: a repeat is never visited itself, its steps are visited `count`
 * times; a timer is visited (kind TIMER, timer = its name) and then its steps. So a walk sees
 * every KEY/TYPE/CLICK/MOVE/THINK/WAIT in the order one pass of the loop runs them. Returns
 * what the visitor returned to stop it, or 0. Costs workload_flat_steps() visits: nested
 * repeats multiply (three of 100,000 are 10^15), so check that first on a workload from outside. */
int workload_walk(const struct workload *wl, enum workload_part part, workload_visit_fn fn, void *ctx);

/* How many visits workload_walk() makes over one part, computed in time linear in the
 * workload's size; saturates at UINT64_MAX. */
uint64_t workload_flat_steps(const struct workload *wl, enum workload_part part);

/* Expands "{user}" in typed text into out (always NUL-terminated). Returns the full length the
 * expansion needs (like snprintf). */
size_t workload_expand(const char *text, const char *user, char *out, size_t outlen);

#endif
