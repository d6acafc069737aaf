/* costs.c -- the external clients' costs read on a connector worker (costs.h). */
#include "agent/x11/costs.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "agent/engine/connector.h"
#include "agent/x11/capacity.h"
#include "agent/x11/proc.h"
#include "common/clock.h"

struct entry {
    uint32_t session;
    pid_t pid[2];                       /* client, X server; 0: not running */
    struct x11_cost cost[2];
    int read;                           /* one of them was read */
};

struct x11_costs {
    struct connector *conn;
    struct connector_job job;
    int busy;                           /* job queued or running: list is the worker's */
    struct entry *list, *prev;          /* being read; the last read (CPU deltas) */
    size_t n, cap, nprev, capprev;
    uint64_t t_read_us, t_prev_us;      /* monotonic time of this read, of the last */
    struct rec_ext_costs ready;         /* the last read, not yet taken */
    int have_ready;
    struct x11_capacity_room room;      /* read by the worker with the costs */
    int room_ok;
    /* for the capacity: CPU of sessions seen in two reads over their time, the agent's CPU over
     * the sessions it carried, the largest memory per session seen */
    uint64_t cpu_us_sum, session_us_sum, agent_permille_sum, agent_sessions_sum, mem_kb_max;
    uint64_t agent_kb;                  /* the agent's own memory per session */
    uint32_t announced;                 /* capacity last put in a record; 0: none yet */
};

static void work(struct connector_job *j)
{
    struct x11_costs *c = (struct x11_costs *)((char *)j - offsetof(struct x11_costs, job));
    for (size_t i = 0; i < c->n; i++) {
        struct entry *e = &c->list[i];
        for (int k = 0; k < 2; k++)
            if (e->pid[k] && x11_proc_cost(e->pid[k], &e->cost[k]) == 0)
                e->read = 1;
    }
    uint64_t held = 0;
    for (size_t i = 0; i < c->n; i++)
        held += c->list[i].cost[0].pss_kb + c->list[i].cost[1].pss_kb;
    c->room_ok = x11_capacity_room_read(held, &c->room) == 0;
    c->t_read_us = clock_now_us();
}

/* The session's CPU at the last read; 0 and *seen = 0 for a session new in this read. */
static uint64_t prev_cpu(const struct x11_costs *c, uint32_t session, int *seen)
{
    *seen = 0;
    for (size_t i = 0; i < c->nprev; i++)
        if (c->prev[i].session == session && c->prev[i].read) {
            *seen = 1;
            return c->prev[i].cost[0].cpu_us + c->prev[i].cost[1].cpu_us;
        }
    return 0;                           /* new: everything it used so far */
}

/* Loop thread: sums the read, then keeps it as the base of the next CPU deltas. */
static void done(struct connector_job *j)
{
    struct x11_costs *c = (struct x11_costs *)((char *)j - offsetof(struct x11_costs, job));
    struct rec_ext_costs *x = &c->ready;
    uint64_t cpu = 0;
    memset(x, 0, sizeof *x);
    for (size_t i = 0; i < c->n; i++) {
        const struct entry *e = &c->list[i];
        if (!e->read)
            continue;
        x->sessions++;
        x->client_rss_kb += e->cost[0].rss_kb;
        x->client_pss_kb += e->cost[0].pss_kb;
        x->xserver_rss_kb += e->cost[1].rss_kb;
        x->xserver_pss_kb += e->cost[1].pss_kb;
        int seen;
        uint64_t now = e->cost[0].cpu_us + e->cost[1].cpu_us, before = prev_cpu(c, e->session, &seen);
        uint64_t used = now > before ? now - before : 0;
        cpu += used;
        if (seen && c->t_read_us > c->t_prev_us) {  /* a start's burst stays out of the average */
            c->cpu_us_sum += used;
            c->session_us_sum += c->t_read_us - c->t_prev_us;
        }
    }
    if (c->t_read_us > c->t_prev_us)
        x->cpu_permille = (uint32_t)(cpu * 1000 / (c->t_read_us - c->t_prev_us));
    if (x->sessions) {
        uint64_t per = (x->client_pss_kb + x->xserver_pss_kb) / x->sessions;
        c->mem_kb_max = per > c->mem_kb_max ? per : c->mem_kb_max;
    }
    c->have_ready = 1;
    struct entry *t = c->prev;          /* this read becomes the last one */
    size_t tc = c->capprev;
    c->prev = c->list, c->nprev = c->n, c->capprev = c->cap;
    c->list = t, c->n = 0, c->cap = tc;
    c->t_prev_us = c->t_read_us;
    c->busy = 0;
}

struct x11_costs *x11_costs_new(struct connector *conn, uint64_t agent_kb_per_session)
{
    struct x11_costs *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->conn = conn;
    c->agent_kb = agent_kb_per_session;
    c->job.work = work;
    c->job.done = done;
    c->t_prev_us = clock_now_us();
    return c;
}

int x11_costs_begin(struct x11_costs *c)
{
    if (c->busy)
        return 0;
    c->n = 0;
    return 1;
}

void x11_costs_add(struct x11_costs *c, uint32_t session, pid_t client, pid_t xserver)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        struct entry *l = realloc(c->list, cap * sizeof *l);
        if (!l)
            return;                     /* that session is left out of this read */
        c->list = l;
        c->cap = cap;
    }
    c->list[c->n++] = (struct entry){ .session = session, .pid = { client, xserver } };
}

void x11_costs_submit(struct x11_costs *c)
{
    c->busy = 1;
    connector_submit(c->conn, &c->job);
}

/* The capacity from the costs so far (capacity.h) into h; announced again only when it moved
 * by more than a tenth, so that the controller is not told of every small change. */
static void capacity(struct x11_costs *c, struct rec_health *h)
{
    c->agent_permille_sum += h->cpu_permille;
    c->agent_sessions_sum += h->ext.sessions;
    struct x11_capacity_cost cost = { .mem_kb = c->mem_kb_max ? c->mem_kb_max + c->agent_kb : 0 };
    if (c->session_us_sum)
        cost.cpu_permille = (uint32_t)(c->cpu_us_sum * 1000 / c->session_us_sum +
                                       c->agent_permille_sum / c->agent_sessions_sum);
    uint32_t n = c->room_ok ? x11_capacity_derive(&cost, &c->room) : 0;
    if (n && (!c->announced || (uint64_t)(n > c->announced ? n - c->announced : c->announced - n) * 10 >
                                   c->announced))
        c->announced = n;
    h->ext_capacity = c->announced;
}

void x11_costs_take(struct x11_costs *c, struct rec_health *h)
{
    if (!c->have_ready)
        return;
    h->ext = c->ready;
    c->have_ready = 0;
    if (h->ext.sessions)
        capacity(c, h);
}

void x11_costs_free(struct x11_costs *c)
{
    if (!c)
        return;
    free(c->list);
    free(c->prev);
    free(c);
}
