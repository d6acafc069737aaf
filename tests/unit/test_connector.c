/* test_connector.c -- the connect thread pool on a real event_base: every job's work() runs on a
 * worker and its done() on the loop, oldest first; a wave of finished jobs is handed back over
 * several passes of the loop (one pass budget each), so an event due meanwhile runs in between;
 * must_finish jobs still complete when the pool is freed. */
#include <event2/event.h>
#include <pthread.h>
#include <time.h>

#include "agent/engine/connector.h"
#include "agent/engine/looplag.h"
#include "common/clock.h"
#include "unit.h"

#define NJOBS 24
#define DONE_SPIN_US 2000   /* each done() holds the loop this long: 24 of them are 12 budgets */

struct tjob {
    struct connector_job job;
    int id;
};

static pthread_mutex_t work_mu = PTHREAD_MUTEX_INITIALIZER;
static int worked, done_order[NJOBS], ndone, done_in_pass[NJOBS], pass, spin;

static void work(struct connector_job *j)
{
    (void)j;
    pthread_mutex_lock(&work_mu);
    worked++;
    pthread_mutex_unlock(&work_mu);
}

static void done(struct connector_job *j)
{
    struct tjob *t = (struct tjob *)j;
    uint64_t end = clock_now_us() + (spin ? DONE_SPIN_US : 0);
    while (clock_now_us() < end)
        ;
    done_in_pass[ndone] = pass;
    done_order[ndone++] = t->id;
}

static int others_ran, others_ran_at;

static void other_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    others_ran++;
    others_ran_at = ndone;
}

static void reset(int spin_done)
{
    worked = ndone = pass = others_ran = others_ran_at = 0;
    spin = spin_done;
}

static void submit_all(struct connector *c, struct tjob *jobs, int must_finish)
{
    for (int i = 0; i < NJOBS; i++) {
        jobs[i] = (struct tjob){ .job = { .work = work, .done = done, .timeout_ms = 10000,
                                           .must_finish = must_finish }, .id = i };
        connector_submit(c, &jobs[i].job);
    }
}

static void wait_worked(int n)
{
    for (int i = 0; i < 5000; i++) {
        pthread_mutex_lock(&work_mu);
        int w = worked;
        pthread_mutex_unlock(&work_mu);
        if (w >= n)
            return;
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    }
}

static struct tjob jobs[NJOBS];

/* A pool of `threads` workers on a new base, every job submitted and worked; with settle, also
 * every finished job queued for the loop. */
static struct connector *started(struct event_base *base, unsigned threads, int must_finish, int spin_done,
                                 int settle)
{
    struct connector *c = connector_new(base, threads);
    reset(spin_done);
    submit_all(c, jobs, must_finish);
    wait_worked(NJOBS);
    if (settle)
        nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
    return c;
}

/** All jobs finish, done() runs once each on the loop, and the pending count returns to zero. */
static void test_connector__all_done(void)
{
    struct event_base *base = event_base_new();
    struct connector *c = started(base, 4, 0, 0, 0);
    CU_ASSERT_EQUAL(connector_pending(c), NJOBS);   /* done() has not run: the loop has not */
    for (int i = 0; i < 1000 && ndone < NJOBS; i++)
        event_base_loop(base, EVLOOP_ONCE);
    CU_ASSERT_EQUAL(ndone, NJOBS);
    CU_ASSERT_EQUAL(connector_pending(c), 0);
    connector_free(c);
    event_base_free(base);
}

/** One worker finishes the jobs in order; their done() calls run in that order, but not all in
 * one pass: each pass stops after one budget, and a timer due at once runs before the wave is
 * over. */
static void test_connector__budgeted_passes(void)
{
    struct event_base *base = event_base_new();
    struct connector *c = started(base, 1, 0, 1, 1);
    struct event *other = evtimer_new(base, other_cb, NULL);
    static const struct timeval now = { 0, 0 };
    for (pass = 0; pass < 1000 && ndone < NJOBS; pass++) {
        if (pass == 1)
            evtimer_add(other, &now);
        event_base_loop(base, EVLOOP_ONCE);
    }
    CU_ASSERT_EQUAL(ndone, NJOBS);
    for (int i = 0; i < ndone; i++)
        CU_ASSERT_EQUAL(done_order[i], i);
    CU_ASSERT(done_in_pass[NJOBS - 1] > done_in_pass[0]);       /* more than one pass */
    int first = 0;
    while (first < ndone && done_in_pass[first] == done_in_pass[0])
        first++;
    CU_ASSERT(first <= LOOP_PASS_BUDGET_US / DONE_SPIN_US + 1);
    CU_ASSERT_EQUAL(others_ran, 1);
    CU_ASSERT(others_ran_at < NJOBS);                            /* in the middle of the wave */
    event_free(other);
    connector_free(c);
    event_base_free(base);
}

/** Freeing the pool with finished jobs not yet handed back still runs their done() when they
 * must finish. */
static void test_connector__free_finishes(void)
{
    struct event_base *base = event_base_new();
    struct connector *c = started(base, 2, 1, 1, 1);
    event_base_loop(base, EVLOOP_ONCE);                          /* part of the wave only */
    CU_ASSERT(ndone < NJOBS);
    spin = 0;
    connector_free(c);
    CU_ASSERT_EQUAL(ndone, NJOBS);
    event_base_free(base);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_connector__all_done), UNIT_TEST(test_connector__budgeted_passes),
        UNIT_TEST(test_connector__free_finishes), UNIT_END,
    };
    return unit_run("connector", tests, NULL, NULL);
}
