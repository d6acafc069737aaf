/* costs.h -- the external clients' costs, read off the loop. Each health interval the loop
 * lists the sessions' process ids and hands them to a connector worker, which reads
 * /proc/PID/smaps_rollup and /proc/PID/stat for each (x11_proc_cost); the loop takes the finished
 * figures into its next health record: memory as of that read, CPU over the time between the
 * last two reads. So the loop never waits on /proc (smaps_rollup walks the whole address space
 * of a process under its mmap lock). A read still under way when the next is due is not doubled:
 * that interval is skipped. The same worker reads the room the agent has (capacity.h), from
 * which the records also carry the capacity the costs allow.
 *
 * Loop thread for every call; the worker only touches the list it was given. */
#ifndef SESSMAX_X11_COSTS_H
#define SESSMAX_X11_COSTS_H

#include <stdint.h>
#include <sys/types.h>

#include "common/results.h"

struct connector;
struct x11_costs;

/* agent_kb_per_session: the agent's own memory per external session (its screen copies), added
 * to the measured cost for the capacity. NULL when out of memory. */
struct x11_costs *x11_costs_new(struct connector *conn, uint64_t agent_kb_per_session);
/* Starts a new list of processes to read: 1, or 0 while the previous read is under way. */
int x11_costs_begin(struct x11_costs *c);
/* Adds a session's processes (0: that process is not running) to the list begun. */
void x11_costs_add(struct x11_costs *c, uint32_t session, pid_t client, pid_t xserver);
/* Hands the list to a worker. */
void x11_costs_submit(struct x11_costs *c);
/* Fills h->ext from the latest read finished since the last call (leaves it at zero
 * when none finished), ext_capacity with the sessions the agent can carry (capacity.h: the
 * largest memory per session seen, the CPU per session averaged over the run plus the agent's own
 * CPU per session from h->cpu_permille, against the room read with the costs). */
void x11_costs_take(struct x11_costs *c, struct rec_health *h);
/* Only after connector_free (no worker holds the list). Accepts NULL. */
void x11_costs_free(struct x11_costs *c);

#endif
