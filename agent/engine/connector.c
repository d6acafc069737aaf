/* connector.c -- connect thread pool + watchdog (see connector.h). One mutex guards the queues
 * and every job's kick, so the watchdog can never kick an attempt its worker has
 * already detached. */
#include "agent/engine/connector.h"

#include <errno.h>
#include <event2/event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "agent/engine/looplag.h"
#include "common/clock.h"
#include "common/log.h"

enum { JOB_QUEUED = 1, JOB_RUNNING, JOB_FINISHED };

#define WATCHDOG_TICK_MS 200
#define WATCHDOG_REKICK_US 1000000

struct connector {
    pthread_mutex_t mu;
    pthread_cond_t work_cv, dog_cv;
    struct connector_job *queue_head, *queue_tail;  /* JOB_QUEUED */
    struct connector_job **running;                 /* one slot per worker */
    struct connector_job *done_head;                /* JOB_FINISHED, done() pending */
    struct connector_job *ready_head, *ready_tail;  /* loop thread only: taken from done_head,
                                                       oldest first, done() not yet run */
    unsigned nthreads, nrunning_threads, pending;
    pthread_t *threads, dog;
    int dog_started;
    int stop;
    int efd;
    struct event *ev, *more_ev;
};

struct worker_arg {
    struct connector *c;
    unsigned slot;
};

/* Watchdog: abort the attempt (the job owner's kick). Called with c->mu held. */
static void kick(struct connector_job *j)
{
    j->kick(j->target);
}

static void *dog_main(void *arg)
{
    struct connector *c = arg;
    pthread_mutex_lock(&c->mu);
    while (!c->stop) {
        uint64_t now = clock_now_us();
        for (unsigned i = 0; i < c->nthreads; i++) {
            struct connector_job *j = c->running[i];
            if (!j || !j->kick || now < j->next_kick_us)
                continue;
            if (!j->abort_requested && now < j->deadline_us)
                continue;
            if (!j->abort_requested && !j->watchdog_fired) {
                j->watchdog_fired = 1;
                log_debug("connect watchdog fired after %u ms", j->timeout_ms);
            }
            j->next_kick_us = now + WATCHDOG_REKICK_US;
            kick(j);
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += WATCHDOG_TICK_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&c->dog_cv, &c->mu, &ts);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* Connect and teardown work (TLS handshakes, FreeRDP's connect sequence, freeing instances) is
 * CPU-heavy in bursts of milliseconds. When the agent runs real-time (SCHED_RR/FIFO, as the
 * benches run it), a worker at the loop thread's own priority keeps a woken loop waiting on the
 * same CPU for whole bursts, behind every worker queued ahead of it, and every session's timer
 * reads the wait. So workers (and the threads FreeRDP starts from them, which inherit it) run one
 * real-time priority below the loop. Under normal scheduling they stay as they are (the kernel's
 * wake-up preemption already favours the loop; a lower weight would slow logons on a loaded
 * machine). Best effort: a refusal leaves the worker as it was. */
static void below_loop(void)
{
    int policy;
    struct sched_param sp;
    if (pthread_getschedparam(pthread_self(), &policy, &sp) != 0 ||
        (policy != SCHED_RR && policy != SCHED_FIFO))
        return;
    if (sp.sched_priority > sched_get_priority_min(policy))
        sp.sched_priority--;
    else
        policy = SCHED_OTHER, sp.sched_priority = 0;
    pthread_setschedparam(pthread_self(), policy, &sp);
}

static void *worker_main(void *arg)
{
    struct worker_arg *wa = arg;
    struct connector *c = wa->c;
    unsigned slot = wa->slot;
    free(wa);
    below_loop();
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->stop && !c->queue_head)
            pthread_cond_wait(&c->work_cv, &c->mu);
        if (c->stop)
            break;
        struct connector_job *j = c->queue_head;
        c->queue_head = j->next;
        if (!c->queue_head)
            c->queue_tail = NULL;
        j->next = NULL;
        j->state = JOB_RUNNING;
        j->started_us = clock_now_us();
        j->deadline_us = j->started_us + (uint64_t)j->timeout_ms * 1000;
        j->next_kick_us = 0;
        j->watchdog_fired = 0;
        j->abort_requested = 0;
        c->running[slot] = j;
        pthread_mutex_unlock(&c->mu);

        j->work(j);

        pthread_mutex_lock(&c->mu);
        c->running[slot] = NULL;
        j->state = JOB_FINISHED;
        j->next = c->done_head;
        c->done_head = j;
        uint64_t one = 1;
        if (write(c->efd, &one, sizeof one) < 0 && errno != EAGAIN)
            log_error("connector: eventfd write: %s", strerror(errno));
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* Loop thread: runs done() of the finished jobs, oldest first, for at most one pass budget; what
 * is left runs in the next pass (more_ev, a zero timeout, comes after the events already due):
 * at 1,000 sessions a wave of finished logons or teardowns held the loop 30-60 ms in one pass,
 * though each callback was short. */
static void run_ready(struct connector *c)
{
    uint64_t end = clock_now_us() + LOOP_PASS_BUDGET_US;
    while (c->ready_head) {
        struct connector_job *j = c->ready_head;
        c->ready_head = j->next;
        if (!c->ready_head)
            c->ready_tail = NULL;
        j->next = NULL;
        j->state = 0;
        c->pending--;
        j->done(j);
        if (c->ready_head && clock_now_us() >= end) {
            static const struct timeval now = { 0, 0 };
            evtimer_add(c->more_ev, &now);
            return;
        }
    }
}

static void more_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    run_ready(arg);
}

static void done_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)what;
    struct connector *c = arg;
    uint64_t v;
    if (read(fd, &v, sizeof v) < 0 && errno != EAGAIN)
        log_error("connector: eventfd read: %s", strerror(errno));
    pthread_mutex_lock(&c->mu);
    struct connector_job *list = c->done_head, *rev = NULL, *tail = NULL;
    c->done_head = NULL;
    pthread_mutex_unlock(&c->mu);
    while (list) {   /* done_head is newest first */
        struct connector_job *n = list->next;
        tail = tail ? tail : list;
        list->next = rev;
        rev = list;
        list = n;
    }
    if (rev) {
        if (c->ready_tail)
            c->ready_tail->next = rev;
        else
            c->ready_head = rev;
        c->ready_tail = tail;
    }
    if (!evtimer_pending(c->more_ev, NULL))
        run_ready(c);
}

struct connector *connector_new(struct event_base *base, unsigned threads)
{
    struct connector *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->efd = -1;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->work_cv, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&c->dog_cv, &ca);
    pthread_condattr_destroy(&ca);
    c->nthreads = threads ? threads : 1;
    c->running = calloc(c->nthreads, sizeof *c->running);
    c->threads = calloc(c->nthreads, sizeof *c->threads);
    c->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (!c->running || !c->threads || c->efd < 0)
        goto fail;
    c->ev = event_new(base, c->efd, EV_READ | EV_PERSIST, done_cb, c);
    c->more_ev = evtimer_new(base, more_cb, c);
    if (!c->ev || !c->more_ev || event_add(c->ev, NULL) != 0)
        goto fail;
    if (pthread_create(&c->dog, NULL, dog_main, c) != 0)
        goto fail;
    c->dog_started = 1;
    for (unsigned i = 0; i < c->nthreads; i++) {
        struct worker_arg *wa = malloc(sizeof *wa);
        if (!wa)
            goto fail;
        *wa = (struct worker_arg){ c, i };
        if (pthread_create(&c->threads[i], NULL, worker_main, wa) != 0) {
            free(wa);
            goto fail;
        }
        c->nrunning_threads++;
    }
    return c;
fail:
    log_error("connector: cannot start %u connect threads: %s", c->nthreads, strerror(errno));
    connector_free(c);
    return NULL;
}

void connector_submit(struct connector *c, struct connector_job *j)
{
    pthread_mutex_lock(&c->mu);
    j->next = NULL;
    j->state = JOB_QUEUED;
    j->kick = NULL;
    if (c->queue_tail)
        c->queue_tail->next = j;
    else
        c->queue_head = j;
    c->queue_tail = j;
    c->pending++;
    pthread_cond_signal(&c->work_cv);
    pthread_mutex_unlock(&c->mu);
}

int connector_cancel(struct connector *c, struct connector_job *j)
{
    int removed = 0;
    pthread_mutex_lock(&c->mu);
    if (j->state == JOB_QUEUED) {
        struct connector_job **pp = &c->queue_head, *prev = NULL;
        while (*pp && *pp != j) {
            prev = *pp;
            pp = &(*pp)->next;
        }
        if (*pp) {
            *pp = j->next;
            if (c->queue_tail == j)
                c->queue_tail = prev;
            j->next = NULL;
            j->state = 0;
            c->pending--;
            removed = 1;
        }
    }
    pthread_mutex_unlock(&c->mu);
    return removed;
}

void connector_abort(struct connector *c, struct connector_job *j)
{
    pthread_mutex_lock(&c->mu);
    if (j->state == JOB_RUNNING) {
        j->abort_requested = 1;      /* due now, but not a watchdog expiry */
        j->next_kick_us = 0;
        if (j->kick) {
            j->next_kick_us = clock_now_us() + WATCHDOG_REKICK_US;
            kick(j);
        }
        pthread_cond_signal(&c->dog_cv);
    }
    pthread_mutex_unlock(&c->mu);
}

void connector_attach(struct connector *c, struct connector_job *j, void (*kick)(void *target),
                      void *target)
{
    pthread_mutex_lock(&c->mu);
    j->kick = kick;
    j->target = target;
    pthread_mutex_unlock(&c->mu);
}

int connector_detach(struct connector *c, struct connector_job *j)
{
    pthread_mutex_lock(&c->mu);
    j->kick = NULL;
    j->target = NULL;
    int fired = j->watchdog_fired;
    pthread_mutex_unlock(&c->mu);
    return fired;
}

unsigned connector_pending(const struct connector *c)
{
    return c->pending;
}

/* After the threads are gone: complete must_finish jobs, forget the others. */
static void finish_leftovers(struct connector *c)
{
    struct connector_job *lists[3] = { c->queue_head, c->ready_head, c->done_head };
    c->queue_head = c->queue_tail = c->done_head = c->ready_head = c->ready_tail = NULL;
    for (int l = 0; l < 3; l++) {
        for (struct connector_job *j = lists[l], *n; j; j = n) {
            n = j->next;
            j->next = NULL;
            j->state = 0;
            if (!j->must_finish)
                continue;
            if (l == 0)
                j->work(j);
            j->done(j);
        }
    }
}

void connector_free(struct connector *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    c->stop = 1;
    for (unsigned i = 0; c->running && i < c->nthreads; i++)
        if (c->running[i] && c->running[i]->kick)
            kick(c->running[i]);
    pthread_cond_broadcast(&c->work_cv);
    pthread_cond_broadcast(&c->dog_cv);
    pthread_mutex_unlock(&c->mu);
    for (unsigned i = 0; i < c->nrunning_threads; i++)
        pthread_join(c->threads[i], NULL);
    if (c->dog_started)
        pthread_join(c->dog, NULL);
    finish_leftovers(c);
    if (c->ev)
        event_free(c->ev);
    if (c->more_ev)
        event_free(c->more_ev);
    if (c->efd >= 0)
        close(c->efd);
    pthread_cond_destroy(&c->work_cv);
    pthread_cond_destroy(&c->dog_cv);
    pthread_mutex_destroy(&c->mu);
    free(c->running);
    free(c->threads);
    free(c);
}
